"""Documents in scripts that PDF text layers garble, as LibreOffice writes them: a PDF is the
same document as its text and its DOCX.

The files are real (tests/data/pdf_scripts, made by LibreOffice from the translations Debian
installs; make.py there says how).

Right to left (Arabic, Hebrew): PDFium gives a line's characters in reading order, except the
characters one glyph stands for: Arabic draws lam and alef as one glyph (لا), and PDFium
reported it as alef, lam (ال), so that "إلا" read "إال" and "الاتصال" read "االتصال". Every such
word was misspelt in the PDF's text: apt's messages as PDF shared 0 % with their text, a
consistent "substitution" of words (core/sketch.py) that took them for two documents.

Scripts whose vowel signs are drawn apart from their letters (Gujarati, Devanagari): PDFium put
a space where a sign's box left a gap, and LibreOffice draws a word's space after the first
letters of the next word, where it stood in the text: "ભૂમિકા" read "ભૂ મિકા", "પેકેજ" read
"પે કે જ". PackageKit's Gujarati messages as PDF shared 0 % with their text.
"""

from __future__ import annotations

import re
import shutil
from collections import Counter
from pathlib import Path

import pytest

from desktop_dedup.core.extract import extract_text
from desktop_dedup.core.service import DedupService

DATA = Path(__file__).resolve().parent / "data" / "pdf_scripts"
RIGHT_TO_LEFT = ["ar-apt", "ar-pam", "he-packagekit"]
SIGNS_APART = {"gu-packagekit": "\u0a80-\u0aff", "mr-at-spi": "\u0900-\u097f"}
NAMES = [*RIGHT_TO_LEFT, *SIGNS_APART]
# A word of the right-to-left scripts: letters of the Hebrew and Arabic blocks (punctuation such
# as the Arabic comma left out). Their vowel marks are not compared: PDFium may report a mark
# that follows a line's first letters at the line's start (apt's "أيّ", one word in 500).
RTL_WORD = re.compile(r"[\u05d0-\u05ea\u0621-\u064a\u0671-\u06d3]+")
MARKS = re.compile(r"[\u05b0-\u05c7\u064b-\u065f\u0670]")


def rtl_words(text: str) -> list[str]:
    return RTL_WORD.findall(MARKS.sub("", text))


@pytest.mark.parametrize("name", RIGHT_TO_LEFT)
def test_a_pdf_reads_back_the_words_of_its_text(name: str) -> None:
    text = (DATA / f"{name}.txt").read_text("utf-8")
    pdf = extract_text(DATA / f"{name}.pdf").text
    expected = rtl_words(text)
    assert len(expected) > 150
    # Line ends may reorder a line's phrases around the Latin words in it (the order PDFium
    # finds them in), never spell a word otherwise.
    assert sorted(rtl_words(pdf)) == sorted(expected)


def test_the_lam_alef_ligature_reads_lam_then_alef() -> None:
    pdf = extract_text(DATA / "ar-apt.pdf").text
    assert "الاتصال" in pdf  # "the connection", in six of apt's messages
    assert "االتصال" not in pdf


@pytest.mark.parametrize("name", SIGNS_APART)
def test_a_vowel_sign_drawn_apart_breaks_no_word(name: str) -> None:
    word = re.compile(f"[{SIGNS_APART[name]}]+")  # letters and signs of the script
    expected = Counter(word.findall((DATA / f"{name}.txt").read_text("utf-8")))
    found = Counter(word.findall(extract_text(DATA / f"{name}.pdf").text))
    assert expected.total() > 200
    # PDFium drops a sign now and then (one anusvara in 400 words), and broke 14-16 % of the
    # words in two or three before.
    assert (expected & found).total() >= 0.98 * expected.total()
    assert found.total() <= 1.01 * expected.total()


def test_each_texts_txt_docx_and_pdf_are_one_group(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    for name in NAMES:
        for ext in ("txt", "docx", "pdf"):
            folder = docs / ext
            folder.mkdir(parents=True, exist_ok=True)
            shutil.copy(DATA / f"{name}.{ext}", folder / f"{name}.{ext}")
    with DedupService(tmp_path / "db.sqlite") as svc:
        svc.scan([docs])
        groups = sorted(sorted(Path(m.path).name for m in g.members) for g in svc.groups())
    assert groups == [[f"{name}.{ext}" for ext in ("docx", "pdf", "txt")] for name in sorted(NAMES)]
