"""Text extraction: one module per format, chosen by file extension.

:func:`extract_text` is the only entry point the scan needs. Every per-file problem (corrupt,
encrypted, binary, too large, unreadable) comes out as :class:`ExtractionError` with a reason a
user can act on, because a scan records problems as data and carries on.
"""

from __future__ import annotations

import errno
import importlib
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

__all__ = [
    "MAX_TEXT_BYTES",
    "SUPPORTED_EXTENSIONS",
    "ZIP_MAX_TOTAL_BYTES",
    "Extracted",
    "canonical_format",
    "decode_text_bytes",
    "os_error_reason",
    "extract_text",
    "load_readers",
]

log = logging.getLogger(__name__)


def __getattr__(name: str) -> object:
    # decode_text_bytes lives with the plain-text reader, whose encoding detector (chardet)
    # would add to the start-up of every command that imports this package to read nothing
    if name == "decode_text_bytes":
        from desktop_dedup.core.extract.plaintext import decode_text_bytes

        return decode_text_bytes
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


Extractor = Callable[[str], str]

# extension -> (canonical format name, reader module, reader function). A reader's module (and
# its library: PDFium, lxml, calamine ...) is imported when a file of its format is first read:
# a program that only opens the index (the GUI, a report, the scan's own process) does not load
# them, and the scan's fork server loads them all once (load_readers).
_REGISTRY: dict[str, tuple[str, str, str]] = {
    "txt": ("txt", "plaintext", "extract_text_file"),
    "text": ("txt", "plaintext", "extract_text_file"),
    "md": ("md", "plaintext", "extract_markdown"),
    "markdown": ("md", "plaintext", "extract_markdown"),
    "rst": ("rst", "plaintext", "extract_rst"),
    "html": ("html", "html", "extract_html"),
    "htm": ("html", "html", "extract_html"),
    "xhtml": ("html", "html", "extract_html"),
    "docx": ("docx", "docx", "extract_docx"),
    "odt": ("odt", "odt", "extract_odt"),
    "rtf": ("rtf", "rtf", "extract_rtf"),
    "epub": ("epub", "epub", "extract_epub"),
    "pdf": ("pdf", "pdf", "extract_pdf"),
    "doc": ("doc", "doc", "extract_doc"),
    "wps": ("wps", "doc", "extract_wps"),
    "odp": ("odp", "odt", "extract_odp"),
    "xlsx": ("xlsx", "spreadsheet", "extract_xlsx"),
    "xlsm": ("xlsx", "spreadsheet", "extract_xlsx"),
    "xlsb": ("xlsb", "spreadsheet", "extract_xlsb"),
    "xls": ("xls", "spreadsheet", "extract_xls"),
    "et": ("et", "spreadsheet", "extract_et"),
    "ods": ("ods", "spreadsheet", "extract_ods"),
    "ppt": ("ppt", "ppt", "extract_ppt"),
    "dps": ("dps", "ppt", "extract_dps"),
    "pptx": ("pptx", "pptx", "extract_pptx"),
    "pptm": ("pptx", "pptx", "extract_pptx"),
    "mobi": ("mobi", "ebook", "extract_mobi"),
    "azw": ("mobi", "ebook", "extract_mobi"),
    "prc": ("mobi", "ebook", "extract_mobi"),
    "azw3": ("azw3", "ebook", "extract_azw3"),
    "fb2": ("fb2", "ebook", "extract_fb2"),
    "eml": ("eml", "mail", "extract_eml"),
    "mht": ("mht", "mail", "extract_eml"),
    "mhtml": ("mht", "mail", "extract_eml"),
}

SUPPORTED_EXTENSIONS: frozenset[str] = frozenset(_REGISTRY)

# A text file named for a markup with ``.txt`` added is a copy of a page's source, read as that
# markup: Sphinx puts one beside each page it renders (``_sources/library/logging.rst.txt``;
# MyST's ``page.md.txt``), the same text as the page once its markup is removed.
_MARKUP_COPIES = ("rst", "md", "markdown")


def _reader(module: str, function: str) -> Extractor:
    return getattr(importlib.import_module(f"{__name__}.{module}"), function)


def load_readers() -> None:
    """Import every reader and its library now (the scan's fork server, before it forks)."""
    for _fmt, module, function in _REGISTRY.values():
        _reader(module, function)


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
    fmt, module, function = entry
    if fmt == "txt":
        inner = Path(Path(name).stem).suffix.lower().lstrip(".")
        if inner in _MARKUP_COPIES:  # read as its markup, still a text file
            _, module, function = _REGISTRY[inner]
    try:
        extractor = _reader(module, function)
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
