"""Walk root folders and list candidate files: filters and ``stat`` only, no content is read.

* Symbolic links are not followed by default (no loops, no files counted twice); every path is
  stored absolute and resolved.
* Exclude globs are matched (fnmatch) against each file's and folder's *name*; case-sensitively on
  Linux, ignoring case on Windows and macOS, as their file systems do.
* A folder that cannot be listed, or a name that is not valid in the file system's encoding, is a
  :class:`Problem`, not an exception.
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

from desktop_dedup.core.models import UNREAD_DOCUMENT_TYPES, FileEntry, Problem, ScanOptions
from desktop_dedup.core.progress import CancelToken, ProgressEvent, ProgressSink, Stage

log = logging.getLogger(__name__)


def printable_path(path: str) -> str:
    """A path safe to show and store: undecodable bytes become U+FFFD."""
    return path.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _has_surrogates(name: str) -> bool:
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


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


def walk_files(
    options: ScanOptions,
    problems: list[Problem],
    *,
    progress: ProgressSink | None = None,
    cancel: CancelToken | None = None,
) -> Iterator[FileEntry]:
    """Yield every candidate file under ``options.roots``; trouble goes to ``problems``."""
    extensions = {e.lower().lstrip(".") for e in options.extensions}
    excluded = _compile_excludes(options.exclude_globs)
    seen_dirs: set[tuple[int, int]] = set()  # (dev, inode): guards loops when following links
    found = 0
    for root in resolve_roots(options.roots):
        if not os.path.isdir(root):
            problems.append(Problem(root, "folder not found"))
            continue
        stack = [root]
        while stack:
            if cancel is not None:
                cancel.raise_if_cancelled()
            folder = stack.pop()
            try:
                with os.scandir(folder) as it:
                    entries = sorted(it, key=lambda e: e.name)
            except PermissionError:
                problems.append(Problem(printable_path(folder), "permission denied (folder)"))
                continue
            except FileNotFoundError:
                problems.append(Problem(printable_path(folder), "folder vanished during scan"))
                continue
            except OSError as exc:
                problems.append(
                    Problem(printable_path(folder), f"cannot list folder: {exc.strerror}")
                )
                continue
            subdirs = []
            for entry in entries:
                name = entry.name
                if excluded is not None and excluded.fullmatch(name):
                    continue
                try:
                    is_link = entry.is_symlink()
                    if is_link and not options.follow_symlinks:
                        continue
                    st = entry.stat(follow_symlinks=options.follow_symlinks)
                except FileNotFoundError:
                    continue  # vanished between listing and stat: nothing to record
                except OSError as exc:
                    problems.append(
                        Problem(printable_path(entry.path), f"cannot stat: {exc.strerror}")
                    )
                    continue
                if stat.S_ISDIR(st.st_mode):
                    key = (st.st_dev, st.st_ino)
                    if key not in seen_dirs:
                        seen_dirs.add(key)
                        subdirs.append(entry.path)
                    continue
                if not stat.S_ISREG(st.st_mode):
                    continue
                ext = os.path.splitext(name)[1].lower().lstrip(".")
                if ext not in extensions:
                    if ext in UNREAD_DOCUMENT_TYPES:
                        problems.append(
                            Problem(
                                printable_path(entry.path),
                                f"not read: {UNREAD_DOCUMENT_TYPES[ext]} (.{ext}) is a type "
                                "this app cannot read",
                            )
                        )
                    continue
                if _has_surrogates(entry.path):
                    problems.append(
                        Problem(
                            printable_path(entry.path),
                            "file name is not valid in the file system's encoding (UTF-8); "
                            "rename it to include it",
                        )
                    )
                    continue
                if st.st_size > options.max_size:  # never silently: the user asked for this file
                    problems.append(
                        Problem(
                            entry.path,
                            f"larger than the {options.max_size / 1024**3:.0f} GiB limit "
                            f"({st.st_size / 1024**3:.1f} GiB); skipped",
                        )
                    )
                    continue
                if st.st_size < options.min_size:
                    if st.st_size == 0 and options.min_size <= 1:
                        problems.append(Problem(entry.path, "empty file (0 bytes)"))
                    continue
                path = os.path.realpath(entry.path) if is_link else entry.path
                found += 1
                if progress is not None and found % 500 == 0:
                    progress(ProgressEvent(Stage.LISTING, done=found, current=path))
                yield FileEntry(path, st.st_size, st.st_mtime_ns, ext)
            stack.extend(reversed(subdirs))
