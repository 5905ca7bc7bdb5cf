"""The diff view renders core.diff results: the changed word is highlighted, panes stay aligned."""

from __future__ import annotations

import time
from pathlib import Path

import docgen
import owncorpus
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette, QTextBlock

from desktop_dedup.core.diff import diff_texts
from desktop_dedup.core.service import DedupService
from desktop_dedup.gui.diff_view import DiffView


def highlighted_fragments(block: QTextBlock, colour) -> list[str]:
    found = []
    it = block.begin()
    while not it.atEnd():
        fragment = it.fragment()
        if fragment.charFormat().background().color() == colour:
            found.append(fragment.text())
        it += 1
    return found


def all_highlighted(pane, colour) -> list[str]:
    result = []
    block = pane.document().firstBlock()
    while block.isValid():
        result.extend(highlighted_fragments(block, colour))
        block = block.next()
    return result


@pytest.fixture
def view(qtbot):
    widget = DiffView()
    qtbot.addWidget(widget)
    widget.resize(1000, 600)
    widget.show()
    return widget


def test_changed_english_word_is_highlighted_on_both_sides(view):
    a = docgen.SAMPLE_EN
    words = a.split(" ")
    target = next(i for i, w in enumerate(words) if w.isalpha() and len(w) > 5 and i > 40)
    original = words[target]
    words[target] = "zeppelin"
    b = " ".join(words)
    view.show_result(diff_texts(a, b), "/a.txt", "/b.txt")

    assert all_highlighted(view.left_pane, view.left_pane.colours.word) == [original]
    assert all_highlighted(view.right_pane, view.right_pane.colours.word) == ["zeppelin"]
    assert view.current_change == 0
    # The current change is the block holding the word, in both panes.
    row = view.result.change_rows[0]
    assert original in view.left_pane.document().findBlockByNumber(row).text()
    assert "zeppelin" in view.right_pane.document().findBlockByNumber(row).text()
    assert view.left_pane.textCursor().blockNumber() == row


def test_changed_chinese_word_is_highlighted_as_a_word(view):
    a = docgen.SAMPLE_ZH
    assert "城市" in a
    b = a.replace("城市", "乡村", 1)
    view.show_result(diff_texts(a, b), "/甲.txt", "/乙.txt")
    assert all_highlighted(view.left_pane, view.left_pane.colours.word) == ["城市"]
    assert all_highlighted(view.right_pane, view.right_pane.colours.word) == ["乡村"]
    assert "%" in view.similarity_label.text()


def test_rows_align_block_for_block_with_inserted_lines(view):
    a = "one\ntwo\nthree\n"
    b = "one\ninserted line\nanother\ntwo\nthree\n"
    result = diff_texts(a, b)
    view.show_result(result, "a", "b")
    left, right = view.left_pane.document(), view.right_pane.document()
    assert left.blockCount() == right.blockCount() == len(result.rows)
    for i, row in enumerate(result.rows):
        if row.a_lineno is None:
            assert left.findBlockByNumber(i).text() == ""
    assert right.findBlockByNumber(1).text() == "inserted line"


def test_next_previous_change_navigation(view):
    lines_a = [f"line number {i} with some words" for i in range(200)]
    lines_b = list(lines_a)
    for i in (20, 100, 180):
        lines_b[i] = lines_b[i].replace("some", "other")
    view.show_result(diff_texts("\n".join(lines_a), "\n".join(lines_b)), "a", "b")
    assert len(view.result.change_rows) == 3
    assert view.current_change == 0
    view.next_button.click()
    view.next_button.click()
    assert view.current_change == 2
    assert not view.next_button.isEnabled()
    assert view.left_pane.textCursor().blockNumber() == view.result.change_rows[2]
    view.previous_change()
    assert view.current_change == 1
    assert view.change_label.text() == "Change 2 of 3"


def test_scrolling_one_pane_scrolls_the_other_to_the_facing_block(view, qtbot):
    lines_a = [f"paragraph {i} " + "word " * 30 for i in range(400)]
    lines_b = list(lines_a)
    lines_b.insert(50, "an extra paragraph only on the right")
    view.show_result(diff_texts("\n".join(lines_a), "\n".join(lines_b)), "a", "b")
    bar = view.left_pane.verticalScrollBar()
    bar.setValue(bar.maximum() // 2)
    qtbot.waitUntil(
        lambda: (
            view.right_pane.firstVisibleBlock().blockNumber()
            == view.left_pane.firstVisibleBlock().blockNumber()
        )
    )
    assert view.left_pane.firstVisibleBlock().blockNumber() > 50


def test_stepping_to_a_change_leaves_the_panes_facing_each_other(view, monkeypatch):
    """Each pane centres the change on its own; when the two came out a line apart (seen in
    a Chinese window at 1920x1080, the labels laid out between the two), the right pane still
    ends facing the left one block for block."""
    lines_a = [f"line number {i} with some words" for i in range(600)]
    lines_b = list(lines_a)
    for i in (100, 300, 500):
        lines_b[i] = lines_b[i].replace("some", "other")
    right = view.right_pane
    real_center = right.centerCursor

    def center_a_line_lower() -> None:
        real_center()
        right.verticalScrollBar().setValue(right.verticalScrollBar().value() + 1)

    monkeypatch.setattr(right, "centerCursor", center_a_line_lower)
    view.show_result(diff_texts("\n".join(lines_a), "\n".join(lines_b)), "a", "b")
    for _ in range(3):
        top = view.left_pane.firstVisibleBlock().blockNumber()
        assert top > 0
        assert right.firstVisibleBlock().blockNumber() == top
        view.next_change()


def test_identical_texts_show_no_changes(view):
    view.show_result(diff_texts("same\ntext\n", "same\ntext\n"), "a", "b")
    assert view.result.change_rows == []
    assert view.change_label.text() == "No changes"
    assert not view.next_button.isEnabled()
    assert all_highlighted(view.left_pane, view.left_pane.colours.word) == []


def test_one_megabyte_text_opens_quickly(view):
    paragraph = docgen.SAMPLE_ZH.replace("\n", "") + "\n"
    a = paragraph * (1_000_000 // len(paragraph.encode()) + 1)
    lines = a.splitlines()
    for i in range(0, len(lines), 97):
        lines[i] = lines[i].replace("城市", "乡村", 1)
    b = "\n".join(lines)
    start = time.perf_counter()
    view.show_result(diff_texts(a, b), "a", "b")
    elapsed = time.perf_counter() - start
    assert view.left_pane.document().blockCount() >= len(lines)
    assert len(view.result.change_rows) == len(range(0, len(lines), 97))
    print(f"1 MB diff + render: {elapsed:.3f} s")
    # The product target is < 1 s (measured in tests/bench/bench_gui.py); generous here for CI.
    assert elapsed < 5.0, elapsed


def painted(pane) -> list[tuple[int, str]]:
    """(block number, text) of every block with a line background or any painted character."""
    found = []
    block = pane.document().firstBlock()
    while block.isValid():
        line = block.blockFormat().background().style() != Qt.BrushStyle.NoBrush
        words = bool(
            [
                f
                for f in _fragments(block)
                if f.charFormat().background().style() != Qt.BrushStyle.NoBrush
            ]
        )
        if line or words:
            found.append((block.blockNumber(), block.text()))
        block = block.next()
    return found


def _fragments(block: QTextBlock):
    it = block.begin()
    while not it.atEnd():
        yield it.fragment()
        it += 1


def test_highlighting_does_not_leak_into_the_next_comparison(view):
    # Issue 9: after a pair with changes, later pairs showed their whole text highlighted while
    # the header said "No changes"; a diff with one change painted every other line.
    lines = [f"line {i} of a document about rivers and towns" for i in range(60)]
    changed = list(lines)
    # The change starts the line: the cursor then sits on painted text when the next diff loads.
    changed[30] = "row 30 of a document about mountains and towns"
    view.show_result(diff_texts("\n".join(lines), "\n".join(changed)), "a", "b")
    assert painted(view.left_pane) and painted(view.right_pane)
    view.next_change()

    same = "\n".join(f"another text, line {i}" for i in range(40))
    view.show_result(diff_texts(same, same), "c", "d")
    assert view.change_label.text() == "No changes"
    assert painted(view.left_pane) == []
    assert painted(view.right_pane) == []

    one = same.replace("line 7", "row 7")
    view.show_result(diff_texts(same, one), "c", "e")
    # Only the changed row is painted, in both panes.
    assert [n for n, _ in painted(view.left_pane)] == [7]
    assert [n for n, _ in painted(view.right_pane)] == [7]


def test_a_long_sequence_of_comparisons_paints_only_each_ones_changes(view):
    base = [f"sentence {i} in a long report on harbour cranes" for i in range(30)]
    for k in range(12):
        other = list(base)
        if k % 3:
            other[k] = other[k].replace("sentence", "clause")
        view.show_result(diff_texts("\n".join(base), "\n".join(other)), "a", "b")
        if k % 3:
            view.next_change()
            view.previous_change()
        expected = [k] if k % 3 else []
        assert [n for n, _ in painted(view.left_pane)] == expected, k
        assert [n for n, _ in painted(view.right_pane)] == expected, k


def _luminance(colour: QColor) -> float:
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return (
        0.2126 * channel(colour.redF())
        + 0.7152 * channel(colour.greenF())
        + 0.0722 * channel(colour.blueF())
    )


def contrast(one: QColor, two: QColor) -> float:
    """WCAG 2 contrast ratio."""
    hi, lo = sorted((_luminance(one), _luminance(two)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def dark_palette() -> QPalette:
    palette = QPalette()
    for role, colour in (
        (QPalette.ColorRole.Window, "#2b2b2b"),
        (QPalette.ColorRole.Base, "#1e1e1e"),
        (QPalette.ColorRole.Text, "#e6e6e6"),
        (QPalette.ColorRole.WindowText, "#e6e6e6"),
        (QPalette.ColorRole.Highlight, "#3d6fb4"),
    ):
        palette.setColor(role, QColor(colour))
    return palette


def painted_backgrounds(pane) -> list[QColor]:
    colours = []
    block = pane.document().firstBlock()
    while block.isValid():
        if block.blockFormat().background().style() != Qt.BrushStyle.NoBrush:
            colours.append(block.blockFormat().background().color())
        for f in _fragments(block):
            if f.charFormat().background().style() != Qt.BrushStyle.NoBrush:
                colours.append(f.charFormat().background().color())
        block = block.next()
    return colours


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_changes_stay_readable_in_the_palettes_colours(view, theme):
    # Issue 9: under a dark palette the changed lines were almost invisible (fixed light
    # backgrounds under light palette text).
    if theme == "dark":
        view.setPalette(dark_palette())
    a = "one two three\nfour five six\nseven\n"
    b = "one 2 three\nfour five six\nseven\neight nine\n"
    view.show_result(diff_texts(a, b), "a", "b")
    for pane in (view.left_pane, view.right_pane):
        base = pane.palette().color(QPalette.ColorRole.Base)
        text = pane.palette().color(QPalette.ColorRole.Text)
        backgrounds = painted_backgrounds(pane)
        assert backgrounds
        for colour in backgrounds:
            # Text stays readable on every highlight, and the highlight is visible on the base.
            assert contrast(text, colour) >= 4.5, (theme, colour.name())
            assert colour != base
            # A dark theme keeps dark backgrounds (no light patches under light text).
            assert (colour.lightnessF() < 0.5) == (theme == "dark"), colour.name()
    assert view.left_pane.colours.word != view.right_pane.colours.word


def test_palette_change_repaints_an_open_diff(view):
    view.show_result(diff_texts("alpha beta\n", "alpha gamma\n"), "a", "b")
    light_word = view.right_pane.colours.word
    assert all_highlighted(view.right_pane, light_word) == ["gamma"]
    view.setPalette(dark_palette())
    dark_word = view.right_pane.colours.word
    assert dark_word != light_word
    assert all_highlighted(view.right_pane, dark_word) == ["gamma"]
    assert all_highlighted(view.right_pane, light_word) == []


def test_changes_are_not_shown_by_colour_alone(view):
    a = "keep this line\nthe cat sat here\nremoved line\n"
    b = "keep this line\nthe dog sat here\n"
    view.show_result(diff_texts(a, b), "a", "b")

    def cued(pane) -> list[str]:
        out = []
        block = pane.document().firstBlock()
        while block.isValid():
            for f in _fragments(block):
                fmt = f.charFormat()
                if fmt.fontStrikeOut() or fmt.underlineStyle() != fmt.UnderlineStyle.NoUnderline:
                    out.append(f.text())
            block = block.next()
        return out

    assert cued(view.left_pane) == ["cat", "removed line"]
    assert cued(view.right_pane) == ["dog"]
    # A side without a line there is hatched, not just tinted.
    filler_rows = [
        k for k, row in enumerate(view.result.rows) if row.b_lineno is None and row.a_lineno
    ]
    assert filler_rows
    block = view.right_pane.document().findBlockByNumber(filler_rows[0])
    assert block.blockFormat().background().style() == Qt.BrushStyle.BDiagPattern


def test_a_blank_line_only_one_side_has_is_not_hatched(view):
    """A blank line that only one copy has (a text's between paragraphs, none in its DOCX) is
    layout, an equal row: the other side shows an empty line there, not the hatching of a
    line missing from it, and the row is no change to step to."""
    a = "first paragraph here\n\nsecond paragraph here\n\nthird one\n"
    b = "first paragraph here\nsecond paragraph here\nthird one\n"
    view.show_result(diff_texts(a, b), "a", "b")
    rows = view.result.rows
    blank = [k for k, row in enumerate(rows) if row.b_lineno is None]
    assert len(blank) == 2 and view.result.change_rows == []
    for k in blank:
        block = view.right_pane.document().findBlockByNumber(k)
        assert block.text() == ""
        assert block.blockFormat().background().style() == Qt.BrushStyle.NoBrush


def test_the_view_says_why_two_alike_files_are_zero(view, tmp_path):
    """Two different notes above one company disclaimer, in an index that holds it in twelve
    notes: the figure is 0, and beside it the view says that what they share is boilerplate,
    in full in its tooltip; two pages of one template that swapped a name say so too; a note
    and its copy with a word changed say neither."""
    disclaimer = owncorpus.DISCLAIMER["en"]
    docs = tmp_path / "docs"
    notes = [s for s in owncorpus.short_sentences(80) if s.isascii()][:12]
    for i, note in enumerate(notes):
        docgen.write_txt(docs / f"n{i}.txt", f"{note}\n\n{disclaimer}")
    docgen.write_txt(docs / "copy.txt", f"{owncorpus.one_word_changed(notes[0])}\n\n{disclaimer}")
    body = docgen.SAMPLE_EN.split()[:150]
    for name in ("svnlook", "svndumpfilter"):
        page = list(body)
        for at in (0, 60, 120):
            page[at] = name
        docgen.write_txt(docs / f"{name}.txt", " ".join(page))
    with DedupService(tmp_path / "index.sqlite") as service:
        service.add_folder(docs)
        service.scan()
        ids = {Path(r.path).name: r.id for r in service.store.grouping_rows()}
        shown = {}
        for a, b in (("n0.txt", "n1.txt"), ("svnlook.txt", "svndumpfilter.txt")):
            view.show_result(service.diff(ids[a], ids[b]), a, b)
            shown[a] = (view.similarity_label.text(), view.similarity_label.toolTip())
        view.show_result(service.diff(ids["n0.txt"], ids["copy.txt"]), "n0.txt", "copy.txt")
        same = (view.similarity_label.text(), view.similarity_label.toolTip())
    text, tip = shown["n0.txt"]
    assert "0" in text and "boilerplate" in text and "disclaimer" in tip, shown
    text, tip = shown["svnlook.txt"]
    assert "template" in text and "svnlook" in tip and "svndumpfilter" in tip, shown
    assert "(" not in same[0] and same[1] == "", same
