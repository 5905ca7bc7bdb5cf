"""Plain text, Markdown and reStructuredText: encoding detection plus light markup removal.

Markup is stripped so that the same article saved as .md and as .txt yields (nearly) the same
words; the fingerprint does the rest. Everything is regex-based and linear in the input.
"""

from __future__ import annotations

import codecs
import logging
import os
import re
from typing import Any

from charset_normalizer import from_bytes

from desktop_dedup.core.errors import ExtractionError
from desktop_dedup.core.extract._common import read_capped

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

    Order: BOM, UTF-16 without BOM (NUL lanes), strict UTF-8, then charset-normalizer for
    legacy code pages (GB18030, Big5, Shift-JIS, Latin-1...). Raises ExtractionError for
    empty input and for binary data.
    """
    if not data:
        raise ExtractionError("empty file (0 bytes)")
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            text = data[len(bom) :].decode(encoding, errors="replace")
            if _looks_binary(text):
                raise _binary()
            return text
    if b"\x00" in data:
        text16 = _utf16_without_bom(data)
        if text16 is not None:
            return text16
        # A stray NUL or two in otherwise valid UTF-8 (a crash mid-write, a bad editor) does
        # not make a document binary; real binary has ~1 NUL in 256 bytes and is not UTF-8.
        if data.count(0) > max(2, len(data) // _MAX_NUL_DENSITY):
            raise _binary()
        try:
            return _reject_binary(data.decode("utf-8").replace("\x00", ""))
        except UnicodeDecodeError:
            raise _binary() from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = _decode_legacy(data)
    return _reject_binary(text)


def _reject_binary(text: str) -> str:
    if _looks_binary(text):
        raise _binary()
    return text


# Chinese legacy encodings. Short GBK text is often as plausible in Korean cp949 or Big5 to a
# detector (a 40-character note: cp949 won 56 times in 176); among candidates this close,
# GB18030 (a superset of GBK and GB2312) is taken.
_GB_FAMILY = frozenset({"gb18030", "gbk", "gb2312", "cp936", "hz"})
_CLOSE_CHAOS = 0.1
# Text whose non-ASCII characters are nearly all Chinese (ideographs and CJK punctuation) when
# decoded as GB18030: what a mostly-code chapter with Chinese comments looks like. A detector may
# find no plausible code page for it at all.
_CJK_OR_PUNCT = re.compile(
    "[\u00b7\u2010-\u206f\u2460-\u24ff\u25a0-\u25ff\u3000-\u303f\u3400-\u4dbf"
    "\u4e00-\u9fff\uff00-\uffef]"
)
_MIN_CJK_SHARE = 0.9


def _as_gb18030(data: bytes) -> str | None:
    try:
        text = data.decode("gb18030")
    except UnicodeDecodeError:
        return None
    wide = [ch for ch in text if ord(ch) > 0x7F]
    if not wide or len(_CJK_OR_PUNCT.findall("".join(wide))) < _MIN_CJK_SHARE * len(wide):
        return None
    return None if _looks_binary(text) else text


def _decode_legacy(data: bytes) -> str:
    matches = list(from_bytes(data))
    if not matches:
        gb = _as_gb18030(data)
        if gb is None:
            raise _binary()
        return gb
    best = matches[0]
    name = codecs.lookup(best.encoding).name.replace("-", "_")
    if name not in _GB_FAMILY:
        for m in matches[1:]:
            if codecs.lookup(m.encoding).name.replace("-", "_") in _GB_FAMILY and (
                m.chaos <= best.chaos + _CLOSE_CHAOS
            ):
                gb = _as_gb18030(data)
                if gb is not None:
                    log.debug("detected %s, close to GB18030: using GB18030", best.encoding)
                    return gb
                break
    encoding = _SUPERSETS.get(name, best.encoding)
    log.debug("detected encoding %s (used %s)", best.encoding, encoding)
    text = data.decode(encoding, errors="replace")
    if _looks_binary(text):  # a code page that fits nothing: code with Chinese comments?
        gb = _as_gb18030(data)
        if gb is not None:
            return gb
    return text


def extract_plain(path: str | os.PathLike[str]) -> str:
    return decode_text_bytes(read_capped(path))


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
    (re.compile(r"^[ \t]{0,3}#{1,6}[ \t]+([^\n]*)$", _M), _heading),  # ATX heading
    (re.compile(r"^[ \t]*(?:>[ \t]?)+", _M), ""),  # blockquote
    (re.compile(r"^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+(?:\[[ xX]\][ \t]+)?", _M), ""),  # lists
    # A scan from a start never crosses the next start ("[", "(" or "<"): linear time.
    (re.compile(r"!\[([^\[\]\n]*)\]\([^()\n]*\)"), r"\1"),  # images -> alt text
    (re.compile(r"\[([^\[\]\n]+)\]\([^()\n]*\)"), r"\1"),  # inline links -> text
    (re.compile(r"\[([^\[\]\n]+)\]\[[^\[\]\n]*\]"), r"\1"),  # reference links -> text
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


def strip_markdown(text: str) -> str:
    """Remove Markdown syntax that is not prose, keeping the words (and code) in order."""
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


# --- reStructuredText -----------------------------------------------------------------------

_RST_RULES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^([=\-`:'\"~^_*+#<>.])\1{2,}[ \t]*$", _M), ""),  # section adornments
    (re.compile(r"^\.\. _[^:\n]+:.*$", _M), ""),  # hyperlink targets
    (re.compile(r"^\.\. [\w:-]+::[ \t]*", _M), ""),  # directive markers (keep the argument)
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


def strip_rst(text: str) -> str:
    """Remove reStructuredText syntax that is not prose."""
    for pattern, repl in _RST_RULES:
        text = pattern.sub(repl, text)
    return text


def extract_rst(path: str | os.PathLike[str]) -> str:
    return strip_rst(extract_plain(path))
