"""Normalisation and tokenisation: the variants a format conversion produces must fold to the
same text, and the same-text hash must see words only."""

from __future__ import annotations

import random
import textwrap
import unicodedata
from pathlib import Path

import owncorpus
import pytest

from desktop_dedup.core import text as text_mod
from desktop_dedup.core.text import (
    normalize_text,
    segment,
    text_hash,
    unwrap_fixed_width,
    words_only,
)
from tests.docgen import SAMPLE_EN, SAMPLE_ZH


def test_nfkc_folds_full_width_latin_digits_and_punctuation():
    assert normalize_text("ＰｙＴｈｏｎ　３．１１，ＯＫ！") == "python 3.11,ok!"


def test_kangxi_and_supplement_radicals_become_ideographs():
    # PDF text layers write 广, 见 and 页 with radical code points.
    pdf_layer = "\u2f34告 另\u2ec5 第\u2eda"
    assert normalize_text(pdf_layer) == normalize_text("广告 另见 第页")
    assert normalize_text(pdf_layer) == "广告另见第页"


def test_whitespace_runs_collapse_and_latin_is_lower_cased():
    assert normalize_text("  Hello\r\n\tWORLD  \n\n again ") == "hello world again"


def test_line_breaks_inside_chinese_are_layout_not_spaces():
    assert normalize_text("江南的春\n天总是来得\r\n悄无声息") == "江南的春天总是来得悄无声息"
    assert segment(normalize_text("悄无\n声息")) == segment(normalize_text("悄无声息"))


def test_only_a_space_between_two_cjk_characters_is_dropped():
    """What _drop_space_between_cjk removes, against a plain reading of the rule: a space whose
    neighbours are both CJK characters (full-width forms and CJK punctuation count), on random
    strings of spaces, CJK and other characters."""
    cjk = text_mod._CJK_PRESENT.fullmatch

    def plain(text: str) -> str:
        return "".join(
            c
            for i, c in enumerate(text)
            if not (c == " " and 0 < i < len(text) - 1 and cjk(text[i - 1]) and cjk(text[i + 1]))
        )

    rng = random.Random(8)
    alphabet = " a1中。Ｂ\n、日ー한 "
    for _ in range(20_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))
        assert text_mod._drop_space_between_cjk(text) == plain(text), repr(text)
    assert normalize_text("第 1 章 江南 的 春 Ｂ 天") == "第 1 章江南的春 b 天"  # NFKC first


def test_invisible_characters_are_dropped():
    assert normalize_text("infor\u00admation\u200b te\u200dxt\ufeff") == "information text"


@pytest.mark.parametrize(
    "variant",
    [
        SAMPLE_ZH.replace("，", ",").replace("。", ". "),  # half-width punctuation
        SAMPLE_ZH.replace("\n", "\r\n\r\n"),  # CRLF and blank lines
        "\n".join(textwrap.wrap(SAMPLE_ZH, 33)),  # re-wrapped lines
        SAMPLE_ZH.replace("一", "\u2f00"),  # Kangxi radical for 一
        "\ufeff" + SAMPLE_ZH.replace("江南", "江\u200b南"),  # BOM, zero-width space
        SAMPLE_ZH.replace("。", "！"),  # other punctuation
    ],
)
def test_text_hash_ignores_format_variants_zh(variant):
    assert text_hash(normalize_text(variant)) == text_hash(normalize_text(SAMPLE_ZH))


@pytest.mark.parametrize(
    "variant",
    [
        SAMPLE_EN.upper(),
        textwrap.fill(SAMPLE_EN, 50),
        SAMPLE_EN.replace(" ", "   ").replace("\n", "\n\n"),
        SAMPLE_EN.replace(",", "，").replace("A", "Ａ"),  # full width
    ],
)
def test_text_hash_ignores_format_variants_en(variant):
    assert text_hash(normalize_text(variant)) == text_hash(normalize_text(SAMPLE_EN))


def test_text_hash_sees_a_changed_or_moved_word():
    base = text_hash(normalize_text(SAMPLE_EN))
    assert text_hash(normalize_text(SAMPLE_EN.replace("river", "lake", 1))) != base
    first, rest = SAMPLE_EN.split(" ", 1)
    assert text_hash(normalize_text(rest + " " + first)) != base
    assert len(base) == 32 and int(base, 16) >= 0


def test_words_only_drops_spaces_and_punctuation():
    assert words_only(normalize_text("Hello, world! 你好，世界。 a_b")) == "helloworld你好世界ab"


def test_segment_keeps_dictionary_words_and_no_hmm_guesses():
    tokens = segment(normalize_text("我们在北京大学学习自然语言处理"))
    assert "北京大学" in tokens
    assert "".join(tokens) == "我们在北京大学学习自然语言处理"


@pytest.mark.parametrize("text", [SAMPLE_ZH, SAMPLE_EN, "Linux 服务器上的 nginx 配置文件"])
def test_rjieba_and_jieba_segment_alike(text):
    # rjieba is a dependency (pyproject.toml): a missing one must fail, not skip
    import rjieba

    assert rjieba.cut("江南水乡", False)
    assert text_mod.segmenter() is not None and text_mod.SEGMENTER_NAME == "rjieba"
    normalized = normalize_text(text)
    assert segment(normalized, prefer_rjieba=True) == segment(normalized, prefer_rjieba=False)


@pytest.mark.parametrize("width", [40, 60, 77])
@pytest.mark.parametrize("text", [SAMPLE_EN, SAMPLE_ZH], ids=["en", "zh"])
def test_fixed_width_hard_wrap_is_undone(text, width):
    paragraphs = text.replace("\n", "\n\n")
    wrapped = owncorpus.fold(paragraphs, width)
    assert wrapped != paragraphs
    if text is SAMPLE_EN:
        assert unwrap_fixed_width(wrapped) == paragraphs
    else:
        # a break between two Chinese characters is no cut word: the lines stay as they are
        # (peeling edge lines sees what the file holds), and normalisation drops the breaks
        assert unwrap_fixed_width(wrapped) == wrapped
    # either way the words are the same, in the same order: the copy is the same text
    assert text_hash(normalize_text(wrapped)) == text_hash(normalize_text(paragraphs))
    if text is SAMPLE_EN:
        assert segment(normalize_text(wrapped)) == segment(normalize_text(paragraphs))


def test_fixed_width_wrap_is_undone_after_later_edits():
    """A copy cut at 40 characters whose numbers and words were changed afterwards (some lines
    are now longer or shorter than 40) and whose paragraphs are not separated by blank lines
    (a DOCX holds one paragraph per line) is still unwrapped, words cut in two joined again."""
    paragraphs = SAMPLE_EN.split("\n")
    wrapped = [owncorpus.fold(p, 40).split("\n") for p in paragraphs]
    wrapped[0][1] = wrapped[0][1].replace(wrapped[0][1][5:9], "12345678")  # 44 characters
    wrapped[1][0] = wrapped[1][0][:-2]  # 38: still a cut (a paragraph ends shorter than that)
    edited = "\n".join("\n".join(p) for p in wrapped)
    unwrapped = unwrap_fixed_width(edited)
    assert len(unwrapped.splitlines()) == len(paragraphs)
    # only the two edited places hold words the original does not have; every cut word is whole
    not_in_original = set(unwrapped.split()) - set(SAMPLE_EN.split())
    assert len(set(edited.split()) - set(SAMPLE_EN.split())) > 10
    assert len(not_in_original) <= 2, not_in_original


def test_ragged_word_wrapped_text_is_left_alone():
    ragged = "\n".join(textwrap.wrap(SAMPLE_EN, 60))
    assert unwrap_fixed_width(ragged) == ragged
    # a table of equal-length rows separated by blank lines has nothing to join
    rows = "\n\n".join(["alpha beta gamma delta epsilon zeta"] * 5)
    assert unwrap_fixed_width(rows) == rows


@pytest.fixture(scope="module")
def real_paragraphs() -> list[str]:
    return owncorpus.short_paragraphs(300)


def test_a_word_wrap_whose_lines_happen_to_be_equally_long_is_left_alone():
    """Three of five lines of this real paragraph (gpasswd's manual page), and of this poem's
    shape, are 29 characters long: a word wrap, or verse, not a cut by counting. Gluing its
    lines glued its words (``usethe``, ``groupadministrator``): the copy was 42 % the same as
    the paragraph with one word changed."""
    wrapped = (
        "System administrators can use\nthe -A option to define group\n"
        "administrator(s) and the -M option to define\nmembers. They have all rights\n"
        "of group administrators and members."
    )
    assert unwrap_fixed_width(wrapped) == wrapped
    note = (
        "Não apara a saída à largura do terminal. Normalmente, a saída será truncada à "
        "largura do terminal para evitar resultados causados por seções NAME mal escritas."
    )
    assert [len(line) for line in textwrap.wrap(note, 30)] == [30, 30, 26, 20, 30, 18]
    assert unwrap_fixed_width(textwrap.fill(note, 30)) == textwrap.fill(note, 30)
    # the very same lines cut by counting characters are undone
    assert unwrap_fixed_width(owncorpus.fold(note, 30)) == note


def test_real_paragraphs_word_wrapped_are_left_alone_and_cut_by_counting_are_undone(
    real_paragraphs,
):
    """300 real paragraphs of 20-60 words (the manual pages in 13 languages), word-wrapped
    (textwrap) and cut by counting (fold) at 30, 40 and 60 columns. Equal line lengths alone
    cannot tell them apart in a short text: a word wrap at 30 columns put three or more lines
    at one length in 22 of these, and gluing them glued words. What tells them apart: a cut
    leaves a space at the edge of a line now and then, cuts words that are whole elsewhere,
    and leaves pieces of words whose letters are not the ones that end and begin this text's
    words (text._cut_by_counting). Until then: 37 of the 900 wraps were glued, every cut
    undone that the line lengths admit (662)."""
    glued = sum(
        unwrap_fixed_width(textwrap.fill(p, width)) != textwrap.fill(p, width)
        for p in real_paragraphs
        for width in (30, 40, 60)
    )
    assert glued <= 15, glued
    cut = [(owncorpus.fold(p, width), p) for p in real_paragraphs for width in (30, 40, 60)]
    undone = sum(unwrap_fixed_width(lines) == p for lines, p in cut)
    assert undone >= 655, undone


def test_the_evidence_for_a_cut_is_read_from_a_bounded_part_of_a_long_text(monkeypatch):
    """Reading the letters of every line of a 20 MB block of equal lines (base64) made the
    unwrap nine times slower (2.1 s against 0.23 s): the evidence comes from the first lines."""
    rng = random.Random(7)

    def word() -> str:
        return "".join(rng.choice("bcdfghjklmnpqrstvwxz") for _ in range(rng.randint(3, 6)))

    lines = []
    for _ in range(10_000):  # equal lines that no sign tells from a word wrap: the long way
        line = word()
        while len(line) < 30:
            line += " " + word()
        lines.append(line + " " + "q" * (39 - len(line)))
    assert {len(line) for line in lines} == {40}
    calls = []

    class Counted:
        def __init__(self, pattern):
            self.pattern = pattern

        def findall(self, text):
            calls.append(len(text))
            return self.pattern.findall(text)

    monkeypatch.setattr(text_mod, "_ACROSS_SPACE", Counted(text_mod._ACROSS_SPACE))
    unwrap_fixed_width("\n".join(lines))
    assert 0 < len(calls) <= text_mod._EVIDENCE_LINES + 1


@pytest.mark.parametrize("text", ["", "one line only", "short\nlines\nhere\n"])
def test_unwrap_leaves_small_texts_alone(text):
    assert unwrap_fixed_width(text) == text


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("Программа выводит список файлов.", ["программа", "выводит", "список", "файлов"]),
        ("이 프로그램은 파일 목록을 표시합니다.", ["프로그램은", "파일", "목록을", "표시합니다"]),
        ("Das Programm sortiert nach Größe.", ["das", "programm", "sortiert", "nach", "größe"]),
        ("このプログラムはファイルを表示", ["プログラム", "ファイル", "表示"]),
        ("中文文本 with English 和数字", ["中文", "文本", "with", "english", "和", "数字"]),
    ],
)
def test_words_of_every_script_are_tokens_not_letters(text, words):
    """jieba cuts scripts it does not know into single letters; their pairs are shared by every
    text of the language. Words of Cyrillic, Hangul, katakana and accented Latin stay whole."""
    tokens = [t for t in segment(normalize_text(text)) if t.strip()]
    assert all(w in tokens for w in words), tokens
    assert segment(normalize_text(text), prefer_rjieba=False) == segment(normalize_text(text))


@pytest.mark.parametrize(
    "text",
    [
        "यह प्रोग्राम फ़ाइलों की सूची दिखाता है",  # Hindi: vowel signs, virama, nukta
        "এই প্রোগ্রাম ফাইলের তালিকা দেখায়",  # Bengali
        "இந்த நிரல் கோப்புகளின் பட்டியலைக் காட்டுகிறது",  # Tamil
    ],
    ids=["hindi", "bengali", "tamil"],
)
def test_a_word_keeps_the_combining_marks_written_on_its_letters(text):
    """Vowel signs and the virama are combining marks, which the regex's \\w does not count
    as letters: "प्रोग्राम" was cut into प / र / ग / र / म, single letters whose pairs every
    text of the language shares, and one edited word into several changed tokens."""
    tokens = [t for t in segment(normalize_text(text)) if t.strip()]
    assert tokens == [normalize_text(word) for word in text.split()]


@pytest.mark.parametrize(
    ("line", "elsewhere"),
    [
        ("İSİM BİLGİ DİLİ", "giriş"),  # Turkish capital İ: lower case is i + a combining dot
        ("vi̇̃sas mi̇̃estas", "žodis"),  # Lithuanian: i with a dot and a tilde
        ("n̈y tany n̈ahazo", "tanàna"),  # n with a diaeresis (Malagasy dialects)
    ],
    ids=["turkish", "lithuanian", "malagasy"],
)
def test_a_word_is_the_same_tokens_whatever_else_the_text_holds(line, elsewhere):
    """A Latin letter with a mark that has no one-character form stays in its word. The words
    of a line alone were cut at the mark ("i̇si̇m" became i / ̇ / si / ̇ / m) and the same line
    in a text with another accented letter was not: a heading peeled alone and the same
    heading in its document, or a note and its copy with one word more, had other words."""
    alone = [t for t in segment(normalize_text(line)) if t.strip()]
    assert alone == normalize_text(line).split(), alone
    with_more = [t for t in segment(normalize_text(f"{line} {elsewhere}")) if t.strip()]
    assert with_more[: len(alone)] == alone
    assert segment(normalize_text(line), prefer_rjieba=False) == segment(normalize_text(line))


def test_thai_which_writes_no_spaces_is_cut_into_runs_of_three_letters_with_their_marks():
    """A run of Thai letters is a phrase, not a word: its tokens are every three letters in a
    row, each letter with the vowel and tone marks written on it; a one-word edit then changes
    a few tokens, not the phrase, and a word pair is no mere pair of letters."""
    text = normalize_text("ไม่สามารถเชื่อมต่อซ็อกเก็ตข้อมูล เนื่องจากหมดเวลาคอย")
    tokens = [t for t in segment(text) if t.strip()]
    assert tokens[:3] == ["ไม่ส", "ม่สา", "สาม"], tokens
    assert all(sum(c.isalpha() for c in t) == 3 for t in tokens), tokens

    def letters(s: str) -> list[str]:  # each letter with the marks that follow it
        out: list[str] = []
        for c in s:
            if unicodedata.category(c).startswith("M") and out:
                out[-1] += c
            else:
                out.append(c)
        return out

    expected = [
        "".join(run[i : i + 3])
        for run in map(letters, text.split(" "))
        for i in range(len(run) - 2)
    ]
    assert tokens == expected
    # An English word written against Thai letters stays a word of its own.
    glued = [t for t in segment(normalize_text("ค่าGtkPackTypeระบุ")) if t.strip()]
    assert glued == ["ค่า", "gtkpacktype", "ระบุ"], glued


@pytest.mark.parametrize(
    ("written", "plain"),
    [
        ("لم يعد الرمز صالحًا، مطلوب رمز مميز جديد", "لم يعد الرمز صالحا، مطلوب رمز مميز جديد"),
        ("سيتلقى العنصر فضاء اضافيّا عند نموّ", "سيتلقى العنصر فضاء اضافيا عند نمو"),
        ("العـــربية", "العربية"),  # tatweel stretches a word
        ("שָׁלוֹם עֲלֵיכֶם", "שלום עליכם"),  # Hebrew vowel points
    ],
    ids=["arabic-tanwin", "arabic-shadda", "arabic-tatweel", "hebrew-niqqud"],
)
def test_arabic_and_hebrew_vowel_marks_are_optional(written, plain):
    """Arabic and Hebrew writers mostly leave the vowel marks out; a copy with them written (or
    stripped) is the same text, word for word."""
    assert normalize_text(written) == normalize_text(plain)
    assert segment(normalize_text(written)) == segment(normalize_text(plain))


def test_different_documents_in_russian_or_ukrainian_do_not_look_alike():
    """Two halves of a language's manual pages (different documents): with letters as tokens
    their shingles overlap (Russian 0.44, Ukrainian 0.59 measured); with words they do not."""
    from desktop_dedup.core import sketch
    from desktop_dedup.core.fingerprint import fingerprint_text

    root = Path(__file__).resolve().parent / "data" / "languages"
    for lang in ("ru", "uk", "ko"):
        texts = [p.read_text(encoding="utf-8") for p in sorted((root / lang).glob("*.txt"))]
        a, b = "\n\n".join(texts[0::2]), "\n\n".join(texts[1::2])
        share = sketch.verified_similarity(
            sketch.decode(fingerprint_text(a).sketch), sketch.decode(fingerprint_text(b).sketch)
        )
        assert share < 0.25, (lang, share)


def test_different_documents_in_thai_do_not_look_alike():
    """Two halves of the Thai help texts (tests/data/script_notes: 75 different messages each).
    With single letters as Thai tokens, a word pair is two letters, which the two halves share:
    0.56 measured; with runs of three letters, 0.27."""
    from desktop_dedup.core import sketch
    from desktop_dedup.core.fingerprint import fingerprint_text

    texts = owncorpus.script_notes("th")
    a, b = "\n\n".join(texts[0::2]), "\n\n".join(texts[1::2])
    share = sketch.verified_similarity(
        sketch.decode(fingerprint_text(a).sketch), sketch.decode(fingerprint_text(b).sketch)
    )
    assert share < 0.35, share


def test_words_only_keeps_letters_digits_and_the_marks_written_on_letters() -> None:
    """words_only looks characters up in a table (text._word_chars) instead of running the
    regex (text.bare_words): both must keep exactly the letters and digits (``str.isalnum``)
    and the combining marks of the BMP but the optional Arabic and Hebrew vowel marks and the
    variation selectors, and text beyond the table (emoji, rare ideographs) or with lone
    surrogates must come out the same. Before, the marks were dropped: two Hindi or Thai texts
    that differed in a vowel sign or a tone mark (कम and काम, ต่อ and ต้อ) were the same
    text."""
    import re
    import unicodedata

    from desktop_dedup.core import text as text_mod

    optional = re.compile(f"[{text_mod.OPTIONAL_MARKS}\ufe00-\ufe0f]")

    def kept(c: str) -> bool:
        mark = unicodedata.category(c).startswith("M") and not optional.match(c)
        return c.isalnum() or (mark and ord(c) < 0x10000)

    table = text_mod._word_chars()
    assert [c for c in range(0x10000) if kept(chr(c)) != bool(table[c])] == []
    for sample in (
        "",
        "a_b c-d",
        "Größe, naïve café; ½ ² ٣ ४",
        "你好，世界。\u3000全角ＡＢＣ",
        "emoji \U0001f600\ufe0f and 𠀋 Ext-B",
        "lone \udc80 surrogate",
        "कम काम, ต่อ ต้อ",
    ):
        expected = "".join(c for c in sample if kept(c))
        assert words_only(sample) == expected, sample
        assert words_only(sample + "\U0001f600") == expected, sample  # the regex's way
    assert words_only("कम") != words_only("काम") and words_only("ต่อ") != words_only("ต้อ")


# A manual page's paragraph: the words Taiwan writes differently (参数/引數, 文件/檔案,
# 字符/字元, 表达式/表示式, 命令行/命令列, 默认/預設, 执行/執行, 文档/文件) are what a
# conversion with Taiwan phrasing changes.
MANUAL_ZH = (
    "用法：grep [选项]... 模式 [文件]...\n"
    "在每个文件中查找模式。模式是一个基本正则表达式，默认情况下区分大小写。\n"
    "命令行参数中的每个文件都会被执行一次搜索；如果没有给出文件，则读取标准输入。\n"
    "选项 -e 指定一个表达式，-f 从文件中读取表达式，-i 忽略字符的大小写。\n"
    "输出的每一行都以文件名开头，后面是匹配的字符和行号；详细说明见文档。\n"
    "退出状态：找到匹配行时为零，没有找到时为一，出错时为二。\n"
)


@pytest.mark.parametrize("config", ["s2t", "s2tw", "s2hk", "s2twp"])
def test_a_copy_in_the_other_script_is_the_same_text_however_converted(config):
    """Issue 13: a text and its Traditional copy are one document, whether the copy changed the
    characters only (s2t, Taiwan and Hong Kong forms) or Taiwan's phrasing too (s2twp). Folding
    the copy alone with Taiwan phrasing turned the original's 文件 into 文档 in every copy of
    the first kind (share 0.80 on a manual page); folding characters alone left 引数 for 参数
    in the second (0.74): both texts now take one form for the words the regions write
    differently."""
    import opencc

    from desktop_dedup.core.service import text_similarity

    for original in (MANUAL_ZH, SAMPLE_ZH):
        copy = opencc.OpenCC(config).convert(original)
        assert copy != original
        assert text_similarity(original, copy) >= 0.95, config


def test_the_regional_words_table_is_made_once_and_leaves_other_text_alone(tmp_path, monkeypatch):
    """The table of words the regions write differently is derived from jieba's dictionary
    and OpenCC's tables once per user (a second), cached under the name of what it was made
    from; Simplified text without such words, and text without Chinese, come out unchanged."""
    monkeypatch.setenv("DESKTOP_DEDUP_HOME", str(tmp_path / "profile"))
    config = text_mod.regional_words_config()
    assert config.parent == tmp_path / "profile" / "cache"
    table = config.with_suffix(".txt")
    pairs = dict(line.split("\t") for line in table.read_text("utf-8").splitlines())
    assert pairs["引数"] == "参数" and pairs["档案"] == "文件" and pairs["字元"] == "字符"
    made = table.stat().st_mtime_ns
    assert text_mod.regional_words_config() == config  # found, not made again
    assert table.stat().st_mtime_ns == made
    simplified = "今天天气很好，我们去公园散步。"
    assert text_mod.fold_script(simplified) == simplified
    assert text_mod.fold_script("plain English text") == "plain English text"
    assert text_mod.fold_script("預設的引數") == "预设的参数"


def test_a_damaged_regional_words_table_is_made_again(tmp_path, monkeypatch):
    """The cache is the user's folder: a table damaged there is made again, not a reason for
    every Chinese file to fail."""
    monkeypatch.setenv("DESKTOP_DEDUP_HOME", str(tmp_path / "profile"))
    table = text_mod.regional_words_config().with_suffix(".txt")
    table.write_bytes(b"\x00\xff not a table\nno tab here\n")
    monkeypatch.setattr(text_mod, "_regional", None)
    monkeypatch.setattr(text_mod, "_t2s", None)
    assert text_mod.fold_script("預設的引數") == "预设的参数"
    assert "引数\t参数\n" in table.read_text("utf-8")


def test_the_regional_words_table_goes_to_the_temporary_folder_when_the_cache_is_read_only(
    tmp_path,
):
    """A profile whose cache folder cannot be written to still folds regional words: the table
    is made in the system's temporary folder (OpenCC reads its tables from files). Run without
    the rights that let root write anywhere (tests/unprivileged)."""

    from unprivileged import run_python

    cache = tmp_path / "profile" / "cache"
    cache.mkdir(parents=True)
    (tmp_path / "tmp").mkdir()
    cache.chmod(0o500)
    code = (
        "import json, os, sys, tempfile\n"
        "os.environ['DESKTOP_DEDUP_HOME'] = sys.argv[1]\n"
        "tempfile.tempdir = sys.argv[2]\n"
        "from desktop_dedup.core import text\n"
        "config = text.regional_words_config()\n"
        "print(json.dumps([str(config.parent), text.fold_script('預設的引數')]))\n"
    )
    try:
        folder, folded = run_python(code, str(tmp_path / "profile"), str(tmp_path / "tmp"))
    finally:
        cache.chmod(0o700)
    assert (folder, folded) == (str(tmp_path / "tmp"), "预设的参数")


def test_folding_in_place_keeps_every_character_where_it_was(monkeypatch):
    """What the diff compares: both scripts as one, one character for one, so that positions
    in the folded text are positions in the text shown."""
    text = "第一行：軟體\n第二行：乾燥的文件，意味著\n"
    folded = text_mod.fold_in_place(text)
    assert folded == "第一行:软体\n第二行:干燥的文件,意味着\n"
    assert text_mod.fold_in_place("意味着") == "意味着"  # the mainland's form, the same
    assert text_mod.fold_in_place("plain text") == "plain text"
    # A conversion that writes a phrase of another length: that line is folded character by
    # character, the others as before, and every character stays in its place.
    real = text_mod._in_place_converter()
    monkeypatch.setattr(text_mod, "_in_place", lambda t: real(t).replace("软体", "软件体"))
    folded = text_mod.fold_in_place(text)
    assert len(folded) == len(text)
    assert folded == "第一行:软体\n第二行:干燥的文件,意味着\n"
    assert text_mod.has_traditional(text) and not text_mod.has_traditional("第二行：干燥的文件")


def _with_memory_to_spare(megabytes: int, prepare: str, measure: str) -> str:
    """What ``measure`` prints, run in a process of its own after ``prepare`` with ``megabytes``
    of address space to spare; ``long_text`` is 8 million characters of Traditional Chinese
    (16 MB as a Python string), and OpenCC's tables are loaded before the limit."""
    import subprocess
    import sys

    code = f"""
import os, resource
from pathlib import Path
from desktop_dedup.core import text
notes = Path("tests/data/cjk_notes/zh_TW.txt").read_text("utf-8")
long_text = (notes + "\\n") * (8_000_000 // len(notes) + 1)
text.normalize_unwrapped(notes, fold=True)
{prepare}
with open("/proc/self/statm") as f:
    size = int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
resource.setrlimit(resource.RLIMIT_AS, (size + ({megabytes} << 20), resource.RLIM_INFINITY))
print({measure})
"""
    repo = Path(__file__).resolve().parents[1]
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=repo, check=False
    )
    assert run.returncode == 0, run.stderr[-2000:]
    return run.stdout


def test_a_long_text_is_normalised_in_little_more_memory_than_it_takes():
    """Normalising a text of 8 million characters (16 MB as a Python string, Traditional
    Chinese) copied it whole at each step, and OpenCC held it twice as UTF-8: 120-160 MB at
    once, what kept novels over about 40 MB from being read within a reader's 512 MB. A long
    text is now normalised a piece at a time (60-80 MB). Run with 100 MB of address space to
    spare, in a process of its own."""
    out = _with_memory_to_spare(100, "", "len(text.normalize_unwrapped(long_text, fold=True))")
    assert int(out) > 7_000_000


def test_a_long_text_is_hashed_in_little_more_memory_than_it_takes():
    """The text hash of that text, normalised, took its code points as an array and its words
    twice over (60-80 MB); a piece at a time, under 20 MB. Run with 40 MB to spare."""
    out = _with_memory_to_spare(
        40,
        "normalized = text.normalize_unwrapped(long_text, fold=True)",
        "text.text_hash(normalized)",
    )
    assert len(out.strip()) == 32
