"""Text extraction: one module per format, chosen by file extension.

:func:`extract_text` is the only entry point the scan needs. Every per-file problem (corrupt,
encrypted, binary, too large, unreadable) comes out as :class:`ExtractionError` with a reason a
user can act on, because a scan records problems as data and carries on.
"""

from __future__ import annotations

import errno
import logging
import os
import stat
from collections.abc import Callable
from pathlib import Path

from desktop_dedup.core.errors import ExtractionError
from desktop_dedup.core.extract._common import (
    MAX_TEXT_BYTES,
    ZIP_MAX_TOTAL_BYTES,
    Extracted,
    check_text_length,
)
from desktop_dedup.core.extract.doc import extract_doc, extract_wps
from desktop_dedup.core.extract.docx import extract_docx
from desktop_dedup.core.extract.ebook import extract_azw3, extract_fb2, extract_mobi
from desktop_dedup.core.extract.epub import extract_epub
from desktop_dedup.core.extract.html import extract_html
from desktop_dedup.core.extract.mail import extract_eml
from desktop_dedup.core.extract.odt import extract_odp, extract_odt
from desktop_dedup.core.extract.pdf import extract_pdf
from desktop_dedup.core.extract.plaintext import (
    decode_text_bytes,
    extract_markdown,
    extract_plain,
    extract_rst,
)
from desktop_dedup.core.extract.ppt import extract_dps, extract_ppt
from desktop_dedup.core.extract.pptx import extract_pptx
from desktop_dedup.core.extract.rtf import extract_rtf
from desktop_dedup.core.extract.spreadsheet import (
    extract_et,
    extract_ods,
    extract_xls,
    extract_xlsb,
    extract_xlsx,
)

__all__ = [
    "MAX_TEXT_BYTES",
    "SUPPORTED_EXTENSIONS",
    "ZIP_MAX_TOTAL_BYTES",
    "Extracted",
    "canonical_format",
    "decode_text_bytes",
    "os_error_reason",
    "extract_text",
]

log = logging.getLogger(__name__)

Extractor = Callable[[str], str]

# extension -> (canonical format name, extractor)
_REGISTRY: dict[str, tuple[str, Extractor]] = {
    "txt": ("txt", extract_plain),
    "text": ("txt", extract_plain),
    "md": ("md", extract_markdown),
    "markdown": ("md", extract_markdown),
    "rst": ("rst", extract_rst),
    "html": ("html", extract_html),
    "htm": ("html", extract_html),
    "xhtml": ("html", extract_html),
    "docx": ("docx", extract_docx),
    "odt": ("odt", extract_odt),
    "rtf": ("rtf", extract_rtf),
    "epub": ("epub", extract_epub),
    "pdf": ("pdf", extract_pdf),
    "doc": ("doc", extract_doc),
    "wps": ("wps", extract_wps),
    "odp": ("odp", extract_odp),
    "xlsx": ("xlsx", extract_xlsx),
    "xlsm": ("xlsx", extract_xlsx),
    "xlsb": ("xlsb", extract_xlsb),
    "xls": ("xls", extract_xls),
    "et": ("et", extract_et),
    "ods": ("ods", extract_ods),
    "ppt": ("ppt", extract_ppt),
    "dps": ("dps", extract_dps),
    "pptx": ("pptx", extract_pptx),
    "pptm": ("pptx", extract_pptx),
    "mobi": ("mobi", extract_mobi),
    "azw": ("mobi", extract_mobi),
    "prc": ("mobi", extract_mobi),
    "azw3": ("azw3", extract_azw3),
    "fb2": ("fb2", extract_fb2),
    "eml": ("eml", extract_eml),
    "mht": ("mht", extract_eml),
    "mhtml": ("mht", extract_eml),
}

SUPPORTED_EXTENSIONS: frozenset[str] = frozenset(_REGISTRY)


def canonical_format(ext: str) -> str:
    """Canonical format name for an extension ("htm" -> "html"); ValueError if unsupported."""
    try:
        return _REGISTRY[ext.lower().lstrip(".")][0]
    except KeyError:
        raise ValueError(f"unsupported extension: {ext!r}") from None


def os_error_reason(exc: OSError) -> str:
    """The reason shown for a file the scan could not open or read."""
    if isinstance(exc, PermissionError):
        return "permission denied"
    if isinstance(exc, FileNotFoundError):
        return "file vanished during scan"
    return f"cannot read: {exc.strerror or exc}"


def extract_text(path: str | os.PathLike[str], ext: str | None = None) -> Extracted:
    """Extract the text of one document.

    ``ext`` is the lower-case extension without the dot (taken from ``path`` when None).
    Raises ExtractionError (and nothing else) for every problem with the file itself.
    """
    name = os.fspath(path)
    if ext is None:
        ext = Path(name).suffix
    ext = ext.lower().lstrip(".")
    entry = _REGISTRY.get(ext)
    if entry is None:
        raise ExtractionError(f"unsupported file type: .{ext}" if ext else "no file extension")
    fmt, extractor = entry
    try:
        st = os.stat(name)
        if stat.S_ISDIR(st.st_mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), name)
        if st.st_size == 0:
            raise ExtractionError("empty file (0 bytes)")
        text = check_text_length(extractor(name))
    except ExtractionError as exc:
        log.debug("cannot extract %s: %s", name, exc.reason)
        raise
    except OSError as exc:
        log.debug("OS error extracting %s", name, exc_info=True)
        raise ExtractionError(os_error_reason(exc)) from exc
    except MemoryError:
        raise  # over the worker's memory budget: the scan engine reports it and replaces it
    except RecursionError as exc:
        raise ExtractionError(f"corrupt {fmt.upper()}: nested too deeply") from exc
    except Exception as exc:  # any library failure on bad input is a per-file problem
        log.debug("failed to extract %s", name, exc_info=True)
        detail = str(exc) or type(exc).__name__
        raise ExtractionError(f"corrupt {fmt.upper()}: {detail}") from exc
    return Extracted(text=text, format=fmt)
