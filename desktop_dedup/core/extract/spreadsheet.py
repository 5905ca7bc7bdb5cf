"""Spreadsheets (.xlsx .xlsm .xls .xlsb .ods, Kingsoft .et) via python-calamine.

The text of a workbook is its cell text in reading order: sheet by sheet, row by row, the
non-empty cells of a row joined by tabs. Numbers are written as a person sees them (3, not 3.0),
dates in ISO form. calamine (Rust) reads all of these formats in one library and fast.

Kingsoft WPS Spreadsheets stores ``.et`` in the Excel 97 binary format, read like ``.xls``.
"""

from __future__ import annotations

import datetime as dt
import os
import posixpath
import re
import struct
import zipfile

import python_calamine as calamine

from desktop_dedup.core.errors import ExtractionError
from desktop_dedup.core.extract._common import (
    MAX_TEXT_BYTES,
    open_checked_zip,
    open_regular,
    too_large,
)
from desktop_dedup.core.extract.html import extract_html
from desktop_dedup.core.extract.odt import check_odf_not_encrypted
from desktop_dedup.core.extract.ole import (
    KIND_EXCEL,
    classify,
    not_compound_as_text,
    open_compound,
    sniff,
    wrong_kind,
)

#: Largest sheet (rows x columns of its used area) read. Reading materialises every cell of the
#: used area, so a sheet with two cells a million rows apart costs as much as a full one.
MAX_SHEET_CELLS: int = 20_000_000


def _cell_text(value: object) -> str:
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        return str(value)
    return "" if value is None else str(value)


_CELL_REF = re.compile(rb"<(?:\w+:)?c\b[^>]*?\br=\"([A-Z]{1,3})([0-9]{1,7})\"")


def _column_number(letters: bytes) -> int:
    n = 0
    for ch in letters:
        n = n * 26 + ch - 64
    return n


def _check_xlsx_extent(zf: zipfile.ZipFile, label: str) -> None:
    """Refuse a sheet whose cells span more than MAX_SHEET_CELLS before calamine sees it.

    calamine allocates the whole rectangle its cells span; two cells at A1 and XFD1048576 ask
    for half a terabyte, and a failed allocation in Rust aborts the process instead of raising.
    The cell references are found with a streaming scan of each worksheet part.
    """
    for name in zf.namelist():
        if not (name.startswith("xl/worksheets/") and name.endswith(".xml")):
            continue
        rows: list[int] = []
        cols: list[int] = []
        tail = b""
        with zf.open(name) as part:
            while chunk := part.read(1 << 20):
                data = tail + chunk
                last = 0
                for match in _CELL_REF.finditer(data):
                    cols.append(_column_number(match.group(1)))
                    rows.append(int(match.group(2)))
                    last = match.end()
                    if len(rows) > 4096:  # keep only the extremes
                        rows, cols = [min(rows), max(rows)], [min(cols), max(cols)]
                tail = data[max(last, len(data) - 256) :]
        if rows:
            cells = (max(rows) - min(rows) + 1) * (max(cols) - min(cols) + 1)
            if cells > MAX_SHEET_CELLS:
                sheet = posixpath.basename(name)
                raise ExtractionError(
                    f"too large: {label} sheet {sheet} spans {cells:,} cells, over the "
                    f"{MAX_SHEET_CELLS:,} cap"
                )


def _check_container(path: str | os.PathLike[str], label: str, container: str) -> None:
    if container == "zip":
        with open_checked_zip(path, label) as zf:
            if label == "ODS":
                check_odf_not_encrypted(zf, label)
            if label == "XLSX":
                _check_xlsx_extent(zf, label)
    else:
        ole = open_compound(path, label)
        try:
            kind = classify(ole)
            if kind != KIND_EXCEL:
                raise wrong_kind(kind, label)
            if _biff_is_encrypted(ole):
                raise ExtractionError(f"{label} is password-protected")
        finally:
            ole.close()


_BIFF_FILEPASS = 0x002F
_BIFF_EOF = 0x000A


def _biff_is_encrypted(ole) -> bool:
    """Whether the workbook globals hold a FILEPASS record (the workbook is encrypted).

    calamine only says it "cannot detect the file format" for those.
    """
    name = "Workbook" if ole.exists("Workbook") else "Book"
    with ole.openstream(name) as stream:
        head = stream.read(64 * 1024)  # FILEPASS follows BOF, among the first records
    pos = 0
    while pos + 4 <= len(head):
        kind, size = struct.unpack_from("<HH", head, pos)
        if kind == _BIFF_FILEPASS:
            return True
        if kind == _BIFF_EOF:
            return False
        pos += 4 + size
    return False


def _is_rust_panic(exc: BaseException) -> bool:
    # pyo3 turns a panic inside calamine (it has some on damaged files) into PanicException,
    # which derives from BaseException so that generic handlers do not swallow it; here it is
    # only a damaged file.
    return type(exc).__name__ == "PanicException"


def _extract(path: str | os.PathLike[str], label: str, container: str) -> str:
    if container == "cfb":
        kind = sniff(path)
        if kind == "html":  # Excel's "web page" save, and many exported reports, named .xls
            return extract_html(path)
        if kind == "zip":  # an .xlsx named .xls
            container, label = "zip", "XLSX"
        if kind == "unknown":  # tab- or comma-separated text named .xls
            return not_compound_as_text(path, label)
    _check_container(path, label, container)
    try:
        return _read_cells(path, label)
    except ExtractionError:
        raise
    except calamine.PasswordError as exc:
        raise ExtractionError(f"{label} is password-protected") from exc
    except calamine.CalamineError as exc:
        raise ExtractionError(f"corrupt {label}: {exc}") from exc
    except BaseException as exc:
        if _is_rust_panic(exc):
            raise ExtractionError(
                f"corrupt {label}: the spreadsheet reader failed ({exc})"
            ) from exc
        raise


#: The extensions by which calamine, handed a path, reads each format (``open_workbook_auto``);
#: another name it does not know (.et) it tries each format on.
_CALAMINE_NAMES = {
    "XLSX": (".xlsx", ".xlsm", ".xlam"),
    "XLSB": (".xlsb",),
    "ODS": (".ods",),
    "XLS": (".xls", ".xla"),
}


def _by_name(name: str, label: str) -> bool:
    """Whether calamine may be handed this workbook by its name: the name says its format, and
    is text calamine can pass on (a name that is not UTF-8 keeps its bytes as surrogates)."""
    if os.path.splitext(name)[1].lower() not in _CALAMINE_NAMES.get(label, ()):
        return False
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _read_cells(path: str | os.PathLike[str], label: str) -> str:
    # calamine handed a path reads only the parts it needs. Handed the open file, it reads all
    # of it into memory, twice over (a workbook with 100 MB of pictures took more than 200 MB),
    # to tell the format by its content: only for a workbook whose name says another format
    # (an .xlsx named .xls) or none calamine knows (a Kingsoft .et is Excel 97 inside). The
    # file is opened first all the same, so that a pipe or a device is refused without
    # blocking; one swapped in after that is the reader's time budget's to stop.
    with open_regular(path) as f:
        name = os.fsdecode(path)
        if _by_name(name, label):
            workbook = calamine.CalamineWorkbook.from_path(name)
        else:
            workbook = calamine.CalamineWorkbook.from_filelike(f)
        rows_text: list[str] = []
        total = 0
        try:
            for meta in workbook.sheets_metadata:
                if meta.typ != calamine.SheetTypeEnum.WorkSheet:
                    continue  # chart sheets and macros hold no cell text
                sheet = workbook.get_sheet_by_name(meta.name)
                cells = sheet.height * sheet.width
                if cells > MAX_SHEET_CELLS:
                    raise ExtractionError(
                        f"too large: {label} sheet {meta.name!r} spans {cells:,} cells, over "
                        f"the {MAX_SHEET_CELLS:,} cap"
                    )
                for row in sheet.iter_rows():
                    line = "\t".join(t for t in map(_cell_text, row) if t)
                    if line:
                        total += len(line) + 1
                        if total > MAX_TEXT_BYTES:
                            raise too_large(total)
                        rows_text.append(line)
        finally:
            workbook.close()
    return "\n".join(rows_text)


def extract_xlsx(path: str | os.PathLike[str]) -> str:
    return _extract(path, "XLSX", "zip")


def extract_xlsb(path: str | os.PathLike[str]) -> str:
    return _extract(path, "XLSB", "zip")


def extract_ods(path: str | os.PathLike[str]) -> str:
    return _extract(path, "ODS", "zip")


def extract_xls(path: str | os.PathLike[str]) -> str:
    return _extract(path, "XLS", "cfb")


def extract_et(path: str | os.PathLike[str]) -> str:
    return _extract(path, "ET", "cfb")
