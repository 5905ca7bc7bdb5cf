"""Pieces every extractor shares: the result type, size caps, bounded reading, zip checks.

The caps exist so that one hostile or absurd file (a zip bomb, a 5 GB log renamed .txt) cannot
exhaust memory in a scan worker; such files become a recorded problem with a clear reason.
"""

from __future__ import annotations

import bz2
import errno
import logging
import os
import re
import stat
import struct
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, BinaryIO

from desktop_dedup.core.errors import ExtractionError
from desktop_dedup.core.text import LETTER_RUN
from desktop_dedup.core.units import format_size, format_size_over

log = logging.getLogger(__name__)

#: Marks a hyphen that ended a line after a letter (PDFium's U+FFFE; plain text's typeset
#: hyphens, OCR's) until :func:`join_hyphenated` decides.
HYPHEN_MARK = "\ufffe"
_AFTER_MARK = re.compile(r"(\n?)([^\W\d_]*)")
_LETTERS = re.compile(r"[^\W\d_]*")
# Tried only where a run of letters begins: tried inside a run, it ran to the run's end from
# each of its letters (the same matches, in time growing with the square of the run).
_HYPHENATED = re.compile(r"(?<![^\W\d_])[^\W\d_]+-[^\W\d_]+")


# A word a typesetter hyphenated at a line end with the hyphen character U+2010 (never typed
# on a keyboard; groff writes it, and a manual page saved as text keeps it), a line break, the
# next line's indent. ASCII hyphens at line ends are left alone, since a word wrap breaks
# compounds at theirs (Python's textwrap does) and nothing tells those from hyphenation. The
# letter before the hyphen is looked for behind it, once the hyphen is found: a pattern that
# starts with a look-behind is tried at every character (70 ms for the 273 manual pages of the
# two public corpora), one that starts with the hyphen jumps from one to the next (2 ms).
_TYPESET_HYPHEN = re.compile(r"\u2010(?<=[^\W\d_]\u2010)\r?\n[ \t]*(?=[^\W\d_])")


def mark_typeset_hyphens(text: str) -> str:
    """``text`` with each hyphen U+2010 that ends a line after a letter, before a letter on the
    next line, marked as HYPHEN_MARK for :func:`join_hyphenated`."""
    return _TYPESET_HYPHEN.sub(HYPHEN_MARK + "\n", text) if "\u2010" in text else text


def join_hyphenated(text: str) -> str:
    """Words hyphenated at a line end (each such hyphen replaced by HYPHEN_MARK) joined again:
    ``docu-`` / ``ment`` is ``document``.

    Justified text is hyphenated by LaTeX, InDesign and word processors (when asked), and
    PDFium marks each hyphen that ends a line after a letter; groff hyphenates the manual pages
    people save as text (extract/plaintext.py). Shown as written, ``docu-ment`` is
    two words to the fingerprint and a change to the diff, against a copy in any other format
    (the English sample and a German manual page set in narrow justified columns by reportlab
    with pyphen's patterns: 90 % and 84 % the same as their text, 100 % joined; tests/
    test_extract.py). A compound broken at its own hyphen looks the
    same (``well-`` / ``known``), so the hyphen stays where the text writes that compound with
    a hyphen elsewhere and not without, or where the piece after it does not begin with a small
    letter (``Anti-`` / ``American``, ``COVID-`` / ``19``), and only there. (The hyphen
    character U+2010, which groff writes, counts as a hyphen there.)"""
    plain = text.replace(HYPHEN_MARK, " ").replace("\u2010", "-")
    # The text's words, lower-cased, are needed only for a broken word whose hyphenated form
    # occurs in the text at all (a compound); most are plain hyphenations ("docu-ment" nowhere
    # else), and listing every word of a long text costs more than the rest of its reading.
    # Final sigma folded: lower-casing a word alone or inside the text may spell it either way.
    lowered = plain.lower().replace("ς", "σ")
    words: list[set[str]] = []  # the hyphenated words and the words, once asked for

    def compound(before: str, after: str) -> bool:
        """Whether the text writes ``before-after`` with a hyphen and never without."""
        written = f"{before}-{after}".lower()
        if written.replace("ς", "σ") not in lowered:
            return False
        if not words:
            words.append({w.lower() for w in _HYPHENATED.findall(plain)})
            words.append({w.lower() for w in LETTER_RUN.findall(plain)})
        hyphenated, whole = words
        return written in hyphenated and (before + after).lower() not in whole

    # Each mark with the letters before it (back to where the previous mark's word ended) and,
    # after an optional line break, the letters after it. Found from the marks, not by one
    # pattern over the text: a pattern that begins with a run of letters is tried at every
    # letter of the text, and that was most of a long PDF's reading.
    pieces = text.split(HYPHEN_MARK)
    out: list[str] = []
    taken = 0  # how much of the current piece the previous mark's word took
    for k in range(len(pieces) - 1):
        piece = pieces[k]
        before = _letters_before(piece, taken)
        out.append(piece[taken : len(piece) - len(before)])
        after_match = _AFTER_MARK.match(pieces[k + 1])
        assert after_match is not None  # every part of it may be empty
        line_end, after = after_match.groups()
        taken = after_match.end()
        if before and after[:1].islower() and not compound(before, after):
            out.append(before + after)
        else:
            # kept: a compound joined on one line by PDFium, or a line that ends where it ended
            out.append(f"{before}-{after}" if after else f"{before}-{line_end}")
    out.append(pieces[-1][taken:])
    return "".join(out)


def _letters_before(piece: str, start: int) -> str:
    """The run of letters (no digits, no underscores) ending ``piece``, not reaching before
    ``start``: matched on the piece reversed (the pieces between marks add up to the text once,
    so this stays linear)."""
    run = _LETTERS.match(piece[start:][::-1])
    assert run is not None  # it may be empty
    return piece[len(piece) - run.end() :] if run.end() else ""


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


#: Who hears how many pages a reader is about to read (a scan's worker tells its engine, which
#: gives a long document time for its pages: workers.Budget.for_pages); nobody outside a scan.
_pages_listener: Callable[[int], None] | None = None


def listen_for_pages(listener: Callable[[int], None] | None) -> None:
    global _pages_listener
    _pages_listener = listener


def announce_pages(pages: int) -> None:
    """Say that the file being read has ``pages`` pages, before reading them."""
    if _pages_listener is not None:
        _pages_listener(pages)


#: A page of text, for the time a long text gets (a novel saved as one text file, a long
#: e-book): its characters in pages of this many, announced from this many pages on (a
#: message for every file would cost the scan more than the rule is worth).
CHARS_PER_PAGE = 3_000
ANNOUNCED_TEXT_PAGES = 100


def announce_text(chars: int) -> None:
    """Say that the text about to be fingerprinted has ``chars`` characters."""
    pages = -(-chars // CHARS_PER_PAGE)
    if pages >= ANNOUNCED_TEXT_PAGES:
        announce_pages(pages)


@dataclass(frozen=True, slots=True)
class Extracted:
    """Text of one document, raw-ish: paragraphs separated by newlines, not normalised."""

    text: str
    format: str  # canonical name, e.g. "txt", "docx", "doc", "xlsx", "ppt"; see the registry


def cap_label() -> str:
    """The text cap as users see it in messages (the one size rule, core/units.py)."""
    return format_size(MAX_TEXT_BYTES)


def over_cap(size: int, cap: int, what: str) -> ExtractionError:
    """The refusal "too large: 70 MB of HTML exceeds the 64 MB cap", both sizes in one unit."""
    return ExtractionError(
        f"too large: {format_size_over(size, cap)} of {what} exceeds the {format_size(cap)} cap"
    )


def too_large(size: int) -> ExtractionError:
    return over_cap(size, MAX_TEXT_BYTES, "text")


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


def read_up_to(f: BinaryIO, size: int, limit: int) -> bytes:
    """What the open file ``f`` of ``size`` bytes (its size when looked at) holds, but no more
    than ``limit`` + 1 bytes (one more than the cap: the caller sees it grew past the cap).

    As much as the file holds first, and one byte to see whether it grew since: read(limit + 1)
    allocates the whole cap (64 MB of address space, of a reader's 512 MB budget; 256 MB for an
    e-book) for every file, however small, and the allocation cost more than reading a small
    file."""
    data = f.read(size + 1)
    if len(data) > size:  # grew since it was looked at: the rest, up to the cap
        data += f.read(limit + 1 - len(data))
    return data


def read_capped(
    path: str | os.PathLike[str], cap: int | None = None, label: str | None = None
) -> bytes:
    """Read a whole file, but never more than ``cap`` (MAX_TEXT_BYTES; +1 to detect growth).

    The size is checked before reading so a huge (or sparse) file costs nothing. Opened without
    blocking and checked to be a regular file after opening: a file swapped for a FIFO between
    listing and reading would otherwise block the reader forever.
    """
    limit = MAX_TEXT_BYTES if cap is None else cap

    def refuse(size: int) -> ExtractionError:
        if cap is None:
            return too_large(size)
        return over_cap(size, cap, str(label))

    with open_regular(path) as f:
        size = os.fstat(f.fileno()).st_size
        if size > limit:
            raise refuse(size)
        data = read_up_to(f, size, limit)
    if len(data) > limit:  # grew while we looked at it
        raise refuse(len(data))
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


#: Parts of a zip container that no reader opens, by extension: pictures, sound, video, fonts
#: and embedded binaries (an OLE object, a VBA project). They are neither inflated nor counted
#: when a container is opened: a DOCX of photos costs what its text costs, and a presentation
#: with 600 MB of video is read for its slides' text. One that a reader does open is checked by
#: its real bytes first (:class:`CheckedZipFile`).
UNREAD_PARTS = frozenset(
    ".png .jpg .jpeg .jpe .gif .bmp .tif .tiff .webp .heic .ico .emf .wmf .emz .wmz .svgz "
    ".mp3 .m4a .wav .wma .aac .flac .ogg .oga .mid "
    ".mp4 .m4v .mov .avi .wmv .mpg .mpeg .mkv .webm .ogv .3gp "
    ".ttf .otf .odttf .woff .woff2 .eot .fntdata .bin".split()
)


def _is_unread(name: str) -> bool:
    return os.path.splitext(name)[1].lower() in UNREAD_PARTS


class CheckedZipFile(zipfile.ZipFile):
    """A zip container opened by :func:`open_checked_zip`: a member is inflated only once its
    real size is known to be safe (:func:`real_size`), however it is read (``read`` opens)."""

    real_sizes: dict[str, int]
    _check: tuple[str | os.PathLike[str], str]  # the archive's path and format, once opened
    _totals: list[int]  # the real bytes of the members checked so far, and their packed bytes

    def open(self, name: Any, mode: str = "r", pwd: bytes | None = None, **kwargs: Any) -> Any:
        if mode == "r":
            real_size(self, name.filename if isinstance(name, zipfile.ZipInfo) else name)
        return super().open(name, mode, pwd, **kwargs)


def open_checked_zip(path: str | os.PathLike[str], label: str) -> CheckedZipFile:
    """Open a zip container after checking it is one and that it is not a bomb.

    The sizes an archive declares are checked first (cheap), then every member a reader may
    open is inflated once, in 1 MB steps, counting the bytes that really come out
    (:func:`check_real_sizes`): ``zipfile`` inflates a member whole in one call, up to its real
    size whatever size it declares, so a member declaring 10 KB can take gigabytes. The real
    sizes are kept on the archive (``real_sizes``) for the per-part caps
    (:func:`check_part_size`). Pictures and the like (:data:`UNREAD_PARTS`) are left alone
    until a reader opens one.
    """
    with open_regular(path) as f:
        magic = f.read(8)
    if magic == _CFB_MAGIC:
        raise ExtractionError(_cfb_reason(path, label))
    try:
        zf = CheckedZipFile(path)
    except zipfile.BadZipFile as exc:
        log.debug("bad zip %s: %s", path, exc)
        raise ExtractionError(f"truncated or corrupt {label} (not a valid zip archive)") from exc
    try:
        check_zip_bomb(zf, label)
        zf.real_sizes = check_real_sizes(zf, path, label)
        zf._check = (path, label)
    except BaseException:
        zf.close()
        raise
    return zf


def real_size(zf: zipfile.ZipFile, name: str) -> int:
    """The real (inflated) size of member ``name`` of a container from :func:`open_checked_zip`,
    inflated in bounded steps first if that was left until a reader opens it, and refused as
    the whole archive would have been (a bomb, or the real total past the cap). The declared
    size in an archive opened otherwise (or while it is being opened); 0 for a member the
    archive does not hold (zipfile reports it in its own words)."""
    try:
        info = zf.getinfo(name)
    except KeyError:
        return 0
    sizes: dict[str, int] | None = getattr(zf, "real_sizes", None)
    check = getattr(zf, "_check", None)
    if sizes is None or check is None:
        return info.file_size
    if name not in sizes:
        path, label = check
        _check_declared(info, label)
        with open_regular(path) as f:
            sizes[name] = _checked_member(zf, f, info, label)
    return sizes[name]


def check_zip_bomb(zf: zipfile.ZipFile, label: str) -> None:
    """Raise ExtractionError when declared sizes say the archive would inflate absurdly (the
    members a reader may open: :data:`UNREAD_PARTS` are not inflated)."""
    total = 0
    packed = 0
    for info in zf.infolist():
        if _is_unread(info.filename):
            continue
        total += info.file_size
        packed += info.compress_size
        _check_declared(info, label)
    _check_total(total, packed, label)


def _check_declared(info: zipfile.ZipInfo, label: str) -> None:
    ratio = info.file_size / max(info.compress_size, 1)
    if info.file_size > ZIP_BOMB_MEMBER_BYTES and ratio > ZIP_BOMB_RATIO:
        raise ExtractionError(
            f"zip bomb: {label} member {info.filename} expands to "
            f"{format_size(info.file_size)} (ratio {ratio:.0f}:1)"
        )


def _check_total(total: int, packed: int, label: str, more: bool = False) -> None:
    if total > ZIP_MAX_TOTAL_BYTES:
        size = ("more than " if more else "") + format_size_over(total, ZIP_MAX_TOTAL_BYTES)
        if total / max(packed, 1) > _ZIP_BOMB_TOTAL_RATIO:
            raise ExtractionError(f"zip bomb: {label} expands to {size}")
        raise ExtractionError(
            f"too large: {label} expands to {size}, over the {format_size(ZIP_MAX_TOTAL_BYTES)} cap"
        )


_LOCAL_HEADER = struct.Struct("<4s2B4HL2L2H")
_STEP = 1 << 20


def check_real_sizes(
    zf: zipfile.ZipFile, path: str | os.PathLike[str], label: str
) -> dict[str, int]:
    """Inflate every member a reader may open (not :data:`UNREAD_PARTS`) in bounded steps,
    counting real bytes; returns name -> real size.

    Stops as soon as a member is a bomb by its real bytes (past ZIP_BOMB_MEMBER_BYTES at more
    than ZIP_BOMB_RATIO:1) or the real total passes ZIP_MAX_TOTAL_BYTES: memory stays at a
    megabyte whatever the archive claims, and time at one pass over what is allowed.
    """
    sizes: dict[str, int] = {}
    zf._totals = [0, 0]  # type: ignore[attr-defined]  # what a member opened later adds to
    with open_regular(path) as f:
        for info in zf.infolist():
            if not _is_unread(info.filename):
                sizes[info.filename] = _checked_member(zf, f, info, label)
    return sizes


def _checked_member(zf: zipfile.ZipFile, f: BinaryIO, info: zipfile.ZipInfo, label: str) -> int:
    """The real size of one member, read from ``f`` (the archive), its bytes added to the real
    total of the archive's members checked so far (``zf._totals``), which stays under the cap."""
    if info.is_dir() or info.flag_bits & 0x1:  # encrypted: the reader says so
        return info.file_size
    totals = zf._totals  # type: ignore[attr-defined]  # set by check_real_sizes
    f.seek(info.header_offset)
    header = f.read(_LOCAL_HEADER.size)
    if len(header) != _LOCAL_HEADER.size or header[:4] != b"PK\x03\x04":
        raise ExtractionError(f"truncated or corrupt {label} (bad zip member header)")
    fields = _LOCAL_HEADER.unpack(header)
    f.seek(fields[10] + fields[11], os.SEEK_CUR)
    real = _inflated_size(f, info, label, ZIP_MAX_TOTAL_BYTES - totals[0])
    totals[0] += real
    totals[1] += info.compress_size
    _check_total(totals[0], totals[1], label, more=True)
    return real


def _inflated_size(f: Any, info: zipfile.ZipInfo, label: str, allowance: int) -> int:
    left = info.compress_size
    if info.compress_type == zipfile.ZIP_STORED:
        return left
    if info.compress_type == zipfile.ZIP_DEFLATED:
        inflater: Any = zlib.decompressobj(-15)
    elif info.compress_type == zipfile.ZIP_BZIP2:
        inflater = bz2.BZ2Decompressor()
    else:
        raise ExtractionError(
            f"corrupt {label}: member {info.filename} uses unknown compression method "
            f"{info.compress_type}"
        )
    produced = consumed = 0
    while left > 0 and not inflater.eof:
        chunk = f.read(min(_STEP, left))
        if not chunk:
            break
        left -= len(chunk)
        consumed += len(chunk)
        while chunk:
            out = inflater.decompress(chunk, _STEP)
            produced += len(out)
            if produced > ZIP_BOMB_MEMBER_BYTES and produced / consumed > ZIP_BOMB_RATIO:
                raise ExtractionError(
                    f"zip bomb: {label} member {info.filename} expands to more than "
                    f"{format_size(produced)} (declared {format_size(info.file_size)})"
                )
            if produced > allowance:
                return produced  # the caller reports the total
            chunk = getattr(inflater, "unconsumed_tail", b"")
            if not out and not chunk:
                break
    return produced


#: Largest XML part (DOCX word/document.xml, ODT content.xml) handed to a DOM parser, by its
#: real inflated size: a DOM costs ~19 times its XML (a 250 MB document.xml took 4.8 GB), and
#: a reader has 512 MB. A 1,000-page book is ~20 MB of document.xml.
MAX_XML_PART_BYTES: int = 24 * 1024 * 1024


def check_part_size(zf: zipfile.ZipFile, name: str, label: str) -> None:
    """Refuse a main XML part too big to parse into a DOM in bounded memory (real size)."""
    try:
        size = zf.getinfo(name).file_size
    except KeyError:
        return  # the format library reports the missing part in its own words
    size = max(size, real_size(zf, name))
    if size > MAX_XML_PART_BYTES:
        raise ExtractionError(
            f"too large: {label} body is {format_size_over(size, MAX_XML_PART_BYTES)} of XML, "
            f"over the {format_size(MAX_XML_PART_BYTES)} cap"
        )


_SURROGATES = re.compile("[\ud800-\udfff]")


def join_surrogates(text: str) -> str:
    """Combine UTF-16 surrogate pairs some formats (RTF \\uN) leave as separate code points."""
    if _SURROGATES.search(text) is None:
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
