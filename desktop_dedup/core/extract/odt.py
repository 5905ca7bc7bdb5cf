"""OpenDocument text (.odt) and presentations (.odp): paragraphs of content.xml, in order.

Read with lxml straight from the zip: the text of an OpenDocument file is the text:p and text:h
elements of content.xml, so a DOM walk is all a reader needs (odfpy, used before, has had no
release since 2020). Footnotes and speaker notes are left out, like the DOCX reader leaves out
headers: they are not the body a person compares.
"""

from __future__ import annotations

import os
import zipfile
from collections.abc import Iterator

from lxml import etree

from desktop_dedup.core.errors import ExtractionError
from desktop_dedup.core.extract._common import check_part_size, open_checked_zip

_TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
_OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
_PRESENTATION = "urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"
_BLOCKS = {f"{{{_TEXT}}}p", f"{{{_TEXT}}}h"}
_SPACE = f"{{{_TEXT}}}s"
_TAB = f"{{{_TEXT}}}tab"
_LINE_BREAK = f"{{{_TEXT}}}line-break"
#: Subtrees that are not body text: footnotes/endnotes, speaker notes, tracked deletions.
_SKIP = {
    f"{{{_TEXT}}}note",
    f"{{{_PRESENTATION}}}notes",
    f"{{{_TEXT}}}tracked-changes",
    f"{{{_OFFICE}}}annotation",
}
_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=True)


def _inline_text(paragraph: etree._Element) -> str:
    """Text of one paragraph with spaces, tabs and line breaks as written; notes left out."""
    out: list[str] = [paragraph.text or ""]
    # (element, done) pairs: an element's tail follows after its own children.
    stack: list[tuple[etree._Element, bool]] = [(c, False) for c in reversed(paragraph)]
    while stack:
        node, done = stack.pop()
        if done:
            out.append(node.tail or "")
            continue
        tag = node.tag
        if not isinstance(tag, str) or tag in _SKIP:
            out.append(node.tail or "")
            continue
        if tag == _SPACE:
            out.append(" " * int(node.get(f"{{{_TEXT}}}c", "1") or 1))
        elif tag == _TAB:
            out.append("\t")
        elif tag == _LINE_BREAK:
            out.append("\n")
        else:
            out.append(node.text or "")
            stack.append((node, True))
            stack.extend((c, False) for c in reversed(node))
            continue
        out.append(node.tail or "")
    return "".join(out)


def _paragraphs(root: etree._Element) -> Iterator[str]:
    # Iterative walk: deep nesting (lists in tables in frames) must not hit the recursion limit.
    stack = [iter(root)]
    while stack:
        child = next(stack[-1], None)
        if child is None:
            stack.pop()
            continue
        tag = child.tag
        if not isinstance(tag, str) or tag in _SKIP:
            continue
        if tag in _BLOCKS:
            yield _inline_text(child)
        else:
            stack.append(iter(child))


def check_odf_not_encrypted(zf: zipfile.ZipFile, label: str) -> None:
    """Encrypted ODF keeps the zip but encrypts content.xml; the manifest says so."""
    try:
        manifest = zf.read("META-INF/manifest.xml")
    except KeyError:
        return
    if b"encryption-data" in manifest:
        raise ExtractionError(f"{label} is password-protected")


def _extract(path: str | os.PathLike[str], label: str, body: str) -> str:
    with open_checked_zip(path, label) as zf:
        check_part_size(zf, "content.xml", label)
        check_odf_not_encrypted(zf, label)
        try:
            with zf.open("content.xml") as f:
                root = etree.parse(f, _PARSER).getroot()
        except KeyError as exc:
            raise ExtractionError(f"corrupt {label}: content.xml is missing") from exc
        except etree.XMLSyntaxError as exc:
            raise ExtractionError(f"corrupt {label}: {exc}") from exc
    bodies = root.findall(f"{{{_OFFICE}}}body/{{{_OFFICE}}}{body}")
    if not bodies:
        kinds = [el.tag.split("}")[-1] for el in root.findall(f"{{{_OFFICE}}}body/*")]
        found = f"an OpenDocument {kinds[0]}" if kinds else "no document body"
        raise ExtractionError(f"not an {label}: content.xml holds {found}")
    return "\n".join(p for b in bodies for p in _paragraphs(b))


def extract_odt(path: str | os.PathLike[str]) -> str:
    return _extract(path, "ODT", "text")


def extract_odp(path: str | os.PathLike[str]) -> str:
    return _extract(path, "ODP", "presentation")
