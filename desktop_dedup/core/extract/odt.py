"""ODT (OpenDocument Text) via odfpy: headings and paragraphs of the body in document order."""

from __future__ import annotations

import os
from collections.abc import Iterator

from odf import teletype
from odf.element import Element
from odf.namespaces import TEXTNS
from odf.opendocument import load

from desktop_dedup.core.errors import ExtractionError
from desktop_dedup.core.extract._common import check_part_size, open_checked_zip

_BLOCKS = {(TEXTNS, "p"), (TEXTNS, "h")}


def _paragraphs(node: Element) -> Iterator[str]:
    # Iterative walk: deep nesting (lists in tables in frames) must not hit the recursion limit.
    stack = [iter(node.childNodes)]
    while stack:
        child = next(stack[-1], None)
        if child is None:
            stack.pop()
            continue
        if child.nodeType != child.ELEMENT_NODE:
            continue
        if child.qname in _BLOCKS:
            yield teletype.extractText(child)
        else:
            stack.append(iter(child.childNodes))


def extract_odt(path: str | os.PathLike[str]) -> str:
    with open_checked_zip(path, "ODT") as zf:
        check_part_size(zf, "content.xml", "ODT")
        try:
            manifest = zf.read("META-INF/manifest.xml")
        except KeyError:
            manifest = b""
    # Encrypted ODF keeps the zip but encrypts content.xml; the manifest says so.
    if b"encryption-data" in manifest:
        raise ExtractionError("ODT is password-protected")
    document = load(os.fspath(path))
    return "\n".join(_paragraphs(document.text))
