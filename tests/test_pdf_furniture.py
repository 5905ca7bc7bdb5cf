"""A PDF's page numbers and running heads are the page's furniture, not the document's text.

A word processor's PDF export puts a number at the foot of each page and often the title or
the chapter at its head; the same document as text or DOCX has neither. Read as text, every
page break of the PDF was a change in the diff ("Change 1 of 24": each a page number), and
the export was never "the same text" as its source. The PDFs here are made by reportlab, with
the head and foot a word processor writes.
"""

from __future__ import annotations

from pathlib import Path

import docgen
import pypdfium2 as pdfium
import pytest

from desktop_dedup.core.extract import extract_text
from desktop_dedup.core.extract.pdf import without_page_furniture
from desktop_dedup.core.models import GroupKind
from desktop_dedup.core.service import DedupService, diff_files


def long_text(sample: str, copies: int) -> str:
    """The sample's paragraphs, each copy in another order: four or five pages, none opening
    or ending like another."""
    paras = docgen.paragraphs(sample)
    turns = [paras[k % len(paras) :] + paras[: k % len(paras)] for k in range(copies)]
    return "\n".join(para for turn in turns for para in turn)


LONG = {"en": long_text(docgen.SAMPLE_EN, 4), "zh": long_text(docgen.SAMPLE_ZH, 5)}
HEADS = {"en": "The River Town: a Chronicle", "zh": "江南小镇纪事"}
FEET = [
    "{page}",
    "- {page} -",
    "Page {page} of {pages}",
    "{page} / {pages}",
    "第 {page} 页，共 {pages} 页",
]


def words(text: str, lang: str) -> list[str] | str:
    return text.split() if lang == "en" else "".join(text.split())


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("foot", FEET)
def test_page_numbers_and_a_running_head_are_not_the_text(tmp_path: Path, lang, foot):
    text = LONG[lang]
    pdf = docgen.write_pdf(tmp_path / "a.pdf", text, header=HEADS[lang], footer=foot)
    assert len(pdfium.PdfDocument(str(pdf))) >= 3
    got = extract_text(str(pdf)).text
    assert HEADS[lang] not in got, got[:300]
    assert words(got, lang) == words(text, lang)
    # The title page has none of them: the others' are still found.
    plain = docgen.write_pdf(
        tmp_path / "b.pdf", text, header=HEADS[lang], footer=foot, first_page_plain=True
    )
    assert words(extract_text(str(plain)).text, lang) == words(text, lang)


def test_the_pdf_export_of_a_text_is_the_same_text_and_its_diff_shows_no_change(tmp_path):
    docs = tmp_path / "docs"
    txt = docgen.write_txt(docs / "chronicle.txt", LONG["en"])
    pdf = docgen.write_pdf(
        docs / "chronicle.pdf", LONG["en"], header=HEADS["en"], footer="Page {page} of {pages}"
    )
    with DedupService(tmp_path / "db.sqlite") as svc:
        svc.scan([docs], workers=1)
        (group,) = svc.groups()
        assert group.kind == GroupKind.SAME_TEXT
        a, b = group.members
        result = svc.diff(a.doc_id, b.doc_id)
        assert result.change_rows == []
    assert diff_files(txt, pdf).change_rows == []


def test_numbers_and_lines_that_are_the_text_stay():
    # A page that ends with a figure of a table is not numbered by it: the figures do not
    # follow the pages.
    tables = ["Sales by month\nJanuary\n42", "February\n17", "March\n99", "April\n3"]
    assert without_page_furniture(tables) == tables
    # Numbers that do follow the pages are the pages' numbers, from any first number (a
    # chapter of a book), on the pages that have one.
    numbered = ["one\n11", "two\n12", "three", "four\n14"]
    assert without_page_furniture(numbered) == ["one", "two", "three", "four"]
    # One page: numbered 1 if at all (a word processor's first page is); another figure
    # there is the text's.
    assert without_page_furniture(["a note\nPage 1 of 1"]) == ["a note"]
    assert without_page_furniture(["the answer is\n42"]) == ["the answer is\n42"]
    assert without_page_furniture(["I\nwandered lonely as a cloud"]) == [
        "I\nwandered lonely as a cloud"
    ]
    # A line that opens two pages of five is the text's (a repeated heading), not a head.
    pages = ["Notes\nfirst", "second", "Notes\nthird", "fourth", "fifth"]
    assert without_page_furniture(pages) == pages
    # One that opens most of them is a running head, its number or date changing or not.
    body = ["the budget", "a new roof", "the library", "the bridge", "any other business"]
    heads = [f"Minutes of 2024-0{k + 1}\n{item}" for k, item in enumerate(body)]
    assert without_page_furniture(heads) == body
    # A foot above the number (or a number above the foot) goes too.
    both = [f"{item}\n{k + 1}\nConfidential" for k, item in enumerate(body)]
    assert without_page_furniture(both) == body
    # Each kind once at each end: the line under a running head is the text's, however
    # often it recurs (a refrain that opens every page of a song book).
    songs = [f"Songs of the River\nRow, row along\n{verse}" for verse in body]
    assert without_page_furniture(songs) == [f"Row, row along\n{verse}" for verse in body]
    # A page that is all furniture is left empty, not taken for text.
    assert without_page_furniture(["a\n1", "2", "b\n3"]) == ["a", "", "b"]
