"""Plain text, Markdown and reStructuredText: encoding detection plus light markup removal.

Markup is stripped so that the same article saved as .md and as .txt yields (nearly) the same
words; the fingerprint does the rest. Everything is regex-based and linear in the input.
"""

from __future__ import annotations

import codecs
import logging
import os
import re
import warnings
from typing import Any

from desktop_dedup.core.errors import ExtractionError
from desktop_dedup.core.extract._common import (
    HYPHEN_MARK,
    join_hyphenated,
    mark_typeset_hyphens,
    read_capped,
)

log = logging.getLogger(__name__)

_BOMS: tuple[tuple[bytes, str], ...] = (
    # UTF-32 first: its LE BOM starts with the UTF-16 LE BOM.
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)

# Control characters that do not occur in real text (tab, LF, VT, FF, CR, ESC-free).
_CONTROL = re.compile("[\x00-\x08\x0e-\x1a\x1c-\x1f\x7f\x80-\x9f\ufffd]")
_BINARY_SAMPLE = 64 * 1024
_MAX_CONTROL_RATIO = 0.05
_MAX_NUL_DENSITY = 10_000  # a text file may hold 2 NULs, or one per this many bytes

# Detected legacy encodings are widened to their supersets so rare characters still decode.
_SUPERSETS = {
    "gb2312": "gb18030",
    "gbk": "gb18030",
    "cp936": "gb18030",
    "big5": "big5hkscs",
    "cp950": "big5hkscs",
    "shift_jis": "cp932",
    "euc_kr": "cp949",
    "ascii": "utf-8",
    "latin_1": "cp1252",
    "iso8859_1": "cp1252",
}


def _binary() -> ExtractionError:
    return ExtractionError("binary data, not text")


def _looks_binary(text: str) -> bool:
    sample = text[:_BINARY_SAMPLE]
    if not sample:
        return False
    return len(_CONTROL.findall(sample)) / len(sample) > _MAX_CONTROL_RATIO


# Code points that make up real text: ASCII/Latin, general punctuation, kana, CJK, Hangul,
# full-width forms. A UTF-16 decode of the wrong byte order (or of binary) lands mostly outside.
_TEXTLIKE = re.compile(
    "[\t\n\r\x20-\x7e\xa0-\u024f\u0370-\u052f\u2000-\u206f\u2e80-\u30ff"
    "\u3100-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\ufe30-\ufe4f"
    "\uff00-\uffef]"
)
_MIN_TEXTLIKE = 0.9


def _utf32_without_bom(data: bytes) -> str | None:
    """UTF-32 without a BOM: it decodes strictly in one byte order (every four bytes a code
    point up to U+10FFFF, which UTF-16 text and binary data almost never are) and reads as
    text. Rare, but an editor may save it so (chardet's own test files hold four), and it was
    read as binary."""
    if len(data) % 4:
        return None
    for encoding in ("utf-32-le", "utf-32-be"):
        try:
            sample = data[: 4 * _BINARY_SAMPLE].decode(encoding)
        except UnicodeDecodeError:
            continue
        if sample and len(_TEXTLIKE.findall(sample)) >= _MIN_TEXTLIKE * len(sample):
            try:
                text = data.decode(encoding)
            except UnicodeDecodeError:
                return None
            return None if _looks_binary(text) else text
    return None


def _utf16_without_bom(data: bytes) -> str | None:
    """UTF-16 without a BOM, recognised by decoding a sample both ways and keeping the byte
    order whose characters look like text (English puts NULs in one byte lane, but Chinese
    has few NULs at all, so lanes alone cannot decide)."""
    if len(data) % 2:
        return None
    sample = data[: 2 * _BINARY_SAMPLE]
    best: tuple[float, str] | None = None
    for encoding in ("utf-16-le", "utf-16-be"):
        try:
            decoded = sample.decode(encoding)
        except UnicodeDecodeError:  # cut surrogate pair at the sample end, or not UTF-16
            try:
                decoded = sample[:-2].decode(encoding)
            except UnicodeDecodeError:
                continue
        if not decoded:
            continue
        # Real text almost never has code points ending in 0x00 (U+4E00 is 1 in 256 CJK);
        # ASCII read in the wrong byte order is nothing else (U+4800 U+6500 ...).
        low_lane = sample[0::2] if encoding == "utf-16-le" else sample[1::2]
        score = (len(_TEXTLIKE.findall(decoded)) - low_lane.count(0)) / len(decoded)
        if score >= _MIN_TEXTLIKE and (best is None or score > best[0]):
            best = (score, encoding)
    if best is None:
        return None
    try:
        text = data.decode(best[1])
    except UnicodeDecodeError:
        return None
    return None if _looks_binary(text) else text


def decode_text_bytes(data: bytes) -> str:
    """Decode bytes of a text document, detecting the encoding.

    Zero bytes at the end are left out first. Order: BOM, UTF-32 and UTF-16 without BOM (NUL
    lanes), ISO-2022 by its escape sequences, HZ by its words, strict UTF-8, UTF-8 with a few
    damaged bytes (_damaged_utf8), then chardet for legacy code pages (GB18030, Big5,
    Shift-JIS, EUC-KR, Windows-1251, Latin-1...; see _decode_legacy). The text is what a
    terminal shows (_without_terminal_styles). Raises ExtractionError for empty input, for
    zero bytes only and for binary data.
    """
    if not data:
        raise ExtractionError("empty file (0 bytes)")
    # Zero bytes to the end of a file are no text: what a download that stopped leaves in a
    # file its downloader had set to its full size, or a file being written as the power went
    # (``truncate`` extends a file so). The text before them is read as any other; a UTF-16 or
    # UTF-32 text keeps the zero bytes of its last character (``A`` is 41 00 in UTF-16LE).
    body = data.rstrip(b"\x00")
    if not body:
        raise ExtractionError("only zero bytes, no text")

    def whole_units(size: int) -> bytes:
        return body + b"\x00" * (-len(body) % size)

    for bom, encoding in _BOMS:
        if data.startswith(bom):
            unit = 4 if "32" in encoding else 2 if "16" in encoding else 1
            text = whole_units(unit)[len(bom) :].decode(encoding, errors="replace")
            return _reject_binary(text)
    if b"\x00" in body:
        wide = _utf32_without_bom(whole_units(4)) or _utf16_without_bom(whole_units(2))
        if wide is not None:
            return wide
        # A stray NUL or two in otherwise valid UTF-8 (a crash mid-write, a bad editor) does
        # not make a document binary; real binary has ~1 NUL in 256 bytes and is not UTF-8.
        if body.count(0) > max(2, len(body) // _MAX_NUL_DENSITY):
            raise _binary()
        try:
            return _reject_binary(body.decode("utf-8").replace("\x00", ""))
        except UnicodeDecodeError:
            raise _binary() from None
    data = body
    if b"\x1b$" in data:  # 7-bit ISO-2022 (JIS mail and text, Korean mail): valid ASCII too
        text = _iso2022(data)
        if text is not None:
            return _reject_binary(text)
    if b"~{" in data and data.isascii():  # 7-bit HZ (Chinese Usenet and mail): when its
        text = _as_chinese(data, "hz")  # reading is Chinese words, as code with ~{ never is
        if text is not None and _reads_as_words(text):
            return text
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = _damaged_utf8(data) or _decode_legacy(data)
    return _reject_binary(text)


# UTF-8 with a few damaged bytes: a bad sector, a transfer that flipped a byte, a line pasted
# from a file in another encoding. Read as UTF-8, legacy text leaves a quarter or more of its
# non-ASCII characters undecodable (U+FFFD) in every legacy encoding of the real texts in
# tests/data/languages and of the corpora's Chinese (cp949, Shift-JIS, EUC-JP, GB18030, Big5,
# the Cyrillic and Latin code pages; pieces of 40 to 2,000 characters); damaged UTF-8 leaves a
# few among many. Taken as UTF-8 when at most one in _DAMAGED_UTF8_SHARE of them is.
_DAMAGED_UTF8_SHARE = 50


def _damaged_utf8(data: bytes) -> str | None:
    """``data`` read as UTF-8 with its few undecodable bytes as U+FFFD, or None when they are
    more than a few (legacy text, binary data)."""
    text = data.decode("utf-8", errors="replace")
    bad = text.count("\ufffd")
    non_ascii = len(text) - len(text.encode("ascii", errors="ignore"))
    return text if bad * _DAMAGED_UTF8_SHARE <= non_ascii - bad else None


def _iso2022(data: bytes) -> str | None:
    """``data`` read as ISO-2022 when it switches to a double-byte set with its escape
    sequences (ESC $ B for JIS X 0208, ESC $ ) C for KS X 1001, ...) and decodes strictly;
    else None. Seven-bit text is valid ASCII and UTF-8, so this comes first."""
    codec = "iso2022_kr" if b"\x1b$)C" in data else "iso2022_jp_2"
    try:
        text = data.decode(codec)
    except UnicodeDecodeError:
        return None
    return text if not text.isascii() else None


# What a terminal program writes into a file besides the text. groff (``man`` with
# MAN_KEEP_FORMATTING, ``groff -Tutf8 > page.txt``, catman pages) writes bold and underline as a
# typewriter would: each bold letter, Chinese characters too, twice with a backspace between
# (``N\bN``), each underlined one after ``_\b``; where escape sequences are on (groff
# elsewhere, Debian's with GROFF_SGR set, a coloured log saved from a terminal) it writes SGR
# sequences (``ESC[1m`` ... ``ESC[0m``), hyperlinks (OSC 8: ``ESC]8;;url ESC\``) and, from
# ``tput sgr0``, a character set choice (``ESC(B``). A character with backspaces after it is
# printed over by the next (``col -b``); the sequences are no text.
_OVERSTRUCK = re.compile(r"(?:[^\x08\n]\x08+)+(?=[^\x08\n])")
_TERMINAL_SEQUENCE = re.compile(
    r"\x1b(?:\[[0-?]*[ -/]*[@-~]"  # CSI: SGR and the rest
    r"|\][^\x07\x1b]*(?:\x07|\x1b\\)"  # OSC, ended by BEL or ST
    r"|[()][0-~])"  # a character set chosen (ESC ( B)
)


def _without_terminal_styles(text: str) -> str:
    """``text`` without the overstrikes and escape sequences a terminal program wrote into it
    (_OVERSTRUCK, _TERMINAL_SEQUENCE): read as the text a terminal shows."""
    if "\x08" in text:
        text = _OVERSTRUCK.sub("", text).replace("\x08", "")
    if "\x1b" in text:
        text = _TERMINAL_SEQUENCE.sub("", text)
    return text


def _reject_binary(text: str) -> str:
    """``text`` as a terminal shows it (_without_terminal_styles), or ExtractionError when it
    is binary data."""
    text = _without_terminal_styles(text)
    if _looks_binary(text):
        raise _binary()
    return text


# Legacy encodings are told by chardet (7.x), which recognises the single-byte code pages of
# European languages, Cyrillic, Korean and Japanese text far better than the detector used before
# (charset-normalizer), short texts above all (tests/test_decoding.py). One case is decided here:
# a Chinese text in GBK/GB18030. Its bytes are also valid as Korean, Big5 or a Latin code page,
# and a detector that reads a short note, or a mostly-English page with a few Chinese words, as one
# of those loses the Chinese. So GB18030 is taken over the detector's answer when its reading
# *is* Chinese: nearly every non-ASCII character an ideograph or CJK punctuation, and the
# ideographs mostly inside words of jieba's dictionary (Big5, Taiwan's and Hong Kong's, by the
# same test after GB18030: the detector is then not asked at all). The words are the evidence:
# Korean, Japanese, Cyrillic or Latin bytes read as GB18030 give ideographs too (any two high
# bytes do), but in no particular order, so they rarely form words (measured on the texts of
# tests/data/languages read as GB18030: at most 27 % of their ideographs in words; 40-character
# pieces of the labelled corpora's Chinese with four ideographs or more: at least 29 %, most over
# 60 %). Fewer than four ideographs are too few to judge by words alone; then GB18030 is taken
# when each run of non-ASCII bytes is a pair-aligned run of GB2312 bytes standing apart from
# Latin letters (a Chinese word in English text), which accented letters inside European words
# never are, and either the ideographs make a dictionary word or the detector found no
# multi-byte encoding (a Korean syllable or two look like such a run too).
_GB_FAMILY = frozenset({"gb18030", "gbk", "gb2312", "cp936", "hz"})
# Python reads 0x5C as a yen sign and 0x7E as an overline in these (Windows' cp932, which
# Japanese text files are written in, keeps ASCII): paths and code would change.
_SHIFT_JIS_2004 = frozenset({"shift_jis_2004", "shift_jisx0213"})
_KOREAN = frozenset({"euc_kr", "cp949"})
# Encodings whose characters are two bytes or more: the detector found structure, not letters.
_MULTIBYTE = frozenset(
    {"big5", "big5hkscs", "cp950", "cp949", "euc_kr", "johab", "cp932", "shift_jis", "euc_jp",
     "euc_jis_2004", "euc_jisx0213", "shift_jis_2004", "shift_jisx0213", "iso2022_jp",
     "iso2022_kr", "utf_16", "utf_32", "utf_8"}
)  # fmt: skip
# Text whose non-ASCII characters are nearly all Chinese (ideographs and CJK punctuation) when
# decoded as GB18030: what a mostly-code chapter with Chinese comments looks like. A detector may
# find no plausible code page for it at all. A no-break space (a web page's indent, four bytes in
# GB18030) is white space: neither Chinese nor a sign against it.
_CJK_OR_PUNCT = re.compile(
    "[\u00a0\u00b7\u2010-\u206f\u2460-\u24ff\u25a0-\u25ff\u3000-\u303f\u3400-\u4dbf"
    "\u4e00-\u9fff\uff00-\uffef]"
)
_MIN_CJK_SHARE = 0.9
_JUDGED_CHARS = 1 << 16  # how much of a text is looked at to tell what it is
_IDEOGRAPH = re.compile("[\u3400-\u4dbf\u4e00-\u9fff]")
_IDEOGRAPH_WORD = re.compile("^[\u3400-\u4dbf\u4e00-\u9fff]{2,}$", re.MULTILINE)
_ASCII_RUN = re.compile("[\x00-\x7f]+")
_MIN_WORD_SHARE = 0.5  # of the ideographs, inside dictionary words of two or more
_MIN_JUDGED = 4  # ideographs needed to judge by words
_HIGH_RUN = re.compile(rb"[\x80-\xff]+")
# A word with a byte above 0x7F, matched only from the word's start: a pattern free to start
# anywhere rescanned a long unbroken run (a hex dump) from each of its bytes, in quadratic time.
_NON_ASCII_WORD = re.compile(rb"(?<!\S)\S*?[\x80-\xff]\S*")
_WORDS_SAMPLE = 1 << 20  # bytes searched for them
_WORDS_MARGIN = 2.0  # how much surer of them their own guess must be
_PRINTABLE_ASCII = bytes(range(0x20, 0x7F)) + b"\t\n\r"


def _as_chinese(data: bytes, codec: str = "gb18030") -> str | None:
    """``data`` read as GB18030 (or ``codec``: Big5) when that reading's non-ASCII characters
    are nearly all Chinese; else None."""
    try:
        text = data.decode(codec)
    except UnicodeDecodeError:
        return None
    wide = _ASCII_RUN.sub("", text[:_JUDGED_CHARS])  # its non-ASCII characters: a sample tells
    if not wide or len(_CJK_OR_PUNCT.findall(wide)) < _MIN_CJK_SHARE * len(wide):
        return None
    return None if _looks_binary(text) else text


def _word_share(text: str) -> tuple[float, int]:
    """The share of ``text``'s ideographs inside dictionary words, and how many there are."""
    from desktop_dedup.core.text import fold_script, segmenter  # the scan's segmenter, loaded once

    folded = fold_script(text[:_JUDGED_CHARS], True)  # GBK holds Traditional characters too
    ideographs = len(_IDEOGRAPH.findall(folded))
    if not ideographs:
        return 0.0, 0
    # the tokens of two ideographs or more, one to a line, found by one search instead of one
    # per token (the only tokens that hold a line break, "\r\n" among them, hold no ideograph)
    words = _IDEOGRAPH_WORD.findall("\n".join(segmenter()(folded)))
    return sum(map(len, words)) / ideographs, ideographs


def _chinese_by_words(share: float, ideographs: int) -> bool:
    """The rule, from :func:`_word_share`'s two figures: enough ideographs to judge, and most
    of them inside dictionary words."""
    return ideographs >= _MIN_JUDGED and share >= _MIN_WORD_SHARE


def _reads_as_words(text: str) -> bool:
    """Whether ``text`` is Chinese by its words (see _decode_legacy)."""
    return _chinese_by_words(*_word_share(text))


def _apart_gb2312_runs(data: bytes) -> bool:
    """Whether every run of non-ASCII bytes (in the first _WORDS_SAMPLE bytes) is whole GB2312
    characters (pairs of bytes 0xA1-0xFE) with no ASCII letter on either side."""
    for run in _HIGH_RUN.finditer(data, 0, _WORDS_SAMPLE):
        if len(run.group()) % 2 or min(run.group()) < 0xA1:
            return False
        before, after = data[run.start() - 1 : run.start()], data[run.end() : run.end() + 1]
        if before.isalpha() or after.isalpha():
            return False
    return True


def _keeps_ascii(encoding: str) -> bool:
    """Whether ``encoding`` reads printable ASCII as ASCII (EBCDIC and UTF-16 do not): the
    English of a page must stay English whatever its other words are in."""
    try:
        return _PRINTABLE_ASCII.decode(encoding) == _PRINTABLE_ASCII.decode("ascii")
    except (LookupError, UnicodeDecodeError):
        return False


# Greek, Cyrillic, Hebrew and Arabic letters.
_NON_LATIN_RUN = re.compile("[\u0370-\u03ff\u0400-\u04ff\u0590-\u05ff\u0600-\u06ff]+")
_LATIN_WORD = re.compile("[A-Za-z]{3}")


def _lone_foreign_letters(text: str) -> bool:
    """Whether ``text``'s only letters of another script than Latin are single letters
    between Latin words: what a Western note's lone accented letter (Italian "è") becomes when
    a detector, with one byte to go on, picks a Cyrillic or Greek code page ("и")."""
    sample = text[:_JUDGED_CHARS]
    runs = _NON_LATIN_RUN.findall(sample)
    return bool(runs) and all(len(r) == 1 for r in runs) and bool(_LATIN_WORD.search(sample))


def _codec(name: str | None) -> str | None:
    if not name:
        return None
    try:
        return codecs.lookup(name).name.replace("-", "_")
    except LookupError:
        return None


def _decode_legacy(data: bytes) -> str:
    gb = _as_chinese(data)
    share, ideographs = 0.0, 0
    if gb is not None:
        share, ideographs = _word_share(gb)
        if _chinese_by_words(share, ideographs):
            return gb  # Chinese by its words, whatever a detector would say: it is not asked
    big5 = _as_chinese(data, "big5hkscs")  # Taiwan's and Hong Kong's: the same test
    if big5 is not None and _reads_as_words(big5):
        return big5
    import chardet  # 20 ms, and 50 ms more at its first detection: only where it is needed

    # The supersets are chosen here (_SUPERSETS, _SHIFT_JIS_2004).
    guess = chardet.detect(data, prefer_superset=False, compat_names=False)
    if guess["language"] == "en":
        # English needs no byte above 0x7F: the text is mostly English, and its few other words
        # (a Russian, Polish or Japanese line among English ones) were outvoted. Those words
        # alone may tell their encoding: their own guess is taken when it is clearly more sure
        # of them than the first guess's encoding is, and reads ASCII as ASCII. Measured in
        # tests/test_decoding.py: an English page with one line of another language, 356 of
        # 480 wrong without this second look, 28 with it; short pieces, 195 of 5,120 and 143.
        words = b" ".join(_NON_ASCII_WORD.findall(data, 0, _WORDS_SAMPLE))
        own = chardet.detect(words, prefer_superset=False, compat_names=False)
        if own["encoding"] and own["encoding"] != guess["encoding"]:
            with warnings.catch_warnings():  # "nothing fit" is an answer here, not a warning
                warnings.simplefilter("ignore")
                first = chardet.detect(
                    words,
                    prefer_superset=False,
                    compat_names=False,
                    include_encodings=[guess["encoding"]],
                    no_match_encoding="utf-8",  # not among those: None when nothing fits
                )
            sure = first["confidence"] if first["encoding"] else 0.0
            if own["confidence"] > _WORDS_MARGIN * sure and _keeps_ascii(own["encoding"]):
                guess = own
    name = _codec(guess["encoding"])
    if gb is not None and (
        name in _GB_FAMILY
        or (
            ideographs < _MIN_JUDGED
            and (share >= _MIN_WORD_SHARE or name not in _MULTIBYTE)
            and _apart_gb2312_runs(data)
        )
    ):
        log.debug("detected %s; the text reads as Chinese in GB18030", name)
        return gb
    if name is None:  # binary to the detector: a code page that fits nothing?
        if gb is None:
            raise _binary()
        return gb
    encoding = _SUPERSETS.get(name, name)
    if name in _KOREAN:  # EUC-KR proper first: it composes a syllable outside KS X 1001
        try:  # from its jamo (an 8-byte sequence), which cp949 leaves as letters
            return _reject_binary(data.decode("euc_kr"))
        except UnicodeDecodeError:
            pass
    if name in _SHIFT_JIS_2004:  # its 0x5C is a yen sign: cp932 unless the text needs more
        try:
            return _reject_binary(data.decode("cp932"))
        except UnicodeDecodeError:
            pass
    log.debug("detected encoding %s (used %s)", name, encoding)
    text = data.decode(encoding, errors="replace")
    if _lone_foreign_letters(text):  # Windows' Western code page, the most common, reads
        try:  # them as Latin letters (tests/test_decoding.py: 143 pieces wrong without, 113)
            latin = data.decode("cp1252")
        except UnicodeDecodeError:
            latin = None
        if latin is not None and not _lone_foreign_letters(latin):
            return latin
    if _looks_binary(text) and gb is not None:  # a code page that fits nothing: code with
        return gb  # Chinese comments?
    return text


# A file name's bytes that are not UTF-8 (see decode_name): the East Asian code pages Windows
# writes names in (a zip made there, a FAT or exFAT drive mounted without iocharset), each with
# the label it is shown with. One-byte code pages are not guessed: a Russian, Greek or Thai name
# of a few letters reads as well in Windows-1252 as in its own, and so would be shown wrong; nor
# is Korean (CP949): Chinese names' bytes read as Hangul syllables as often as Korean ones do.
_NAME_CODECS = (
    ("gb18030", "GBK"),
    ("big5hkscs", "Big5"),
    ("cp932", "Shift_JIS"),
)
_MIN_NAME_IDEOGRAPHS = 2  # one is too little: two letters of Cyrillic or Thai read as one
# CJK punctuation and full-width forms; not the half-width katakana (U+FF61-FF9F) that Shift_JIS
# reads most single bytes above 0xA0 as
_NAME_PUNCT = "\u3000-\u303f\uff01-\uff60\uffe0-\uffee"
_NAME_HAN = re.compile(f"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff{_NAME_PUNCT}]*")
_NAME_KANA = re.compile(f"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff{_NAME_PUNCT}]*")
_HAS_KANA = re.compile("[\u3040-\u30ff]")


def decode_name(raw: bytes) -> tuple[str, str] | None:
    """A file name's bytes that are not UTF-8, read in the East Asian code page they are in,
    with that code page's label (``GBK``), when the reading is sure; else None.

    A reading is sure when every character of it outside ASCII is of its script (ideographs
    for GBK and Big5; kana and ideographs for Shift_JIS; CJK punctuation in each) and, for
    ideographs alone, when there are two or more and at least half are in words
    (_dictionary_name); a Japanese name with kana tells its script by itself. Tried in this
    order: GBK, Big5, Shift_JIS. Measured on glibc's locale strings, read-mes' headings and
    the Tang poems' titles (tests/bench/bench_legacy_names.py)."""
    if raw.isascii():
        return None
    for codec, label in _NAME_CODECS:
        try:
            text = raw.decode(codec)
        except UnicodeDecodeError:
            continue
        if not text.isprintable():
            continue
        wide = _ASCII_RUN.sub("", text)
        if codec == "cp932" and _NAME_KANA.fullmatch(wide) and _HAS_KANA.search(wide):
            return text, label
        pattern = _NAME_KANA if codec == "cp932" else _NAME_HAN
        if pattern.fullmatch(wide) is not None and _dictionary_name(text):
            return text, label
    return None


_IDEOGRAPH_RUN = re.compile(_IDEOGRAPH.pattern + "+")
_NAME_WORD_LENGTHS = (4, 3, 2)  # the table's words of two characters or more, longest first


def _dictionary_name(text: str) -> bool:
    """Whether ``text`` has two ideographs or more, at least half of them (the short-text
    rule's share, _MIN_WORD_SHARE) in words of jieba's IDF table, found longest first. The
    table, not the segmenter: it loads from its cache in milliseconds, where the segmenter's
    dictionary's import holds the interpreter 0.16 s, and the app's window shows
    names (pathrules.read_names_off_thread)."""
    from desktop_dedup.core.fingerprint import idf_table
    from desktop_dedup.core.text import fold_script

    runs = _IDEOGRAPH_RUN.findall(fold_script(text, True))  # Big5's Traditional characters too
    ideographs = sum(map(len, runs))
    if ideographs < _MIN_NAME_IDEOGRAPHS:
        return False
    table = idf_table()
    in_words = 0
    for run in runs:
        at = 0
        while at < len(run) - 1:
            sizes = [n for n in _NAME_WORD_LENGTHS if at + n <= len(run)]
            listed = table.holds([run[at : at + n] for n in sizes])
            size = next((n for n, ok in zip(sizes, listed, strict=True) if ok), 1)
            in_words += size if size > 1 else 0
            at += size
    return in_words >= _MIN_WORD_SHARE * ideographs


def extract_plain(path: str | os.PathLike[str]) -> str:
    return join_typeset_hyphens(decode_text_bytes(read_capped(path)))


def join_typeset_hyphens(text: str) -> str:
    """``text`` with the words groff hyphenated at line ends whole again (join_hyphenated's
    rule: a compound written with its hyphen elsewhere keeps it)."""
    if "\u2010" not in text or HYPHEN_MARK in text:  # the mark itself: a text of its own
        return text
    marked = mark_typeset_hyphens(text)
    return join_hyphenated(marked) if HYPHEN_MARK in marked else text


# --- Markdown -------------------------------------------------------------------------------

_M = re.MULTILINE


def _heading(match: re.Match[str]) -> str:
    """An ATX heading's text without its optional closing hashes ("## Title ##"), found with
    string methods: a pattern for them rescanned a long run of spaces from each space."""
    body = match.group(1).rstrip(" \t")
    stripped = body.rstrip("#")
    if stripped != body and stripped and stripped[-1] in " \t":
        return stripped.rstrip(" \t")
    return body


_MD_RULES: tuple[tuple[re.Pattern[str], Any], ...] = (
    (re.compile(r"^[ \t]{0,3}\[[^\]\n]+\]:[ \t]*\S+.*$", _M), ""),  # reference definitions
    (re.compile(r"^[ \t]*(?:[-*_][ \t]*){3,}$", _M), ""),  # horizontal rules
    (re.compile(r"^[ \t]*=+[ \t]*$", _M), ""),  # setext underline
    # table separator rows; possessive runs (*+) never give back blanks to the next run
    (
        re.compile(
            r"^[ \t]*+\|?[ \t]*+:?-{3,}+:?[ \t]*+(?:\|[ \t]*+:?-++:?[ \t]*+)*+\|?[ \t]*$", _M
        ),
        "",
    ),
    # Comments show nothing: HTML's (a scan from a start stops at the next start) and
    # Obsidian's %% ... %%.
    (re.compile(r"<!--(?:(?!<!--|-->).)*-->", re.S), ""),
    (re.compile(r"%%[^%]*+(?:%(?!%)[^%]*+)*+%%"), ""),
    # Wiki links (Obsidian, Foam, many wikis) show their alias, else their target; an embed
    # (![[...]]) shows a picture or another note, not these words.
    (re.compile(r"!\[\[[^\[\]\n]*\]\]"), ""),
    (re.compile(r"\[\[([^\[\]|\n]*)\|([^\[\]\n]+)\]\]"), r"\2"),
    (re.compile(r"\[\[([^\[\]|\n]+)\]\]"), r"\1"),
    (re.compile(r"^[ \t]{0,3}#{1,6}[ \t]+([^\n]*)$", _M), _heading),  # ATX heading
    (re.compile(r"^[ \t]*(?:>[ \t]?)+", _M), ""),  # blockquote
    (re.compile(r"^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+(?:\[[ xX]\][ \t]+)?", _M), ""),  # lists
    # A scan from a start never crosses the next start ("[", "(" or "<"): linear time.
    # A link's text may wrap onto more lines of its paragraph (no blank line inside).
    (re.compile(r"!\[((?:[^\[\]\n]++|\n(?=[^\[\]\n]))*+)\]\([^()\n]*\)"), r"\1"),  # images -> alt
    (re.compile(r"\[((?:[^\[\]\n]++|\n(?=[^\[\]\n]))++)\]\([^()\n]*\)"), r"\1"),  # inline links
    (re.compile(r"\[((?:[^\[\]\n]++|\n(?=[^\[\]\n]))++)\]\[[^\[\]\n]*\]"), r"\1"),  # reference
    (re.compile(r"<((?:https?|ftp|mailto):[^<>\s]+)>"), r"\1"),  # autolinks -> the address
    (re.compile(r"</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>\n]*)?/?>"), ""),  # inline HTML tags
    # Strong and strikethrough markers go wherever they stand (what a renderer shows is the
    # words between them): one linear pass, where matching pairs with a lazy pattern took
    # quadratic time on a long line of unmatched markers (64 KB of "**a ": 7.4 s).
    (re.compile(r"\*\*|__|~~"), ""),
    # Emphasis: the closing marker is the next one (the words between hold none), so a greedy
    # run finds it in one C loop where a lazy one stepped through every character.
    (re.compile(r"(?<![\w*])\*([^\s*](?:[^*\n]*[^\s*])?)\*(?![\w*])"), r"\1"),
    (re.compile(r"(?<![\w_])_([^\s_](?:[^_\n]*[^\s_])?)_(?![\w_])"), r"\1"),
    # Table pipes; leading blanks are matched only from the start of their run, or a long run
    # of spaces without a pipe was scanned again from each of its spaces.
    (re.compile(r"(?:(?<![ \t])[ \t]+)?\|[ \t]*"), " "),
)


# Backslash-escaped punctuation is literal text: it is parked in a private-use plane while the
# rules run (so "\\*" never opens emphasis) and restored afterwards.
_MD_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|>~])")
_PARKED = re.compile("[\U000f0000-\U000f007f]")
_PARK_OFFSET = 0xF0000
# Code is text, not markup: fenced blocks and inline code spans are set aside while the rules
# run (so ``Option<T>`` keeps its ``<T>`` and a ``# comment`` stays a comment) and put back,
# without their fences and backticks. A code slot is a private-use character numbering it.
# Possessive (*+): a line of 2 MB of backticks and no newline was rescanned once per backtick.
_FENCED = re.compile(r"^[ \t]*+(`{3,}+|~{3,}+)[^\n]*+\n(.*?)(?:^[ \t]*\1[ \t]*$|\Z)", _M | re.S)
_INLINE_CODE = re.compile(r"``([^\n]{1,1000}?)``|`([^`\n]+)`")
_CODE_BASE = 0x100000
_CODE_SLOT = re.compile("[\U00100000-\U0010fffd]")


# Front matter: the metadata block at the very top of a note or a post (Jekyll, Hugo, Obsidian,
# Pandoc): YAML between "---" lines (or closed by "..."), or TOML between "+++" lines. Every line
# inside is a key, a list item, an indented continuation, a comment or blank, and one at least
# a key: a page that opens with a rule and prose is not front matter.
_FRONT_MATTER = re.compile(
    r"\A\ufeff?(---|\+\+\+)[ \t]*\n(.*?)\n(?:\1|\.\.\.)[ \t]*(?:\n|\Z)", re.S
)
_FRONT_KEY = {
    "---": re.compile(r"[A-Za-z_][\w .-]*:(?:[ \t]|$)"),
    "+++": re.compile(r"[A-Za-z_][\w.-]*[ \t]*="),
}
_FRONT_OTHER = re.compile(r"[ \t]|#|-[ \t]|-$|\[|$")
_FRONT_LINES = 200


def _without_front_matter(text: str) -> str:
    """``text`` without its front matter: what the note's or the post's tool shows as its title,
    tags and dates, or not at all, and no copy of it in another format holds as text."""
    if not text.startswith(("---", "+++", "\ufeff---", "\ufeff+++")):
        return text
    match = _FRONT_MATTER.match(text[:65_536])
    if match is None:
        return text
    lines = match.group(2).split("\n")
    key = _FRONT_KEY[match.group(1)]
    if len(lines) > _FRONT_LINES or not any(key.match(line) for line in lines):
        return text
    if all(key.match(line) or _FRONT_OTHER.match(line) for line in lines):
        return text[match.end() :]
    return text


def strip_markdown(text: str) -> str:
    """Remove Markdown syntax that is not prose, keeping the words (and code) in order."""
    text = _without_front_matter(text)
    text = _MD_ESCAPE.sub(lambda m: chr(_PARK_OFFSET + ord(m.group(1))), text)
    code: list[str] = []

    def set_aside(body: str) -> str:
        code.append(body)
        return chr(_CODE_BASE + len(code) - 1) if len(code) < 0xFFFD else body

    text = _FENCED.sub(lambda m: set_aside(m.group(2).rstrip("\n")), text)
    text = _INLINE_CODE.sub(lambda m: set_aside(m.group(1) or m.group(2)), text)
    for pattern, repl in _MD_RULES:
        text = pattern.sub(repl, text)
    text = _CODE_SLOT.sub(lambda m: code[ord(m.group(0)) - _CODE_BASE], text)
    return _PARKED.sub(lambda m: chr(ord(m.group(0)) - _PARK_OFFSET), text)


def extract_markdown(path: str | os.PathLike[str]) -> str:
    return strip_markdown(extract_plain(path))


# A Markdown link or picture, ``[text](target)`` or ``![alt](target)``: its target without
# spaces, its bracket not right after a word or another bracket (``array[i](j)`` in code). The
# bracket first, then what stands before it: a pattern that opens with the look-behind is tried
# at every character (75 ms over the corpora's 1,203 text files, 2 ms so).
_MARKDOWN_LINK = re.compile(r"\[(?<![\w\]]\[)[^\[\]\n]+\]\([^()\s]+\)")


def extract_text_file(path: str | os.PathLike[str]) -> str:
    """A text file's text: as written, or as Markdown (:func:`strip_markdown`) when it holds a
    Markdown link, which plain prose never writes. A package's description as PyPI keeps it
    (``Description-Content-Type: text/markdown``) and a note a notes app exports as ``.txt``
    are Markdown: read as written, their links' addresses (a read-me's badges) were a sixth of
    fugashi's read-me, 0.838 the same as its ``README.md`` (tests/test_markdown_in_text_files.py).
    Nothing else tells Markdown from prose as surely: a reStructuredText link's marks do not
    either (read so, the Korean packages' descriptions had a pair of different releases
    grouped), and its ``.. image::`` is in texts about it."""
    text = extract_plain(path)
    return strip_markdown(text) if _MARKDOWN_LINK.search(text) else text


# --- reStructuredText -----------------------------------------------------------------------

_RST_RULES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^([=\-`:'\"~^_*+#<>.])\1{2,}[ \t]*$", _M), ""),  # section adornments
    # hyperlink targets and directive markers (keeping the argument), at the margin or nested
    # in another directive's block (a class's methods: Sphinx's reference pages)
    (re.compile(r"^[ \t]*\.\.[ \t]+_[^:\n]+:.*$", _M), ""),
    (re.compile(r"^[ \t]*__[ \t]+\S.*$", _M), ""),  # an anonymous target's short form
    (re.compile(r"\\ "), ""),  # an escaped space: nothing, joining the words around it
    (re.compile(r"^[ \t]*\.\.[ \t]+[\w:-]+::[ \t]*", _M), ""),
    (re.compile(r"^[ \t]*:[\w -]+:[ \t]+", _M), ""),  # field-list names
    (re.compile(r"^\.\.[ \t]*$", _M), ""),  # empty comments
    (re.compile(r"`([^`<\n]*[^`<\s])\s*<[^<>`\n]+>`__?"), r"\1"),  # `text <url>`_
    (re.compile(r":[\w+-][\w:+-]{0,63}:`([^`\n]+)`"), r"\1"),  # :role:`text` (bounded: linear)
    (re.compile(r"``([^\n]{1,1000}?)``"), r"\1"),  # inline literal (bounded: linear time)
    (re.compile(r"`([^`\n]+)`_{0,2}"), r"\1"),  # interpreted text / references
    (re.compile(r"\*\*"), ""),  # strong markers (one linear pass, as in Markdown)
    (re.compile(r"(?<![\w*])\*([^\s*](?:[^*\n]*[^\s*])?)\*(?![\w*])"), r"\1"),  # emphasis
    (re.compile(r"^[ \t]*(?:[-*+•]|\d{1,9}[.)]|#\.)[ \t]+", _M), ""),  # list bullets
    (re.compile(r"::[ \t]*$", _M), ":"),  # literal-block marker
)


# A substitution's definition (``.. |travis| image:: https://...``), a picture's directive, and
# a directive whose argument is a code block's language: what docutils renders shows none of
# their lines (a figure's caption, its content, stays); nor the options under a directive's
# line (``:class: example``, ``:linenos:``).
_RST_SUBSTITUTION = re.compile(r"^([ \t]*)\.\.[ \t]+\|([^|\n]+)\|[ \t]+([\w:-]+)::[ \t]*(.*)$")
_RST_PICTURE = re.compile(r"^([ \t]*)\.\.[ \t]+(image|figure)::")
_RST_LANGUAGE = re.compile(r"^[ \t]*\.\.[ \t]+(?:code|code-block|sourcecode|highlight)::.*$", _M)
_RST_OPTION = re.compile(r"[ \t]+:[\w.+ -]+:(?:[ \t]|$)")
# A directive's name, then ::
_DIRECTIVE_NAME = r"[\w.:+-]+::(?:[ \t]|$)"
_RST_DIRECTIVE = re.compile(r"[ \t]*\.\.[ \t]+" + _DIRECTIVE_NAME)
# Explicit markup that is not a comment: a directive, a hyperlink target (_name: or __), a
# substitution's definition (|name|), a footnote or a citation ([label]).
_RST_NOT_COMMENT = re.compile(r"[ \t]*\.\.[ \t]+(?:" + _DIRECTIVE_NAME + r"|[_|\[])")
# A reference to a substitution: |name|, |name|_ or |name|__, its name neither starting nor
# ending with a space, not inside a word (a grid table's bars have spaces inside them).
_RST_REFERENCE = re.compile(r"(?<![\w|])\|([^|\s](?:[^|\n]*[^|\s])?)\|(?:__?)?(?![\w|])")
# A character code of the unicode directive: decimal, hexadecimal (0x, x, \x, U+, u, \u) or an
# XML character entity.
_RST_CHARACTER = re.compile(r"(?:0x|x|\\x|U\+|u|\\u)([0-9a-fA-F]+)|&#x([0-9a-fA-F]+);|(\d+)")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _rst_block(lines: list[str], start: int) -> int:
    """The end of the block of the directive at ``lines[start]``: the lines after it indented
    deeper than its marker, with blank lines among them (not after the last)."""
    own = _indent(lines[start])
    end = i = start + 1
    while i < len(lines):
        if lines[i].strip():
            if _indent(lines[i]) <= own:
                break
            end = i + 1
        i += 1
    return end


def _unicode_text(argument: str) -> str:
    """What a ``unicode::`` substitution shows: its character codes as characters and other
    words as written, without the spaces between them, up to a comment (`` .. ``)."""
    out = []
    for word in argument.split(" .. ", 1)[0].split():
        code = _RST_CHARACTER.fullmatch(word)
        if code is None:
            out.append(word)
            continue
        hexadecimal = code.group(1) or code.group(2)
        value = int(hexadecimal, 16) if hexadecimal else int(code.group(3))
        # (a surrogate is no character of a text: UTF-8 cannot hold it alone; nor is NUL)
        out.append(chr(value) if 0 < value <= 0x10FFFF and not 0xD800 <= value <= 0xDFFF else word)
    return "".join(out)


def _without_pictures_and_substitutions(text: str) -> str:
    """``text`` without the lines of its comments, its substitutions' definitions and its
    pictures (a figure's caption and legend stay), each reference to a substitution read as
    what it shows (a picture nothing, a ``replace::`` its text, a ``unicode::`` its
    characters); a reference to a name the text does not define stays as written, as docutils
    shows it. Where these are read as the source's lines, a read-me's status badges were about
    a tenth of it (tests/test_rst_as_rendered.py)."""
    if ".. " not in text and "..\t" not in text:
        return text
    lines = text.split("\n")
    kept: list[str] = []
    shows: dict[str, str] = {}
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.lstrip(" \t").startswith(".."):
            kept.append(line)
            i += 1
            continue
        marker = line.strip()
        definition = _RST_SUBSTITUTION.match(line)
        picture = _RST_PICTURE.match(line) if definition is None else None
        comment = (
            definition is None
            and picture is None
            and marker[2:3] in (" ", "\t")
            and _RST_NOT_COMMENT.match(line) is None
        )
        if definition is None and picture is None and not comment:
            kept.append(line)
            i += 1
            # a directive's options, the field list right under its line, are not shown
            if _RST_DIRECTIVE.match(line):
                own = _indent(line)
                while (
                    i < len(lines)
                    and _indent(lines[i]) > own
                    and _RST_OPTION.match(lines[i]) is not None
                ):
                    i += 1
            continue
        end = _rst_block(lines, i)
        if definition is not None:
            name, directive = " ".join(definition.group(2).split()), definition.group(3)
            argument = " ".join([definition.group(4), *(s.strip() for s in lines[i + 1 : end])])
            if directive == "replace":
                shows[name] = argument.strip()
            elif directive == "unicode":
                shows[name] = _unicode_text(argument)
            else:  # a picture, or a date docutils writes when it renders: no text of the file
                shows[name] = ""
        elif picture is not None and picture.group(2) == "figure":
            # the argument and the options, up to the first blank line, are not shown
            j = i + 1
            while j < end and lines[j].strip():
                j += 1
            kept.extend(lines[j:end])
        i = end
    text = "\n".join(kept)
    if not shows:
        return text
    lowered = {name.lower(): value for name, value in shows.items()}

    def shown(match: re.Match[str]) -> str:
        name = " ".join(match.group(1).split())
        found = shows.get(name, lowered.get(name.lower()))
        return match.group(0) if found is None else found

    return _RST_REFERENCE.sub(shown, text)


def strip_rst(text: str) -> str:
    """Remove reStructuredText syntax that is not prose: the text as its rendered page shows
    it (:func:`_without_pictures_and_substitutions`)."""
    text = _without_pictures_and_substitutions(text)
    text = _RST_LANGUAGE.sub("", text)
    for pattern, repl in _RST_RULES:
        text = pattern.sub(repl, text)
    return text


def extract_rst(path: str | os.PathLike[str]) -> str:
    return strip_rst(extract_plain(path))
