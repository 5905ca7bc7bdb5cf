"""PDF via pypdfium2: the text layer of each page, in page order.

PDFium is not thread-safe, so every call into it holds one module-level lock (scans extract in
separate processes, where the lock costs nothing).
"""

from __future__ import annotations

import os
import threading

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from desktop_dedup.core.errors import ExtractionError
from desktop_dedup.core.extract._common import MAX_TEXT_BYTES, too_large

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
    # PDFium ends lines with CRLF and reports a hyphen that breaks a word at a line end as
    # U+0002 (sometimes U+FFFE); show it as the hyphen it was.
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text.replace("\x02", "-").replace("\ufffe", "-")


def extract_pdf(path: str | os.PathLike[str]) -> str:
    # PDFium reports unreadable files only as "file error"; opening it here first surfaces the
    # real OSError (permission denied, vanished) for the caller to map.
    with open(path, "rb") as f:
        f.read(1)
    with PDFIUM_LOCK:
        try:
            document = pdfium.PdfDocument(os.fspath(path))
        except pdfium.PdfiumError as exc:
            if exc.err_code == pdfium_c.FPDF_ERR_PASSWORD:
                raise ExtractionError("PDF is encrypted") from exc
            if exc.err_code == pdfium_c.FPDF_ERR_SECURITY:
                raise ExtractionError("PDF uses an unsupported security handler") from exc
            if exc.err_code == pdfium_c.FPDF_ERR_FILE:
                raise ExtractionError(f"cannot read: {exc}") from exc
            raise ExtractionError(f"corrupt PDF: {exc}") from exc
        try:
            pages = []
            total = 0
            for index in range(len(document)):
                text = _page_text(document, index)
                total += len(text)
                if total > MAX_TEXT_BYTES:
                    raise too_large(total)
                pages.append(text)
        except pdfium.PdfiumError as exc:
            raise ExtractionError(f"corrupt PDF: {exc}") from exc
        finally:
            document.close()
    if not pages:
        raise ExtractionError("corrupt PDF: no pages")
    if not any(p.strip() for p in pages):
        raise ExtractionError("scanned, no text layer")
    return "\n".join(pages)
