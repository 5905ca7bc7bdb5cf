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

import os
import re
import threading

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from desktop_dedup.core import ocr
from desktop_dedup.core.errors import ExtractionError
from desktop_dedup.core.extract._common import (
    HYPHEN_MARK,
    MAX_TEXT_BYTES,
    announce_pages,
    join_hyphenated,
    too_large,
)

PDFIUM_LOCK = threading.Lock()


def _page_text(document: pdfium.PdfDocument, index: int) -> str:
    page = document[index]
    try:
        textpage = page.get_textpage()
        try:
            text = textpage.get_text_range()
        finally:
            textpage.close()
    finally:
        page.close()
    # PDFium ends lines with CRLF; a hyphen at a line end after a letter it reports as U+FFFE
    # (sometimes U+0002), joining the two lines: kept as HYPHEN_MARK for join_hyphenated.
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text.replace("\x02", HYPHEN_MARK).replace("\ufffe", HYPHEN_MARK)


_LINE_END_HYPHEN = re.compile(r"(?<=[^\W\d_])-\n(?:[ \t]*\n)?(?=[^\W\d_])")


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
    text = "\n".join(pages)
    return join_hyphenated(text) if HYPHEN_MARK in text else text
