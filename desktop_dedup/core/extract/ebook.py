"""E-books: Mobipocket ``.mobi``/``.azw`` and Kindle ``.azw3`` (KF8), and FictionBook ``.fb2``.

MOBI/AZW3 through the ``mobi`` package (KindleUnpack as a library): its PalmDB sectioner and
MOBI header give the book's markup in memory, decompressed (PalmDOC or HUFF/CDIC); only the
first flow of a KF8 book is its text (the others hold CSS and SVG). A book whose header names
an encryption scheme is DRM-protected and is reported so. The ``mobi.extract`` helper is not
used: it writes the unpacked book to disk.

FB2 is one XML file: the paragraphs, verses and titles of the main body, in order (the notes
body and embedded images are left out).
"""

from __future__ import annotations

import contextlib
import io
import os
import struct
import warnings

from lxml import etree

from desktop_dedup.core.errors import ExtractionError
from desktop_dedup.core.extract._common import (
    MAX_TEXT_BYTES,
    open_regular,
    read_up_to,
    too_large,
)
from desktop_dedup.core.extract.html import html_to_text
from desktop_dedup.core.units import format_size, format_size_over

#: Largest e-book file read (it is read whole; images make most of a big one).
MAX_EBOOK_BYTES: int = 256 * 1024 * 1024

_NO_FDST = 0xFFFFFFFF


def _read_bounded(path: str | os.PathLike[str], label: str) -> bytes:
    with open_regular(path) as f:
        size = os.fstat(f.fileno()).st_size
        if size > MAX_EBOOK_BYTES:
            raise ExtractionError(
                f"too large: {label} file is {format_size_over(size, MAX_EBOOK_BYTES)}, over the "
                f"{format_size(MAX_EBOOK_BYTES)} cap"
            )
        return read_up_to(f, size, MAX_EBOOK_BYTES)


# --- MOBI / AZW3 --------------------------------------------------------------------------------


def _quiet_mobi() -> None:
    # The mobi package logs every step through loguru, whose default sink is stderr.
    from loguru import logger

    logger.disable("mobi")


def _first_flow(header, sections, raw: bytes) -> bytes:
    """The text flow of a KF8 book: FDST lists where each flow starts in the markup."""
    if header.fdst == _NO_FDST:
        return raw
    fdst = sections.loadSection(header.fdst)
    if fdst[:4] != b"FDST" or len(fdst) < 20:
        return raw
    (count,) = struct.unpack_from(">L", fdst, 8)
    if count < 1 or 12 + 8 * count > len(fdst):
        return raw
    start, end = struct.unpack_from(">LL", fdst, 12)
    return raw[start:end] if 0 <= start < end <= len(raw) else raw


def _mobi_text(path: str | os.PathLike[str], label: str) -> str:
    data = _read_bounded(path, label)[:78]
    if len(data) < 78 or data[0x3C:0x44] not in (b"BOOKMOBI", b"TEXtREAd"):
        raise ExtractionError(f"not a {label} e-book (no Mobipocket header)")
    del data  # checked and small enough: the sectioner reads the file itself
    _quiet_mobi()
    with warnings.catch_warnings():  # mobi imports imghdr, deprecated since Python 3.11
        warnings.simplefilter("ignore", DeprecationWarning)
        from mobi.mobi_header import MobiHeader
        from mobi.mobi_sectioner import Sectionizer

    # KindleUnpack print()s warnings about odd headers; a scan's standard output is the CLI's.
    with contextlib.redirect_stdout(io.StringIO()):
        try:
            sections = Sectionizer(os.fspath(path))
            header = MobiHeader(sections, 0)
        except struct.error as exc:
            raise ExtractionError(f"truncated or corrupt {label}: {exc}") from exc
        if header.isEncrypted():
            raise ExtractionError(f"{label} is DRM-protected (encrypted content)")
        if header.isPrintReplica():
            raise ExtractionError(f"{label} is a Print Replica (PDF pages), not a text e-book")
        raw = header.getRawML()
    if len(raw) > 4 * MAX_TEXT_BYTES:
        raise too_large(len(raw))
    if header.isK8():
        raw = _first_flow(header, sections, raw)
    markup = raw.decode(header.codec if header.codec else "utf-8", "replace")
    return html_to_text(markup, book=True)


def extract_mobi(path: str | os.PathLike[str]) -> str:
    return _mobi_text(path, "MOBI")


def extract_azw3(path: str | os.PathLike[str]) -> str:
    return _mobi_text(path, "AZW3")


# --- FB2 ----------------------------------------------------------------------------------------

_FB2 = "http://www.gribuser.ru/xml/fictionbook/2.0"
_FB2_BLOCKS = {f"{{{_FB2}}}{name}" for name in ("p", "v", "subtitle", "text-author")}
_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=True)


def extract_fb2(path: str | os.PathLike[str]) -> str:
    data = _read_bounded(path, "FB2")
    try:
        root = etree.fromstring(data, _PARSER)
    except etree.XMLSyntaxError as exc:
        raise ExtractionError(f"corrupt FB2: {exc}") from exc
    if etree.QName(root).localname != "FictionBook":
        raise ExtractionError("not an FB2 e-book (no FictionBook element)")
    ns = etree.QName(root).namespace or ""
    body_tag = f"{{{ns}}}body" if ns else "body"
    blocks = {tag.replace(_FB2, ns) if ns else tag.split("}")[1] for tag in _FB2_BLOCKS}
    lines: list[str] = []
    total = 0
    for body in root.iter(body_tag):
        if body.get("name") in ("notes", "comments"):
            continue
        for element in body.iter(*blocks):
            text = "".join(element.itertext())
            total += len(text) + 1
            if total > MAX_TEXT_BYTES:
                raise too_large(total)
            lines.append(text)
    return "\n".join(lines)
