"""Compound files (OLE2/CFB), the container of the binary Office formats, via olefile.

One place opens a compound file, bounds what may be read from it, and says what kind of
document it really holds, so that a renamed file, an encrypted OOXML package or a Microsoft
Works document gets a clear reason instead of a parser's complaint.
"""

from __future__ import annotations

import logging
import os

import olefile

from desktop_dedup.core.errors import ExtractionError
from desktop_dedup.core.extract._common import open_regular
from desktop_dedup.core.extract.plaintext import extract_plain
from desktop_dedup.core.units import format_size, format_size_over

log = logging.getLogger(__name__)

CFB_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"

#: Largest compound file opened. The text of a binary Office document is a small part of it
#: (images and embedded objects are the rest), so this is generous; it bounds olefile's work
#: (it reads the FAT, whose size follows from the file's).
MAX_CFB_BYTES: int = 1024 * 1024 * 1024

#: Largest single stream read into memory (a Word text stream, a PowerPoint record stream).
MAX_STREAM_BYTES: int = 512 * 1024 * 1024

#: What a compound file holds, told by its top-level streams.
KIND_WORD = "word"
KIND_EXCEL = "excel"
KIND_POWERPOINT = "powerpoint"
KIND_WORKS = "works"
KIND_ENCRYPTED_OOXML = "encrypted-ooxml"
KIND_OUTLOOK = "outlook"
KIND_OTHER = "other"

_KIND_LABEL = {
    KIND_WORD: "a Word/WPS text document",
    KIND_EXCEL: "an Excel/ET spreadsheet",
    KIND_POWERPOINT: "a PowerPoint/DPS presentation",
    KIND_WORKS: "a Microsoft Works document",
    KIND_OUTLOOK: "an Outlook message",
    KIND_OTHER: "an unknown compound document",
}


def classify(ole: olefile.OleFileIO) -> str:
    """The kind of document a compound file holds, from its top-level stream names."""
    names = {entry[0] for entry in ole.listdir(streams=True, storages=True) if entry}
    if "EncryptedPackage" in names or "EncryptionInfo" in names:
        return KIND_ENCRYPTED_OOXML
    if "WordDocument" in names:
        return KIND_WORD
    if "Workbook" in names or "Book" in names:
        return KIND_EXCEL
    if "PowerPoint Document" in names:
        return KIND_POWERPOINT
    if any(name.startswith("__substg1.0_") for name in names):
        return KIND_OUTLOOK
    # Microsoft Works word processor (.wps, versions 4-9) keeps its text in CONTENTS.
    if "CONTENTS" in names or "MatOST" in names:
        return KIND_WORKS
    return KIND_OTHER


def wrong_kind(kind: str, label: str) -> ExtractionError:
    """The problem for a compound file that does not hold what its extension promises."""
    if kind == KIND_ENCRYPTED_OOXML:
        return ExtractionError(f"{label} is password-protected")
    if kind == KIND_WORKS:
        return ExtractionError(
            f"Microsoft Works document, not a Kingsoft WPS one: {label} from Works is not supported"
        )
    return ExtractionError(f"not a {label}: the compound file holds {_KIND_LABEL[kind]}")


def sniff(path: str | os.PathLike[str]) -> str:
    """What a binary-Office-named file really starts as: "cfb", "zip", "rtf", "html", "mime"
    or "unknown". Word and Excel save web pages and RTF under .doc/.xls names on request, and
    many downloaded ".doc" files are such pages, so the readers follow the content."""
    with open_regular(path) as f:
        head = f.read(2048)
    if head.startswith(CFB_MAGIC):
        return "cfb"
    if head.startswith(b"PK\x03\x04"):
        return "zip"
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if text.startswith(b"{\\rtf"):
        return "rtf"
    if text.startswith(b"mime-version:") or b"\nmime-version:" in text[:1024]:
        return "mime"
    if text.startswith((b"<!doctype html", b"<html", b"<?xml")) and b"<html" in text:
        return "html"
    if text.startswith(b"<") and b"<table" in text:
        return "html"
    return "unknown"


def not_compound_as_text(path: str | os.PathLike[str], label: str) -> str:
    """A file with a binary Office name that is no compound file (``sniff``: "unknown"),
    read as the plain text it may be: manuals and notes of the DOS era were plain text named
    .DOC (Python 2 still ships its pdb.doc so), many programs export a table as tab- or
    comma-separated text named .xls, and Word, WPS, Excel and LibreOffice open such files as
    text. Anything else keeps the reason it had."""
    try:
        return extract_plain(path)
    except ExtractionError as exc:  # binary, or text too large to be a document
        raise ExtractionError(f"not a {label} (no compound-file header)") from exc


def open_compound(path: str | os.PathLike[str], label: str) -> olefile.OleFileIO:
    """Open a compound file, refusing non-CFB input and absurd sizes with a reason."""
    with open_regular(path) as f:
        size = os.fstat(f.fileno()).st_size
        head = f.read(8)
    if head != CFB_MAGIC:
        if head.startswith(b"PK\x03\x04"):
            raise ExtractionError(
                f"not a {label}: a zip (Office Open XML) file with a {label} name"
            )
        raise ExtractionError(f"not a {label} (no compound-file header)")
    if size > MAX_CFB_BYTES:
        raise ExtractionError(
            f"too large: {label} file is {format_size_over(size, MAX_CFB_BYTES)}, over the "
            f"{format_size(MAX_CFB_BYTES)} cap"
        )
    try:
        return olefile.OleFileIO(os.fspath(path), raise_defects=olefile.DEFECT_INCORRECT)
    except OSError as exc:
        if isinstance(exc, PermissionError | FileNotFoundError):
            raise
        raise ExtractionError(f"truncated or corrupt {label}: {exc}") from exc


def _check_chain(ole: olefile.OleFileIO, start: int, name: str, label: str) -> None:
    """Follow a stream's sector chain through the FAT and refuse one that loops.

    olefile reads as many sectors as the stream's size needs, so a loop cannot hang it, but it
    would hand back the same sectors again and again as if they were the rest of the text.
    """
    fat = ole.fat
    seen: set[int] = set()
    sector = start
    while sector < len(fat) and sector not in (olefile.ENDOFCHAIN, olefile.FREESECT):
        if sector in seen:
            raise ExtractionError(f"corrupt {label}: the sector chain of {name} loops")
        seen.add(sector)
        sector = fat[sector]


def read_stream(ole: olefile.OleFileIO, name: str, label: str) -> bytes:
    """A whole stream, bounded; a missing or broken stream is a corrupt file."""
    if not ole.exists(name):
        raise ExtractionError(f"corrupt {label}: the {name} stream is missing")
    size = ole.get_size(name)
    entry = ole.direntries[ole._find(name)]
    if size >= ole.minisectorcutoff:
        _check_chain(ole, entry.isectStart, name, label)
    else:  # small streams live in the mini stream, itself a chain of the root entry
        _check_chain(ole, ole.root.isectStart, "the mini stream", label)
    if size > MAX_STREAM_BYTES:
        raise ExtractionError(
            f"too large: {label} {name} stream is {format_size_over(size, MAX_STREAM_BYTES)}, "
            f"over the {format_size(MAX_STREAM_BYTES)} cap"
        )
    try:
        with ole.openstream(name) as stream:
            data = stream.read()
    except OSError as exc:
        raise ExtractionError(f"truncated or corrupt {label}: {exc}") from exc
    return data
