"""Tests for core.diff: exact reconstruction, precise highlights, similarity, the ignore option."""

from __future__ import annotations

import random
import re
import time
import unicodedata
from pathlib import Path

import jieba
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from desktop_dedup.core.diff import (
    DiffResult,
    diff_texts,
    diff_words,
    swapped_words,
    tokenize_for_diff,
)

EN_PARAGRAPH = (
    "The committee met on Tuesday to discuss the annual budget.\n"
    "Members agreed that the library needs a new roof before winter.\n"
    "\n"
    "The treasurer's report showed a small surplus, which pleased everyone.\n"
    "Next meeting: the first Monday of December.\n"
)
ZH_PARAGRAPH = (
    "我们在北京大学学习自然语言处理。\n"
    "今天天气很好，老师带学生去公园散步。\n"
    "\n"
    "这份报告讨论了中国经济的发展和社会的变化。\n"
    "下次会议安排在十二月的第一个星期一。\n"
)


def side_text(result: DiffResult, side: str) -> str:
    spans = "a_spans" if side == "a" else "b_spans"
    return "".join(text for row in result.rows for text, _tag in getattr(row, spans))


def changed_spans(result: DiffResult, side: str) -> list[str]:
    spans = "a_spans" if side == "a" else "b_spans"
    return [text for row in result.rows for text, tag in getattr(row, spans) if tag != "equal"]


def test_tokens_rebuild_text_and_split_words_punct_space():
    text = "Hello,  world! It's 2026年我们在北京大学学习。\tdon't\r\nstop"
    tokens = tokenize_for_diff(text)
    assert "".join(tokens) == text
    for expected in ("Hello", ",", "  ", "world", "!", "It's", "2026", "\t", "don't", "\r\n"):
        assert expected in tokens
    # The Chinese run is segmented exactly as jieba (no HMM) segments it.
    assert tokens[tokens.index("年") + 1 : tokens.index("。")] == jieba.lcut(
        "我们在北京大学学习", HMM=False
    )


def test_english_edit_highlights_exactly_the_edited_word():
    b = EN_PARAGRAPH.replace("new roof", "new chimney")
    result = diff_texts(EN_PARAGRAPH, b)
    assert changed_spans(result, "a") == ["roof"]
    assert changed_spans(result, "b") == ["chimney"]
    (row,) = [row for row in result.rows if row.tag != "equal"]
    assert (row.a_lineno, row.b_lineno, row.tag) == (2, 2, "replace")
    assert result.change_rows == [1]


def test_chinese_edit_highlights_exactly_the_edited_word():
    b = ZH_PARAGRAPH.replace("北京大学", "清华大学")
    result = diff_texts(ZH_PARAGRAPH, b)
    assert changed_spans(result, "a") == ["北京大学"]
    assert changed_spans(result, "b") == ["清华大学"]
    assert result.change_rows == [0]
    assert 0.9 < result.similarity < 1.0


@pytest.mark.parametrize(
    ("a", "old", "new"),
    [
        ("सत्यापन सेवा उपयोक्ता श्रेय फिर हासिल नहीं कर सकता है", "हासिल", "बदलाव"),
        ("এই প্রোগ্রাম ফাইলের তালিকা দেখায়", "তালিকা", "পরিবর্তন"),
        ("இந்த நிரல் கோப்புகளின் பட்டியலைக் காட்டுகிறது", "பட்டியலைக்", "மாற்றம்"),
    ],
    ids=["hindi", "bengali", "tamil"],
)
def test_an_edited_word_with_vowel_signs_is_highlighted_whole(a, old, new):
    """A vowel sign is a combining mark, which the regex's \\w does not count as a letter: the
    word was cut there, the sign ("ा" of हासिल and of बदलाव) matched the other side's and was
    shown unchanged between two highlighted pieces, drawn on a dotted circle, the word broken."""
    for ignore in (False, True):  # ignoring spaces, a highlight takes the space after it
        result = diff_texts(a, a.replace(old, new), ignore_whitespace_punct=ignore)
        assert [t.strip() for t in changed_spans(result, "a")] == [old], ignore
        assert [t.strip() for t in changed_spans(result, "b")] == [new], ignore


def test_no_highlight_starts_inside_a_letter_of_thai():
    """Thai writes no spaces between words: the diff compares it letter by letter, each letter
    with the vowel and tone marks written on it, so that no highlight starts or ends between a
    letter and its marks (a mark alone is drawn on a dotted circle)."""
    a = "ไม่สามารถเชื่อมต่อซ็อกเก็ตข้อมูล เนื่องจากหมดเวลาคอย"
    # another word, a shorter one, a tone mark changed (a change even when ignoring punctuation)
    for b in (a.replace("เชื่อม", "ตั้งค่า"), a.replace("ข้อมูล", "ข่าว"), a.replace("ต่อ", "ต้อ")):
        for ignore in (False, True):
            result = diff_texts(a, b, ignore_whitespace_punct=ignore)
            assert changed_spans(result, "a") and changed_spans(result, "b"), (b, ignore)
            for side in ("a", "b"):
                spans = [t for row in result.rows for t, _tag in getattr(row, f"{side}_spans")]
                assert not any(unicodedata.category(t[0]).startswith("M") for t in spans), spans


def test_identical_texts_have_similarity_one_and_no_changes():
    for text in (EN_PARAGRAPH, ZH_PARAGRAPH, ""):
        result = diff_texts(text, text)
        assert result.similarity == 1.0
        assert result.change_rows == []
        assert all(row.tag == "equal" for row in result.rows)
        assert result.a_words == result.b_words


def test_disjoint_texts_have_similarity_near_zero():
    a = "alpha beta gamma delta\nepsilon zeta eta theta\n"
    b = "一二三四五\n六七八九十\n"
    result = diff_texts(a, b)
    assert result.similarity < 0.05
    assert result.change_rows == [0]
    assert side_text(result, "a") == a and side_text(result, "b") == b


def test_inserted_and_deleted_lines_align_with_gaps():
    a = "one\ntwo\nthree\n"
    b = "one\nthree\nfour\n"
    result = diff_texts(a, b)
    tags = [(row.tag, row.a_lineno, row.b_lineno) for row in result.rows]
    assert tags == [
        ("equal", 1, 1),
        ("delete", 2, None),
        ("equal", 3, 2),
        ("insert", None, 3),
    ]
    assert result.change_rows == [1, 3]
    assert result.rows[1].b_spans == [] and result.rows[3].a_spans == []


def test_edited_line_is_paired_with_its_original_in_a_changed_block():
    a = "intro\nThe cat sat on the mat today.\nA completely unrelated sentence here.\nend\n"
    b = "intro\nBrand new inserted line about rockets.\nThe cat sat on the red mat today.\nend\n"
    result = diff_texts(a, b)
    paired = [row for row in result.rows if row.tag == "replace"]
    assert len(paired) == 1
    assert paired[0].a_lineno == 2 and paired[0].b_lineno == 3
    assert [t for t, tag in paired[0].b_spans if tag != "equal"] == ["red "]


def test_ignore_whitespace_punct_treats_spacing_and_punctuation_as_equal():
    a = "Hello, world!  How are you?\n你好，世界。\n"
    b = "Hello world How are you\n你好 世界\n"
    plain = diff_texts(a, b)
    assert plain.change_rows  # without the option these are changes
    ignored = diff_texts(a, b, ignore_whitespace_punct=True)
    assert ignored.change_rows == []
    assert ignored.similarity == 1.0
    # The full text is still shown on both sides.
    assert side_text(ignored, "a") == a and side_text(ignored, "b") == b


def test_ignore_option_still_reports_word_changes():
    a = "Hello, big world!\n"
    b = "Hello world?\n"
    result = diff_texts(a, b, ignore_whitespace_punct=True)
    assert [t.strip() for t in changed_spans(result, "a")] == ["big"]
    assert changed_spans(result, "b") == []


def test_line_ending_style_is_not_a_change():
    a = "first line\nsecond line\n"
    result = diff_texts(a, a.replace("\n", "\r\n"))
    assert result.change_rows == []
    assert side_text(result, "b") == a.replace("\n", "\r\n")


def test_line_ending_style_inside_a_changed_line_is_not_highlighted():
    result = diff_texts("one two three\n", "one 2 three\r\n")
    assert changed_spans(result, "a") == ["two"]
    assert changed_spans(result, "b") == ["2"]


def test_many_small_edits_between_repeated_lines_align_every_line():
    paragraphs = [f"Paragraph {k} talks about topic {k * 7 % 13}.\n" for k in range(300)]
    a = "".join(p + "\n----\n\n" for p in paragraphs)
    edited = [p.replace("topic", "subject") if k % 3 == 0 else p for k, p in enumerate(paragraphs)]
    b = "".join(p + "\n----\n\n" for p in edited)
    result = diff_texts(a, b)
    assert len(result.rows) == len(a.splitlines())
    assert all(row.a_lineno == row.b_lineno for row in result.rows)
    assert len(result.change_rows) == 100
    assert {
        t for k in result.change_rows for t, tag in result.rows[k].b_spans if tag != "equal"
    } == {"subject"}


def test_a_long_text_of_repeated_lines_keeps_each_edit_on_its_own_row():
    """No line of a long form, log or refrain is unique, so no line anchors the alignment: the
    whole text once came out as one changed row (no change to step to, and a 1 MB block the
    app took a second to lay out)."""
    stanza = [f"第{k}行：江南的春天总是来得悄无声息，河面上浮着一层薄薄的雾气。" for k in range(6)]
    a_lines = stanza * 600  # 3,600 lines, each one 600 times
    b_lines = list(a_lines)
    edited = list(range(5, len(b_lines), 37))
    for i in edited:
        b_lines[i] = b_lines[i].replace("春天", "秋天")
    del b_lines[1000]  # and one line removed
    b_lines.insert(2000, "新加的一行。")  # and one added
    a, b = "\n".join(a_lines), "\n".join(b_lines)
    result = diff_texts(a, b)
    assert side_text(result, "a") == a and side_text(result, "b") == b
    assert len(result.change_rows) >= len(edited)
    changed = [row for row in result.rows if row.tag != "equal"]
    assert max(len(_line(row, "a")) + len(_line(row, "b")) for row in changed) < 200
    assert sum(1 for row in changed if row.tag == "replace") == len(edited)
    assert {
        t for k in result.change_rows for t, tag in result.rows[k].b_spans if tag != "equal"
    } >= {"秋天"}


def test_a_long_insertion_into_recurring_lines_does_not_shift_the_rest():
    """A hundred new lines near the top of a long text of recurring lines: the lines after
    them are still equal, not a cascade of replacements to the end."""
    stanza = [f"第{k}行：江南的春天总是来得悄无声息，河面上浮着一层薄薄的雾气。" for k in range(6)]
    a_lines = stanza * 600
    added = [f"新的第{k}行，只在副本里。" for k in range(100)]
    b_lines = a_lines[:200] + added + a_lines[200:]
    b_lines[3500] = b_lines[3500].replace("春天", "秋天")  # and one edit near the end
    a, b = "\n".join(a_lines), "\n".join(b_lines)
    result = diff_texts(a, b)
    assert side_text(result, "a") == a and side_text(result, "b") == b
    changed = [row for row in result.rows if row.tag != "equal"]
    assert [_line(row, "b").rstrip("\n") for row in changed] == [*added, b_lines[3500]]
    assert len(result.change_rows) == 2
    assert result.similarity > 0.95


def _line(row, side: str) -> str:
    return "".join(text for text, _ in (row.a_spans if side == "a" else row.b_spans))


def test_long_single_line_edit_stays_local():
    rng = random.Random(7)
    words = ["river", "garden", "window", "letter", "silver", "morning", "station", "quiet"]
    sentences = [" ".join(rng.choices(words, k=12)).capitalize() + "." for _ in range(400)]
    a = " ".join(sentences)
    sentences[200] = sentences[200].replace(".", " zebra.", 1)
    b = " ".join(sentences)
    result = diff_texts(a, b)
    assert len(result.rows) == 1
    assert changed_spans(result, "b") == [" zebra"] or changed_spans(result, "b") == ["zebra "]
    assert side_text(result, "a") == a and side_text(result, "b") == b


def test_diff_words_ops_rebuild_both_sides():
    ops = diff_words("the quick brown fox", "the slow brown dog")
    assert "".join(op.a_text for op in ops) == "the quick brown fox"
    assert "".join(op.b_text for op in ops) == "the slow brown dog"
    assert [(op.tag, op.a_text, op.b_text) for op in ops if op.tag != "equal"] == [
        ("replace", "quick", "slow"),
        ("replace", "fox", "dog"),
    ]


_lines = st.lists(
    st.sampled_from(["\n", "----\n", "alpha beta\n", "alpha gamma\n", "我们在北京。\n", "x\r\n"]),
    max_size=40,
).map("".join)

_text = st.text(
    alphabet=st.sampled_from(
        list("ab c,.\n\r\t'我们北京大学学习。，")
        + ["\u2028", "1", "_", "\u2019", "\u00b2", "\u0301"]
    ),
    max_size=80,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(a=_text | _lines, b=_text | _lines, ignore=st.booleans())
def test_property_spans_rebuild_each_side(a: str, b: str, ignore: bool):
    result = diff_texts(a, b, ignore_whitespace_punct=ignore)
    assert side_text(result, "a") == a
    assert side_text(result, "b") == b
    assert 0.0 <= result.similarity <= 1.0
    for row in result.rows:
        assert row.tag in {"equal", "insert", "delete", "replace"}
        assert (row.a_lineno is None) == (row.a_spans == [])
        assert (row.b_lineno is None) == (row.b_spans == [])
    for k in result.change_rows:
        assert result.rows[k].tag != "equal"
    # Each row is numbered with the line its text starts on, and rows go forward. (A row may hold
    # several lines of one side: a paragraph wrapped differently on the other side.)
    for side in ("a", "b"):
        before = ""
        numbers = []
        for row in result.rows:
            spans = row.a_spans if side == "a" else row.b_spans
            lineno = row.a_lineno if side == "a" else row.b_lineno
            if lineno is not None:
                assert lineno == len(before.splitlines()) + 1
                numbers.append(lineno)
            before += "".join(t for t, _ in spans)
        assert numbers == sorted(set(numbers))
    if a == b:
        assert result.change_rows == [] and result.similarity == 1.0
    # Word counts: words and numbers, a Chinese character counting as one (not whitespace or
    # punctuation).
    for count, text in ((result.a_words, a), (result.b_words, b)):
        expected = sum(
            1 if not re.match("[\u4e00-\u9fff]", t) else len(t)
            for t in tokenize_for_diff(text)
            if t[0].isalnum() or t[0] == "_"
        )
        assert count == expected


def test_one_megabyte_diff_stays_fast():
    """Guards against a quadratic regression (the GUI opens a 1 MB text in under a second on a
    desktop; the bound here is loose for slow CI machines)."""
    rng = random.Random(11)
    vocab = [f"w{k}" for k in range(3000)] + ["the", "of", "and", "，", "。", "我们", "北京"]
    lines = []
    while sum(map(len, lines)) < 1_000_000:
        lines.append(" ".join(rng.choices(vocab, k=rng.randint(10, 60))) + "\n")
    a = "".join(lines)
    words = a.split(" ")
    for k in rng.sample(range(len(words)), len(words) // 50):
        words[k] = "edited"
    b = " ".join(words)
    start = time.process_time()  # CPU time: a busy CI machine does not make this flaky
    result = diff_texts(a, b)
    elapsed = time.process_time() - start
    assert 0.9 < result.similarity < 0.99
    assert side_text(result, "b") == b
    assert elapsed < 5.0, f"1 MB diff took {elapsed:.2f} s of CPU"


def test_pdf_radical_forms_are_not_changes_but_text_is_shown_as_written():
    # PDF text layers often use Kangxi radical / radical-supplement code points (U+2F42 "⽂",
    # U+2EDA "⻚") that look exactly like the ideographs; full-width letters likewise.
    plain = "本页面的文件名是ABC。\n第二行没有变化。\n"
    from_pdf = "本⻚⾯的⽂件名是ＡＢＣ。\n第二行没有变化。\n"
    result = diff_texts(plain, from_pdf)
    assert result.change_rows == []
    assert result.similarity == 1.0
    rebuilt = "".join(text for row in result.rows for text, _ in row.b_spans)
    assert rebuilt == from_pdf  # displayed as written, not as folded
    assert "".join(tokenize_for_diff(from_pdf)) == from_pdf
    # A real edit next to the look-alikes is still found, and only it.
    edited = from_pdf.replace("第二行", "第三行")
    rows = diff_texts(plain, edited).rows
    changed_b = [text for row in rows for text, tag in row.b_spans if tag != "equal"]
    changed_a = [text for row in rows for text, tag in row.a_spans if tag != "equal"]
    # jieba's word for the edited spot, on each side; nothing on the look-alike first line.
    assert (changed_a, changed_b) == (["第二行"], ["第三行"])


def test_typographic_quotes_are_not_changes_but_are_shown_as_written(tmp_path):
    """A word processor turns straight quotes and apostrophes into typographic ones as you
    type (LibreOffice's and Word's autocorrect), and groff and Sphinx write them too: the DOCX
    copy of a text said “Meta” and doesn’t where the text said "Meta" and doesn't, and the
    diff marked each as a change, as it once marked full-width punctuation. They are folded
    one character for one; the text is shown as written, and a real edit is still found."""
    plain = "She said \"Meta\" and it doesn't, the 'down' key.\nA second line.\n"
    typeset = "She said “Meta” and it doesn’t, the ‘down’ key.\nA second line.\n"
    result = diff_texts(plain, typeset)
    assert result.change_rows == [], [r.b_spans for r in result.rows if r.tag != "equal"]
    assert result.similarity == 1.0
    assert "".join(text for row in result.rows for text, _ in row.b_spans) == typeset
    edited = typeset.replace("second", "third")
    changed = [
        t for row in diff_texts(plain, edited).rows for t, tag in row.b_spans if tag != "equal"
    ]
    assert changed == ["third"]


def test_a_traditional_copy_differs_only_where_its_words_do_but_is_shown_as_written():
    # Issue 13: Simplified and Traditional copies of one text are one document, and the diff
    # still shows each side's own characters. Characters that are one character in the other
    # script are no change; a real edit in the copy still is, and only it.
    import opencc

    simplified = ZH_PARAGRAPH + "这个软件的文件说明了怎样执行程序。\n"
    for config in ("s2t", "s2tw", "s2hk"):
        traditional = opencc.OpenCC(config).convert(simplified)
        assert traditional != simplified
        result = diff_texts(simplified, traditional)
        assert result.change_rows == [], config
        assert side_text(result, "b") == traditional  # shown as written
        assert side_text(result, "a") == simplified
        edited = traditional.replace("公園", "花園").replace("公园", "花园")
        assert edited != traditional
        result = diff_texts(simplified, edited)
        assert (changed_spans(result, "a"), changed_spans(result, "b")) == (
            ["公园"],
            ["花園"],
        ), config
    # Taiwan's own words for a thing (軟體 for 软件) are other words, and shown as changes,
    # but the characters around them are not.
    taiwan = opencc.OpenCC("s2twp").convert(simplified)
    result = diff_texts(simplified, taiwan)
    changed = "".join(changed_spans(result, "a"))
    assert "软件" in changed
    assert len(changed) <= 12, changed
    # The same with the word-level diff of two lines.
    ops = diff_words("老师带学生去公园散步。", "老師帶學生去公園散步。")
    assert [op.tag for op in ops] == ["equal"]


def test_the_swapped_names_are_found_when_one_page_names_the_other_once():
    """What the diff names when the index refused a pair as two pages of one template: each
    page's own name, repeated in it; one page may also name the other once (a reference to
    its sibling) or twice, when as many occurrences of the two names are gone as in a swap
    both ways, as sketch.substituted counts them. A name the other page holds three times is
    not its sibling's reference, nor are two names held three times each with one left (a
    cut may take one and edits two of three of the other), and nothing is named."""
    body = "the program reads every file and prints a line for each of them".split()
    a = " ".join(["svnlook", *body, "svnlook", *body, "svnlook", *body, "see", "svndumpfilter"])
    b = " ".join(["svndumpfilter", *body, "svndumpfilter", *body, "svndumpfilter", *body])
    assert swapped_words(a, b, 3) is None and swapped_words(b, a, 3) is None
    for a4, b4 in ((a + " svnlook", b), (a, b + " svndumpfilter")):
        assert swapped_words(a4, b4, 3) == ("svnlook", "svndumpfilter")
        assert swapped_words(b4, a4, 3) == ("svndumpfilter", "svnlook")
        assert swapped_words(a4 + " svndumpfilter", b4, 3) is None
    # named twice: when the other page names itself six times (three for each), not four
    a42, b4 = a + " svnlook svndumpfilter", b + " svndumpfilter"
    b6 = b4 + " svndumpfilter svndumpfilter"
    assert swapped_words(a42, b6, 3) == ("svnlook", "svndumpfilter")
    assert swapped_words(a42, b4, 3) is None
    assert swapped_words(a42 + " svndumpfilter", b6, 3) is None  # three times: no reference


def test_the_swapped_names_are_found_when_two_pages_name_each_other():
    """Two sibling pages that name each other (each in its SEE ALSO), each naming itself at
    least three times as often as the other page does, and three times more: the diff names
    those two words, as sketch.substituted counts them; with the words that never occur in the
    other page, the pair with more occurrences gone. Three times against once each way (two
    gone each way) names nothing."""
    body = "convert tabs in each file to spaces writing to standard output".split()

    def page(own: str, other: str, n_own: int) -> str:
        return " ".join([w for _ in range(n_own) for w in (own, *body)] + ["see", other])

    a, b = page("expand", "unexpand", 4), page("unexpand", "expand", 4)
    assert swapped_words(a, b, 3) == ("expand", "unexpand")
    assert swapped_words(b, a, 3) == ("unexpand", "expand")
    assert swapped_words(page("expand", "unexpand", 3), page("unexpand", "expand", 3), 3) is None
    # beside a word of each page the other never has: the pair with more occurrences gone
    a5, b5 = page("expand", "unexpand", 5), page("unexpand", "expand", 5)  # 4 + 4 gone
    assert swapped_words(a5 + " initial" * 3, b5 + " blanks" * 3, 3) == ("expand", "unexpand")
    assert swapped_words(a + " initial" * 4, b + " blanks" * 4, 3) == ("initial", "blanks")
    # a stop word three times as often in one page is no name ("the" in a page twice as long)
    a_the = a5 + " the the the the the the"
    assert swapped_words(a_the, b5 + " the the", 3) == ("expand", "unexpand")
    b_the = page("unexpand", "expand", 4) + " the the"  # names: 5 - 1 and 4 - 1 gone
    assert swapped_words(a5 + " the" * 12, b_the, 3) == ("expand", "unexpand")


@pytest.mark.parametrize(
    "text",
    [
        "为了删除掉 不用的VT, 可使用 deallocvt.",
        "图书 馆 建于 上世纪 the town library",
        "江南的春天， 总是来得悄无声息。 清晨推开窗",
        "Linux， FAQ",
    ],
)
def test_a_stretch_without_line_breaks_has_the_same_keys_whole_and_token_by_token(text):
    """What tells a change of layout from a change of text (_layout_only) makes the keys of a
    stretch again from its text (_unbroken_keys); they must be the keys the alignment compared
    (_compare_side): white space between two Chinese characters is none of them either way."""
    from desktop_dedup.core.diff import _compare_side, _unbroken_keys
    from desktop_dedup.core.text import fold_compat

    # folded as a diff folds a text without Traditional characters: the full-width comma is
    # an ASCII one there
    side = _compare_side(text, fold_compat(text), 0, len(text), False, (False, False))
    assert _unbroken_keys(side, 0, len(side.keys)) == side.keys


COREUTILS = Path(__file__).parent / "data" / "templates" / "coreutils"


def test_the_swapped_names_are_the_names_the_index_saw_letters_and_digits_together():
    """A name of letters and digits (md5sum, sha256sum, b2sum) is one word to the index, as
    the segmenter cuts it, and one word where the diff names the swap: cut at its digits, the
    pages of GNU coreutils' checksum commands named no swap ("similarity 0.000" and no
    reason: md5sum against sha256sum) or a piece of each name ('MD' and 'B')."""
    from desktop_dedup.core.service import diff_files

    md5 = COREUTILS / "md5sum.1.txt"
    for other, name in (("sha256sum", "sha256sum"), ("sha512sum", "sha512sum"), ("b2sum", "b2sum")):
        result = diff_files(md5, COREUTILS / f"{other}.1.txt")
        assert result.similarity == 0.0
        assert result.swapped is not None, other
        assert tuple(w.lower() for w in result.swapped) == ("md5sum", name)
    a = "x86_64 build of sha256sum " * 3 + "page two of four: GPLv3"
    b = "x86_64 build of sha1sum " * 3 + "page two of four: GPLv3"
    assert swapped_words(a, b, 3) == ("sha256sum", "sha1sum")
    # digits alone are no word of either (numbers changed in a copy), nor is a single Latin
    # letter or a stop word: the index weighs none of them
    assert swapped_words("page 12 " * 4, "page 13 " * 4, 3) is None
    assert swapped_words("see page B " * 4, "see page p " * 4, 3) is None
    assert swapped_words("sed " + "the page " * 4, "sed " + "a page " * 4, 3) is None


def test_the_swapped_names_are_the_words_the_index_cut_and_weighed():
    """The words a refused pair's swap is named by are the index's words, cut by its
    segmenter on the script-folded text and kept by its own rule of which words it weighs
    (stopwords.word_kind), but shown as each file writes them: katakana words are not run
    together with the hiragana after them ("ネコは"), a single hiragana (a particle) is no
    word, and a Traditional word is named as written, whichever script the other file uses."""
    assert swapped_words("ネコは白い。" * 4, "イヌは白い。" * 4, 3) == ("ネコ", "イヌ")
    assert swapped_words("page ね " * 4, "page よ " * 4, 3) is None
    # the index folds both to 编辑器 and 浏览器, and the names are given as written
    a = "請用編輯器開啟檔案。" * 4
    assert swapped_words(a, "请用浏览器打开文件。" * 4, 3) == ("編輯器", "浏览器")
    # Taiwan's 開啟檔案 is the mainland's 打开文件 to the index: no swap
    assert swapped_words(a, "请用编辑器打开文件。" * 4, 3) is None
    # a regional word is named as written too, where the index reads it as 软件
    assert swapped_words("這個軟體很好用。" * 4, "这个工具很好用。" * 4, 3) == ("軟體", "工具")
    # the words are cut as the index cuts them, not at the diff's digits
    assert swapped_words("run md5sum. " * 3, "run sha1sum. " * 3, 3) == ("md5sum", "sha1sum")


def test_a_text_of_one_recurring_line_against_it_with_lines_between_takes_few_comparisons(
    monkeypatch,
):
    """A file of one line over and over (a log's repeated entry, a form's empty rows) against
    the same with another line after each: no line is unique, the whole is one gap of 1,111
    by 2,104 lines, and difflib's matcher, below the size where the resync takes over, looked
    for its longest match once per matching line, each time over every pair of equal lines:
    38 s for 20 KB. The matcher now takes only gaps whose equal pairs are few, and each line
    keeps its own row."""
    import difflib

    calls = []
    real = difflib.SequenceMatcher.find_longest_match

    def counted(self, *args, **kwargs):
        calls.append(1)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(difflib.SequenceMatcher, "find_longest_match", counted)
    line = "same line of text\n"
    a = line * 1_111
    b = (line + "\n") * 1_052
    result = diff_texts(a, b)
    assert side_text(result, "a") == a and side_text(result, "b") == b
    assert len(calls) <= 100
    # every line of b's is with one of a's, a blank line between them no change; the 59
    # lines a has more are one change at the end
    assert len(result.change_rows) == 1
    equal = [row for row in result.rows if row.tag == "equal"]
    assert sum(1 for row in equal if (line, "equal") in row.a_spans) == 1_052
    assert sum(row.tag in ("delete", "replace") for row in result.rows) == 59
