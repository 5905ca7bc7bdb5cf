"""EPUB: spine documents in reading order, each through the HTML extractor.

A small reader follows container.xml -> OPF package -> spine with zipfile and lxml: that is all
the text needs, it reads sloppy but readable books (missing manifest files, odd OPF) that
stricter libraries reject, and it spares the project EbookLib's AGPL licence. It reads one
chapter at a time, each chapter's caps checked before it is parsed.
"""

from __future__ import annotations

import logging
import posixpath
import re
import zipfile
from os import PathLike
from urllib.parse import unquote

from lxml import etree

from desktop_dedup.core.errors import ExtractionError
from desktop_dedup.core.extract._common import (
    MAX_TEXT_BYTES,
    open_checked_zip,
    real_size,
    too_large,
)
from desktop_dedup.core.extract.html import MAX_HTML_BYTES, html_bytes_to_text
from desktop_dedup.core.units import format_size, format_size_over

log = logging.getLogger(__name__)

_ENC_REF = re.compile(rb"<(?:\w+:)?CipherReference[^>]+URI\s*=\s*[\"']([^\"']+)[\"']")
# Font obfuscation (IDPF/Adobe) is listed in encryption.xml too, but only hides fonts.
_FONT_EXT = (".ttf", ".otf", ".woff", ".woff2")
_XML_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, recover=True)


def _check_drm(zf: zipfile.ZipFile) -> None:
    try:
        data = zf.read("META-INF/encryption.xml")
    except KeyError:
        return
    for uri in _ENC_REF.findall(data):
        if not uri.decode("utf-8", "replace").lower().endswith(_FONT_EXT):
            raise ExtractionError("EPUB is DRM-protected (encrypted content)")


def _join(chapters: list[str]) -> str:
    total = sum(len(c) for c in chapters)
    if total > MAX_TEXT_BYTES:
        raise too_large(total)
    return "\n".join(c for c in chapters if c)


def _chapter_text(zf: zipfile.ZipFile, member: str, text_so_far: int) -> str:
    """One chapter's text, its caps checked before it is parsed: its real (inflated) size
    against the HTML cap, and the text gathered so far against the text cap (a chapter gives
    at most as many characters as it has bytes)."""
    size = real_size(zf, member)
    if size > MAX_HTML_BYTES:
        raise ExtractionError(
            f"too large: EPUB chapter {member} is {format_size_over(size, MAX_HTML_BYTES)} "
            f"of HTML, over the {format_size(MAX_HTML_BYTES)} cap"
        )
    if text_so_far > MAX_TEXT_BYTES:
        raise too_large(text_so_far)
    return html_bytes_to_text(zf.read(member), book=True)


def read_epub_spine(zf: zipfile.ZipFile) -> str:
    """container.xml -> OPF -> spine itemrefs -> XHTML members, in order."""
    try:
        container = etree.fromstring(zf.read("META-INF/container.xml"), _XML_PARSER)
    except KeyError as exc:
        raise ExtractionError("corrupt EPUB: META-INF/container.xml is missing") from exc
    rootfiles = container.xpath("//*[local-name()='rootfile']/@full-path")
    if not rootfiles:
        raise ExtractionError("corrupt EPUB: container.xml names no package file")
    opf_path = str(rootfiles[0])
    try:
        opf = etree.fromstring(zf.read(opf_path), _XML_PARSER)
    except KeyError as exc:
        raise ExtractionError(f"corrupt EPUB: package file {opf_path} is missing") from exc
    base = posixpath.dirname(opf_path)
    hrefs = {
        str(item.get("id")): str(item.get("href"))
        for item in opf.xpath("//*[local-name()='manifest']/*[local-name()='item']")
    }
    names = set(zf.namelist())
    chapters: list[str] = []
    text_so_far = 0
    for idref in opf.xpath("//*[local-name()='spine']/*[local-name()='itemref']/@idref"):
        href = hrefs.get(str(idref))
        if href is None:
            continue
        member = posixpath.normpath(posixpath.join(base, unquote(href.split("#")[0])))
        if member not in names:
            log.debug("EPUB spine item %s missing from the archive", member)
            continue
        chapters.append(_chapter_text(zf, member, text_so_far))
        text_so_far += len(chapters[-1])
    return _join(chapters)


def extract_epub(path: str | PathLike[str]) -> str:
    with open_checked_zip(path, "EPUB") as zf:
        _check_drm(zf)
        return read_epub_spine(zf)
