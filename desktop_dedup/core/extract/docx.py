"""DOCX (Office Open XML) via python-docx: body paragraphs and table cells in document order.

Headers and footers are left out on purpose: they repeat on every page and differ between
copies of the same document (dates, file names), which would only add noise to the fingerprint.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator

import docx
from docx.table import Table, _Cell
from docx.text.paragraph import Paragraph

from desktop_dedup.core.extract._common import check_part_size, open_checked_zip


def _blocks_text(blocks: Iterable[Paragraph | Table]) -> Iterator[str]:
    for block in blocks:
        if isinstance(block, Paragraph):
            yield block.text
        else:
            yield from _table_text(block)


def _table_text(table: Table) -> Iterator[str]:
    # Walk the XML cells directly: Row.cells repeats horizontally merged cells once per grid
    # column, which would duplicate their text.
    for row in table.rows:
        for tc in row._tr.tc_lst:
            yield from _blocks_text(_Cell(tc, table).iter_inner_content())


def extract_docx(path: str | os.PathLike[str]) -> str:
    with open_checked_zip(path, "DOCX") as zf:
        check_part_size(zf, "word/document.xml", "DOCX")
    document = docx.Document(os.fspath(path))
    return "\n".join(_blocks_text(document.iter_inner_content()))
