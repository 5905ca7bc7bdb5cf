"""PDF via pypdfium2: the text layer of each page, in page order; pages without one by OCR.

A page without a text layer but with something drawn on it (a scan's image) is a scanned
page: when OCR is on and Tesseract is installed (``core/ocr.py``), it is rendered to grey pixels
here and read there, so a PDF with some typed and some scanned pages gets both, in page order.
Without OCR a PDF with no text at all is a problem "scanned, no text layer" that says what
would read it.

PDFium is not thread-safe, so every call into it holds one module-level lock (scans extract in
separate processes, where the lock costs nothing); the lock is not held while Tesseract runs.
"""

from __future__ import annotations

import bisect
import ctypes
import os
import re
import threading
import unicodedata
from collections import Counter
from collections.abc import Callable
from typing import TypeVar

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from desktop_dedup.core import ocr
from desktop_dedup.core.errors import ExtractionError
from desktop_dedup.core.extract._common import (
    HYPHEN_MARK,
    MAX_TEXT_BYTES,
    announce_pages,
    join_hyphenated,
    mark_typeset_hyphens,
    too_large,
)
from desktop_dedup.core.text import LETTER_RUN, OPTIONAL_MARKS, UNSPACED_RANGES

PDFIUM_LOCK = threading.Lock()


# --- scripts PDFium garbles --------------------------------------------------------------------
#
# Right to left: PDFium gives a right-to-left line's characters in reading order, having
# reversed the order they are drawn in (right to left) - including the characters one glyph
# stands for, which a font's ligature lists in reading order already: Arabic draws lam and alef
# as one glyph (لا), which PDFium reported as alef, lam (ال), so that "إلا" read "إال" and
# "الاتصال" "االتصال" in every PDF that LibreOffice writes (PDFBox, pdfminer and PyMuPDF have
# had the same defect). The characters of one glyph share one box: in a right-to-left run they
# are put back in order.
_RTL = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]")
# A right-to-left word: its letters and the vowel marks on them (OPTIONAL_MARKS; not its
# punctuation, which may be drawn on the other side of it)
_RTL_WORD = re.compile(
    "(?:(?=[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc])[^\\W\\d_]|[" + OPTIONAL_MARKS + "]){2,}"
)
# Vowel signs drawn apart from their letters (the Brahmic scripts of India and Sri Lanka, Thai
# and Lao, Tibetan, Myanmar, Khmer): where a sign's box leaves a gap, PDFium put a space in the
# word, and LibreOffice draws a word's space after the first letters of the next word, where
# PDFium left it: Gujarati "ભૂમિકા" read "ભૂ મિકા", "પેકેજ" "પે કે જ" (PackageKit's messages as
# PDF shared 0 % with their text). A space between two of their characters whose glyphs touch
# or nearly (closer than a fifth of the font's size) is no space: it goes. Measured on
# LibreOffice's PDFs of 55 texts in 14 such languages: such spaces left gaps up to 0.19 of the
# font's size (most none), the spaces between words 0.4 to 1.
_SIGNS_APART = "\u0900-\u0dff\u0f00-\u0fff" + UNSPACED_RANGES
_SPACE_IN_SIGNS_APART = re.compile(f"(?<=[{_SIGNS_APART}]) (?=[{_SIGNS_APART}])")
_TOUCHING_EM = 0.2
_WORD_BEHIND = 8  # how far back the glyphs before such a space are looked at, in characters
# Marks that stack (Thai and Lao, Myanmar, Khmer): a tone mark drawn above another sign is a
# glyph of its own, raised, which PDFium gave where it met it, at the end of the line or after
# a later word (Thai "ติดตั้ง" read "ติดตัง" and the "้" further on: apt's Thai messages as PDF
# shared 0 % with their text). A mark whose box's middle is not over the letter before it (a
# tenth of the font's size either side) but over exactly one other letter of its line goes
# after that letter and its marks. Not in the scripts of India and Sri Lanka, whose marks sit
# over the conjuncts they belong to, not over one letter: there it moved marks that were right.
_STACKED_MARK_SCRIPTS = UNSPACED_RANGES  # the scripts written without spaces (text.py)
_STACKED_MARK = re.compile(f"[{_STACKED_MARK_SCRIPTS}]")
_MARK_OVER_EM = 0.1

Box = tuple[float, float, float, float]  # left, right, bottom, top
T = TypeVar("T")


def _char_metrics(
    textpage: pdfium.PdfTextPage,
) -> tuple[Callable[[int], Box], Callable[[int], float]]:
    """The box and the font size of a page's character, by its index."""
    left, right, bottom, top = (ctypes.c_double() for _ in range(4))

    def box(i: int) -> Box:
        pdfium_c.FPDFText_GetCharBox(textpage.raw, i, left, right, bottom, top)
        return (left.value, right.value, bottom.value, top.value)

    def size(i: int) -> float:
        return pdfium_c.FPDFText_GetFontSize(textpage.raw, i)

    return box, size


def _is_mark(c: str) -> bool:
    return unicodedata.category(c) == "Mn"


def _marks_over_their_letters(
    text: str, box: Callable[[int], Box], size: Callable[[int], float]
) -> list[int] | None:
    """The order of ``text``'s characters with each stacked mark after the letter it is drawn
    over (_STACKED_MARK_SCRIPTS), or None when every mark is over the letter before it."""
    order: list[int] = []
    moved = False
    start = 0
    for end in [*(m.start() for m in re.finditer("\r\n", text)), len(text)]:
        line = range(start, end)
        after: dict[int, list[int]] = {}  # letter -> the marks to go after it
        letters: list[tuple[float, float, int]] | None = None  # (left, right, index) by left
        base = -1  # the last character of the line that is no mark: the letter before a mark
        for k in line:
            if not _is_mark(text[k]):
                base = k
                continue
            if not _STACKED_MARK.match(text[k]):
                continue
            mark, slack = box(k), _MARK_OVER_EM * size(k)
            middle = (mark[0] + mark[1]) / 2
            if base >= 0 and box(base)[0] - slack <= middle <= box(base)[1] + slack:
                continue
            if letters is None:  # the line's letters by where they begin, once
                letters = sorted(
                    (*box(q)[:2], q)
                    for q in line
                    if not _is_mark(text[q]) and _STACKED_MARK.match(text[q])
                )
                lefts = [left for left, _, _ in letters]
                widest = max((right - left for left, right, _ in letters), default=0.0)
            under = []  # the letters whose box holds the middle: they begin at most widest before
            j = bisect.bisect_right(lefts, middle) - 1
            while j >= 0 and lefts[j] >= middle - widest and len(under) < 2:
                if letters[j][1] >= middle and letters[j][2] != base:
                    under.append(letters[j][2])
                j -= 1
            if len(under) == 1:
                after.setdefault(under[0], []).append(k)
        gone = {k for marks in after.values() for k in marks}
        moved = moved or bool(gone)
        kept = [k for k in line if k not in gone]
        i = 0
        while i < len(kept):
            letter = kept[i]
            order.append(letter)
            i += 1
            while i < len(kept) and _is_mark(text[kept[i]]):  # the letter's own marks
                order.append(kept[i])
                i += 1
            order.extend(after.get(letter, ()))
        order.extend(range(end, min(end + 2, len(text))))  # the line break
        start = end + 2
    return order if moved else None


def _words_right_to_left(text: str, box: Callable[[int], Box]) -> list[int] | None:
    """The order of ``text``'s characters with each right-to-left word whose letters it gives
    left to right reversed (each letter with the marks after it), or None when there is none.
    Chromium's PDFs give some words so: "التطبيق" read "قيبطتلا"."""
    order: list[int] | None = None
    for word in _RTL_WORD.finditer(text):
        letters = [k for k in range(word.start(), word.end()) if not _is_mark(text[k])]
        if len(letters) < 2:
            continue
        first, last = box(letters[0]), box(letters[-1])
        if first[0] + first[1] < last[0] + last[1]:  # its first letter left of its last
            order = order if order is not None else list(range(len(text)))
            ends = [*letters[1:], word.end()]
            clusters = [range(k, end) for k, end in zip(letters, ends, strict=True)]
            order[letters[0] : word.end()] = [k for c in reversed(clusters) for k in c]
    return order


def _glyphs_in_reading_order(text: str, box: Callable[[int], Box]) -> str:
    """``text`` (a page's, as PDFium gives it, ``box`` its characters' boxes) with the characters
    of each right-to-left glyph in reading order."""
    n = len(text)
    chars: list[str] | None = None
    i = 0
    while i < n - 1:
        if not (_RTL.match(text[i]) and _RTL.match(text[i + 1])):
            i += 1
            continue
        first, end = box(i), i + 1
        while end < n and _RTL.match(text[end]) and box(end) == first:
            end += 1
        if end - i > 1:  # one glyph, several characters
            chars = chars if chars is not None else list(text)
            chars[i:end] = chars[i:end][::-1]
        i = end
    return text if chars is None else "".join(chars)


def _right_end_before(text: str, i: int, box: Callable[[int], Box]) -> float:
    """Where the glyphs of the word before position ``i`` end (a sign may end beyond its
    letter): back to the space or line break before it, at most _WORD_BEHIND characters."""
    end = box(i - 1)[1]
    for k in range(i - 2, max(-1, i - 1 - _WORD_BEHIND), -1):
        if text[k].isspace():
            break
        end = max(end, box(k)[1])
    return end


def _reordered(metric: Callable[[int], T], order: list[int]) -> Callable[[int], T]:
    """``metric`` (a box, a size) of the characters in ``order``, by their new positions."""
    return lambda i: metric(order[i])


def _no_spaces_between_touching_glyphs(
    text: str, box: Callable[[int], Box], size: Callable[[int], float]
) -> str:
    """``text`` without the spaces between two characters of the scripts whose signs are drawn
    apart (_SIGNS_APART) where their glyphs touch."""
    cut = []
    for space in _SPACE_IN_SIGNS_APART.finditer(text):
        i = space.start()
        if box(i + 1)[0] - _right_end_before(text, i, box) < _TOUCHING_EM * size(i + 1):
            cut.append(i)
    if not cut:
        return text
    return "".join(text[a + 1 : b] for a, b in zip([-1, *cut], [*cut, len(text)], strict=True))


def _page_text(document: pdfium.PdfDocument, index: int) -> str:
    page = document[index]
    try:
        textpage = page.get_textpage()
        try:
            text = textpage.get_text_range()
            rtl = _RTL.search(text)
            stacked = _STACKED_MARK.search(text)
            apart = _SPACE_IN_SIGNS_APART.search(text)
            # A character beyond the Basic Multilingual Plane is two of PDFium's: the two do not
            # correspond one to one then, and the text is left as PDFium gives it.
            if (rtl or stacked or apart) and textpage.count_chars() == len(text):
                box, size = _char_metrics(textpage)
                order = _words_right_to_left(text, box) if rtl else None
                if order is not None:
                    text = "".join(map(text.__getitem__, order))
                    box, size = _reordered(box, order), _reordered(size, order)
                if rtl:  # the characters of one glyph share its box: the boxes stay right
                    text = _glyphs_in_reading_order(text, box)
                order = _marks_over_their_letters(text, box, size) if stacked else None
                if order is not None:
                    text = "".join(map(text.__getitem__, order))
                    box, size = _reordered(box, order), _reordered(size, order)
                if apart:
                    text = _no_spaces_between_touching_glyphs(text, box, size)
        finally:
            textpage.close()
    finally:
        page.close()
    # PDFium ends lines with CRLF; a hyphen at a line end after a letter it reports as U+FFFE
    # (sometimes U+0002), joining the two lines: kept as HYPHEN_MARK for join_hyphenated.
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text.replace("\x02", HYPHEN_MARK).replace("\ufffe", HYPHEN_MARK)


_LINE_END_HYPHEN = re.compile(r"(?<=[^\W\d_])-\n(?:[ \t]*\n)?(?=[^\W\d_])")

# --- a page's furniture ------------------------------------------------------------------------
#
# A word processor's PDF puts a number at the foot of each page, often a running head (the
# title, the chapter) at its top and a line at its foot ("Confidential"). They are the page's,
# not the document's: the same document as text or DOCX has none of them. Told by the text
# alone, at each end of a page (PDFium gives the text in the order it is drawn, the head first
# and the foot last): a number is a page's number when the numbers at that end follow the pages
# (on half the pages, two at least: a table's last figures do not, _numbers_at); a line is a
# running head or foot when it ends two thirds of the pages, two at least, its digits aside (a
# date, a chapter's number): a heading that opens some pages does not.

# A page's number as it is written alone on a line: 7, - 7 -, [7], Page 7, p. 7, Page 7 of
# 12, 7 / 12, 第 7 页, 第7页 共12页, and lower- or upper-case Roman numerals (front matter).
_PAGE_NUMBER = re.compile(
    r"(?:[-\u2013\u2014(\[]\s*)?(?:(?:page|p\.|pg\.?|seite|página|pagina)\s*)?"
    r"(?P<n>\d{1,5}|[ivxlcdm]{1,8}|[IVXLCDM]{1,8})"
    r"(?:\s*(?:/|of|von|de|di)\s*\d{1,5})?(?:\s*[-\u2013\u2014)\]])?"
    r"|第\s*(?P<zh>\d{1,5})\s*页(?:\s*[,，、]?\s*共\s*\d{1,5}\s*页)?",
    re.IGNORECASE,
)
_ROMAN = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}
_DIGITS = re.compile(r"\d+")


def _page_number(line: str) -> int | None:
    """The number ``line`` gives its page, when that is all it says."""
    m = _PAGE_NUMBER.fullmatch(line.strip())
    if m is None:
        return None
    found = m.group("n") or m.group("zh")
    if found.isdigit():
        return int(found)
    if found != found.lower() and found != found.upper():
        return None  # "Mix" is a word, "mix" and "MIX" may be numerals
    values = [_ROMAN[c] for c in found.lower()]
    # a numeral less than the one after it is taken off (iv, ix, xl)
    total = sum(-v if v < after else v for v, after in zip(values, [*values[1:], 0], strict=True))
    return total if total > 0 else None


def _edges(lines: list[list[str]], bottom: bool) -> list[int | None]:
    """Each page's first (last) line with text, by its index, or None on a page without."""
    out: list[int | None] = []
    for page in lines:
        order = range(len(page) - 1, -1, -1) if bottom else range(len(page))
        out.append(next((k for k in order if page[k].strip()), None))
    return out


def _numbers_at(lines: list[list[str]], bottom: bool) -> list[tuple[int, int]]:
    """(page, line) of the page numbers at one end of the pages: the numbers there that follow
    the pages, each with another at most two pages away that is as many more or less (a
    number counts from any first number, again in each part of a book that numbers its parts
    from 1; a page without one, a figure's, does not break the run), when they are on half of
    the pages; the number 1 of a document of one page."""
    found: dict[int, tuple[int, int]] = {}  # page -> (line, number)
    for page, k in enumerate(_edges(lines, bottom)):
        value = None if k is None else _page_number(lines[page][k])
        if value is not None:
            found[page] = (k, value)
    if len(lines) == 1:  # a page alone: numbered 1, as every word processor starts (in
        # figures: "I" alone may be a heading's numeral, or a word)
        return [(0, k) for k, value in found.values() if value == 1 and _DIGITS.search(lines[0][k])]
    numbered = [
        (page, k)
        for page, (k, value) in found.items()
        if any(found.get(page + step, (0, None))[1] == value + step for step in (-2, -1, 1, 2))
    ]
    return numbered if len(numbered) >= max(2, (len(lines) + 1) // 2) else []


def _running_at(lines: list[list[str]], bottom: bool) -> list[tuple[int, int]]:
    """(page, line) of a running head (foot) at one end of the pages."""
    # A line of figures alone is a page's number or the text's (a table's last row), never
    # a running line: the page-number rule tells which.
    keyed = [
        (page, k, _DIGITS.sub("#", " ".join(lines[page][k].split())))
        for page, k in enumerate(_edges(lines, bottom))
        if k is not None and LETTER_RUN.search(lines[page][k])
    ]
    counts = Counter(key for _, _, key in keyed)
    if not counts:
        return []
    key, count = counts.most_common(1)[0]
    if count < max(2, -(-2 * len(lines) // 3)):
        return []
    return [(page, k) for page, k, other in keyed if other == key]


def without_page_furniture(pages: list[str]) -> list[str]:
    """``pages`` (each page's text) without their numbers and running heads and feet, at either
    end of each page, a number and a running line in either order."""
    lines = [page.split("\n") for page in pages]
    dropped = False
    for bottom in (True, False):
        # A number above a running foot, or below a running head: each kind once at each end
        # (the line after a running head is the text's, however often it recurs).
        kinds = [_numbers_at, _running_at]
        while kinds:
            found = {kind: set(kind(lines, bottom)) for kind in kinds}
            if not any(found.values()):
                break
            for page, k in sorted(set().union(*found.values()), key=lambda f: -f[1]):
                del lines[page][k]
            kinds = [kind for kind in kinds if not found[kind]]
            dropped = True
    if not dropped:
        return pages
    return ["\n".join(page).strip("\n") for page in lines]


def _has_ink(document: pdfium.PdfDocument, index: int) -> bool:
    """Whether anything is drawn on the page: a scan's image, but also text drawn as outlines
    or in a font without a character map (no text layer either, and OCR reads them)."""
    page = document[index]
    try:
        return int(pdfium_c.FPDFPage_CountObjects(page)) > 0
    finally:
        page.close()


def _render(document: pdfium.PdfDocument, index: int) -> ocr.GreyImage:
    with PDFIUM_LOCK:
        page = document[index]
        try:
            width, height = page.get_size()
            scale = ocr.render_scale(width, height)
            bitmap = page.render(scale=scale, grayscale=True)
            try:
                return ocr.GreyImage(
                    bytes(bitmap.buffer),
                    bitmap.width,
                    bitmap.height,
                    bitmap.stride,
                    max(1, round(scale * 72)),
                )
            finally:
                bitmap.close()
        finally:
            page.close()


def _open(path: str | os.PathLike[str]) -> pdfium.PdfDocument:
    try:
        return pdfium.PdfDocument(os.fspath(path))
    except pdfium.PdfiumError as exc:
        if exc.err_code == pdfium_c.FPDF_ERR_PASSWORD:
            raise ExtractionError("PDF is encrypted") from exc
        if exc.err_code == pdfium_c.FPDF_ERR_SECURITY:
            raise ExtractionError("PDF uses an unsupported security handler") from exc
        if exc.err_code == pdfium_c.FPDF_ERR_FILE:
            raise ExtractionError(f"cannot read: {exc}") from exc
        raise ExtractionError(f"corrupt PDF: {exc}") from exc


def extract_pdf(path: str | os.PathLike[str]) -> str:
    # PDFium reports unreadable files only as "file error"; opening it here first surfaces the
    # real OSError (permission denied, vanished) for the caller to map.
    with open(path, "rb") as f:
        f.read(1)
    options = ocr.current()
    with PDFIUM_LOCK:
        document = _open(path)
    try:
        announce_pages(len(document))
        with PDFIUM_LOCK:
            try:
                pages = []
                total = 0
                for index in range(len(document)):
                    text = _page_text(document, index)
                    total += len(text)
                    if total > MAX_TEXT_BYTES:
                        raise too_large(total)
                    pages.append(text)
                if not pages:
                    raise ExtractionError("corrupt PDF: no pages")
                scanned = []
                if options.active or not any(p.strip() for p in pages):
                    scanned = [
                        i for i, p in enumerate(pages) if not p.strip() and _has_ink(document, i)
                    ]
            except pdfium.PdfiumError as exc:
                raise ExtractionError(f"corrupt PDF: {exc}") from exc
        if scanned and options.active:
            try:
                read = ocr.read_pages(path, scanned, lambda i: _render(document, i), options)
            except pdfium.PdfiumError as exc:
                raise ExtractionError(f"corrupt PDF: {exc}") from exc
            for index, text in read.items():
                total += len(text)
                if total > MAX_TEXT_BYTES:
                    raise too_large(total)
                # Tesseract writes a hyphen that ends a line as it is: marked, as PDFium marks
                # those of a text layer, and joined the same way below.
                pages[index] = _LINE_END_HYPHEN.sub(HYPHEN_MARK, text)
    finally:
        with PDFIUM_LOCK:
            document.close()
    if not any(p.strip() for p in pages):
        if options.active and scanned:
            raise ExtractionError("scanned, OCR found no text")
        if scanned:
            raise ExtractionError(ocr.no_text_layer_reason(options))
        raise ExtractionError(ocr.NO_TEXT_LAYER)  # every page is blank
    # groff's hyphen sign at a line end too (a manual page saved as text, then made a PDF):
    # PDFium marks only the ASCII hyphen
    text = mark_typeset_hyphens("\n".join(without_page_furniture(pages)))
    return join_hyphenated(text) if HYPHEN_MARK in text else text
