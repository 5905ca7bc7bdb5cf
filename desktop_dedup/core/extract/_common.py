"""Pieces every extractor shares: the result type, size caps, bounded reading, zip checks.

The caps exist so that one hostile or absurd file (a zip bomb, a 5 GB log renamed .txt) cannot
exhaust memory in a scan worker; such files become a recorded problem with a clear reason.
"""

from __future__ import annotations

import errno
import logging
import os
import re
import stat
import zipfile
from dataclasses import dataclass

from desktop_dedup.core.errors import ExtractionError

log = logging.getLogger(__name__)

#: Largest plain-text/HTML/RTF file we read, and the largest text any extractor returns
#: (in characters). 64 MiB of text is ~20 novels; anything larger is a log or a data dump,
#: not a document a person deduplicates by reading it side by side.
MAX_TEXT_BYTES: int = 64 * 1024 * 1024

#: A zip container (DOCX/ODT/EPUB) whose members declare more than this in total is refused.
ZIP_MAX_TOTAL_BYTES: int = 512 * 1024 * 1024
#: A single member that inflates more than this ratio AND to more than ZIP_BOMB_MEMBER_BYTES
#: is a zip bomb (real XML compresses ~5-20x; zeros compress ~1000x).
ZIP_BOMB_RATIO: int = 200
ZIP_BOMB_MEMBER_BYTES: int = 50 * 1024 * 1024
#: Overall ratio above which an oversized container is called a bomb rather than just too large
#: (image-heavy EPUBs are big but barely compress).
_ZIP_BOMB_TOTAL_RATIO = 20

_CFB_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"


@dataclass(frozen=True, slots=True)
class Extracted:
    """Text of one document, raw-ish: paragraphs separated by newlines, not normalised."""

    text: str
    format: str  # canonical name, e.g. "txt", "docx", "doc", "xlsx", "ppt"; see the registry


def human_size(n: int | float) -> str:
    """Decimal size for messages, e.g. ``3.1 GB`` (what file managers show)."""
    value = float(n)
    for unit in ("bytes", "KB", "MB", "GB", "TB"):
        if value < 1000 or unit == "TB":
            if unit == "bytes":
                return f"{int(value)} bytes"
            return f"{value:.1f} {unit}"
        value /= 1000
    raise AssertionError("unreachable")


def cap_label() -> str:
    """The text cap as users see it in messages (binary units, as it is defined)."""
    return f"{MAX_TEXT_BYTES / 1024 / 1024:g} MiB"


def too_large(size: int) -> ExtractionError:
    return ExtractionError(f"too large: {human_size(size)} of text exceeds the {cap_label()} cap")


def check_text_length(text: str) -> str:
    """Refuse extracted text beyond the cap (e.g. a huge PDF text layer)."""
    if len(text) > MAX_TEXT_BYTES:
        raise too_large(len(text))
    return text


def open_regular(path: str | os.PathLike[str]):
    """Open ``path`` for binary reading only if it is a regular file (checked on the open file,
    so nothing can be swapped in between); a FIFO or device is refused without blocking."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file (a pipe or a device)", str(path))
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_capped(path: str | os.PathLike[str]) -> bytes:
    """Read a whole file, but never more than MAX_TEXT_BYTES (+1 to detect growth).

    The size is checked before reading so a huge (or sparse) file costs nothing. Opened without
    blocking and checked to be a regular file after opening: a file swapped for a FIFO between
    listing and reading would otherwise block the reader forever.
    """
    with open_regular(path) as f:
        size = os.fstat(f.fileno()).st_size
        if size > MAX_TEXT_BYTES:
            raise too_large(size)
        data = f.read(MAX_TEXT_BYTES + 1)
    if len(data) > MAX_TEXT_BYTES:  # grew while we looked at it
        raise too_large(len(data))
    if not data:
        raise ExtractionError("empty file (0 bytes)")
    return data


def _cfb_reason(path: str | os.PathLike[str], label: str) -> str:
    """Why an OLE/CFB file sits where a zip was expected.

    Office stores password-protected OOXML as a CFB container with 'EncryptionInfo' and
    'EncryptedPackage' streams; any other CFB is a legacy binary document that was renamed.
    """
    with open(path, "rb") as f:
        head = f.read(1024 * 1024)
    if (
        "EncryptedPackage".encode("utf-16-le") in head
        or "EncryptionInfo".encode("utf-16-le") in head
    ):
        return f"{label} is password-protected"
    return f"not a {label}: legacy binary Office document (OLE) with a {label} name"


def open_checked_zip(path: str | os.PathLike[str], label: str) -> zipfile.ZipFile:
    """Open a zip container after checking it is one and that it is not a bomb.

    Python's zipfile never inflates a member past its declared size, so checking the declared
    sizes in the central directory bounds the memory any later library can use.
    """
    with open(path, "rb") as f:
        magic = f.read(8)
    if magic == _CFB_MAGIC:
        raise ExtractionError(_cfb_reason(path, label))
    try:
        zf = zipfile.ZipFile(path)
    except zipfile.BadZipFile as exc:
        log.debug("bad zip %s: %s", path, exc)
        raise ExtractionError(f"truncated or corrupt {label} (not a valid zip archive)") from exc
    try:
        check_zip_bomb(zf, label)
    except BaseException:
        zf.close()
        raise
    return zf


def check_zip_bomb(zf: zipfile.ZipFile, label: str) -> None:
    """Raise ExtractionError when declared sizes say the archive would inflate absurdly."""
    total = 0
    packed = 0
    for info in zf.infolist():
        total += info.file_size
        packed += info.compress_size
        ratio = info.file_size / max(info.compress_size, 1)
        if info.file_size > ZIP_BOMB_MEMBER_BYTES and ratio > ZIP_BOMB_RATIO:
            raise ExtractionError(
                f"zip bomb: {label} member {info.filename} expands to "
                f"{human_size(info.file_size)} (ratio {ratio:.0f}:1)"
            )
    if total > ZIP_MAX_TOTAL_BYTES:
        if total / max(packed, 1) > _ZIP_BOMB_TOTAL_RATIO:
            raise ExtractionError(f"zip bomb: {label} expands to {human_size(total)}")
        raise ExtractionError(
            f"too large: {label} expands to {human_size(total)}, over the "
            f"{ZIP_MAX_TOTAL_BYTES // 1024 // 1024} MiB cap"
        )


#: Largest XML part (DOCX word/document.xml, ODT content.xml) handed to a DOM parser: markup
#: is a few times the text it holds, and a DOM costs several times its XML in memory.
MAX_XML_PART_BYTES: int = 4 * MAX_TEXT_BYTES


def check_part_size(zf: zipfile.ZipFile, name: str, label: str) -> None:
    """Refuse a main XML part too big to parse into a DOM in bounded memory."""
    try:
        size = zf.getinfo(name).file_size
    except KeyError:
        return  # the format library reports the missing part in its own words
    if size > MAX_XML_PART_BYTES:
        raise ExtractionError(
            f"too large: {label} body is {human_size(size)} of XML, over the "
            f"{MAX_XML_PART_BYTES // 1024 // 1024} MiB cap"
        )


_SURROGATES = re.compile("[\ud800-\udfff]")


def join_surrogates(text: str) -> str:
    """Combine UTF-16 surrogate pairs some formats (RTF \\uN) leave as separate code points."""
    if _SURROGATES.search(text) is None:
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
