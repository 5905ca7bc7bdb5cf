"""PowerPoint ``.pptx``: the paragraphs of each slide, slides in presentation order.

Read with lxml straight from the zip (python-pptx would add Pillow and XlsxWriter for nothing
the text needs): presentation.xml lists the slides in order, its relationships name their
parts, and every ``a:p`` of a slide is one paragraph, but those of its date, footer and
number. Notes and masters are separate parts and are not read, like the .ppt and .odp readers
leave them out.
"""

from __future__ import annotations

import os
import posixpath
import zipfile

from lxml import etree

from desktop_dedup.core.errors import ExtractionError
from desktop_dedup.core.extract._common import (
    MAX_TEXT_BYTES,
    check_part_size,
    open_checked_zip,
    too_large,
)

_P = "http://schemas.openxmlformats.org/presentationml/2006/main"
_A = "http://schemas.openxmlformats.org/drawingml/2006/main"
_R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_REL = "http://schemas.openxmlformats.org/package/2006/relationships"
_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=True)
_PARA = f"{{{_A}}}p"
_T = f"{{{_A}}}t"
_BR = f"{{{_A}}}br"


def _xml(zf: zipfile.ZipFile, name: str) -> etree._Element:
    check_part_size(zf, name, "PPTX")
    try:
        with zf.open(name) as f:
            return etree.parse(f, _PARSER).getroot()
    except KeyError as exc:
        raise ExtractionError(f"corrupt PPTX: {name} is missing") from exc
    except etree.XMLSyntaxError as exc:
        raise ExtractionError(f"corrupt PPTX: {name}: {exc}") from exc


def _slide_parts(zf: zipfile.ZipFile) -> list[str]:
    presentation = _xml(zf, "ppt/presentation.xml")
    rels = _xml(zf, "ppt/_rels/presentation.xml.rels")
    targets = {
        rel.get("Id"): rel.get("Target", "")
        for rel in rels.iter(f"{{{_REL}}}Relationship")
        if rel.get("TargetMode") != "External"
    }
    parts = []
    for sld in presentation.iter(f"{{{_P}}}sldId"):
        target = targets.get(sld.get(f"{{{_R}}}id"))
        if target:
            if target.startswith("/"):
                parts.append(target.lstrip("/"))
            else:
                parts.append(posixpath.normpath(posixpath.join("ppt", target)))
    return parts


def _paragraph_text(paragraph: etree._Element) -> str:
    return "".join((el.text or "") if el.tag == _T else "\n" for el in paragraph.iter(_T, _BR))


# A slide's date, footer and number (PowerPoint's "Header and Footer"): placeholders of these
# types on every slide, the slide's furniture and not its text, as a PDF's page numbers and
# running feet are not (the PDF of the deck has them at each page's foot).
_FURNITURE_TYPES = frozenset({"dt", "ftr", "sldNum"})
_PH = f"{{{_P}}}ph"


def _furniture(slide: etree._Element) -> set[etree._Element]:
    """The paragraphs of the slide's date, footer and number placeholders."""
    out: set[etree._Element] = set()
    for ph in slide.iter(_PH):
        if ph.get("type") in _FURNITURE_TYPES:
            shape = ph.getparent().getparent().getparent()  # p:nvPr < p:nvSpPr < p:sp
            if shape is not None:
                out.update(shape.iter(_PARA))
    return out


def extract_pptx(path: str | os.PathLike[str]) -> str:
    with open_checked_zip(path, "PPTX") as zf:
        names = set(zf.namelist())
        lines: list[str] = []
        total = 0
        for part in _slide_parts(zf):
            if part not in names:
                continue  # a dangling slide reference: the other slides still count
            slide = _xml(zf, part)
            furniture = _furniture(slide)
            for paragraph in slide.iter(_PARA):
                if paragraph in furniture:
                    continue
                text = _paragraph_text(paragraph)
                total += len(text) + 1
                if total > MAX_TEXT_BYTES:
                    raise too_large(total)
                lines.append(text)
    return "\n".join(lines)
