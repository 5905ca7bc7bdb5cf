"""Walk root folders and list candidate files: filters and ``stat``; a file's first bytes are
read only to tell what a file without an extension, or of a type no reader handles, is.

* Symbolic links are not followed by default (no loops, no files counted twice); every path is
  stored absolute and resolved.
* Exclude globs are matched (fnmatch) against each file's and folder's *name*; case-sensitively on
  Linux, ignoring case on Windows and macOS, as their file systems do.
* A folder that cannot be listed is a :class:`Problem`, not an exception. A name that is not
  UTF-8 is listed as Python holds it (os.fsdecode), and stored escaped (pathrules.stored).
* A file without an extension (``README``, ``LICENSE``, ``copyright``) is read as plain text when
  plain text is among the scanned types and its first bytes are text (:func:`text_kind`: the
  same encoding detection and binary check as the text reader) that is not a script (``#!``);
  names starting with a dot (configuration files) are not. Extensions in ``text_extensions``
  are read as plain text.
* A file of a document type no reader handles (UNREAD_DOCUMENT_TYPES) is a :class:`Problem`
  when its first bytes are that type's (:func:`is_unread_type`); a file that only shares the
  extension (Tcl's text ``.msg`` catalogues are not Outlook messages) is counted with the
  other types.
* What the filters pass over is counted in a :class:`FilterCounts` (by extension, by exclude
  pattern, by size, not text, hard links of a file already listed), never silently dropped.
* A second name (hard link) of a file already listed is not listed again: it is the same file,
  and removing it would free nothing.
"""

from __future__ import annotations

import fnmatch
import logging
import os
import re
import stat
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

from desktop_dedup.core.models import (
    UNREAD_DOCUMENT_TYPES,
    FileEntry,
    FilterCounts,
    Problem,
    ScanOptions,
)
from desktop_dedup.core.progress import CancelToken, ProgressEvent, ProgressSink, Stage
from desktop_dedup.core.units import format_size, format_size_over

log = logging.getLogger(__name__)


# Windows and macOS file systems ignore case ("Thumbs.db" is "THUMBS.DB"), so their excludes do.
EXCLUDES_IGNORE_CASE = sys.platform in ("win32", "darwin")


def _compile_excludes(
    globs: Sequence[str], *, ignore_case: bool | None = None
) -> re.Pattern[str] | None:
    """One pattern for all ``globs`` (fnmatch syntax) matched against a whole name; case is
    ignored where the platform's file systems ignore it (:data:`EXCLUDES_IGNORE_CASE`)."""
    if not globs:
        return None
    fold = EXCLUDES_IGNORE_CASE if ignore_case is None else ignore_case
    flags = re.IGNORECASE if fold else 0
    return re.compile("|".join(fnmatch.translate(g) for g in globs), flags)


def resolve_roots(roots: Sequence[str]) -> list[str]:
    """Absolute, resolved, de-duplicated roots; a root inside another root is dropped."""
    resolved = sorted({str(Path(r).expanduser().resolve()) for r in roots})
    out: list[str] = []
    for r in resolved:
        if not any(r == o or r.startswith(o.rstrip(os.sep) + os.sep) for o in out):
            out.append(r)
    return out


#: How much of a file without an extension is read to decide whether it is text.
SNIFF_BYTES = 8192
#: The extension given to files read as plain text (extensionless or an extra text extension).
PLAIN_TEXT = "text"


def looks_like_text(path: str) -> bool:
    """Whether the file's first :data:`SNIFF_BYTES` decode as text (any encoding the text reader
    detects) rather than binary. Never raises: an unreadable file is "not text"."""
    return text_kind(path) is not None


#: What a script starts with: the interpreter line that makes a text file a program.
SHEBANG = b"#!"


def text_kind(path: str) -> str | None:
    """What a file without an extension is, by its first :data:`SNIFF_BYTES`: "script" (text
    that starts with ``#!``: a shell, Python or Perl program, as a .sh or .py file is, not a
    document), "text", or None (binary, empty or unreadable). Never raises."""
    from desktop_dedup.core.extract._common import open_regular

    try:
        with open_regular(path) as fh:
            head = fh.read(SNIFF_BYTES)
    except OSError:
        return None
    if not head or not _decodes(head):
        return None
    return "script" if head.startswith(SHEBANG) else "text"


def _decodes(head: bytes) -> bool:
    from desktop_dedup.core.errors import ExtractionError
    from desktop_dedup.core.extract.plaintext import decode_text_bytes

    # A multi-byte character cut at the end of the sample is not a sign of binary.
    cuts = range(4) if len(head) == SNIFF_BYTES else range(1)
    for cut in cuts:
        try:
            decode_text_bytes(head[: len(head) - cut])
        except ExtractionError:
            continue
        return True
    return False


# What a file of a type no reader handles starts with (its format's signature). A file with
# such an extension and other contents is another kind of file that shares the extension (Tcl's
# .msg message catalogues are text, not Outlook messages): it is counted with the other types
# instead of being reported as a document the app cannot read. Types without a sure signature
# (CAJ, KDH, KFX: several container variants) are reported unless the file is text.
_CFB = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # compound file: Outlook, Visio, HWP 5
_ZIP = b"PK\x03\x04"  # HWPX, iWork, XPS, VSDX, OpenOffice.org 1
_UNREAD_SIGNATURES: dict[str, tuple[bytes, ...]] = {
    "msg": (_CFB,),
    "hwp": (_CFB, b"HWP Document File"),
    "hwpx": (_ZIP,),
    "pages": (_ZIP,),
    "numbers": (_ZIP,),
    "xps": (_ZIP,),
    "oxps": (_ZIP,),
    "djvu": (b"AT&TFORM",),
    "chm": (b"ITSF",),
    "wpd": (b"\xffWPC",),
    "vsd": (_CFB,),
    "vsdx": (_ZIP,),
    # OneNote's file format GUID {7B5C52E4-D88C-4DA7-AEB1-5378D02996D3}, as stored
    "one": (bytes.fromhex("e4525c7b8cd8a74daeb15378d02996d3"),),
    "ps": (b"%!PS", b"\xc5\xd0\xd3\xc6"),  # PostScript, and EPS with a binary preview
    "lit": (b"ITOLITLS",),
    "sxw": (_ZIP,),
    "wri": (b"\x31\xbe\x00\x00", b"\x32\xbe\x00\x00"),
}


def is_unread_type(path: str, ext: str) -> bool:
    """Whether the file named ``.ext`` (a key of UNREAD_DOCUMENT_TYPES) is a document of that
    type: it starts with the type's signature, or, for a type without one, it is not text. A
    file that cannot be read is taken at its name (it is reported, with the type)."""
    from desktop_dedup.core.extract._common import open_regular

    signatures = _UNREAD_SIGNATURES.get(ext)
    if signatures is None:
        return not looks_like_text(path)
    try:
        with open_regular(path) as fh:
            head = fh.read(max(map(len, signatures)))
    except OSError:
        return True
    return head.startswith(signatures)


def mount_away(path: str) -> bool:
    """Whether nothing is mounted at ``path`` now, where a scan found a drive or a share
    (walk_files' ``mounts``): the folder is gone (a removable drive's, which the desktop
    removes when it unmounts it) or empty on the file system of the folder holding it (a
    share's or a FUSE mount's mount point). A folder with anything in it is not away, whatever
    its file system: the files missing from it are gone."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return True
    except OSError:  # cannot tell (a share that does not answer): not known to be away
        return False
    if not stat.S_ISDIR(st.st_mode):
        return False
    try:
        if os.stat(os.path.dirname(path)).st_dev != st.st_dev:
            return False  # something is mounted there
        with os.scandir(path) as it:
            return next(it, None) is None
    except OSError:
        return False


def unreadable_root(path: str) -> bool:
    """Whether a scan of ``path``, a listed folder, would keep its files as last scanned for
    want of reading them (walk_files: a root not found or that cannot be listed, or one that
    holds nothing at all, a mount point without its drive or share): their folder is not there
    now, as far as anyone can tell."""
    try:
        with os.scandir(path) as it:
            return next(it, None) is None
    except OSError:
        return True


def excluded_below(path: str, root: str, exclude_globs: Sequence[str]) -> bool:
    """Whether a listing of ``root`` passes over ``path`` for a name that the exclusions match
    (its own or a folder's it is in), as walk_files does."""
    excluded = _compile_excludes(exclude_globs)
    if excluded is None:
        return False
    relative = os.path.relpath(path, root)
    return any(excluded.fullmatch(part) for part in Path(relative).parts)


def walk_files(
    options: ScanOptions,
    problems: list[Problem],
    *,
    progress: ProgressSink | None = None,
    cancel: CancelToken | None = None,
    counts: FilterCounts | None = None,
    unlisted: list[str] | None = None,
    empty_roots: list[str] | None = None,
    mounts: list[str] | None = None,
) -> Iterator[FileEntry]:
    """Yield every candidate file under ``options.roots``; trouble goes to ``problems``, what
    the filters passed over is counted in ``counts``. ``unlisted`` receives every folder (a root
    not found, a folder that could not be listed) and path (one that could not be stat'ed)
    whose files this listing could not see: that says nothing about whether they still exist
    (an unplugged drive, a share not mounted, permissions changed). ``empty_roots`` receives
    the roots that hold nothing at all (a mount point without its share: the caller decides).
    ``mounts`` receives the folders below a root where another file system begins (a drive, a
    share or a FUSE mount such as sshfs or rclone mounted there: its device is not that of the
    folder holding it), which a later scan may find unmounted (:func:`mount_away`)."""
    unlisted = unlisted if unlisted is not None else []
    empty_roots = empty_roots if empty_roots is not None else []
    mounts = mounts if mounts is not None else []
    counts = counts if counts is not None else FilterCounts()
    extensions = {e.lower().lstrip(".") for e in options.extensions}
    text_extensions = {e.lower().lstrip(".") for e in options.text_extensions} - extensions
    sniff = "txt" in extensions  # files without an extension are read as plain text
    excluded = _compile_excludes(options.exclude_globs)
    seen_dirs: set[tuple[int, int]] = set()  # (dev, inode): guards loops when following links
    seen_links: set[tuple[int, int]] = set()  # files with more than one name, listed once
    found = 0
    for root in resolve_roots(options.roots):
        if not os.path.isdir(root):
            problems.append(Problem(root, "folder not found"))
            unlisted.append(root)
            continue
        try:
            root_device = os.stat(root).st_dev
        except OSError:
            root_device = None  # vanished since: its listing says why below
        stack = [(root, root_device)]
        while stack:
            if cancel is not None:
                cancel.raise_if_cancelled()
            folder, device = stack.pop()
            try:
                with os.scandir(folder) as it:
                    entries = sorted(it, key=lambda e: e.name)
            except PermissionError:
                problems.append(Problem(folder, "permission denied (folder)"))
                unlisted.append(folder)
                continue
            except FileNotFoundError:
                problems.append(Problem(folder, "folder vanished during scan"))
                unlisted.append(folder)
                continue
            except OSError as exc:
                problems.append(Problem(folder, f"cannot list folder: {exc.strerror}"))
                unlisted.append(folder)
                continue
            if not entries and folder == root:
                empty_roots.append(root)
            subdirs = []
            for entry in entries:
                name = entry.name
                if excluded is not None and excluded.fullmatch(name):
                    try:
                        if entry.is_dir(follow_symlinks=False):
                            counts.excluded_folders += 1
                        else:
                            counts.excluded_files += 1
                    except OSError:
                        counts.excluded_files += 1
                    continue
                try:
                    is_link = entry.is_symlink()
                    if is_link and not options.follow_symlinks:
                        continue
                    st = entry.stat(follow_symlinks=options.follow_symlinks)
                except FileNotFoundError:
                    continue  # vanished between listing and stat: nothing to record
                except OSError as exc:
                    problems.append(Problem(entry.path, f"cannot stat: {exc.strerror}"))
                    unlisted.append(entry.path)
                    continue
                if stat.S_ISDIR(st.st_mode):
                    key = (st.st_dev, st.st_ino)
                    if key not in seen_dirs:
                        seen_dirs.add(key)
                        subdirs.append((entry.path, st.st_dev))
                        if st.st_dev != device:
                            mounts.append(entry.path)
                    continue
                if not stat.S_ISREG(st.st_mode):
                    continue
                ext = os.path.splitext(name)[1].lower().lstrip(".")
                if ext in text_extensions:
                    ext = PLAIN_TEXT
                elif ext not in extensions:
                    if ext in UNREAD_DOCUMENT_TYPES and is_unread_type(entry.path, ext):
                        problems.append(
                            Problem(
                                entry.path,
                                f"not read: {UNREAD_DOCUMENT_TYPES[ext]} (.{ext}) is a type "
                                "this app cannot read",
                            )
                        )
                        continue
                    if not (ext == "" and sniff and not name.startswith(".")):
                        counts.by_extension[ext] = counts.by_extension.get(ext, 0) + 1
                        continue
                    if st.st_size < max(options.min_size, 1):
                        counts.too_small += 1
                        continue
                    kind = text_kind(entry.path)
                    if kind != "text":
                        if kind is None:
                            counts.not_text += 1
                        else:
                            counts.scripts += 1
                        continue
                    ext = PLAIN_TEXT
                if st.st_nlink > 1:
                    key = (st.st_dev, st.st_ino)
                    if key in seen_links:
                        counts.hard_links += 1
                        continue
                    seen_links.add(key)
                if st.st_size > options.max_size:  # never silently: the user asked for this file
                    problems.append(
                        Problem(
                            entry.path,
                            f"larger than the {format_size(options.max_size)} limit "
                            f"({format_size_over(st.st_size, options.max_size)}); skipped",
                        )
                    )
                    continue
                if st.st_size < options.min_size:
                    if st.st_size == 0 and options.min_size <= 1:
                        problems.append(Problem(entry.path, "empty file (0 bytes)"))
                    else:
                        counts.too_small += 1
                    continue
                path = os.path.realpath(entry.path) if is_link else entry.path
                found += 1
                if progress is not None and found % 500 == 0:
                    progress(ProgressEvent(Stage.LISTING, done=found, current=path))
                yield FileEntry(path, st.st_size, st.st_mtime_ns, ext)
            stack.extend(reversed(subdirs))
