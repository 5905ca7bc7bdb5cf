"""Short texts (issue 13 item 3): notes and poems of a few dozen words.

A 64-bit simhash of 10-60 words is noise, so these documents are found through their sketches'
keys and compared exactly; a banner or a reposting notice glued to one can be longer than the
note itself, which no per-document budget can peel. What must hold, through a real scan of real
files: a DOCX or PDF copy, a one-word edit, an added title, a banner above, below or both, or a
banner and another footer are the same document; two different notes that share a banner, a
title or a signature are not; and thousands of distinct short notes make no group.
"""

from __future__ import annotations

import functools
import itertools
import os
import random
import re
import textwrap
from pathlib import Path

import docgen
import numpy as np
import owncorpus
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.items import count_verifications, grouping_items, grouping_loads

from desktop_dedup.core import grouping, sketch
from desktop_dedup.core.fingerprint import fingerprint_text
from desktop_dedup.core.grouping import build_groups
from desktop_dedup.core.service import DedupService

# Real short texts: two Tang poems (public domain), two office notes, two English notes.
POEM_A = "床前明月光，\n疑是地上霜。\n举头望明月，\n低头思故乡。"
POEM_B = "春眠不觉晓，\n处处闻啼鸟。\n夜来风雨声，\n花落知多少。"
NOTE_A = "明天上午十点在三楼会议室讨论下季度的预算安排，请各部门负责人准时参加并带上相关材料。"
NOTE_B = "本周五下午公司组织体检，请大家提前预约时间并空腹前往指定医院，体检结果两周后发放。"
EN_A = "Please remember to water the plants on the balcony while I am away next week, twice a day."
EN_B = "The quarterly report is due on Friday; send your figures to the finance team by Thursday."
EN_A_EDITED = EN_A.replace("balcony", "terrace")
NOTE_A_EDITED = NOTE_A.replace("三楼", "五楼")

BANNER_ZH = "本文转载自网络，版权归原作者所有，如有侵权请联系删除。"
AD_ZH = "【广告】限时优惠，新用户注册即送大礼包，详情请访问官方网站。"
FOOTER_ZH = "关注我们的公众号，获取更多精彩内容！点击阅读原文了解详情。"
BANNER_EN = "Reposted from the community newsletter. All rights belong to the original author."
FOOTER_EN = "Follow us for more stories like this one, and share it with your friends today."


def _variants(text: str, banner: str, footer: str) -> dict[str, str]:
    return {
        "banner above": f"{banner}\n\n{text}",
        "banner below": f"{text}\n\n{banner}",
        "banner both ends": f"{banner}\n\n{text}\n\n{banner}",
        "banner and footer": f"{banner}\n\n{text}\n\n{footer}",
        "title": f"通知\n\n{text}" if banner is not BANNER_EN else f"Note\n\n{text}",
    }


CASES = [
    ("poem", POEM_A, POEM_B, BANNER_ZH, FOOTER_ZH),
    ("note", NOTE_A, NOTE_B, AD_ZH, FOOTER_ZH),
    ("english", EN_A, EN_B, BANNER_EN, FOOTER_EN),
]


def _scan(folder: Path, tmp_path: Path) -> list[set[str]]:
    with DedupService(tmp_path / "index.sqlite") as service:
        service.add_folder(folder)
        service.scan()
        return [{Path(m.path).name for m in g.members} for g in service.groups()]


def _sketch(text: str) -> sketch.TextSketch:
    return sketch.decode(fingerprint_text(text).sketch)


def _pairs_apart(pairs) -> tuple[int, int]:
    """Of these pairs of texts, how many fall under the default threshold, and how many there
    are."""
    apart = total = 0
    for a, b in pairs:
        total += 1
        apart += sketch.verified_similarity(_sketch(a), _sketch(b), 0.75) < 0.75
    return apart, total


def _family_scan(tmp_path: Path, paragraphs: list[str], **build) -> tuple[float, list, list]:
    """A real scan of each paragraph's light copies (owncorpus.build_short): recall, the missed
    and the false pairs."""
    truth = owncorpus.build_short(tmp_path / "docs", paragraphs, **build)
    groups = _scan(tmp_path / "docs", tmp_path)
    _, recall, missed, false = owncorpus.score(groups, truth)
    return recall, missed, false


@pytest.mark.parametrize(
    ("name", "text", "other", "banner", "footer"), CASES, ids=[c[0] for c in CASES]
)
def test_a_short_text_and_its_copies_are_one_group(tmp_path, name, text, other, banner, footer):
    folder = tmp_path / "docs"
    folder.mkdir()
    docgen.write_txt(folder / "original.txt", text)
    docgen.write_docx(folder / "copy.docx", text)
    docgen.write_pdf(folder / "copy.pdf", text)
    for k, variant in enumerate(_variants(text, banner, footer).values()):
        docgen.write_txt(folder / f"variant{k}.txt", variant)
    groups = _scan(folder, tmp_path)
    expected = {"original.txt", "copy.docx", "copy.pdf"} | {f"variant{k}.txt" for k in range(5)}
    assert expected in groups, groups


@pytest.mark.parametrize(
    ("name", "text", "other", "banner", "footer"), CASES, ids=[c[0] for c in CASES]
)
def test_different_short_texts_sharing_a_banner_or_a_title_are_not_grouped(
    tmp_path, name, text, other, banner, footer
):
    folder = tmp_path / "docs"
    folder.mkdir()
    for k, (a, b) in enumerate(
        zip(
            _variants(text, banner, footer).values(),
            _variants(other, banner, footer).values(),
            strict=True,
        )
    ):
        docgen.write_txt(folder / f"a{k}.txt", a)
        docgen.write_txt(folder / f"b{k}.txt", b)
    groups = _scan(folder, tmp_path)
    for group in groups:  # each group holds copies of one text only
        assert not ({n[0] for n in group} >= {"a", "b"}), groups


EDITS = {"poem": ("地上", "窗前"), "note": ("三楼", "五楼"), "english": ("balcony", "terrace")}


@pytest.mark.parametrize(
    ("name", "text", "other", "banner", "footer"), CASES, ids=[c[0] for c in CASES]
)
def test_an_edited_copy_and_copies_under_a_banner_or_a_title_are_one_group(
    tmp_path, name, text, other, banner, footer
):
    """Any combination of light changes is the same document: the note with one word changed
    is a copy of the note under a banner, a title or a footer as much as of the note itself
    (the edited copy was left out of the family, alone)."""
    folder = tmp_path / "docs"
    folder.mkdir()
    old, new = EDITS[name]
    assert old in text
    docgen.write_txt(folder / "original.txt", text)
    docgen.write_txt(folder / "edited.txt", text.replace(old, new))
    for k, variant in enumerate(_variants(text, banner, footer).values()):
        docgen.write_txt(folder / f"variant{k}.txt", variant)
    groups = _scan(folder, tmp_path)
    expected = {"original.txt", "edited.txt"} | {f"variant{k}.txt" for k in range(5)}
    assert expected in groups, groups


# Help texts that begin with a heading of one word: bash's ``help pushd`` in Japanese (from
# tests/data/cjk_notes/ja.txt) and in English (GNU bash 5).
HEADED = [
    (
        "ja",
        "オプション:\n-n\tスタックにディレクトリを追加した時に通常のディレクトリ変更\n"
        "を抑止します。よって、スタックのみ操作されます。",
        ("通常のディレクトリ", "通常のテスト"),
    ),
    (
        "",
        "Options:\n  -n\tSuppresses the normal change of directory when adding\n"
        "\tdirectories to the stack, so only the stack is manipulated.",
        ("normal change", "usual change"),
    ),
]


@pytest.mark.parametrize(("language", "text", "edit"), HEADED, ids=["ja", "en"])
def test_a_heading_of_one_word_is_part_of_the_note_it_heads(tmp_path, language, text, edit):
    """A line of one word has no word pair of its own, only the pairs that join it to the lines
    around it. Compared with the copy under a banner, the edited note's heading ("Options:")
    was left out with the banner as a line that shares no pair with the other document, and
    what remained missed the heading's word: the edited copy was a copy of neither the banner
    copy (Japanese: 0.56, English: under the threshold too), and was left out of its family,
    alone, since a group holds only documents that are all pairwise the same. A heading that
    meets the other document through a pair joining it to the next line is kept."""
    banner, _, title, _ = owncorpus.SHORT_STYLES[language]
    folder = tmp_path / "docs"
    folder.mkdir()
    assert edit[0] in text
    docgen.write_txt(folder / "original.txt", text)
    docgen.write_txt(folder / "edited.txt", text.replace(*edit))
    docgen.write_txt(folder / "banner.txt", f"{banner}\n\n{text}")
    docgen.write_txt(folder / "title.txt", f"{title}\n\n{text}")
    groups = _scan(folder, tmp_path)
    assert {"original.txt", "edited.txt", "banner.txt", "title.txt"} in groups, groups


def test_an_edited_note_of_one_long_line_is_a_copy_of_the_note_under_a_banner(tmp_path):
    """A note of one line too long to be an edge line (24 words that count, from the Spanish
    apropos(1) page) has no lines to tell apart, so its own text is all of it: with one word
    edited, nearly all of it is still in the copy under a banner, and the two are one
    document (they are 74 % the same before the banner is left out). With two neighbouring
    words for two, more than the light edits compared word by word, the copy under the banner
    less its banner is still 83 % the same."""
    text = (
        "Solo muestra casos de coincidencia con todas las palabras clave suministradas. Lo "
        "predeterminado es mostrar casos de coincidencia con cualquiera de las palabras clave."
    )
    folder = tmp_path / "docs"
    folder.mkdir()
    docgen.write_txt(folder / "original.txt", text)
    docgen.write_txt(folder / "edited.txt", text.replace("predeterminado", "habitual"))
    docgen.write_txt(folder / "banner.txt", f"{BANNER_EN}\n\n{text}")
    assert {"original.txt", "edited.txt", "banner.txt"} in _scan(folder, tmp_path)
    edited = _sketch(text.replace("Lo predeterminado es", "Lo habitual será"))
    banner = _sketch(f"{BANNER_EN}\n\n{text}")
    assert sketch.word_similarity(banner, edited, 0.75) == 0.0  # not light edits
    assert sketch.verified_similarity(banner, edited, 0.75) >= 0.75


def test_a_copy_under_a_banner_and_a_copy_above_a_footer_are_one_document():
    """One copy reposted under a banner, another sent with a footer: each has a line the other
    lacks, at opposite ends, and the note is most of each. Real paragraphs of 20-60 words
    (owncorpus.short_paragraphs), with the footer copy's middle word edited too: at least 90 %
    of such pairs are the same document (a note shorter than twice the banner is not: see the
    next test). Before this comparison: 28 of these 36, 112 of 150."""
    footer = owncorpus.SHORT_FOOTER
    found = 0
    paragraphs = owncorpus.short_paragraphs(36)
    for text in paragraphs:
        edited = owncorpus.one_word_changed(text)
        banner = _sketch(f"{owncorpus.SHORT_BANNER}\n\n{text}")
        copies = [f"{text}\n\n{footer}", f"{edited}\n\n{footer}"]
        found += all(sketch.verified_similarity(banner, _sketch(c), 0.75) >= 0.75 for c in copies)
    assert found >= 0.9 * len(paragraphs), found


def test_different_notes_with_one_banner_above_one_and_below_the_other_stay_apart():
    """Two notes, the banner above one and below the other: each leaves its own note out at
    opposite ends and keeps the banner, so the lines left out are most of each document; the
    two stay as different as their texts, from notes of eight words up. (Notes of a few words,
    far shorter than the banner, cannot be told from one note with a header on one copy and a
    footer on the other.)"""
    words = docgen.SAMPLE_EN.split()
    pairs = [(" ".join(words[:n]), " ".join(words[200 : 200 + n])) for n in (8, 12, 16, 32)]
    pairs += [(EN_A, EN_B), (NOTE_A, NOTE_B)]
    for a, b in pairs:
        for banner in (BANNER_EN, BANNER_ZH):
            x, y = f"{banner}\n{a}", f"{b}\n{banner}"
            fx, fy = fingerprint_text(x), fingerprint_text(y)
            sx, sy = sketch.decode(fx.sketch), sketch.decode(fy.sketch)
            assert sketch.verified_similarity(sx, sy, 0.75) < 0.75, (a, b, banner)
            assert sketch.verified_similarity(sy, sx) < 0.75, (a, b, banner)


def test_different_notes_under_one_banner_stay_apart_when_one_quotes_the_banner():
    """A note that takes a few words from the banner shares a word pair with the other
    document, but is still its own text: the other note is compared with the 90 % bar."""
    words = docgen.SAMPLE_EN.split()
    quote = " ".join(BANNER_EN.split()[2:5])  # "from the community"
    for n in (4, 8, 16, 32):
        a = " ".join(words[:n])
        b = " ".join(words[200 : 200 + n]) + " " + quote
        for x, y in itertools.permutations([f"{BANNER_EN}\n{a}", f"{BANNER_EN}\n{b}"]):
            fx, fy = fingerprint_text(x), fingerprint_text(y)
            share = sketch.verified_similarity(sketch.decode(fx.sketch), sketch.decode(fy.sketch))
            assert share < 0.75, (n, share)


def test_a_title_that_shares_a_word_with_the_signature_is_still_its_own_text():
    """Two sections of one manual as public2 holds them (a terminal's colour codes left in): a
    title, a line or none, and the manual's signature. The second section's title shares
    "debian" with the signature, so it is no peelable edge line, but it is the section's own
    text: the two are different documents."""
    signature = "[33m" + " " * 27 + "-- Osamu Aoki (青木修), Debian 参考手册（版本 2.73）[m"
    a = (
        "[37;1m2.3.\xa0aptitude 操作范例[;m\n\n"
        "    下面是一些 [34;1maptitude(8)[m 的操作范例。\n\n" + signature
    )
    b = "[37;1m2.1.\xa0Debian 软件包管理的前提[;m\n\n" + signature
    for x, y in itertools.permutations([a, b]):
        fx, fy = fingerprint_text(x), fingerprint_text(y)
        share = sketch.verified_similarity(sketch.decode(fx.sketch), sketch.decode(fy.sketch))
        assert share < 0.75, share


def test_a_one_word_edit_of_a_short_text_is_the_same_document(tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    docgen.write_txt(folder / "a.txt", EN_A)
    docgen.write_txt(folder / "a-edited.txt", EN_A_EDITED)
    docgen.write_txt(folder / "b.txt", NOTE_A)
    docgen.write_docx(folder / "b-edited.docx", NOTE_A_EDITED)
    groups = _scan(folder, tmp_path)
    assert {"a.txt", "a-edited.txt"} in groups
    assert {"b.txt", "b-edited.docx"} in groups


def test_a_word_wrapped_note_whose_lines_are_equally_long_is_a_copy_of_its_edited_copy(tmp_path):
    """A real paragraph (man's manual page, Portuguese) word-wrapped at 30 columns, three of
    its six lines exactly 30 long, and its copy in one line with one word changed, and the
    same note as verse: one document. Taken for a cut at a fixed width, the wrapped copy had
    its lines glued without a space (``dosaída``), and was 0.55 the same as the edited one."""
    note = (
        "Não apara a saída à largura do terminal. Normalmente, a saída será truncada à "
        "largura do terminal para evitar resultados causados por seções NAME mal escritas."
    )
    verse = (
        "System administrators can use\nthe -A option to define group\n"
        "administrator(s) and the -M option to define\nmembers. They have all rights\n"
        "of group administrators and members."
    )
    folder = tmp_path / "docs"
    folder.mkdir()
    docgen.write_txt(folder / "note-wrapped.txt", textwrap.fill(note, 30))
    docgen.write_txt(folder / "note-edited.txt", note.replace("resultados", "problemas"))
    docgen.write_txt(folder / "verse.txt", verse)
    docgen.write_txt(folder / "verse-edited.txt", " ".join(verse.split()).replace("-M", "-B"))
    groups = _scan(folder, tmp_path)
    assert {"note-wrapped.txt", "note-edited.txt"} in groups
    assert {"verse.txt", "verse-edited.txt"} in groups


def test_thousands_of_distinct_short_notes_make_no_group():
    """Notes of 12 words drawn from the vocabulary of real text (the sample articles), with a
    shared banner above a third of them and below another third: different notes, so no group
    at all."""
    rng = random.Random(13)
    vocabulary = sorted(set((docgen.SAMPLE_EN + " " + EN_A + " " + EN_B).lower().split()))
    texts = []
    for k in range(3000):
        note = " ".join(rng.choice(vocabulary) for _ in range(12))
        texts.append((note, f"{BANNER_EN}\n\n{note}", f"{note}\n\n{BANNER_EN}")[k % 3])
    items = grouping_items(texts)
    groups = build_groups(items, 0.75)
    assert groups == [], groups[:3]


def test_pairs_of_different_notes_with_one_banner_stay_apart_at_every_length():
    """The trimmed comparison leaves out only one side's extra lines and asks for 90 %: two
    notes under one banner each lose nothing, and stay as different as their texts."""
    words = docgen.SAMPLE_EN.split()
    for n in (4, 8, 16, 32):
        a = " ".join(words[:n])
        b = " ".join(words[200 : 200 + n])
        for x, y in itertools.permutations([f"{BANNER_EN}\n{a}", f"{BANNER_EN}\n{b}"]):
            fx, fy = fingerprint_text(x), fingerprint_text(y)
            share = sketch.verified_similarity(sketch.decode(fx.sketch), sketch.decode(fy.sketch))
            assert share < 0.75, (n, share)


def test_the_trimmed_comparisons_shortcut_never_drops_a_pair_that_reaches_it():
    """trimmed_similarity skips the line-by-line work when the word pairs the two notes share
    cannot reach what the pair must reach (TRIMMED_MIN_SHARE, or the threshold when the other
    note has no line of its own). Over every ordered pair of notes with banners, titles,
    footers and one-word edits, it must answer what the long way answers (0.0 below the bar),
    including pairs just over the bar and pairs that reach it only against the other's body."""
    words = docgen.SAMPLE_EN.split()
    notes = [POEM_A, NOTE_A, NOTE_B, NOTE_A_EDITED, EN_A, EN_A_EDITED, EN_B]
    for n in (12, 20, 30, 45):
        note = " ".join(words[300 : 300 + n])
        notes += [note, note.replace(words[305], "zebra")]
    texts: list[str] = []
    for note in notes:
        for banner, footer in ((BANNER_ZH, FOOTER_ZH), (BANNER_EN, FOOTER_EN)):
            texts += _variants(note, banner, footer).values()
        texts += [note, f"{BANNER_EN}\n{BANNER_ZH}\n\n{note}"]
    sketches = [_sketch(t) for t in dict.fromkeys(texts)]
    reached = just_over = body_only = at_threshold = 0
    for a, b in itertools.permutations(sketches, 2):
        if len(a.tags) == 0:
            continue
        in_b = sketch.in_sorted(a.values, b.values)
        long_way = sketch._trimmed_share(sketch._Meeting(a, b))
        bar = sketch.TRIMMED_MIN_SHARE if sketch._adds_own_text(sketch._Meeting(b, a)) else 0.0
        expected = long_way if long_way >= bar else 0.0
        for floor in (0.0, 0.75):  # what verification asks for the figures, and for grouping
            got = sketch.trimmed_similarity(a, b, floor)
            assert got == expected if expected >= floor else got in (0.0, expected)
        if expected >= 0.75:
            reached += 1
            just_over += expected < max(bar, 0.75) + 0.05
            at_threshold += bar == 0.0
            shared = int(in_b.sum())
            body_only += 2 * shared / (shared + len(b.values)) < 0.75
    # the pairs the shortcut could wrongly drop are there
    assert reached > 100 and just_over > 10 and body_only > 0, (reached, just_over, body_only)
    assert at_threshold > 10, at_threshold  # ... judged at the threshold, too


def test_the_two_sided_comparisons_shortcut_never_drops_a_pair_that_reaches_it():
    """two_sided_similarity stops when the word pairs two notes share cannot reach the floor
    with each side keeping the least it may. Over every ordered pair of real paragraphs' copies
    under a banner and above a footer (some edited), at both floors, it answers what it
    answers without a floor, including pairs that reach the threshold only just."""
    texts = []
    for text in owncorpus.short_paragraphs(24):
        edited = owncorpus.one_word_changed(text, 3)
        for body in (text, edited):
            texts += [f"{owncorpus.SHORT_BANNER}\n\n{body}", f"{body}\n\n{FOOTER_EN}"]
            texts += [f"{BANNER_ZH}\n\n{body}", f"{body}\n\n{owncorpus.SHORT_FOOTER}"]
    sketches = [_sketch(t) for t in texts]
    reached = close = 0
    for a, b in itertools.permutations(sketches, 2):
        long_way = sketch.two_sided_similarity(a, b)
        got = sketch.two_sided_similarity(a, b, 0.75)
        assert got == long_way if long_way >= 0.75 else got in (0.0, long_way)
        reached += long_way >= 0.75
        shared = int(np.count_nonzero(sketch.in_sorted(a.values, b.values)))
        close += long_way >= 0.75 and 2 * shared < 0.75 * (len(a.values) + len(b.values))
    assert reached > 100 and close > 10, (reached, close)  # pairs a looser bound would drop


def test_real_short_paragraphs_and_their_light_copies_are_found_and_kept_apart(tmp_path):
    """Real short texts, not written for the matcher: 36 paragraphs of 20-60 words from manual
    pages in twelve languages, each with a one-word edit, a title, a banner above, lines wrapped
    at 40 columns and a DOCX copy (owncorpus.build_short). Every pair of one paragraph's copies
    is one document (the edited copy with the banner's too: any combination of light changes),
    and no two paragraphs meet, though every one has a copy under the same banner."""
    paragraphs = owncorpus.short_paragraphs(36)
    assert len(paragraphs) == 36
    recall, missed, false = _family_scan(tmp_path, paragraphs)
    assert not false, false
    assert recall >= 0.98, missed


def test_a_short_chinese_text_wrapped_at_any_width_is_a_copy_of_its_edited_copy():
    """Real short Chinese texts (tests/data/cjk_notes: 300 help texts of 40-150 characters,
    Simplified and Traditional), folded at 30, 40 and 60 columns or wrapped between words at
    20, each against a copy in one line with one word changed. The body of a short text leaves
    out its short first and last lines (what a title or a signature would be); a copy wrapped at
    another width holds those words inside its lines, so with one word edited too the bodies
    fell under the threshold: 54 of the 1,200 pairs (4.5 %). Compared whole, 14."""
    lines = [t.replace("\n", "") for lang in ("zh_CN", "zh_TW") for t in owncorpus.cjk_notes(lang)]
    missed, total = _pairs_apart(
        (wrapped, owncorpus.one_word_changed(one_line))
        for one_line in lines
        for wrapped in (
            owncorpus.cjk_wrap(one_line, 30),
            owncorpus.cjk_wrap(one_line, 40),
            owncorpus.cjk_wrap(one_line, 60),
            "\n".join(textwrap.wrap(one_line, 20)),
        )
    )
    assert total == 1200
    assert missed <= 0.02 * total, missed


def test_real_short_chinese_texts_and_their_light_copies_are_found_and_kept_apart(tmp_path):
    """Real short Chinese texts in both scripts (tests/data/cjk_notes), 30 of each, with a
    one-word edit, a title, a banner above, lines folded at 40 columns, a copy in the other
    script, one in GB18030 or Big5 and a DOCX copy (owncorpus.build_short; the footer is left
    out here: a banner above one copy and a footer below another is a pair the two-sided
    comparison accepts only when what was added is at most a third, which the shortest notes
    are not). Every pair of one text's copies is found, and no two texts meet, though many are
    help texts sharing the same options and every one has a copy under the same banner."""
    paragraphs = owncorpus.cjk_notes("zh_CN")[:30] + owncorpus.cjk_notes("zh_TW")[:30]
    recall, missed, false = _family_scan(tmp_path, paragraphs, footer=False)
    assert not false, false
    assert recall >= 0.98, missed


def test_a_japanese_note_under_a_japanese_banner_is_a_copy_of_the_note():
    """Real short Japanese texts (tests/data/cjk_notes/ja.txt: 150 help texts of 40-150
    characters), each against its copy under a Japanese reposting banner and its copy with a
    title. Every kana of a particle or an ending was a word of its own, which every line of a
    Japanese text shares: a 37-character banner counted 26 words (a line of over 20 is the text
    itself, never left out) and none of them foreign to the note, so the banner stayed and a
    note shorter than four times the banner was not its own copy: 47 of the 300 pairs."""
    banner, _, title, _ = owncorpus.SHORT_STYLES["ja"]
    missed, total = _pairs_apart(
        (text, f"{added}\n\n{text}")
        for text in owncorpus.cjk_notes("ja")
        for added in (banner, title)
    )
    assert total == 300
    assert missed <= 0.02 * total, missed


def test_a_word_we_cut_in_two_and_replaced_is_one_light_edit():
    """Real short Japanese texts (tests/data/cjk_notes/ja.txt: 150 help texts), each against its
    copy with one word replaced (owncorpus.one_word_changed: a katakana word or two kanji, by
    テスト). jieba knows Chinese words: a Japanese compound it does not know comes out as its
    characters (圧縮 -> 圧 / 縮), so the replaced word was two tokens for one, the note two
    edits from its copy, and 6 of the 150 pairs fell under the threshold. Now an edit may be
    two tokens against one (sketch._light_edits): 2 (a word of three tokens, 制 / 御 before
    ファイル, and one of four). A hyphenated English word is two tokens too."""
    notes = owncorpus.cjk_notes("ja")
    missed, total = _pairs_apart((text, owncorpus.one_word_changed(text)) for text in notes)
    assert total == 150
    assert missed <= 2, missed
    note = "Run the well-known backup tool every night before you leave the office."
    missed, _ = _pairs_apart([(note, note.replace("well-known", "famous"))])
    assert missed == 0  # 0.67 when it counted as two edits, 0.82 now
    # and against the copy under a banner (its banner left out): Japanese and Traditional
    # Chinese (字元 made 改动元 folds to 改动 / 元, where the text has 字符), 9 of 300 apart
    # before, 4 while the check before the word-by-word comparison still counted tokens
    missed, total = _pairs_apart(
        (f"{owncorpus.SHORT_STYLES[language[:2]][0]}\n\n{text}", owncorpus.one_word_changed(text))
        for language in ("ja", "zh_TW")
        for text in owncorpus.cjk_notes(language)[:150]
    )
    assert total == 300
    assert missed <= 2, missed


def test_two_words_for_two_in_a_note_of_a_few_words_are_more_than_one_light_edit():
    """Real sentences of 10-16 words (owncorpus.short_sentences, 13 languages), each with two
    neighbouring words replaced by two words of another sentence: a fifth of the note, more than
    the light edits of the corpus definition (two words for two is no word cut in two). Only a
    run of two tokens against one is one edit: counting any run of two as one made 94 of the 98
    pairs the same document; 50 were before, 60 are (where one of the two words is a stop word,
    the content words are two for one)."""
    rng = random.Random(7)
    sentences = owncorpus.short_sentences(150)
    pairs = []
    for text in sentences:
        words = text.split()
        if len(words) >= 10:
            other = rng.choice([s for s in sentences if s != text]).split()
            k = len(words) // 2 - 1
            pairs.append((text, " ".join(words[:k] + other[:2] + words[k + 2 :])))
    apart, total = _pairs_apart(pairs)
    assert total == 98
    assert total - apart <= 0.7 * total, total - apart


def test_real_short_japanese_texts_and_their_light_copies_are_found_and_kept_apart(tmp_path):
    """Real short Japanese texts (tests/data/cjk_notes/ja.txt), 40 of them, with a one-word
    edit, a title, a Japanese banner above, lines folded at 40 columns, a Shift-JIS copy and a
    DOCX copy (owncorpus.build_short; the footer is left out, as for the Chinese texts above).
    No two texts meet, and the copies of one text are found: 0.94 (0.85 while every kana was a
    word: the banner copy was left out of its family). What is missed is the edited copy of the
    shortest texts, mostly kana around seven or eight words, where one word is a quarter of the
    word pairs."""
    recall, missed, false = _family_scan(tmp_path, owncorpus.cjk_notes("ja")[:40], footer=False)
    assert any(name.endswith("legacy.txt") for name in os.listdir(tmp_path / "docs"))
    assert not false, false
    assert recall >= 0.93, (recall, missed)


def test_real_short_texts_in_scripts_with_combining_marks_are_found_and_kept_apart(tmp_path):
    """Real short texts in Thai, Hindi, Bengali, Arabic and Hebrew (tests/data/script_notes:
    help texts and messages of 10-60 words, in Thai 40-200 letters), 20 of each, with a
    one-word edit, a title, a banner, lines wrapped at 40 columns and a DOCX copy (the footer
    left out, as for the Japanese texts above). Thai writes no spaces between words: a run of
    its letters was one token, cut at every vowel or tone mark, and one edited word changed a
    long run; the edited copy fell out of its family in 31 of 150 texts (recall 0.931). Arabic
    words were cut at their optional vowel marks (0.991)."""
    paragraphs = [
        text
        for language in ("th", "hi", "bn", "ar", "he")
        for text in owncorpus.script_notes(language)[:20]
    ]
    recall, missed, false = _family_scan(tmp_path, paragraphs, footer=False)
    assert not false, false
    assert recall >= 0.99, (recall, missed)


def test_real_notes_of_a_few_words_and_their_light_copies_are_found_and_kept_apart(tmp_path):
    """Real sentences of 8-16 words (36 of them, from manual pages in thirteen languages:
    owncorpus.short_sentences), each with a one-word edit, a title, a banner above, lines
    wrapped at 40 columns, a copy in its legacy encoding and a DOCX copy (the footer left out,
    as for the notes above). A note of seven content words has six word pairs, and one word
    replaced takes two of them (67 %, under the threshold): the edited copy fell out of its
    family in 6 or 7 of the 36 (recall 0.936). Counted in words, in order, it keeps six words of
    seven (86 %), and no two different sentences meet."""
    sentences = owncorpus.short_sentences(36)
    assert len(sentences) == 36 and max(len(s.split()) for s in sentences) <= 16
    recall, missed, false = _family_scan(tmp_path, sentences, footer=False)
    assert not false, false
    assert recall >= 0.98, missed


def test_notes_with_a_footer_as_long_as_themselves_are_found_through_the_index(tmp_path):
    """Real sentences of 8-16 words, each with the light copies of the test above and a copy
    above the same footer ("Sent from my phone..."), as long as the note. The copy under the
    banner and the copy above the footer leave out more than a third of each other, which two
    documents alone cannot tell from two different notes with one line above one and below the
    other; the index can: the banner and the footer are each in 36 texts, each note's line in a
    few. Before: recall 0.78 on 150 such sentences, the footer copy out of every family."""
    sentences = [s for s in owncorpus.short_sentences(150) if not owncorpus.short_language(s)]
    sentences = sentences[:36]  # the languages whose copies get the English banner and footer
    assert len(sentences) == 36
    recall, missed, false = _family_scan(tmp_path, sentences)
    assert not false, false
    assert recall >= 0.98, missed
    # the figures the diff shows are the group's (Service.pair_similarity asks the index too)
    with DedupService(tmp_path / "index.sqlite") as service:
        same = 0
        for group in service.groups():
            ref = group.members[0]
            for member in group.members[1:]:
                shown = service.pair_similarity(ref.doc_id, member.doc_id)
                assert shown == pytest.approx(member.similarity, abs=1e-4), member.path
            ids = {Path(m.path).name.split("-")[1]: m.doc_id for m in group.members}
            if "banner.txt" in ids and "footer.txt" in ids:
                same += service.pair_similarity(ids["banner.txt"], ids["footer.txt"]) >= 0.75
    assert same >= 34, same


def test_a_footer_is_one_line_of_the_index_whatever_note_it_is_below():
    """Real short Chinese and Japanese help texts (tests/data/cjk_notes), each above the
    footer of its language: the footer's line id (sketch.line_ids, what the index counts to
    tell a footer from a note) is the footer's own under every note. Each token went to a line
    by counting each line's tokens, so after a word the whole text joins across a line break
    (ディレクトリ at a line's end, スタック at the next one's start) every later line took a
    token of the next, and the footer under 19 of these 450 notes was a line of its own. Now a
    token goes with the line it begins in: 5 (their last word and the footer's first make
    one word of the text: 为假 + 发自 reads 假发, ステータス + スマートフォン one katakana
    word)."""
    moved = 0
    for language in ("zh_CN", "zh_TW", "ja"):
        footer = owncorpus.SHORT_STYLES[language[:2]][1]
        own = sketch.line_ids(_sketch(footer)).tolist()
        assert len(own) == 1
        for note in owncorpus.cjk_notes(language)[:150]:
            moved += sketch.line_ids(_sketch(f"{note}\n\n{footer}")).tolist()[-1:] != own
    assert moved <= 5, moved


def test_a_japanese_note_above_a_footer_is_a_copy_of_the_note_under_a_banner(tmp_path):
    """A real Japanese help text whose first line ends inside a katakana word the next line
    finishes (ディレクトリ / スタック), with copies under the Japanese banner and above the
    Japanese footer, among seven other notes with the same two copies: the index tells the
    banner and the footer from the notes (each in eight texts), so the two copies are one
    document. Before, the note's footer was not the footer's line in the index (see above),
    and its footer copy was left out of its family."""
    banner, footer, _, _ = owncorpus.SHORT_STYLES["ja"]
    notes = owncorpus.cjk_notes("ja")[1:9]
    assert "ディレクトリ\nスタック" in notes[0]
    folder = tmp_path / "docs"
    folder.mkdir()
    for i, note in enumerate(notes):
        docgen.write_txt(folder / f"n{i}-orig.txt", note)
        docgen.write_txt(folder / f"n{i}-banner.txt", f"{banner}\n\n{note}")
        docgen.write_txt(folder / f"n{i}-footer.txt", f"{note}\n\n{footer}")
    groups = _scan(folder, tmp_path)
    assert {"n0-orig.txt", "n0-banner.txt", "n0-footer.txt"} in groups, groups
    assert all(len({name.split("-")[0] for name in g}) == 1 for g in groups), groups


def test_a_line_above_some_notes_and_below_others_never_joins_two_of_them(tmp_path):
    """The other side of the rule above: 24 real sentences, each alone, under a banner, above
    the same banner and under a title. Each pair of two notes, the banner below one and above
    the other, leaves out both notes and keeps the banner (100 % alike); the banner is in 48
    texts, each note in 4, so the index says the banner is what they share, not what was
    added, and no two notes meet."""
    folder = tmp_path / "docs"
    folder.mkdir()
    for i, text in enumerate(owncorpus.short_sentences(24)):
        docgen.write_txt(folder / f"n{i}-orig.txt", text)
        docgen.write_txt(folder / f"n{i}-above.txt", f"{BANNER_EN}\n\n{text}")
        docgen.write_txt(folder / f"n{i}-below.txt", f"{text}\n\n{BANNER_EN}")
        docgen.write_txt(folder / f"n{i}-title.txt", f"Note\n\n{text}")
    groups = _scan(folder, tmp_path)
    assert sum(len(g) for g in groups) >= 80, groups  # the copies are found
    for group in groups:
        assert len({name.split("-")[0] for name in group}) == 1, group
    # nor would any such pair, were the notes' families not there to take them first
    with DedupService(tmp_path / "index.sqlite") as service:
        rows = {Path(r.path).name: r.id for r in service.store.grouping_rows()}
        for i, j in itertools.permutations(range(24), 2):
            share = service.pair_similarity(rows[f"n{i}-below.txt"], rows[f"n{j}-above.txt"])
            assert share < 0.75, (i, j, share)


def _far_apart(texts: list[str]) -> list[str]:
    """Of ``texts``, in order, those that share under 40 % of any earlier one's words in order
    (of the shorter one's; a Chinese character counts as a word): texts that no rule of "the
    same document" may take for one, whatever they share besides (short_sentences keeps
    sentences that share under half of their words in any order, so a Spanish and a Portuguese
    description of one command, 5 words of 10 in order, may both be among them)."""

    def words(text: str) -> list[str]:
        return re.findall(r"[\u4e00-\u9fff]|[^\W\d_]+", text.lower())

    kept: list[tuple[str, list[str]]] = []
    for text in texts:
        w = words(text)
        if all(_lcs(w, v) < 0.4 * min(len(w), len(v)) for _, v in kept):
            kept.append((text, w))
    return [t for t, _ in kept]


def _lcs(a: list[str], b: list[str]) -> int:
    row = [0] * (len(b) + 1)
    for x in a:
        diagonal = 0
        for j, y in enumerate(b):
            diagonal, row[j + 1] = row[j + 1], diagonal + 1 if x == y else max(row[j], row[j + 1])
    return row[-1]


def _under_disclaimer(folder: Path, texts: list[str], language: str = "en") -> None:
    """Each of ``texts`` as a mail of its own, the disclaimer below it (n{i}-mail.txt); the
    first eight also under the disclaimer with one word changed (n{i}-edited.txt) and with a
    title (n{i}-title.docx): its copies."""
    folder.mkdir()
    disclaimer = owncorpus.DISCLAIMER[language]
    title = "通知" if language == "zh" else "Note"
    for i, text in enumerate(texts):
        docgen.write_txt(folder / f"n{i}-mail.txt", f"{text}\n\n{disclaimer}")
        if i < 8:
            edited = owncorpus.one_word_changed(text)
            docgen.write_txt(folder / f"n{i}-edited.txt", f"{edited}\n\n{disclaimer}")
            docgen.write_docx(folder / f"n{i}-title.docx", f"{title}\n\n{text}\n\n{disclaimer}")


@pytest.mark.parametrize("language", ["en", "zh"])
def test_different_notes_under_one_long_disclaimer_are_not_grouped(tmp_path, language):
    """Forty real sentences of 8-16 words (Chinese help texts of 40-150 characters; _far_apart),
    each a mail above a company's disclaimer of 50 words (70 characters): most of each file is
    the disclaimer, so two of them shared over 80 % of their word pairs and were grouped (754 of
    the 759 such pairs of 150 sentences). The index holds the disclaimer's lines in every
    mail and each note's in its copies only: left without it, two notes are two texts. A
    note's copies under the disclaimer, one word changed or a title added in a DOCX, are still
    its copies."""
    texts = _far_apart(
        owncorpus.short_sentences(60) if language == "en" else owncorpus.cjk_notes("zh_CN")[:60]
    )[:40]
    assert len(texts) == 40
    _under_disclaimer(tmp_path / "docs", texts, language)
    groups = _scan(tmp_path / "docs", tmp_path)
    for group in groups:
        assert len({name.split("-")[0] for name in group}) == 1, group
    found = sum(
        {f"n{i}-mail.txt", f"n{i}-edited.txt", f"n{i}-title.docx"} <= g
        for i in range(8)
        for g in groups
    )
    assert found >= 7, groups


def test_notes_grouped_while_their_disclaimer_was_rare_part_once_it_is_common(tmp_path):
    """The incremental regroup asks the index's counts as they are now: six notes under one
    disclaimer (in six texts: not yet boilerplate, so they are grouped as alike as the
    disclaimer makes them), then fourteen more mails scanned. The earlier notes are candidates
    of the new ones, so their groups are verified again, and no group holds two notes; the
    groups are those a full regroup makes."""
    disclaimer = owncorpus.DISCLAIMER["en"]
    notes = _far_apart(owncorpus.short_sentences(60))[:20]
    folder = tmp_path / "docs"
    folder.mkdir()
    with DedupService(tmp_path / "index.sqlite") as service:
        service.add_folder(folder)
        for batch in (range(6), range(6, 20)):
            for i in batch:
                docgen.write_txt(folder / f"n{i}-mail.txt", f"{notes[i]}\n\n{disclaimer}")
            service.scan()
            groups = [{Path(m.path).name for m in g.members} for g in service.groups()]
            if batch[0] == 0:
                assert any(len(g) > 1 for g in groups), groups  # rare yet: alike
        assert groups == [], groups  # each note is a text of its own
        incremental = sorted(sorted(g) for g in groups)
        service.regroup()
        full = sorted(sorted(Path(m.path).name for m in g.members) for g in service.groups())
    assert incremental == full


def test_a_disclaimer_is_boilerplate_only_when_many_texts_hold_it_and_more_than_the_notes():
    """shares_only_boilerplate with the index's counts: two notes under one disclaimer are two
    documents when the disclaimer is in BOILERPLATE_MIN_TEXTS texts or more and twice as many
    as either note; not when it is in fewer (a note saved under two banners of its own, each
    in a few texts), nor when a note is in as many; never for a note and its copy with a word
    changed, nor for a note of fewer than MIN_NEAR_WORDS content words (a name)."""
    disclaimer = owncorpus.DISCLAIMER["en"]
    note_a = "Please water the balcony plants twice a day while I am away next week."
    note_b = "The quarterly figures are due on Friday; send them to the finance team."
    a, b = _sketch(f"{note_a}\n\n{disclaimer}"), _sketch(f"{note_b}\n\n{disclaimer}")
    edited = _sketch(f"{note_a.replace('balcony', 'terrace')}\n\n{disclaimer}")
    name_a = _sketch(f"Dear Ann Smith,\n\n{disclaimer}")
    name_b = _sketch(f"Dear Bob Jones,\n\n{disclaimer}")
    (line_a, line_d), (line_b, _) = sketch.line_ids(a).tolist(), sketch.line_ids(b).tolist()
    assert sketch.verified_similarity(a, b, 0.75) >= 0.75  # alone, the pair cannot tell
    for counts, apart in (
        ({line_d: 40, line_a: 1, line_b: 1}, True),
        ({line_d: 10, line_a: 5, line_b: 1}, True),
        ({line_d: 9, line_a: 1, line_b: 1}, False),  # in nine texts: not boilerplate
        ({line_d: 40, line_a: 21, line_b: 1}, False),  # a note in over half as many
    ):
        index = lambda ids, counts=counts: {i: counts[i] for i in ids if i in counts}  # noqa: E731
        assert sketch.shares_only_boilerplate(a, b, index) is apart, counts
        share = sketch.verified_similarity(a, b, 0.75, index)
        assert (share == 0.0) if apart else (share >= 0.75), (counts, share)
    index = lambda ids: {line_d: 40}  # noqa: E731  (the disclaimer in 40 texts, each line in 1)
    assert not sketch.shares_only_boilerplate(a, edited, index)
    assert sketch.verified_similarity(a, edited, 0.75, index) >= 0.75
    assert not sketch.shares_only_boilerplate(name_a, name_b, index)
    assert not sketch.shares_only_boilerplate(a, _sketch(note_a), index)  # nothing shared


def test_a_note_alone_is_its_copy_under_a_disclaimer_only_when_many_texts_hold_it():
    """left_out_boilerplate_similarity with the index's counts: a note alone and the same note
    as a mail above a disclaimer of 50 words share 34 % of their word pairs (the disclaimer is
    most of the mail, no edge line a trim may leave out). With the disclaimer in
    BOILERPLATE_MIN_TEXTS texts or more and twice as many as the note, the mail without it is
    the note: the same, with one word of the note changed too. Not when the disclaimer is in
    fewer texts, nor when the note is in over half as many; never for a mail that holds the
    note and another note of its own (a line in a few texts), nor for another note alone, nor
    for a name of a few words, nor for such a line inside the text; and the pair alone,
    without an index, cannot tell."""
    disclaimer = owncorpus.DISCLAIMER["en"]
    note = "Please water the balcony plants twice a day while I am away next week."
    other = "The quarterly figures are due on Friday; send them to the finance team."
    alone, mail = _sketch(note), _sketch(f"{note}\n\n{disclaimer}")
    edited = _sketch(note.replace("balcony", "terrace"))
    line_note, line_d = sketch.line_ids(mail).tolist()
    (line_other,) = sketch.line_ids(_sketch(other)).tolist()

    def index(counts: dict[int, int]):
        return lambda ids: {i: counts[i] for i in ids if i in counts}

    assert sketch.verified_similarity(alone, mail, 0.75) < 0.5  # alone, the pair cannot tell
    for counts, same in (
        ({line_d: 40, line_note: 2}, True),
        ({line_d: 10, line_note: 5}, True),
        ({line_d: 9, line_note: 2}, False),  # in nine texts: not boilerplate
        ({line_d: 40, line_note: 21}, False),  # the note in over half as many
    ):
        for a, b in ((alone, mail), (mail, alone), (edited, mail)):
            share = sketch.verified_similarity(a, b, 0.75, index(counts))
            assert (share >= 0.85) if same else (share < 0.75), (counts, share)
        # what the diff shows (no threshold) is what the grouping verified
        assert (sketch.verified_similarity(alone, mail, 0.0, index(counts)) == 1.0) is same
    # a line many texts hold inside the text is its text (a changelog's "New upstream
    # release." between the heading and the signature), not a disclaimer glued to it
    second = "The spare key is under the blue flower pot beside the garden door."
    two_lines = _sketch(f"{note}\n\n{second}")
    inside, below = (
        _sketch(f"{note}\n\n{disclaimer}\n\n{second}"),
        _sketch(f"{note}\n\n{second}\n\n{disclaimer}"),
    )
    assert sketch.verified_similarity(two_lines, inside, 0.75, index({line_d: 40})) < 0.75
    assert sketch.verified_similarity(two_lines, below, 0.75, index({line_d: 40})) == 1.0
    common = index({line_d: 40, line_note: 2, line_other: 3})
    assert sketch.verified_similarity(_sketch(other), mail, 0.75, common) < 0.75
    name = "Dear Ann Smith,"
    (line_name, _) = sketch.line_ids(_sketch(f"{name}\n\n{disclaimer}")).tolist()
    counts = index({line_d: 40, line_name: 2})
    assert (
        sketch.verified_similarity(_sketch(name), _sketch(f"{name}\n\n{disclaimer}"), 0.75, counts)
        == 0
    )


def test_a_note_under_two_disclaimers_is_one_document_only_when_many_texts_hold_each():
    """The same note sent from two companies, each mail with its own disclaimer of 50 words
    below it (or above): each side has a line the other lacks, so neither keeps every line;
    the two share a third of their word pairs. With each disclaimer in BOILERPLATE_MIN_TEXTS
    texts or more and twice as many as the note, the two without them are the note: the
    same, with one word of one copy changed too. Not when one disclaimer is in fewer texts,
    nor when the note is in over half as many; never for two different notes, nor for a
    mail that also holds another note, nor for a disclaimer inside the text."""
    disclaimer, theirs = owncorpus.DISCLAIMER["en"], owncorpus.OTHER_DISCLAIMER["en"]
    note = "Please water the balcony plants twice a day while I am away next week."
    other = "The quarterly figures are due on Friday; send them to the finance team."
    second = "The spare key is under the blue flower pot beside the garden door."
    mail_a = _sketch(f"{note}\n\n{disclaimer}")
    mail_b = _sketch(f"{note}\n\n{theirs}")
    above_b = _sketch(f"{theirs}\n\n{note}")
    edited_b = _sketch(f"{note.replace('balcony', 'terrace')}\n\n{theirs}")
    line_note, line_a = sketch.line_ids(mail_a).tolist()
    _, line_b = sketch.line_ids(mail_b).tolist()
    (line_other,) = sketch.line_ids(_sketch(other)).tolist()
    (line_second,) = sketch.line_ids(_sketch(second)).tolist()

    def index(counts: dict[int, int]):
        return lambda ids: {i: counts[i] for i in ids if i in counts}

    assert sketch.verified_similarity(mail_a, mail_b, 0.0) < 0.5  # alone, the pair cannot tell
    for counts, same in (
        ({line_a: 40, line_b: 30, line_note: 2}, True),
        ({line_a: 10, line_b: 10, line_note: 5}, True),
        ({line_a: 40, line_b: 9, line_note: 2}, False),  # one in nine texts: not boilerplate
        ({line_a: 40, line_b: 30, line_note: 16}, False),  # the note in over half as many
    ):
        for a, b in ((mail_a, mail_b), (mail_b, mail_a), (mail_a, above_b), (edited_b, mail_a)):
            share = sketch.verified_similarity(a, b, 0.75, index(counts))
            assert (share >= 0.85) if same else (share < 0.75), (counts, share)
        # what the diff shows (no threshold) is what the grouping verified
        assert (sketch.verified_similarity(mail_a, mail_b, 0.0, index(counts)) == 1.0) is same
    common = index({line_a: 40, line_b: 30, line_note: 2, line_other: 2, line_second: 1})
    other_b = _sketch(f"{other}\n\n{theirs}")
    assert sketch.verified_similarity(mail_a, other_b, 0.0, common) < 0.5
    both_notes = _sketch(f"{note}\n\n{second}\n\n{theirs}")
    assert sketch.verified_similarity(mail_a, both_notes, 0.75, common) < 0.75
    inside = _sketch(f"{note}\n\n{theirs}\n\n{second}")
    two_lines_a = _sketch(f"{note}\n\n{second}\n\n{disclaimer}")
    assert sketch.verified_similarity(two_lines_a, inside, 0.75, common) < 0.75


# Real notes of three kinds, as the disclaimer tests take them: paragraphs of 20-60 words,
# sentences of 8-16 words, Chinese help texts of 40-150 characters.
_NOTE_SETS = pytest.mark.parametrize(
    ("language", "texts"),
    [
        ("en", lambda: owncorpus.short_paragraphs(60)),
        ("en", lambda: owncorpus.short_sentences(60)),
        ("zh", lambda: owncorpus.cjk_notes("zh_CN")[:60]),
    ],
    ids=["paragraphs", "sentences", "chinese"],
)


@_NOTE_SETS
def test_notes_alone_are_found_with_their_copies_under_a_common_disclaimer(
    tmp_path, language, texts
):
    """Forty real notes far apart, each a mail above a company's disclaimer of 50 words (70
    characters), and ten of them alone too, as a Word file: a scan groups each note alone with
    its mail (none of them, three of 40 paragraphs, before the index told the disclaimer from
    the note), and no group holds two notes. A sentence of 8 words is a few of the mail's word
    pairs: 37 of 40 were found (nine of these ten) while the mail's only keys were those of its
    whole text and of the text without its note (sketch.candidate_keys); all, now that its
    edge lines are keyed too (sketch.edge_keys)."""
    notes = _far_apart(texts())[:40]
    assert len(notes) == 40
    folder = tmp_path / "docs"
    _under_disclaimer(folder, notes, language)
    for i in range(10):
        docgen.write_docx(folder / f"n{20 + i}-alone.docx", notes[20 + i])
    groups = _scan(folder, tmp_path)
    for group in groups:
        assert len({name.split("-")[0] for name in group}) == 1, group
    found = sum({f"n{i}-mail.txt", f"n{i}-alone.docx"} <= g for i in range(20, 30) for g in groups)
    assert found == 10, groups


@_NOTE_SETS
def test_notes_are_found_with_their_copies_under_another_disclaimer(tmp_path, language, texts):
    """Forty real notes far apart, each a mail above one company's disclaimer, and twenty of
    them also as a Word file above another company's (above it, for the last ten): a scan
    groups each such pair (none of them before the two could each leave out their own
    disclaimer; of the sentences, 18 of 20 before the mails' edge lines were keyed too,
    sketch.edge_keys), and no group holds two notes."""
    notes = _far_apart(texts())[:40]
    assert len(notes) == 40
    folder = tmp_path / "docs"
    _under_disclaimer(folder, notes, language)
    other = owncorpus.OTHER_DISCLAIMER[language]
    for i in range(10, 30):
        parts = [notes[i], other] if i < 20 else [other, notes[i]]
        docgen.write_docx(folder / f"n{i}-other.docx", "\n\n".join(parts))
    groups = _scan(folder, tmp_path)
    for group in groups:
        assert len({name.split("-")[0] for name in group}) == 1, group
    found = sum({f"n{i}-mail.txt", f"n{i}-other.docx"} <= g for i in range(10, 30) for g in groups)
    assert found == 20, groups


def _half_disclaimer_notes(count: int) -> list[str]:
    """``count`` real notes of 26-34 words: about half as long as a disclaimer."""
    notes = [p for p in owncorpus.short_paragraphs(200) if 26 <= len(p.split()) <= 34][:count]
    assert len(notes) == count
    return notes


def _notes_under_two_disclaimers(count: int) -> dict[str, str]:
    """``count`` notes (_half_disclaimer_notes), each, and each with two words added, as a
    mail above one company's disclaimer and above another's: four texts per note,
    n{i}-{a,b}{,-added}.txt."""
    notes = _half_disclaimer_notes(count)
    texts = {}
    for i, note in enumerate(notes):
        for added, text in (("", note), ("-added", f"{note} Thanks again.")):
            for side, disclaimer in (
                ("a", owncorpus.DISCLAIMER),
                ("b", owncorpus.OTHER_DISCLAIMER),
            ):
                texts[f"n{i}-{side}{added}.txt"] = f"{text}\n\n{disclaimer['en']}"
    return texts


def test_a_family_of_notes_under_two_disclaimers_keeps_each_notes_copies_together(tmp_path):
    """Eight real notes, each above one company's disclaimer and above another's, with and
    without two words added: each note's four mails are one document (each leaves out its
    disclaimer, which 16 texts hold: left_out_boilerplate_similarity), different notes apart.
    All 32 are one family of candidates (through the disclaimers), which grouping splits where
    no pair across two parts can be the same (_split_family, from bounds of every pair's share:
    _share_bounds). Those bounds took the text a view may leave out of a short document to be
    its tagged edge lines; a disclaimer too long to be peeled is none, so a note under one
    disclaimer and under the other was bounded at 0.49-0.52 and verified 1.0, and the family
    was split into 16 groups of two, each note's two mails under one disclaimer apart from
    the two under the other."""
    folder = tmp_path / "docs"
    folder.mkdir()
    texts = _notes_under_two_disclaimers(8)
    for name, text in texts.items():
        docgen.write_txt(folder / name, text)
    families = []
    real = grouping._split_family
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(
            grouping,
            "_split_family",
            lambda family, *a: families.append(family) or real(family, *a),
        )
        groups = _scan(folder, tmp_path)
    assert [len(f) for f in families] == [32]  # the split is tried on the whole family
    assert sorted(sorted(g) for g in groups) == [
        sorted(name for name in texts if name.startswith(f"n{i}-")) for i in range(8)
    ]


def test_a_split_familys_bounds_never_fall_below_a_share_leaving_out_boilerplate():
    """_share_bounds of notes under two disclaimers and the notes alone, with the index's
    counts (each disclaimer in 16 texts): every pair's bound reaches the share its verification
    answers, the views that leave out boilerplate lines too."""
    texts = _notes_under_two_disclaimers(8)
    notes = [t.split("\n\n")[0] for name, t in texts.items() if name.endswith("-a.txt")]
    sks = [_sketch(t) for t in [*texts.values(), *notes[:4]]]
    counts: dict[int, int] = {}
    for s in sks:
        for line in s.line_id_set:
            counts[line] = counts.get(line, 0) + 1
    assert max(counts.values()) == 16

    def index(ids):
        return {i: counts[i] for i in ids if i in counts}

    note_of = [int(name[1 : name.index("-")]) for name in texts] + list(range(4))
    bounds = grouping._share_bounds(sks, 0.75, index)
    for a, b in itertools.combinations(range(len(sks)), 2):
        share = sketch.verified_similarity(sks[a], sks[b], 0.75, index)
        assert bounds[a, b] >= share, (a, b, float(bounds[a, b]), share)
        assert (share >= 0.75) is (note_of[a] == note_of[b]), (a, b, share)


def test_a_split_familys_bounds_keep_the_lines_every_member_holds():
    """Notes under one disclaimer that 32 texts hold, each with and without two words added: a
    line every member of a family holds is never left out of a pair of them (only a line the
    other lacks is), so the bounds of different notes stay those of their whole texts, below
    the threshold, and the family can be cut; taken as boilerplate either side may leave out,
    the disclaimer's words would bound every pair above 1 and the family be verified pair by
    pair."""
    notes = _half_disclaimer_notes(8)
    texts = [
        f"{text}\n\n{owncorpus.DISCLAIMER['en']}"
        for note in notes
        for text in (note, f"{note} Thanks again.")
    ]
    sks = [_sketch(t) for t in texts]
    lines = set().union(*(s.line_id_set for s in sks))

    def index(ids):  # as if each text were there twice
        return {i: 2 * sum(i in s.line_id_set for s in sks) for i in ids if i in lines}

    assert max(index(sorted(lines)).values()) == 32
    bounds = grouping._share_bounds(sks, 0.75, index)
    for a, b in itertools.combinations(range(len(sks)), 2):
        share = sketch.verified_similarity(sks[a], sks[b], 0.75, index)
        assert bounds[a, b] >= share, (a, b, float(bounds[a, b]), share)
        if a // 2 != b // 2:
            assert bounds[a, b] < 0.75 - grouping._BOUND_MARGIN, (a, b, float(bounds[a, b]))


def test_a_note_under_a_disclaimer_shares_keys_with_the_note_alone():
    """A sentence of eight words under a disclaimer six times as long: the smallest values of
    the mail are the disclaimer's, and so are those of its text without its edge lines, so
    its candidate keys held one or none of the note's word pairs in 3 of these 40. With its
    edge keys (its edge lines' smallest values: the note), it shares MIN_SHARED_KEYS keys or
    more with the note alone and with the note under another company's disclaimer, through
    keys the note's few copies alone hold."""
    notes = _far_apart(owncorpus.short_sentences(150))[:40]
    assert len(notes) == 40
    disclaimer, other = owncorpus.DISCLAIMER["en"], owncorpus.OTHER_DISCLAIMER["en"]

    def keys(text: str) -> set[int]:
        sk = _sketch(text)
        return set(sketch.candidate_keys(sk).tolist()) | set(sketch.edge_keys(sk).tolist())

    short = []
    for note in notes:
        mail = keys(f"{note}\n\n{disclaimer}")
        for copy in (note, f"{other}\n\n{note}"):
            if len(mail & keys(copy)) < grouping.MIN_SHARED_KEYS:
                short.append((note, copy))
    assert not short


def test_edge_keys_are_stored_after_the_candidate_keys_and_read_back():
    """A short document's edge keys are its edge lines' smallest values that are none of its
    candidate keys, EDGE_KEYS slots after those (the last repeated), read back from the stored
    bytes as one key each; a document without edge lines or a long one has none."""
    disclaimer = owncorpus.DISCLAIMER["en"]
    note = "Lunch moved to Friday because the caterer cancelled"
    sk = _sketch(f"{note}\n\n{disclaimer}")
    regular, edge = sketch.candidate_keys(sk), sketch.edge_keys(sk)
    assert 0 < len(edge) <= sketch.EDGE_KEYS
    assert not set(edge.tolist()) & set(regular.tolist())
    assert set(edge.tolist()) <= set(_sketch(note).values.tolist())  # the note's word pairs
    raw = sk.to_bytes()
    assert sketch.raw_candidate_keys(raw) == [*regular.tolist(), *edge.tolist()]
    assert sketch.TextSketch.from_bytes(raw).values.tolist() == sk.values.tolist()
    long_text = " ".join(owncorpus.short_paragraphs(60))
    assert len(sketch.edge_keys(_sketch(long_text))) == 0


def test_mails_that_share_a_signature_are_not_candidates_through_it():
    """Thirty different notes from one sender, each ending in the sender's two-line
    signature, and three of them saved alone: the signature is an edge line of every mail, so
    its word pairs are edge keys, but thirty documents hold them, more than
    grouping.EDGE_KEY_POSTINGS: they propose no pair (had they proposed as candidate keys do,
    every pair of mails would be verified: 435 here, 19,677 for 18 senders of 50). The note
    alone still finds its mail, and no group holds two notes."""
    notes = _far_apart(owncorpus.short_paragraphs(120))[:30]
    assert len(notes) == 30
    signature = "Elena Rossi\nNorthwind Ltd, sales department"
    texts = [f"{note}\n\n{signature}" for note in notes] + notes[:3]
    items = grouping_items(texts)
    with pytest.MonkeyPatch.context() as mp:
        verified = count_verifications(mp)
        groups = build_groups(items, 0.75)
    assert len(verified) < 60, len(verified)
    assert sorted(sorted(m.doc_id for m in g.members) for g in groups) == [
        [i, 30 + i] for i in range(3)
    ]


def test_notes_saved_later_join_their_mails_through_the_key_index(tmp_path):
    """Forty real sentences of eight to sixteen words as mails under a disclaimer, six of
    them away and saved alone as Word files instead, scanned; then the six mails come back
    and five other notes are saved alone: the rescan looks the new documents up through the
    index's key table (no fingerprint of the index reloaded) and groups each note with its
    mail, whether the note or the mail, whose edge keys hold the note, came later. Three of
    these mails share fewer than MIN_SHARED_KEYS candidate keys with their note: only their
    edge keys join them."""
    notes = _far_apart(owncorpus.short_sentences(150))[:40]
    disclaimer = owncorpus.DISCLAIMER["en"]
    later_mails, later_notes = range(6), range(20, 25)
    joined_by_edges = [
        i
        for i in (*later_mails, *later_notes)
        if len(
            np.intersect1d(
                sketch.candidate_keys(_sketch(notes[i])),
                sketch.candidate_keys(_sketch(f"{notes[i]}\n\n{disclaimer}")),
            )
        )
        < grouping.MIN_SHARED_KEYS
    ]
    assert len(joined_by_edges) >= 2 and min(joined_by_edges) in later_mails, joined_by_edges
    folder = tmp_path / "docs"
    _under_disclaimer(folder, notes)
    for i in later_mails:
        (folder / f"n{i}-mail.txt").rename(tmp_path / f"n{i}-mail.txt")
        # (its copies with a title, which few texts hold, are a note the note alone is not)
        (folder / f"n{i}-edited.txt").unlink()
        (folder / f"n{i}-title.docx").unlink()
        docgen.write_docx(folder / f"n{i}-alone.docx", notes[i])
    with DedupService(tmp_path / "index.sqlite") as service:
        service.add_folder(folder)
        service.scan()
        for i in later_notes:
            docgen.write_docx(folder / f"n{i}-alone.docx", notes[i])
        for i in later_mails:
            (tmp_path / f"n{i}-mail.txt").rename(folder / f"n{i}-mail.txt")
        with grouping_loads(service.store) as loads:
            service.scan()
        assert loads and None not in loads, "the rescan reloaded every fingerprint"
        groups = [{Path(m.path).name for m in g.members} for g in service.groups()]
    pairs = [{f"n{i}-mail.txt", f"n{i}-alone.docx"} for i in (*later_mails, *later_notes)]
    missed = [pair for pair in pairs if not any(pair <= g for g in groups)]
    assert not missed, groups


def test_a_family_under_one_disclaimer_is_never_taken_whole(tmp_path):
    """A family of alike documents is one group when its pairs are provably the same from its
    first member's (grouping._certified_family). The bare disclaimer is the same as each note
    under it (a note is a title added to it), but two notes under it are two documents: the
    family must not be taken whole, and its groups are those of verifying every pair; a mail
    merge's letters under the disclaimer (each its own name) still are one family."""
    disclaimer = owncorpus.DISCLAIMER["en"]
    own = set(re.findall(r"\w+", disclaimer.lower()))  # notes that share no word with it
    notes = [
        s
        for s in owncorpus.short_sentences(150)
        if s.isascii() and len(s.split()) <= 12 and not own & set(re.findall(r"\w+", s.lower()))
    ][:12]
    assert len(notes) == 12
    texts = [f"{disclaimer} {disclaimer}"] + [
        f"{note}\n\n{disclaimer} {disclaimer}" for note in notes
    ]
    items = grouping_items(texts)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(grouping, "FAMILY_MIN_CLASSES", 3)
        families = build_groups(items, 0.75)
        mp.setattr(grouping, "FAMILY_MIN_CLASSES", 10**9)
        pairwise = build_groups(items, 0.75)
    assert families == pairwise
    for group in families:
        assert sum(m.doc_id >= 1 for m in group.members) <= 1, group
    names = [
        f"{first} {last}" for first in ("Ann", "Bob", "Cleo", "Dan") for last in ("Li", "Wu", "Ng")
    ]
    letters = grouping_items([f"Dear {name},\n\n{disclaimer} {disclaimer}" for name in names])
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(grouping, "FAMILY_MIN_CLASSES", 3)
        verified = count_verifications(mp)
        (group,) = build_groups(letters, 0.75)
    assert len(group.members) == len(names)
    assert len(verified) < len(names) * (len(names) - 1) // 2


def test_a_mail_merge_whose_address_lines_recur_is_still_taken_whole(tmp_path):
    """A mail merge's letters (bench_families' 240, twelve streets): the library's text is in
    every letter, and each street's address line, once its number is left out, in twenty, so
    the index holds both in ten texts or more. A first check, that every document holds the
    same such lines, refused the family its proof, and 1,000 letters took a scan 60 s or more
    instead of 1.4 s, their pairs verified one by one; two letters on one street keep a name
    alone once their street is left out, so no pair of them can be refused, and the family is
    taken whole."""
    from tests.bench.bench_families import write_letters

    write_letters(tmp_path / "letters", 240, 1)
    certified = []
    real = grouping._certified_family

    def spy(family, *args, **kwargs):
        found = real(family, *args, **kwargs)
        certified.append((len(family), found is not None))
        return found

    with DedupService(tmp_path / "index.sqlite") as service:
        service.add_folder(tmp_path / "letters")
        service.scan()
        groups = service.groups()
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(grouping, "_certified_family", spy)
            service.regroup()
    assert [len(g.members) for g in groups] == [240]
    assert any(size >= 200 and found for size, found in certified), certified


def test_a_family_is_shown_free_of_boilerplate_pairs_only_when_none_of_its_pairs_is_one():
    """none_share_only_boilerplate, which lets a family be taken whole, against every pair
    compared: it may say False for a family with no such pair (then the family is verified
    pair by pair), never True for one with such a pair. A mail merge's letters under the
    disclaimer, each with its addressee's name and address (their own words, half of them the
    same in order), are shown free without comparing their pairs, and so are letters whose
    address line is held by many texts too (a street's, once its numbers are left out: two
    letters on one street leave it out and keep a name alone); notes under it are not, nor are
    notes that each hold the disclaimer and half of them a footer held far more often (two of
    those leave out both and keep their notes); letters with another line common to some of
    them are left to the pairs."""
    disclaimer = owncorpus.DISCLAIMER["en"]
    streets = ["Pine", "Oak", "Maple", "Cedar", "Elm", "Birch", "Willow", "Ash"]
    names = ["Ann Li", "Bob Wu", "Cleo Ng", "Dan Ho", "Eve Ma", "Fay Yu", "Gus Ko", "Hal Xu"]
    letters = [
        f"Dear {name},\n\nYour address: {i + 10} {street} Street, Riverside.\n\n{disclaimer}"
        for i, (name, street) in enumerate(zip(names, streets, strict=True))
    ]
    notes = [f"{s}\n\n{disclaimer}" for s in owncorpus.short_sentences(40) if s.isascii()][:8]
    signed = [f"{t}\n\nKind regards from the Riverside library team" for t in letters[:5]]
    on_two_streets = [
        f"Dear {name},\n\nYour address: {i + 10} {street} Street, Riverside.\n\n{disclaimer}"
        for i, (name, street) in enumerate(zip(names, streets[:2] * 4, strict=True))
    ]
    footer = owncorpus.SHORT_FOOTER
    footed = [f"{t}\n\n{footer}" if i < 4 else t for i, t in enumerate(notes)]
    # how many texts of the index hold a line, where the texts below do not tell: a street's
    # address line in 30 letters, the disclaimer in 200; or in 20, and the footer in 100
    street = {f"Your address: 1 {s} Street, Riverside.": 30 for s in streets[:2]}
    cases = {
        "letters": (letters, True, {}),
        "letters on two streets": (on_two_streets, True, {**street, disclaimer: 200}),
        "notes": (notes, False, {}),
        "notes, half with a footer": (footed, False, {disclaimer: 20, footer: 100}),
        "letters and notes": (letters[:4] + notes[:4], False, {}),
        "signed letters": (signed + letters[5:], None, {}),
        "one note": ([notes[0], disclaimer], True, {}),
    }
    for name, (texts, expected, held) in cases.items():
        sks = [_sketch(t) for t in texts]
        counts: dict[int, int] = {}
        for s in sks:  # every line counted among these texts, twice over (as in an index)
            for i in set(sketch.line_ids(s).tolist()) - {0}:
                counts[i] = counts.get(i, 0) + 2
        for line, times in held.items():
            (line_id,) = sketch.line_ids(_sketch(line)).tolist()
            assert line_id in counts, (name, line)
            counts[line_id] = times

        def index(ids, counts=counts):
            return {i: counts[i] for i in ids if i in counts}

        free = sketch.none_share_only_boilerplate(sks, index)
        refused = [
            (i, j)
            for i, j in itertools.combinations(range(len(sks)), 2)
            if sketch.shares_only_boilerplate(sks[i], sks[j], index)
        ]
        assert not (free and refused), (name, refused)
        if expected is not None:
            assert free is expected, (name, refused)


def test_a_footer_copy_added_later_joins_its_family_through_the_index(tmp_path):
    """The incremental regroup asks the index too: notes scanned with their copies under a
    banner, then their copies above a footer added and scanned again."""
    folder = tmp_path / "docs"
    folder.mkdir()
    sentences = owncorpus.short_sentences(20)
    for i, text in enumerate(sentences):
        docgen.write_txt(folder / f"n{i}-banner.txt", f"{owncorpus.SHORT_BANNER}\n\n{text}")
    with DedupService(tmp_path / "index.sqlite") as service:
        service.add_folder(folder)
        service.scan()
        assert service.groups() == []
        for i, text in enumerate(sentences):
            docgen.write_txt(folder / f"n{i}-footer.txt", f"{text}\n\n{owncorpus.SHORT_FOOTER}")
        service.scan()
        groups = [{Path(m.path).name.split("-")[0] for m in g.members} for g in service.groups()]
    assert all(len(g) == 1 for g in groups), groups
    assert len(groups) >= 18, groups


def test_the_index_tells_a_banner_from_a_note_only_by_how_many_texts_hold_each():
    """two_sided_similarity with the index's counts (COMMON_LINE_MIN, COMMON_LINE_FACTOR): a
    note's copy under a banner and its copy above a footer, each added line as long as the
    note, are the same text when the banner and the footer are common and the note is not;
    not when the note is as common, nor when the banner and the footer are in two texts."""
    note = "Please water the balcony plants twice a day while I am away."
    a = _sketch(f"{owncorpus.SHORT_BANNER}\n\n{note}")
    b = _sketch(f"{note}\n\n{owncorpus.SHORT_FOOTER}")
    assert sketch.two_sided_similarity(a, b) == 0.0  # alone, the pair cannot tell
    (banner, line_a), (line_b, footer) = sketch.line_ids(a).tolist(), sketch.line_ids(b).tolist()
    assert line_a == line_b  # one line, one id, whatever surrounds it
    for counts, same in (
        ({banner: 30, footer: 12, line_a: 4}, True),
        ({banner: 30, footer: 12, line_a: 7}, False),  # the footer not twice as common
        ({banner: 2, footer: 2, line_a: 1}, False),  # in two texts: not common
        ({banner: 3, footer: 3, line_a: 1}, True),
        ({banner: 30, line_a: 2}, False),  # the footer in no other text
    ):
        index = lambda ids, counts=counts: {i: counts[i] for i in ids if i in counts}  # noqa: E731
        share = sketch.two_sided_similarity(a, b, 0.75, index)
        assert (share == 1.0) if same else (share == 0.0), counts
        assert sketch.verified_similarity(a, b, 0.75, index) >= 0.75 if same else True


# Real package descriptions (Debian's gir1.2-glib-2.0 and gir1.2-packagekitglib-1.0): two
# different documents built on one template, differing by runs of words, not a word here and
# there.
TEMPLATE_A = (
    "This package contains the introspection data for the GLib, GObject, GModule and Gio libraries."
)
TEMPLATE_B = "This package contains introspection data for the PackageKit GLib interface library."


def test_a_word_changed_in_a_short_note_is_counted_in_words_but_only_for_light_edits():
    note = "Water the balcony plants twice daily while travelling next week."
    one = note.replace("balcony", "terrace")
    two = one.replace("twice", "thrice")
    a, b, c = _sketch(note), _sketch(one), _sketch(two)
    assert len(a.words) == 8  # water, balcony, plants, twice, daily, travelling, next, week
    # Word pairs: one word replaced takes two of seven pairs (5 of 7 kept: 71 %); in words,
    # seven of eight are kept (88 %), the figure a person sees.
    assert sketch.similarity(a.values, len(a.values), b.values, len(b.values)) < 0.75
    assert sketch.verified_similarity(a, b) == pytest.approx(7 / 8)
    # Two words of eight are more than light edits: the word pairs decide (3 of 7 kept).
    assert sketch.word_similarity(a, c) == 0.0
    assert sketch.verified_similarity(a, c) < 0.75
    # So are two words exchanged: every word is still there, six of eight in order (75 %).
    swapped = _sketch("Water the week plants twice daily while travelling next balcony.")
    assert sorted(swapped.words.tolist()) == sorted(a.words.tolist())
    assert sketch.word_similarity(a, swapped) == 0.0
    assert sketch.verified_similarity(a, swapped) < 0.75
    # Two descriptions on one template share many words in order (11 of 15 with the footer
    # below both), but what differs is runs of words: not the same document.
    for footer in ("", f"\n\n{owncorpus.SHORT_FOOTER}"):
        x, y = _sketch(TEMPLATE_A + footer), _sketch(TEMPLATE_B + footer)
        assert sketch.word_similarity(x, y) == 0.0
        assert sketch.verified_similarity(x, y) < 0.75


def test_texts_of_a_few_words_are_near_duplicates_of_nothing(tmp_path):
    """A text of three content words or fewer is only ever the same as its own bytes or its
    own text. A number or a name with digits is no content word (changed numbers cost a
    longer text nothing), so "Chapter 1" and "Chapter 2", "Meeting with the design team at
    3pm" and "... at 5pm", or a package's list of modules "PySide6 / Shiboken" and another's
    "Shiboken / shiboken6" had the same words and were near duplicates, 100 % the same; one
    word more or less among three ("pytest timeout" and "timeout = pytest_timeout", 80 %)
    was a light edit. Among so few words any difference is a quarter of the text or more,
    which the corpus's definition calls different documents. Their copies stay one group,
    and a note of a few words more with a number changed is still its copy."""
    folder = tmp_path / "docs"
    texts = {
        "chapter-1.txt": "Chapter 1\n",
        "chapter-2.txt": "Chapter 2\n",
        "meeting-a.txt": "Meeting with the design team at 3pm\n",
        "meeting-b.txt": "Meeting with the design team at 5pm\n",
        "modules-a.txt": "PySide6\nShiboken\n",
        "modules-b.txt": "Shiboken\nshiboken6\n",
        "entry-a.txt": "pytest timeout\n",
        "entry-b.txt": "[pytest11]\ntimeout = pytest_timeout\n",
        "chapter-1-copy.txt": "Chapter 1\n",
        "note-a.txt": "Call the printer repair service about the broken toner drawer on floor 3\n",
        "note-b.txt": "Call the printer repair service about the broken toner drawer on floor 4\n",
    }
    for name, text in texts.items():
        docgen.write_txt(folder / name, text)
    groups = _scan(folder, tmp_path)
    assert sorted(map(sorted, groups)) == [
        ["chapter-1-copy.txt", "chapter-1.txt"],
        ["note-a.txt", "note-b.txt"],
    ], groups


@functools.cache
def _mail_parts() -> tuple[list[str], list[str]]:
    """Real notes of 20-40 words in several languages, and the lines a mail may carry above or
    below them: two companies' disclaimers, a banner and a phone's footer."""
    notes = [p for p in owncorpus.short_paragraphs(60) if len(p.split()) <= 40][:12]
    lines = [
        owncorpus.DISCLAIMER["en"],
        owncorpus.OTHER_DISCLAIMER["en"],
        owncorpus.SHORT_BANNER,
        owncorpus.SHORT_FOOTER,
    ]
    return notes, lines


@st.composite
def _mails(draw):
    """A folder of mails: six to ten notes, each copied several times, some copies with two
    words added or one replaced, each above one of two companies' disclaimers (which many of
    them hold); in some folders a few also under a banner or above a phone's footer."""
    notes, lines = _mail_parts()
    disclaimers, extras = lines[:2], lines[2:]
    chosen = draw(st.lists(st.sampled_from(notes), min_size=6, max_size=10, unique=True))
    banner, footer = extras if draw(st.booleans()) else [None, None]
    texts = []
    for _ in range(draw(st.integers(24, 48))):
        words = draw(st.sampled_from(chosen)).split()
        edit = draw(st.sampled_from(["none", "none", "add", "replace"]))
        if edit == "add":
            words += ["Thanks", "again."]
        elif edit == "replace":
            words[draw(st.integers(0, len(words) - 1))] = "zebra"
        top = draw(st.sampled_from([None, None, None, banner]))
        bottom = draw(st.sampled_from([None, None, None, footer]))
        parts = (top, " ".join(words), draw(st.sampled_from(disclaimers)), bottom)
        texts.append("\n\n".join(t for t in parts if t))
    return texts, draw(st.sampled_from([0.6, 0.75, 0.8]))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_mails())
def test_mails_under_boilerplate_group_as_every_pair_verified_hypothesis(case):
    """Whatever the mails, the groups of a family looked at whole (one group when every pair
    can be vouched for, else split where its bounds fall: grouping._split_family) are those of
    verifying every pair one by one, with the views that leave a disclaimer out. On the build
    before the sixty-second session (a split family's bounds blind to those views) it failed
    with each of eight seeds tried; the scans above were the only tests of it before."""
    texts, threshold = case
    items = grouping_items(texts)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(grouping, "FAMILY_MIN_CLASSES", 3)
        mp.setattr(grouping, "SPLIT_MIN_CLASSES", 3)
        families_first = build_groups(items, threshold)
        mp.setattr(grouping, "FAMILY_MIN_CLASSES", 10**9)
        assert families_first == build_groups(items, threshold)
