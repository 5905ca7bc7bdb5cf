"""Word 97-2003 ``.doc`` and Kingsoft WPS ``.wps``: the main text through the Word piece table.

Kingsoft WPS Writer stores ``.wps`` in the Word binary format, so one reader serves both; a
Microsoft Works ``.wps`` is also a compound file but with other streams, and is told apart by
them (see :mod:`.ole`). A ``.doc`` that is really RTF, a web page, an MHT archive or a DOCX (Word
saves all of these under a .doc name on request) is read by the reader of what it is, and one
that is none of these and not a compound file is read as plain text if it is text.

The layout follows Microsoft's [MS-DOC] specification: the File Information Block (FIB) at the
start of the WordDocument stream gives the length of the main text (``ccpText``) and where the
piece table (``Clx``) sits in the table stream; each piece maps a run of character positions to
bytes of WordDocument, stored either as UTF-16 or "compressed" as one byte per character in
code page 1252. Only the main text is read, like the DOCX reader: headers, footers, footnotes and
text boxes follow it in the same character space and are left out.
"""

from __future__ import annotations

import os
import re
import struct

from desktop_dedup.core.errors import ExtractionError
from desktop_dedup.core.extract._common import MAX_TEXT_BYTES, too_large
from desktop_dedup.core.extract.docx import extract_docx
from desktop_dedup.core.extract.html import extract_html
from desktop_dedup.core.extract.mail import extract_eml
from desktop_dedup.core.extract.ole import (
    KIND_WORD,
    classify,
    not_compound_as_text,
    open_compound,
    read_stream,
    sniff,
    wrong_kind,
)
from desktop_dedup.core.extract.rtf import extract_rtf

_FIB_FLAGS = 0x000A
_F_ENCRYPTED = 0x0100
_F_WHICH_TABLE = 0x0200
_F_OBFUSCATED = 0x8000
#: nFib of Word 97 and later; Word 6/95 files (nFib 101-105) have another FIB layout.
_NFIB_WORD97 = 0x00C1

# "Compressed" (8-bit) text is code page 1252 except for these values, which [MS-DOC] 2.4.1
# maps to the Unicode characters Word meant (cp1252 itself leaves some of them undefined).
_COMPRESSED_SPECIAL = {
    0x82: "\u201a", 0x83: "\u0192", 0x84: "\u201e", 0x85: "\u2026", 0x86: "\u2020",
    0x87: "\u2021", 0x88: "\u02c6", 0x89: "\u2030", 0x8A: "\u0160", 0x8B: "\u2039",
    0x8C: "\u0152", 0x91: "\u2018", 0x92: "\u2019", 0x93: "\u201c", 0x94: "\u201d",
    0x95: "\u2022", 0x96: "\u2013", 0x97: "\u2014", 0x98: "\u02dc", 0x99: "\u2122",
    0x9A: "\u0161", 0x9B: "\u203a", 0x9C: "\u0153", 0x9F: "\u0178",
}  # fmt: skip
_LATIN1 = bytes(range(256)).decode("latin-1")
_COMPRESSED_TABLE = str.maketrans({i: _COMPRESSED_SPECIAL.get(i, _LATIN1[i]) for i in range(256)})

# Control characters in Word's text stream: paragraph and cell ends, breaks, field marks,
# anchors of pictures and notes.
_FIELD = re.compile("\x13[^\x13\x14\x15]*\x14?([^\x13\x14\x15]*)\x15")
_BREAKS = str.maketrans(
    {
        "\r": "\n",  # paragraph end
        "\x07": "\n",  # table cell / row end
        "\x0b": "\n",  # manual line break
        "\x0c": "\n",  # page or section break
        "\x0e": "\n",  # column break
        "\x1e": "-",  # non-breaking hyphen
        "\x1f": None,  # optional hyphen
        "\x01": None,  # picture anchor
        "\x02": None,  # footnote reference
        "\x05": None,  # comment anchor
        "\x08": None,  # drawn object anchor
        "\x13": None,  # stray field marks left after the field pass
        "\x14": None,
        "\x15": None,
    }
)


def _fields_to_results(text: str) -> str:
    """Replace each field (begin, code, separator, result, end) by its shown result.

    Fields nest (a PAGE inside an IF), so the innermost ones go first, until none is left; the
    loop ends because each pass removes at least the field marks it matched.
    """
    while "\x13" in text:
        replaced = _FIELD.sub(r"\1", text)
        if replaced == text:
            break
        text = replaced
    return text


def _piece_table(table: bytes, fc_clx: int, lcb_clx: int) -> tuple[list[int], list[int]]:
    """Character positions and file offsets (with the compressed flag) of every piece."""
    if lcb_clx <= 0 or fc_clx < 0 or fc_clx + lcb_clx > len(table):
        raise ExtractionError("corrupt DOC: the piece table lies outside the table stream")
    pos = fc_clx
    end = fc_clx + lcb_clx
    # Skip the Prc entries (property modifiers of pieces) before the Pcdt.
    while pos < end and table[pos] == 0x01:
        if pos + 3 > end:
            raise ExtractionError("corrupt DOC: truncated piece table")
        (cb,) = struct.unpack_from("<h", table, pos + 1)
        if cb < 0:
            raise ExtractionError("corrupt DOC: negative property size in the piece table")
        pos += 3 + cb
    if pos + 5 > end or table[pos] != 0x02:
        raise ExtractionError("corrupt DOC: no piece descriptor table")
    (lcb,) = struct.unpack_from("<I", table, pos + 1)
    pos += 5
    if lcb < 16 or pos + lcb > end or (lcb - 4) % 12:
        raise ExtractionError("corrupt DOC: piece table has an impossible size")
    count = (lcb - 4) // 12
    cps = list(struct.unpack_from(f"<{count + 1}I", table, pos))
    fcs = [
        struct.unpack_from("<I", table, pos + 4 * (count + 1) + 8 * i + 2)[0] for i in range(count)
    ]
    return cps, fcs


def _main_text(word: bytes, cps: list[int], fcs: list[int], ccp_text: int) -> str:
    parts: list[str] = []
    for i, fc_raw in enumerate(fcs):
        start, stop = cps[i], min(cps[i + 1], ccp_text)
        if start >= ccp_text:
            break
        if stop <= start:
            continue
        n = stop - start
        if fc_raw & 0x40000000:  # compressed: one byte per character at fc / 2
            offset = (fc_raw & 0x3FFFFFFF) // 2
            chunk = word[offset : offset + n]
            if len(chunk) != n:
                raise ExtractionError("corrupt DOC: text piece runs past the end of the file")
            parts.append(chunk.decode("latin-1").translate(_COMPRESSED_TABLE))
        else:
            offset = fc_raw & 0x3FFFFFFF
            chunk = word[offset : offset + 2 * n]
            if len(chunk) != 2 * n:
                raise ExtractionError("corrupt DOC: text piece runs past the end of the file")
            parts.append(chunk.decode("utf-16-le", "replace"))
    return "".join(parts)


def _word_text(ole, label: str) -> str:
    word = read_stream(ole, "WordDocument", label)
    if len(word) < 0x01A2 + 8:
        raise ExtractionError(f"corrupt {label}: the file information block is truncated")
    (ident, n_fib) = struct.unpack_from("<HH", word, 0)
    if ident not in (0xA5EC, 0xA5DC):
        raise ExtractionError(f"corrupt {label}: not a Word document stream")
    (flags,) = struct.unpack_from("<H", word, _FIB_FLAGS)
    if flags & (_F_ENCRYPTED | _F_OBFUSCATED):
        raise ExtractionError(f"{label} is password-protected")
    if n_fib < _NFIB_WORD97:
        raise ExtractionError(
            f"{label} is in the Word 6/95 format, which is not supported "
            "(save it in a newer format)"
        )
    # FibBase (32 bytes), then csw + FibRgW97 (14 words), cslw + FibRgLw97, cbRgFcLcb + pairs;
    # read the counts rather than assume them, as later Word versions append fields.
    (csw,) = struct.unpack_from("<H", word, 32)
    lw_at = 34 + 2 * csw
    (cslw,) = struct.unpack_from("<H", word, lw_at)
    (ccp_text,) = struct.unpack_from("<i", word, lw_at + 2 + 4 * 3)
    fclcb_at = lw_at + 2 + 4 * cslw + 2
    if fclcb_at + 8 * 34 > len(word):
        raise ExtractionError(f"corrupt {label}: the file information block is truncated")
    fc_clx, lcb_clx = struct.unpack_from("<II", word, fclcb_at + 8 * 33)
    if ccp_text < 0:
        raise ExtractionError(f"corrupt {label}: negative text length")
    if ccp_text > MAX_TEXT_BYTES:
        raise too_large(ccp_text)
    table_name = "1Table" if flags & _F_WHICH_TABLE else "0Table"
    table = read_stream(ole, table_name, label)
    cps, fcs = _piece_table(table, fc_clx, lcb_clx)
    text = _main_text(word, cps, fcs, ccp_text)
    return _fields_to_results(text).translate(_BREAKS)


def _extract(path: str | os.PathLike[str], label: str) -> str:
    kind = sniff(path)
    if kind == "rtf":
        return extract_rtf(path)
    if kind == "zip":  # a .docx saved or renamed as .doc (or WPS's own save of one)
        return extract_docx(path)
    if kind == "html":
        return extract_html(path)
    if kind == "mime":  # a "single file web page" (MHT) saved as .doc
        return extract_eml(path)
    if kind == "unknown":
        return not_compound_as_text(path, label)
    ole = open_compound(path, label)
    try:
        kind = classify(ole)
        if kind != KIND_WORD:
            raise wrong_kind(kind, label)
        return _word_text(ole, label)
    finally:
        ole.close()


def extract_doc(path: str | os.PathLike[str]) -> str:
    return _extract(path, "DOC")


def extract_wps(path: str | os.PathLike[str]) -> str:
    return _extract(path, "WPS")
