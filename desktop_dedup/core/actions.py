"""Safe removal of duplicate copies: send to the trash or move away, one verified file at a time.

Safety rules, in the order they are applied to each file *right before* it is touched:

1. A file inside a reference folder is never removed ("is in a reference folder").
2. The path must still be a regular file: a path that is now a symbolic link (the scanner records
   resolved paths, so a link there means something changed) or a directory is refused.
3. Size, modification time and the xxh3-128 content hash must all equal what the scan recorded.
   The hash is always checked, even when size and time match, because tools can rewrite a file
   and restore its timestamp; a candidate without a recorded hash cannot be verified and is
   refused.

Per-file trouble never raises: every candidate gets an :class:`ActionResult` (``ok=False`` with a
reason a user can read), in the order given, so the caller can journal exactly what happened even
when the batch was cancelled half way. Only a wrong call as a whole (a target folder that does
not exist, or lies inside a reference folder) raises
:class:`~desktop_dedup.core.errors.ActionError`.

Moves never overwrite: a name already taken in the target gets " (1)", " (2)" ... before the
extension. On one filesystem the move is a hard link plus unlink (the link fails instead of
replacing an existing name, so a file appearing concurrently is safe too); across filesystems or
where hard links are unsupported it falls back to :func:`shutil.move` after checking the name is
free.
"""

from __future__ import annotations

import errno
import logging
import os
import shutil
import stat
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import xxhash

from desktop_dedup.core import volumes
from desktop_dedup.core.errors import ActionError
from desktop_dedup.core.progress import (
    CancelToken,
    ProgressEvent,
    ProgressSink,
    Stage,
    null_progress,
)

logger = logging.getLogger(__name__)

HASH_CHUNK = 1024 * 1024

REASON_MISSING = "file no longer exists"
REASON_PERMISSION = "permission denied"
REASON_REFERENCE = "is in a reference folder"
REASON_SIZE = "changed since the scan (size differs)"
REASON_MTIME = "changed since the scan (modification time differs)"
REASON_CONTENT = "changed since the scan (content differs)"
REASON_SYMLINK = "is a symbolic link now (changed since the scan)"
REASON_DIRECTORY = "is a directory"
REASON_NOT_REGULAR = "is not a regular file"
REASON_NO_HASH = "no content hash was recorded, so it cannot be verified"
REASON_CANCELLED = "cancelled before this file"
REASON_ALREADY_IN_TARGET = "is already in the target folder"
REASON_STILL_THERE = "still exists after sending it to the trash"
REASON_NO_TRASH = "no trash folder can be used on this drive"
REASON_LINKED_PATH = "a folder on its path is a symbolic link now (changed since the scan)"
REASON_KEPT_CHANGED = "the copy to keep is gone or changed since the scan; scan again first"
# A listed folder that is not there (a drive unplugged): the scan kept its files as they were.
REASON_FOLDER_AWAY = "its folder is not there (a drive unplugged, or a share not mounted?)"
REASON_KEPT_AWAY = (
    "the copy to keep is in a folder that is not there (a drive unplugged, or a share not mounted?)"
)
REASON_NEAR = (
    "holds text the kept copy does not (a near duplicate); include near copies to remove it"
)
REASON_NOT_GROUPED = "is not in a duplicate group any more"
# a document close to a group (in none) goes only while the member it is closest to stays
REASON_CLOSEST_GOING = "the file it is closest to is being removed too; keep that one first"
REASON_NOT_IDENTICAL = (
    "no kept copy holds the same bytes; only identical copies can be replaced by a hard link"
)
REASON_OTHER_FS = "is on another file system than the kept copy; a hard link cannot cross it"
REASON_ALREADY_LINKED = "is already a hard link to the kept copy"
REASON_NO_HARD_LINKS = "this file system does not support hard links"


@dataclass(frozen=True)
class RemovalCandidate:
    """A file the user chose to remove, with what the scan saw of it."""

    doc_id: int
    path: str
    size: int
    mtime_ns: int
    content_hash: str  # xxh3-128 hex, from content_hash_file
    in_reference_folder: bool = False


@dataclass(frozen=True)
class ActionResult:
    doc_id: int
    path: str
    action: str  # "trash" | "move" | "hardlink"
    ok: bool
    reason: str  # empty when ok
    destination: str = ""  # where a moved file now is (empty for the trash: the OS decides)


def content_hash_file(path: str | os.PathLike[str]) -> str:
    """xxh3-128 hex digest of a file's bytes, streamed in 1 MiB chunks.

    The scanner fingerprints with this same function, so a removal can prove the bytes on disk
    are the bytes that were grouped. xxh3 runs at memory speed; ``readinto`` one reused buffer
    keeps allocation out of the loop.
    """
    hasher = xxhash.xxh3_128()
    from desktop_dedup.core.extract._common import open_regular  # no import cycle at load

    with open_regular(path) as handle:  # a FIFO swapped in must not block the scan
        # No bigger than the file (+1 to see its end in one read): a 1 MiB buffer allocated
        # and zeroed for every small file cost more than hashing it. A file that grows after
        # this is still read whole, in more chunks.
        size = os.fstat(handle.fileno()).st_size
        buffer = bytearray(min(HASH_CHUNK, size + 1))
        view = memoryview(buffer)
        while True:
            n = handle.readinto(buffer)
            if not n:
                break
            hasher.update(view[:n])
    return hasher.hexdigest()


def _os_reason(exc: OSError) -> str:
    if isinstance(exc, FileNotFoundError):
        return REASON_MISSING
    if isinstance(exc, PermissionError):
        return REASON_PERMISSION
    if isinstance(exc, IsADirectoryError):
        return REASON_DIRECTORY
    return exc.strerror or str(exc) or type(exc).__name__


def verify_unchanged(c: RemovalCandidate) -> str | None:
    """``None`` if the file on disk is still what the scan saw; otherwise why it is not."""
    try:
        info = os.lstat(c.path)
    except OSError as exc:
        return _os_reason(exc)
    if stat.S_ISLNK(info.st_mode):
        return REASON_SYMLINK
    # Every component, not only the last: a folder swapped for a symlink to another folder
    # (a reference folder, say) makes the same path name another file.
    if _normalised(os.path.realpath(c.path)) != _normalised(c.path):
        return REASON_LINKED_PATH
    if stat.S_ISDIR(info.st_mode):
        return REASON_DIRECTORY
    if not stat.S_ISREG(info.st_mode):
        return REASON_NOT_REGULAR
    if info.st_size != c.size:
        return REASON_SIZE
    if info.st_mtime_ns != c.mtime_ns:
        return REASON_MTIME
    if not c.content_hash:
        return REASON_NO_HASH
    try:
        digest = content_hash_file(c.path)
    except OSError as exc:
        return _os_reason(exc)
    if digest != c.content_hash.lower():
        return REASON_CONTENT
    return None


def _normalised(path: str) -> str:
    return os.path.normcase(os.path.abspath(path))


def _is_within(path: str, root: str) -> bool:
    """Whether ``path`` lies in ``root``, both resolved (symlinks followed) first."""
    path_n, root_n = _normalised(os.path.realpath(path)), _normalised(os.path.realpath(root))
    try:
        return os.path.commonpath([path_n, root_n]) == root_n
    except ValueError:  # different drives on Windows
        return False


def _refusal(c: RemovalCandidate, reference_roots: Sequence[str]) -> str | None:
    if c.in_reference_folder or any(_is_within(c.path, root) for root in reference_roots):
        return REASON_REFERENCE
    return verify_unchanged(c)


class WriteAheadJournal(Protocol):
    """Where a removal records its intent before touching a file, and the outcome after, so that
    a kill at any moment leaves every file accounted for (see DedupService.recover_journal)."""

    def begin(self, c: RemovalCandidate, action: str, destination: str) -> None: ...

    def end(self, result: ActionResult) -> None: ...


class _NoJournal:
    def begin(self, c: RemovalCandidate, action: str, destination: str) -> None:
        pass

    def end(self, result: ActionResult) -> None:
        pass


def _run(
    cands: Sequence[RemovalCandidate],
    action: str,
    act: Callable[[RemovalCandidate], tuple[str | None, str]],
    reference_roots: Sequence[str],
    progress: ProgressSink,
    cancel: CancelToken | None,
    journal: WriteAheadJournal,
) -> list[ActionResult]:
    """The loop both actions share: cancel check, progress, verification, per-file results."""
    results: list[ActionResult] = []
    total = len(cands)
    bytes_done = 0
    for index, c in enumerate(cands):
        progress(ProgressEvent(Stage.REMOVING, index, total, c.path, bytes_done))
        if cancel is not None and cancel.cancelled:
            logger.info("%s cancelled after %d of %d files", action, index, total)
            results.extend(
                ActionResult(r.doc_id, r.path, action, False, REASON_CANCELLED)
                for r in cands[index:]
            )
            break
        reason = _refusal(c, reference_roots)
        destination = ""
        if reason is None:
            if action == "trash":
                journal.begin(c, action, "")  # a move records each destination it tries
            try:
                reason, destination = act(c)
            except OSError as exc:
                reason = _os_reason(exc)
            except Exception as exc:  # a bug in a trash backend must not lose the batch's results
                logger.exception("%s of %s failed unexpectedly", action, c.path)
                reason = f"unexpected error: {exc}"
        if reason is None:
            bytes_done += c.size
            logger.info("%s: %s%s", action, c.path, f" -> {destination}" if destination else "")
            results.append(ActionResult(c.doc_id, c.path, action, True, "", destination))
        else:
            logger.info("%s refused for %s: %s", action, c.path, reason)
            results.append(ActionResult(c.doc_id, c.path, action, False, reason))
        journal.end(results[-1])
    else:
        progress(ProgressEvent(Stage.REMOVING, total, total, "", bytes_done))
    return results


def trash_files(
    cands: Sequence[RemovalCandidate],
    *,
    trash: Callable[[str], None] | None = None,
    progress: ProgressSink = null_progress,
    cancel: CancelToken | None = None,
    reference_roots: Sequence[str] = (),
    journal: WriteAheadJournal | None = None,
    trash_refusal: Callable[[str], str | None] | None = None,
) -> list[ActionResult]:
    """Send each candidate to the system trash after verifying it, one result per candidate.

    ``trash`` defaults to :func:`send2trash.send2trash` (freedesktop trash on Linux, recycle bin
    on Windows, Finder trash on macOS); tests inject a function that moves into a test folder.
    ``trash_refusal`` says why a path must not go to the trash because the platform would
    delete it for good there (a network share or removable drive on Windows, a network volume
    on macOS); it defaults to :func:`desktop_dedup.core.volumes.trash_checker` for this machine,
    and such a file is refused with that reason, never sent.
    """
    if trash_refusal is None:
        trash_refusal = volumes.trash_checker()
    refusal = trash_refusal
    if trash is None:
        from send2trash import send2trash as trash  # imported late: it reads XDG dirs on import

    send = trash

    def act(c: RemovalCandidate) -> tuple[str | None, str]:
        reason = refusal(c.path)
        if reason is not None:
            return reason, ""
        try:
            send(c.path)
        except PermissionError as exc:
            from send2trash.exceptions import TrashPermissionError

            if isinstance(exc, TrashPermissionError):
                return REASON_NO_TRASH, ""
            raise
        if os.path.lexists(c.path):
            return REASON_STILL_THERE, ""
        return None, ""

    return _run(
        list(cands), "trash", act, reference_roots, progress, cancel, journal or _NoJournal()
    )


def _free_names(target_dir: Path, name: str):
    """``name``, then ``stem (1).ext``, ``stem (2).ext`` ... in ``target_dir``."""
    stem, dot, ext = name.rpartition(".")
    if not stem:  # no extension, or a dot file like ".bashrc"
        stem, dot, ext = name, "", ""
    yield target_dir / name
    k = 1
    while True:
        yield target_dir / f"{stem} ({k}){dot}{ext}"
        k += 1


def _move_no_overwrite(src: str, dst: Path) -> None:
    """Move ``src`` to ``dst``; raise FileExistsError instead of ever replacing ``dst``."""
    try:
        os.link(src, dst)
    except FileExistsError:
        raise
    except OSError as exc:
        # EXDEV: another filesystem; EPERM/ENOTSUP/...: no hard links here (FAT, some shares).
        logger.debug("hard link %s -> %s failed (%s); using shutil.move", src, dst, exc)
        if os.path.lexists(dst):
            raise FileExistsError(errno.EEXIST, "destination exists", os.fspath(dst)) from exc
        shutil.move(src, dst)
        return
    try:
        os.unlink(src)
    except OSError:
        os.unlink(dst)  # undo the link so the file is not left in two places
        raise


def structure_folder(path: str, roots: Sequence[str]) -> str:
    """The folder of ``path`` relative to the (innermost) root that holds it ("" when it lies
    directly in the root or in none of them): what "keep the folder structure" recreates."""
    folder = os.path.dirname(os.path.abspath(path))
    best = ""
    for root in roots:
        root_n = os.path.abspath(root)
        if _normalised(folder) == _normalised(root_n) or _is_within(folder, root_n):
            if len(root_n) > len(best):
                best = root_n
    if not best:
        return ""
    rel = os.path.relpath(folder, best)
    return "" if rel == os.curdir else rel


def move_files(
    cands: Sequence[RemovalCandidate],
    target_dir: str | os.PathLike[str],
    *,
    progress: ProgressSink = null_progress,
    cancel: CancelToken | None = None,
    reference_roots: Sequence[str] = (),
    journal: WriteAheadJournal | None = None,
    structure_roots: Sequence[str] | None = None,
) -> list[ActionResult]:
    """Move each verified candidate into ``target_dir``, never overwriting anything.

    Flat by default; with ``structure_roots`` (the scanned folders) a file keeps its folders
    below the root it came from (``root/a/b/x.txt`` goes to ``target/a/b/x.txt``; the folders
    are made as needed). Refused as a whole with :class:`ActionError` when ``target_dir`` is
    missing, not a folder, not writable, or inside a reference folder (moved copies would then
    count as references). A candidate already in its target folder is refused rather than
    renamed in place.
    """
    target = Path(os.path.realpath(target_dir))  # a symlink into a reference folder is that folder
    if not target.is_dir():
        raise ActionError(f"target folder does not exist: {target}")
    if not os.access(target, os.W_OK | os.X_OK):
        raise ActionError(f"target folder is not writable: {target}")
    if any(_is_within(str(target), root) for root in reference_roots):
        raise ActionError(f"target folder is inside a reference folder: {target}")

    def act(c: RemovalCandidate) -> tuple[str | None, str]:
        folder = target
        if structure_roots is not None:
            folder = target / structure_folder(c.path, structure_roots)
        if _normalised(os.path.dirname(os.path.abspath(c.path))) == _normalised(str(folder)):
            return REASON_ALREADY_IN_TARGET, ""
        if folder != target:
            folder.mkdir(parents=True, exist_ok=True)
        for candidate_dst in _free_names(folder, os.path.basename(c.path)):
            if os.path.lexists(candidate_dst):
                continue
            wal.begin(c, "move", str(candidate_dst))  # the intent names the destination
            try:
                _move_no_overwrite(c.path, candidate_dst)
            except FileExistsError:
                continue
            return None, str(candidate_dst)
        raise AssertionError("unreachable: _free_names is endless")

    wal = journal or _NoJournal()
    return _run(list(cands), "move", act, reference_roots, progress, cancel, wal)


def link_files(
    cands: Sequence[RemovalCandidate],
    kept: Mapping[int, RemovalCandidate],
    *,
    progress: ProgressSink = null_progress,
    cancel: CancelToken | None = None,
    reference_roots: Sequence[str] = (),
    journal: WriteAheadJournal | None = None,
) -> list[ActionResult]:
    """Replace each verified candidate by a hard link to its kept copy (``kept[doc_id]``).

    Only for identical bytes: the kept copy must hold the candidate's content hash and is
    verified unchanged too, and both must be on one file system. The link is made under a
    temporary name beside the candidate and renamed over it (atomic: at every moment the path
    holds the same bytes). The result's ``destination`` is the kept copy.
    """

    def act(c: RemovalCandidate) -> tuple[str | None, str]:
        k = kept.get(c.doc_id)
        if k is None or not k.content_hash or k.content_hash.lower() != c.content_hash.lower():
            return REASON_NOT_IDENTICAL, ""
        if verify_unchanged(k) is not None:
            return REASON_KEPT_CHANGED, ""
        if os.lstat(c.path).st_dev != os.stat(k.path).st_dev:
            return REASON_OTHER_FS, ""
        if os.path.samefile(c.path, k.path):
            return REASON_ALREADY_LINKED, ""
        wal.begin(c, "hardlink", "")  # settled as "left in place" if interrupted
        folder, name = os.path.split(c.path)
        temporary = os.path.join(folder, f".{name}.desktop-dedup-link-{os.getpid()}")
        try:
            os.link(k.path, temporary)
        except FileExistsError:
            os.unlink(temporary)  # a leftover of an interrupted run of this process id
            os.link(k.path, temporary)
        except OSError as exc:
            if exc.errno in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK):
                return REASON_NO_HARD_LINKS, ""
            raise
        try:
            os.replace(temporary, c.path)
        except OSError:
            os.unlink(temporary)
            raise
        return None, k.path

    wal = journal or _NoJournal()
    return _run(list(cands), "hardlink", act, reference_roots, progress, cancel, wal)


__all__ = [
    "ActionResult",
    "RemovalCandidate",
    "content_hash_file",
    "link_files",
    "move_files",
    "trash_files",
    "verify_unchanged",
]
