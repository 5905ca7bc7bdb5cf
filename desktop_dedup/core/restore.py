"""Putting a removed file back: from the freedesktop trash, or from the folder it was moved to.

A journal entry names the file's original path, when it went, its size and its xxh3-128 content
hash. To restore a *trashed* file on Linux (and the BSDs) the trash folders that can hold it are
searched, as the freedesktop.org trash specification (what send2trash and every Linux desktop
write) lays them out:

* the home trash ``$XDG_DATA_HOME/Trash`` (``~/.local/share/Trash``), and
* on the volume that held the file, ``$topdir/.Trash/$uid`` and ``$topdir/.Trash-$uid``;

each with ``files/NAME`` and ``info/NAME.trashinfo`` (``Path=`` the percent-encoded original
path, absolute or relative to ``$topdir``; ``DeletionDate=`` local time). An item matches when
its ``Path`` is the journal's path and its ``DeletionDate`` is close to the journal's time; it is
restored only when its bytes hash to the journal's content hash (a different file trashed under
the same name later is never put back instead). A *moved* file is verified the same way at the
journal's destination.

The file goes back to its original path and never overwrites anything: a name that is taken
is refused with the reason (the same no-overwrite move as :mod:`desktop_dedup.core.actions`).
Missing parent folders are created again. The trashed item's ``.trashinfo`` is removed.

On Windows and macOS the Recycle Bin and the Finder trash cannot be searched reliably from
here; a trashed file there is refused with a reason that says where to restore it from.
"""

from __future__ import annotations

import logging
import os
import stat
import sys
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import unquote_to_bytes

from desktop_dedup.core import actions

log = logging.getLogger(__name__)

REASON_TAKEN = "the original name is taken by another file; nothing was overwritten"
REASON_NOT_IN_TRASH = "not found in the trash (emptied, or restored already)"
REASON_TRASH_CHANGED = "the file in the trash is not the one that was removed (content differs)"
REASON_MOVED_MISSING = "no longer at the folder it was moved to"
REASON_MOVED_CHANGED = "the moved file changed since it was moved (content differs)"
REASON_NO_HASH = "no content hash was recorded, so the file cannot be verified"
REASON_NOT_RESTORABLE = "only files moved to the trash or to a folder can be restored"
REASON_FAILED_ENTRY = "this removal did not happen, so there is nothing to restore"
REASON_RESTORED = "restored already"
REASON_WINDOWS = "cannot be found from here: restore it from the Recycle Bin"
REASON_MAC = "cannot be found from here: restore it from the Trash in the Finder"

#: How far a trashed item's DeletionDate may lie from the journal's time (clock skew, a daylight
#: saving change, a trash written in another time zone). The content hash decides in the end.
TIME_SLACK = timedelta(hours=26)


@dataclass(frozen=True)
class TrashedItem:
    """One item of a freedesktop trash folder."""

    trash_dir: str  # the folder holding files/ and info/
    name: str  # its name in files/
    original_path: str  # absolute
    deleted_at: datetime | None  # aware (the trashinfo's local time), None when unreadable

    @property
    def file_path(self) -> str:
        return os.path.join(self.trash_dir, "files", self.name)

    @property
    def info_path(self) -> str:
        return os.path.join(self.trash_dir, "info", self.name + ".trashinfo")


@dataclass(frozen=True)
class RestoreResult:
    ok: bool  # restored (in a dry run: would be restored)
    reason: str  # empty when ok
    path: str  # where the file is back (the original path)
    source: str = ""  # where it was restored from (the trashed item or the moved file)
    entry_id: int = 0  # the journal entry it undoes (set by the service)


def platform_refusal(platform: str = sys.platform) -> str | None:
    """Why trashed files cannot be restored from here on ``platform`` (None: they can)."""
    if platform == "win32":
        return REASON_WINDOWS
    if platform == "darwin":
        return REASON_MAC
    return None


def _mount_point(path: str) -> str:
    path = os.path.realpath(path)
    while not os.path.ismount(path):
        parent = os.path.dirname(path)
        if parent == path:
            break
        path = parent
    return path


def _nearest_existing(path: str) -> str:
    while not os.path.exists(path):
        parent = os.path.dirname(path)
        if parent == path:
            break
        path = parent
    return path


def _home_trashes() -> list[str]:
    data_homes = [os.environ.get("XDG_DATA_HOME") or "", os.path.expanduser("~/.local/share")]
    sent = sys.modules.get("send2trash.plat_other")  # reads XDG_DATA_HOME once, at its import
    if sent is not None:
        data_homes.append(os.fsdecode(sent.XDG_DATA_HOME))
    return [os.path.join(d, "Trash") for d in data_homes if d]


def trash_dirs_for(original_path: str) -> list[str]:
    """The trash folders that may hold a file trashed from ``original_path`` (existing ones,
    each once)."""
    uid = str(os.getuid()) if hasattr(os, "getuid") else ""
    top = _mount_point(_nearest_existing(os.path.dirname(original_path)))
    candidates = [
        *_home_trashes(),
        os.path.join(top, ".Trash", uid),
        os.path.join(top, f".Trash-{uid}"),
    ]
    out: list[str] = []
    seen: set[str] = set()
    for d in candidates:
        real = os.path.realpath(d)
        if real not in seen and os.path.isdir(os.path.join(d, "info")):
            seen.add(real)
            out.append(d)
    return out


def _topdir(trash_dir: str) -> str:
    """What a relative ``Path=`` in this trash is relative to."""
    trash_dir = os.path.normpath(trash_dir)
    parent = os.path.dirname(trash_dir)
    if os.path.basename(trash_dir).startswith(".Trash-"):
        return parent  # $topdir/.Trash-$uid
    if os.path.basename(parent) == ".Trash":
        return os.path.dirname(parent)  # $topdir/.Trash/$uid
    return parent  # the home trash: $XDG_DATA_HOME


def read_trashinfo(trash_dir: str, info_name: str) -> TrashedItem | None:
    """The item an ``info/*.trashinfo`` file describes (None when it is not one)."""
    if not info_name.endswith(".trashinfo"):
        return None
    try:
        with open(os.path.join(trash_dir, "info", info_name), encoding="utf-8") as fh:
            lines = fh.read().splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    if not lines or lines[0].strip() != "[Trash Info]":
        return None
    values = {}
    for line in lines[1:]:
        key, sep, value = line.partition("=")
        if sep:
            values.setdefault(key.strip(), value.strip())
    if "Path" not in values:
        return None
    # the name's bytes, percent-encoded one by one: a name that is not UTF-8 (GBK's %BD%AD)
    # comes back as os.fsdecode holds it, not with its bytes replaced
    path = os.fsdecode(unquote_to_bytes(values["Path"]))
    if not os.path.isabs(path):
        path = os.path.join(_topdir(trash_dir), path)
    deleted = None
    try:
        deleted = datetime.fromisoformat(values.get("DeletionDate", "")).astimezone()
    except ValueError:
        pass
    return TrashedItem(trash_dir, info_name[: -len(".trashinfo")], os.path.normpath(path), deleted)


def trashed_items(original_path: str) -> list[TrashedItem]:
    """Every item in the trash folders that was trashed from ``original_path``."""
    target = os.path.normpath(original_path)
    out = []
    for trash_dir in trash_dirs_for(target):
        try:
            names = os.listdir(os.path.join(trash_dir, "info"))
        except OSError:
            continue
        for name in names:
            item = read_trashinfo(trash_dir, name)
            if item is not None and item.original_path == target:
                out.append(item)
    return out


def _hash_or_none(path: str) -> str | None:
    try:
        info = os.lstat(path)
        if not stat.S_ISREG(info.st_mode):
            return None
        return actions.content_hash_file(path)
    except OSError:
        return None


def find_trashed(original_path: str, when: datetime, content_hash: str) -> TrashedItem | None:
    """The trashed item that a removal of ``original_path`` at ``when`` put in the trash: its
    path matches, it went within :data:`TIME_SLACK` of ``when``, and its bytes hash to
    ``content_hash``. The closest in time wins."""
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)

    def distance(item: TrashedItem) -> timedelta:
        if item.deleted_at is None:
            return TIME_SLACK
        return abs(item.deleted_at - when)

    for item in sorted(trashed_items(original_path), key=distance):
        if distance(item) > TIME_SLACK:
            break
        if _hash_or_none(item.file_path) == content_hash.lower():
            return item
    return None


def _put_back(source: str, original: str) -> str | None:
    """Move ``source`` to ``original`` without overwriting; None, or why not."""
    if os.path.lexists(original):
        return REASON_TAKEN
    try:
        os.makedirs(os.path.dirname(original), exist_ok=True)
        actions._move_no_overwrite(source, Path(original))
    except FileExistsError:
        return REASON_TAKEN
    except OSError as exc:
        return actions._os_reason(exc)
    return None


def restore_trashed(
    original_path: str,
    when: datetime,
    content_hash: str,
    *,
    platform: str = sys.platform,
    dry_run: bool = False,
) -> RestoreResult:
    """Put a file trashed from ``original_path`` at ``when`` back where it was (``dry_run``:
    only find and verify it)."""
    refusal = platform_refusal(platform)
    if refusal is not None:
        return RestoreResult(False, refusal, original_path)
    if not content_hash:
        return RestoreResult(False, REASON_NO_HASH, original_path)
    if os.path.lexists(original_path):
        return RestoreResult(False, REASON_TAKEN, original_path)
    candidates = trashed_items(original_path)
    item = find_trashed(original_path, when, content_hash)
    if item is None:
        reason = REASON_TRASH_CHANGED if candidates else REASON_NOT_IN_TRASH
        return RestoreResult(False, reason, original_path)
    if dry_run:
        return RestoreResult(True, "", original_path, item.file_path)
    reason = _put_back(item.file_path, original_path)
    if reason is not None:
        return RestoreResult(False, reason, original_path, item.file_path)
    try:
        os.unlink(item.info_path)
    except OSError as exc:  # the file is back; a stale info file only shows as a broken item
        log.warning("could not remove %s: %s", item.info_path, exc)
    log.info("restored %s from the trash (%s)", original_path, item.file_path)
    return RestoreResult(True, "", original_path, item.file_path)


def restore_moved(
    original_path: str, moved_to: str, content_hash: str, *, dry_run: bool = False
) -> RestoreResult:
    """Move a file moved to ``moved_to`` back to ``original_path``, after checking it is still
    the file that was moved (its content hash)."""
    if not content_hash:
        return RestoreResult(False, REASON_NO_HASH, original_path, moved_to)
    if not moved_to or not os.path.lexists(moved_to):
        return RestoreResult(False, REASON_MOVED_MISSING, original_path, moved_to)
    digest = _hash_or_none(moved_to)
    if digest != content_hash.lower():
        return RestoreResult(False, REASON_MOVED_CHANGED, original_path, moved_to)
    if os.path.lexists(original_path):
        return RestoreResult(False, REASON_TAKEN, original_path, moved_to)
    if dry_run:
        return RestoreResult(True, "", original_path, moved_to)
    reason = _put_back(moved_to, original_path)
    if reason is not None:
        return RestoreResult(False, reason, original_path, moved_to)
    log.info("moved %s back to %s", moved_to, original_path)
    return RestoreResult(True, "", original_path, moved_to)


__all__ = [
    "RestoreResult",
    "TrashedItem",
    "find_trashed",
    "platform_refusal",
    "read_trashinfo",
    "restore_entry",
    "restore_moved",
    "restore_trashed",
    "trash_dirs_for",
    "trashed_items",
]


def restore_entry(entry, *, dry_run: bool = False, platform: str = sys.platform) -> RestoreResult:
    """Undo one journal entry (a :class:`~desktop_dedup.core.service.JournalEntry`): a file
    sent to the trash or moved to a folder goes back to its original path."""
    if entry.action not in ("trash", "move"):
        result = RestoreResult(False, REASON_NOT_RESTORABLE, entry.path)
    elif not entry.ok:
        result = RestoreResult(False, REASON_FAILED_ENTRY, entry.path)
    elif entry.action == "trash":
        result = restore_trashed(
            entry.path, entry.time, entry.content_hash, platform=platform, dry_run=dry_run
        )
    else:
        result = restore_moved(entry.path, entry.destination, entry.content_hash, dry_run=dry_run)
    return RestoreResult(result.ok, result.reason, result.path, result.source, entry.id)


def restorable(entries) -> list:
    """Of journal entries (oldest first), the removals that can be undone: done ("ok") trash
    and move entries that no later successful restore put back; newest first. A restore undoes
    the latest removal of its path and content before it."""
    from collections import Counter

    restores: Counter[tuple[str, str]] = Counter()
    out = []
    for e in reversed(list(entries)):
        if e.action == "restore" and e.ok:
            restores[(e.destination, e.content_hash)] += 1
        elif e.ok and e.action in ("trash", "move") and e.content_hash:
            key = (e.path, e.content_hash)
            if restores[key]:
                restores[key] -= 1
            else:
                out.append(e)
    return out
