"""DedupService: everything a user can do, as plain Python calls. The GUI and CLI are its faces.

One DedupService per thread: it owns a SQLAlchemy engine over one SQLite file (WAL), and every
call is its own short unit of work. Long calls (``scan``, ``trash``, ``move``) take a progress sink
and a cancel token and never start threads; ``scan`` reads files in worker processes, each file
under a time and memory budget (the scan engine, ``core/workers.py``), and stops them before
returning.
"""

from __future__ import annotations

import json
import logging
import os
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from desktop_dedup import __version__
from desktop_dedup.core import actions, forkserver, grouping, ocr, pathrules, scanning, volumes
from desktop_dedup.core import restore as restore_mod
from desktop_dedup.core import sketch as sketch_mod
from desktop_dedup.core import workers as workers_mod
from desktop_dedup.core.changes import ChangeAnnouncer, ChangeListener, Changes
from desktop_dedup.core.errors import DedupError, ExtractionError, ScanCancelled
from desktop_dedup.core.models import (
    DEFAULT_CANDIDATE_DISTANCE,
    DEFAULT_EXCLUDES,
    DEFAULT_EXTENSIONS,
    DEFAULT_MIN_SIMILARITY,
    MAX_SUPPORTED_DISTANCE,
    CloseDocument,
    DocStatus,
    FileEntry,
    Group,
    GroupKind,
    KeptFolder,
    Member,
    Problem,
    ScanOptions,
    ScanSummary,
    check_similarity,
)
from desktop_dedup.core.progress import (
    CancelToken,
    ProgressEvent,
    ProgressSink,
    Stage,
    null_progress,
)
from desktop_dedup.core.release import collection_paused
from desktop_dedup.core.release import drop_gradually as _drop_gradually
from desktop_dedup.core.rows import FINGERPRINT_VERSION
from desktop_dedup.core.scanning import resolve_roots, walk_files
from desktop_dedup.core.store import Store
from desktop_dedup.core.store.repository import StoredFingerprint

if TYPE_CHECKING:
    # The diff and the reports are imported when used: a scan needs neither.
    from desktop_dedup.core.diff import DiffResult

log = logging.getLogger(__name__)

_WRITE_BATCH = 200
# As a scan's reading ends, a batch is no larger than the files still to come (at least this
# many rows): the batches halve towards the end, and the last write, which the grouping waits
# for with every reader done, is a few rows, not up to _WRITE_BATCH (29-50 ms on the public
# corpora, with the other core idle).
_WRITE_BATCH_MIN = 16


def _all_away(kept: Sequence[str], folders_away: Sequence[str]) -> bool:
    """Whether there are copies to keep and every one is in a folder that is not there: the
    rule for REASON_KEPT_AWAY, which removal applies and its confirmation counts by."""
    return bool(kept) and len(pathrules.inside_some(kept, folders_away)) == len(kept)


def _batch_rows(left: int | None) -> int:
    """How many pending rows make a batch when ``left`` files are still to come back (None:
    not known); see _WRITE_BATCH_MIN."""
    return _WRITE_BATCH if left is None else min(_WRITE_BATCH, max(_WRITE_BATCH_MIN, left))


# Tests only: "module:function" run by the workers instead of pipeline.analyse_file.
_TEST_READER_ENV = "_DESKTOP_DEDUP_TEST_READER"

# A scan that changed more documents than this (or a fifth of the index) regroups everything:
# in bulk, one pass over all fingerprints is cheaper than that many indexed lookups. Except on a
# large index (a shared one: millions), where a change of at most 1/_INCREMENTAL_SHARE of it is
# always matched through the indexes: reloading 10,000,000 fingerprints for 10,000 new ones is
# the slower way by far, and takes gigabytes.
_INCREMENTAL_MAX = 2000
_INCREMENTAL_SHARE = 100
_WRITE_INTERVAL_S = 2.0
# A shared index's document that this machine cannot reach: only a machine that has it removes it.
REASON_ELSEWHERE = (
    "is on another machine or on a share not mounted here: remove it from a machine that has it"
)


#: The scanned types offered before the readers of issue 10 (binary Office, spreadsheets, slides,
#: e-books, e-mail): settings saved then did not list the later ones because they did not exist.
EXTENSIONS_BEFORE_ISSUE_10: tuple[str, ...] = (
    *("txt", "text", "md", "markdown", "rst", "html", "htm", "xhtml"),
    *("docx", "odt", "rtf", "epub", "pdf"),
)


@dataclass(frozen=True)
class Settings:
    # The share of common text two documents need to be near duplicates (0.5..1).
    min_similarity: float = DEFAULT_MIN_SIMILARITY
    # Advanced: the simhash radius (bits) within which candidates are looked up.
    max_distance: int = DEFAULT_CANDIDATE_DISTANCE
    extensions: tuple[str, ...] = DEFAULT_EXTENSIONS
    exclude_globs: tuple[str, ...] = DEFAULT_EXCLUDES
    min_size: int = 1
    max_size: int = 2 * 1024**3
    # More extensions read as plain text ("log", "nfo"; issue 9 item 7).
    text_extensions: tuple[str, ...] = ()
    # Read PDF pages without a text layer with OCR (Tesseract, when installed; core/ocr.py).
    ocr: bool = False

    @property
    def matching(self) -> list[Any]:
        """What the groups are built with (the head of the stored grouping key): two settings
        with the same matching give the same groups."""
        return [self.min_similarity, self.max_distance]


@dataclass(frozen=True)
class Folder:
    path: str
    is_reference: bool


@dataclass(frozen=True)
class GroupSummary:
    id: int
    kind: str
    member_count: int
    reclaimable_size: int
    reference_path: str
    max_distance: int
    total_size: int
    min_similarity: float = 1.0
    close_count: int = 0  # documents close to the group, not its members (Group.close)


@dataclass(frozen=True)
class ResultStats:
    groups: int
    documents: int
    duplicate_documents: int
    reclaimable_size: int
    marked: int
    marked_size: int
    problems: int
    last_scan: datetime | None
    # the copies beyond each group's reference (a group of three: two); duplicate_documents
    # counts every document in a group, the reference included
    extra_copies: int = 0


@dataclass(frozen=True)
class MarkedForRemoval:
    """What the marks would remove, read from the index (no file is touched): the marked
    documents that are in a group, their total size, the groups every member of which is
    marked, and those marked documents that are near duplicates (their text differs from every
    copy kept in their group)."""

    doc_ids: tuple[int, ...]
    size: int
    whole_groups: tuple[int, ...]
    near_ids: frozenset[int]
    near_size: int = 0  # the near duplicates' part of ``size``
    # Marked files that stay whatever is chosen: in a folder that is not there (a drive
    # unplugged), or whose only copies to keep are (none of them is among ``near_ids``).
    away_ids: frozenset[int] = frozenset()
    away_size: int = 0

    def going(self, include_near: bool) -> tuple[int, int]:
        """How many files, and how many bytes, a removal of the marked files moves: all of
        them with ``include_near``, else all but the near duplicates (which stay); never those
        of a folder that is not there."""
        count, size = len(self.doc_ids) - len(self.away_ids), self.size - self.away_size
        if include_near:
            return count, size
        return count - len(self.near_ids), size - self.near_size


@dataclass(frozen=True)
class JournalEntry:
    time: datetime
    action: str
    path: str
    destination: str
    content_hash: str
    size: int
    ok: bool
    reason: str
    id: int = 0  # the journal row (what ``restore`` takes)


@dataclass(frozen=True)
class IgnoredPair:
    hash_a: str
    hash_b: str
    path_a: str
    path_b: str
    created: datetime


@dataclass
class _ScanState:
    summary: ScanSummary
    pending_rows: list[dict[str, Any]] = field(default_factory=list)
    last_write: float = field(default_factory=time.monotonic)
    writer: _BatchWriter | None = None
    # Unchanged files read only because this version fingerprints differently (counted in
    # ScanSummary.files_read_again as each is read)
    again: set[str] = field(default_factory=set)


class _BatchWriter:
    """Writes a scan's batches of documents rows on a thread of its own, one batch at a time,
    in order.

    Why: the scanning thread hands each reader its next file as the last one comes back. A
    batch written in that thread (200 rows: 40 ms) held the readers' next files back, and each,
    with one file ahead, sat idle for most of it: a quarter to half a core-second per 1,400
    small files, a tenth of the reading on two cores. With the writes here, the scanning thread
    goes on handing out files (it waits for the interpreter lock a few milliseconds at most).

    What writing a batch raised is raised in the scanning thread when it hands over the next
    batch or waits for the last, and that batch's rows go back to the scan's pending rows, to
    be tried again by the scan's final write as before. Each batch is one transaction, so a
    scan killed during a write leaves a consistent database either way."""

    def __init__(self, write: Callable[[list[dict[str, Any]]], list[str]]) -> None:
        self._write = write
        self._thread: threading.Thread | None = None
        self._failed: tuple[BaseException, list[dict[str, Any]]] | None = None
        self.marks_dropped: list[str] = []

    def start(self, rows: list[dict[str, Any]]) -> None:
        """Write ``rows``; the batch before them must be written (:meth:`wait`)."""
        assert self._thread is None and self._failed is None
        self._thread = threading.Thread(
            target=self._run, args=(rows,), name="desktop-dedup-writer", daemon=True
        )
        self._thread.start()

    def _run(self, rows: list[dict[str, Any]]) -> None:
        try:
            self.marks_dropped.extend(self._write(rows))
        except BaseException as exc:  # raised in the scanning thread by wait()
            self._failed = (exc, rows)

    def wait(self, pending: list[dict[str, Any]]) -> None:
        """Until the batch in flight is written; if writing it failed, put its rows back at the
        front of ``pending`` and raise what it raised."""
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        if self._failed is not None:
            exc, rows = self._failed
            self._failed = None
            pending[:0] = rows
            raise exc


class _StoreJournal:
    """The write-ahead journal of one removal, in the store (actions.WriteAheadJournal)."""

    def __init__(self, store: Store):
        self._store = store
        self._rows: dict[int, int] = {}  # doc id -> its journal row

    def begin(self, c: actions.RemovalCandidate, action: str, destination: str) -> None:
        row = self._rows.get(c.doc_id)
        if row is None:
            self._rows[c.doc_id] = self._store.journal_begin(
                {
                    "action": action,
                    "path": c.path,
                    "destination": destination,
                    "content_hash": c.content_hash,
                    "size": c.size,
                }
            )
        else:  # a move trying the next free name
            self._store.journal_update(row, destination=destination)

    def end(self, result: actions.ActionResult) -> None:
        row = self._rows.get(result.doc_id)
        values = {"ok": result.ok, "reason": result.reason, "destination": result.destination}
        if row is None:  # refused before anything was touched
            self._store.add_journal(
                [
                    {
                        "action": result.action,
                        "path": result.path,
                        "content_hash": "",
                        "size": 0,
                        **values,
                    }
                ]
            )
        else:
            self._store.journal_update(row, **values)


def default_db_path() -> Path:
    from desktop_dedup.paths import default_db_path as _default

    return _default()


def _under(path: str, root: str) -> bool:
    return pathrules.is_inside(path, root)


_TEXT_CACHE_SIZE = 6


class DedupService:
    """The facade over scanning, the index, grouping, review, removal and reports."""

    def __init__(self, db_path: str | Path | None = None):
        self.store = Store(db_path if db_path is not None else default_db_path())
        self.db_path = self.store.path
        # What worker processes run per file: a picklable top-level function (tests substitute
        # one that really crashes its process); None: the readers (pipeline.analyse_file, not
        # imported here: the scanning process never reads a file).
        self._analyse_in_worker: Callable[[FileEntry], dict[str, Any]] | None = None
        hook = os.environ.get(_TEST_READER_ENV)
        if hook:  # a test of the real CLI process swaps the reader ("module:function")
            import importlib

            module, _, name = hook.partition(":")
            self._analyse_in_worker = getattr(importlib.import_module(module), name)
        # What one file may cost a reader (time, memory); tests use small budgets.
        self.read_budget = workers_mod.Budget.from_env()
        self._changes = ChangeAnnouncer()
        # extracted texts of the last documents diffed: (doc id, content hash, size, mtime) ->
        # text, so swapping sides or a diff option does not read the files again
        self._texts: dict[tuple[Any, ...], str] = {}
        self.recover_journal()

    # --- change notification --------------------------------------------------------------------

    def add_change_listener(self, listener: ChangeListener) -> None:
        """``listener(Changes)`` after every mutation (on the calling thread)."""
        self._changes.add(listener)

    def remove_change_listener(self, listener: ChangeListener) -> None:
        self._changes.remove(listener)

    def _announce(self, changes: Changes) -> Changes:
        return self._changes.announce(changes)

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> DedupService:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- folders --------------------------------------------------------------------------------

    def folders(self) -> list[Folder]:
        return [Folder(p, r) for p, r in self.store.folders()]

    def folders_to_scan(self) -> list[str]:
        """The listed folders a scan of the list reads (:meth:`scan` with no roots): those on
        this machine (a shared index lists other machines' folders too). Empty: nothing to
        scan, which the app and the command line say each in its own words."""
        return [f.path for f in self.folders() if self.store.is_here(f.path)]

    def folder_problems(self) -> dict[str, str]:
        """Why the last scan could not read a listed folder (not found, not listable, empty
        where it found files), a folder inside one where a drive or a share was mounted
        (nothing mounted there now), or another folder it kept files of (one it could not
        list), by folder: its files stay as the scan before left them."""
        folders = [f.path for f in self.folders()] + self.store.mount_points()
        folders += self.store.folders_with_kept_files()
        return self.store.last_scan_problems_of(folders)

    def in_listed_folders(self, paths: Iterable[str]) -> list[str]:
        """Those of ``paths`` inside a folder of the list: the files a scan of the list looks
        at (a file restored from the journal comes back into the results by such a scan)."""
        folders = self.folders_to_scan()
        return [p for p in paths if pathrules.is_inside_any(p, folders)]

    def add_folder(self, path: str | os.PathLike[str], reference: bool = False) -> Folder:
        resolved = str(Path(path).expanduser().resolve())
        if not os.path.isdir(resolved):
            raise DedupError(f"not a folder: {resolved}")
        self.store.add_folder(resolved, reference)
        self._folders_are_the_users()
        folder = next(f for f in self.folders() if f.path == resolved)
        self._announce(Changes(folders=True))
        return folder

    def remove_folder(self, path: str) -> Changes:
        """The folder leaves the list, and its documents leave the index and their groups
        (unless another listed folder holds them; on a shared index, only the list changes:
        other machines' documents are not this list's to drop)."""
        self.store.remove_folder(path)
        self._folders_are_the_users()
        changes = Changes(folders=True)
        if not self.store.shared:
            others = [f.path for f in self.folders()]
            gone = [
                doc_id
                for doc_id, p in self.store.paths_under([path])
                if not pathrules.is_inside_any(p, others)
            ]
            if gone:
                touched, staying = self._leaving(gone)
                self.store.delete_documents(gone)
                self.regroup(changed=[], touched_groups=touched, staying=staying)
                changes |= Changes(groups=True, marks=True)
        return self._announce(changes)

    def kept_folders(self) -> list[KeptFolder]:
        """The folders (or paths) the last scan could not read whose files it kept as last
        scanned (a drive unplugged, a share not mounted, permissions changed: scan's
        ``unlisted``), with how many documents of the index each holds, by path: what
        :meth:`forget_kept` may let go. Counted in the index, not loaded: a drive kept whole
        may hold a hundred thousand files, and the Problems list asks on the GUI thread."""
        reasons = dict(self.store.last_scan_problems())
        kept = []
        for path in sorted(self.store.folders_with_kept_files()):
            files = self.store.count_under(path) if path in reasons else 0
            if files:
                kept.append(KeptFolder(path, files, reasons[path]))
        return kept

    def forget_kept(
        self, folders: Sequence[str] | None = None, *, dry_run: bool = False
    ) -> list[KeptFolder]:
        """Let the files a scan kept of ``folders`` (:meth:`kept_folders`; None: all of them)
        go: they leave the index, their groups and their marks, the folders' problems are
        settled and the mount points remembered inside them forgotten, so that no scan keeps
        anything of them again; the files themselves are not touched (a scan that finds them
        reads them again). For a drive retired for good, a share moved elsewhere, a folder
        locked on purpose. Refuses a folder whose files were not kept, changing nothing.
        Returns the folders let go (with ``dry_run``, those that would be)."""
        kept = {k.path: k for k in self.kept_folders()}
        wanted = list(kept) if folders is None else list(dict.fromkeys(folders))
        for folder in wanted:
            if folder not in kept:
                raise DedupError(
                    f"the last scan kept no files of {folder}: only the files of a folder it "
                    "could not read can be forgotten"
                )
        if dry_run or not wanted:
            return [kept[f] for f in wanted]
        gone = [doc_id for doc_id, _ in self.store.paths_under(wanted)]
        touched, staying = self._leaving(gone)
        self.store.delete_documents(gone)
        self.store.drop_last_scan_problems(wanted)
        mounts = self.store.mount_points()
        if pathrules.inside_some(mounts, wanted):
            self.store.set_mount_points(
                [m for m in mounts if not pathrules.is_inside_any(m, wanted)]
            )
        self.regroup(changed=[], touched_groups=touched, staying=staying)
        self._announce(Changes(groups=True, marks=True, folders=True))
        return [kept[f] for f in wanted]

    def set_folder_reference(self, path: str, reference: bool) -> Changes:
        """A reference folder's files are never marked: becoming one drops their marks."""
        self.store.set_folder_reference(path, reference)
        self._folders_are_the_users()
        if reference:
            inside = [doc_id for doc_id, _ in self.store.paths_under([path])]
            self.store.set_marked(inside, False)
        self.regroup()
        return self._announce(Changes(folders=True, groups=True, marks=True))

    #: Set while the folder list is the one a scan given its folders made (:meth:`_list_folders`)
    _FOLDERS_OF_A_SCAN = "folders_listed_by_a_scan"

    def _list_folders(self, roots: Sequence[str], reference_roots: Sequence[str]) -> bool:
        """The folder list of an index file follows the scans given their folders (the command
        line's) while it is empty or was made by one, so that the app opened on the index shows
        what its groups are of and scans them again: each folder among ``roots``, then each
        reference folder inside them, as a reference (one outside them is not scanned, so not
        listed). Once the user adds, removes or ticks a folder, the list is theirs
        (:meth:`_folders_are_the_users`). Whether the list changed."""
        current = self.folders()
        if current and not self.store.get_setting(self._FOLDERS_OF_A_SCAN, False):
            return False
        folders = [(r, pathrules.is_inside_any(r, reference_roots)) for r in roots]
        folders += [
            (r, True)
            for r in reference_roots
            if r not in roots and pathrules.is_inside_any(r, roots)
        ]
        folders = [(path, ref) for path, ref in folders if os.path.isdir(path)]
        if [(f.path, f.is_reference) for f in current] == folders:
            return False
        for folder in current:  # only the list: the scan decides what the index holds
            self.store.remove_folder(folder.path)
        for path, ref in folders:
            self.store.add_folder(path, ref)
        self.store.set_setting(self._FOLDERS_OF_A_SCAN, True)
        return True

    def _folders_are_the_users(self) -> None:
        self.store.set_setting(self._FOLDERS_OF_A_SCAN, False)

    def _reference_roots(self) -> list[str]:
        roots = [f.path for f in self.folders() if f.is_reference]
        roots += self.store.scan_reference_roots()  # every machine's last scan's (a shared index)
        return roots

    # --- settings -------------------------------------------------------------------------------

    def settings(self) -> Settings:
        stored = self.store.get_setting("settings", {})
        known = {k: v for k, v in stored.items() if k in Settings.__dataclass_fields__}
        for key in ("extensions", "exclude_globs", "text_extensions"):
            if key in known:
                known[key] = tuple(known[key])
        if "extensions" in known:
            # Document types added since these settings were saved are switched on: the
            # person chose among the types offered then, not against the new ones.
            offered = stored.get("offered_extensions", EXTENSIONS_BEFORE_ISSUE_10)
            new_types = [e for e in DEFAULT_EXTENSIONS if e not in offered]
            known["extensions"] += tuple(e for e in new_types if e not in known["extensions"])
        return Settings(**known)

    def settings_with(self, **changes: Any) -> Settings:
        """The saved settings with ``changes``, checked as :meth:`update_settings` checks them,
        but not saved: the settings of one ``scan`` (the CLI's flags without ``--save``)."""
        current = self.settings()
        unknown = set(changes) - set(Settings.__dataclass_fields__)
        if unknown:
            raise DedupError(f"unknown settings: {', '.join(sorted(unknown))}")
        if "max_distance" in changes:
            _check_distance(changes["max_distance"])
        if "min_similarity" in changes:
            try:
                changes["min_similarity"] = check_similarity(changes["min_similarity"])
            except ValueError as exc:
                raise DedupError(str(exc)) from None
        for key in ("extensions", "exclude_globs", "text_extensions"):
            if key in changes:
                changes[key] = tuple(changes[key])
        if "ocr" in changes:
            changes["ocr"] = bool(changes["ocr"])
        return replace(current, **changes)

    def update_settings(self, **changes: Any) -> Settings:
        current = self.settings()
        new = self.settings_with(**changes)
        self.store.set_setting(
            "settings", {**asdict(new), "offered_extensions": list(DEFAULT_EXTENSIONS)}
        )
        regrouped = new.matching != current.matching
        if regrouped:
            self.regroup()
        self._announce(Changes(settings=True, groups=regrouped))
        return new

    def ocr_options(self, settings: Settings | None = None) -> ocr.OcrOptions:
        """How scanned PDF pages are read now: the ``ocr`` setting and the Tesseract found."""
        enabled = (settings or self.settings()).ocr
        return ocr.OcrOptions(
            enabled=enabled,
            engine=ocr.find_engine() if enabled else None,
            cache_dir=ocr.cache_dir(),
            page_seconds=self.read_budget.seconds,
        )

    def _ocr_for_review(self) -> ocr.OcrOptions:
        """A scanned PDF in the diff shows the OCR text the index was built from: from the
        cache, also after OCR was turned off; Tesseract runs only while OCR is on (a page
        missing from the cache, e.g. after it was deleted)."""
        settings = self.settings()
        return replace(self.ocr_options(replace(settings, ocr=True)), cache_only=not settings.ocr)

    # --- scanning -------------------------------------------------------------------------------

    def scan(
        self,
        roots: Sequence[str | os.PathLike[str]] | None = None,
        *,
        progress: ProgressSink = null_progress,
        cancel: CancelToken | None = None,
        reference_roots: Sequence[str] = (),
        workers: int | None = None,
        settings: Settings | None = None,
    ) -> ScanSummary:
        """Bring the index up to date with ``roots`` (default: the configured folders), then group.

        ``settings`` are this scan's (default: the saved ones; see :meth:`settings_with`): its
        filters choose what is read and its matching parameters build the groups the summary
        counts. When those differ from the saved ones, the index is grouped again with the saved
        settings before the scan returns, so that what the app, ``report`` and ``remove`` show
        is always grouped by the saved settings.

        The index mirrors the roots of the last scan: documents outside them, or gone from disk,
        leave it (a shared PostgreSQL index: only those gone from inside the roots, since other
        machines scan other folders into it). Unchanged files (same size and mtime) are not
        opened; a moved or copied file with known content reuses its fingerprint. Written in
        batches, each a transaction, so a killed scan leaves a consistent database and the next
        scan carries on.
        """
        started = time.monotonic()
        cancel = cancel or CancelToken()
        forkserver.prestart()  # the readers load while the folders are listed
        saved = self.settings()
        settings = saved if settings is None else settings
        named = roots is not None
        if roots is None:
            roots = self.folders_to_scan()
        root_list = resolve_roots([os.fspath(r) for r in roots])
        if not root_list:
            raise DedupError("no folders to scan: add a folder first")
        ref_roots = resolve_roots([os.fspath(r) for r in reference_roots])
        self.store.set_scan_reference_roots(ref_roots)
        # a shared index's folder list is the team's to make
        if named and not self.store.shared:
            self._list_folders(root_list, ref_roots)
        options = ScanOptions(
            roots=tuple(root_list),
            reference_roots=tuple(ref_roots),
            extensions=settings.extensions,
            exclude_globs=settings.exclude_globs,
            min_size=settings.min_size,
            max_size=settings.max_size,
            text_extensions=settings.text_extensions,
            max_distance=settings.max_distance,
            min_similarity=settings.min_similarity,
        )
        summary = ScanSummary()
        state = _ScanState(summary)
        touched_groups: set[int] = set()
        staying: set[int] = set()  # the documents of touched_groups that stay (_leaving)
        to_read: list[FileEntry] = []
        run_id = self.store.start_scan_run(root_list)
        walk_problems: list[Problem] = []
        unlisted: list[str] = []  # folders the listing could not read (walk_files)
        empty_roots: list[str] = []
        mounts: list[str] = []  # where a drive or a share is mounted inside the roots now
        status = "finished"
        try:
            progress(ProgressEvent(Stage.LISTING))
            entries = list(
                walk_files(
                    options,
                    walk_problems,
                    progress=progress,
                    cancel=cancel,
                    counts=summary.filtered,
                    unlisted=unlisted,
                    empty_roots=empty_roots,
                    mounts=mounts,
                )
            )
            summary.files_seen = len(entries)
            progress(ProgressEvent(Stage.LISTING, done=len(entries), total=len(entries)))
            # A shared index (several machines, several people) is not one scan's mirror: a
            # scan updates, and removes what is gone, only inside its own folders.
            known = self.store.known_files(under=root_list if self.store.shared else None)
            seen = {e.path for e in entries}
            to_read = []
            for e in entries:
                k = known.get(e.path)
                # Problem files are tried again: a permission fixed or a download finished
                # changes neither size nor mtime, and retrying them costs little.
                unchanged = (
                    k is not None
                    and k.size == e.size
                    and k.mtime_ns == e.mtime_ns
                    and k.status != DocStatus.PROBLEM
                )
                if unchanged and k.fp_version == FINGERPRINT_VERSION:
                    summary.files_reused += 1
                else:
                    to_read.append(e)
                    if unchanged:  # fingerprinted by another version: read again
                        state.again.add(e.path)
            # Gone from disk, or outside this scan's roots: leave the index. Done before reading,
            # so that a moved file's old row is still there to lend its fingerprint (below).
            # A file in a folder the listing could not read (an unplugged drive, a share not
            # mounted, a folder whose permissions changed) is not known to be gone: it stays as
            # the last scan left it, groups and marks with it, until a scan reads its folder.
            unseen = [p for p in known if p not in seen]
            # A listed folder with nothing in it at all, where the last scan found files, is a
            # mount point without its drive or share (``/mnt/nas`` in fstab) far more often
            # than a folder emptied of every file and subfolder: read as not read.
            for root in empty_roots:
                if pathrules.inside_some(unseen, [root]):
                    walk_problems.append(
                        Problem(
                            root,
                            "folder is empty (a drive or share not mounted?): its files are "
                            "kept as last scanned",
                        )
                    )
                    unlisted.append(root)
            # So is a folder inside them where the last scan found a drive or a share mounted
            # (an sshfs or rclone folder in the home, a NAS share in fstab, a USB stick in the
            # desktop's media folder) and where nothing is mounted now.
            mounts = volumes.mount_points_among(mounts)
            remembered = self.store.mount_points()
            for folder in self._mounts_away(remembered, root_list, unlisted, settings):
                if pathrules.inside_some(unseen, [folder]):
                    walk_problems.append(
                        Problem(
                            folder,
                            "nothing is mounted here now (a drive or share was at the last "
                            "scan): its files are kept as last scanned",
                        )
                    )
                    unlisted.append(folder)
            # remembered until a scan of their folder finds nothing mounted there and nothing
            # of theirs in the index (written only when that changes: most scans find none)
            still = {
                m
                for m in remembered
                if not pathrules.is_inside_any(m, root_list) or pathrules.is_inside_any(m, unlisted)
            }
            if still.union(mounts) != set(remembered):
                self.store.set_mount_points(sorted(still.union(mounts)))
            holders = pathrules.folder_of(unseen, unlisted)
            kept = set(holders)
            summary.files_kept = len(kept)
            # which folders hold them, for what the app flags (folder_problems); written only
            # when that changes, as the mount points are
            kept_in = sorted(set(holders.values()))
            if kept_in != self.store.folders_with_kept_files():
                self.store.set_folders_with_kept_files(kept_in)
            gone = [known[p].id for p in unseen if p not in kept]
            # Groups that lose a member are regrouped from the documents that stay in them,
            # known only before the others leave (_leaving).
            touched_groups, staying = self._leaving(gone)
            # a moved or copied file has its size: only fingerprints of these sizes can be reused
            reusable = self.store.fingerprints_by_content(
                FINGERPRINT_VERSION, sizes={e.size for e in to_read}
            )
            try:
                self._read_files(
                    to_read, reusable, state, progress, cancel, workers, self.ocr_options(settings)
                )
            finally:
                # The listing was complete, so what it did not see is gone, cancelled or not.
                self._flush(state, force=True)
                summary.files_removed = self.store.delete_documents(gone)
        except ScanCancelled:
            status = "cancelled"
            summary.cancelled = True
        finally:
            self._flush(state, force=True)
            summary.problems = walk_problems + summary.problems
            self.store.add_scan_problems(run_id, [(p.path, p.reason) for p in walk_problems])
            self.store.finish_scan_run(
                run_id,
                status,
                files_seen=summary.files_seen,
                files_fingerprinted=summary.files_fingerprinted,
                files_reused=summary.files_reused,
                files_removed=summary.files_removed,
                problems=len(summary.problems),
            )
        progress(ProgressEvent(Stage.GROUPING))
        changed = self.store.ids_by_path(e.path for e in to_read)
        summary.groups = self.regroup(
            changed=changed, touched_groups=touched_groups, settings=settings, staying=staying
        )
        totals = self.store.result_totals()
        summary.duplicate_documents = totals["duplicate_documents"]
        summary.reclaimable_size = totals["reclaimable_size"]
        summary.close_documents = totals["close_documents"]
        if settings.matching != saved.matching:  # this run's groups were counted: back
            self.regroup()
        summary.seconds = time.monotonic() - started
        # folders: the list, when the scan made it, and what it says of each (folder_problems)
        self._announce(Changes(groups=True, marks=True, settings=True, folders=True))
        progress(ProgressEvent(Stage.DONE, done=summary.files_seen, total=summary.files_seen))
        return summary

    def _read_files(
        self,
        entries: list[FileEntry],
        reusable: dict[str, Any],
        state: _ScanState,
        progress: ProgressSink,
        cancel: CancelToken,
        workers: int | None,
        ocr_options: ocr.OcrOptions | None = None,
    ) -> None:
        total = len(entries)
        again = len(state.again)
        done = 0
        bytes_done = 0
        last_emit = 0.0

        def reading(entry: FileEntry, **ocr: int) -> None:
            progress(
                ProgressEvent(
                    Stage.READING,
                    done=done,
                    total=total,
                    current=entry.path,
                    bytes_done=bytes_done,
                    again=again,
                    **ocr,
                )
            )

        # A copy of a file read earlier in this scan is hashed by its reader, not extracted
        # again. Copies can only be among files of one size and extension ("kind"): only kinds
        # of two files or more keep what was read (content hash -> fingerprint), each until its
        # last file is back, so a scan of a million different files holds none of this.
        left = Counter((e.size, e.ext) for e in entries)
        for kind in [k for k, n in left.items() if n < 2]:
            del left[kind]
        read: dict[tuple[int, str], dict[str, StoredFingerprint]] = {}

        def handle(entry: FileEntry, row: dict[str, Any]) -> None:
            nonlocal done, bytes_done, last_emit
            done += 1
            bytes_done += entry.size
            kind = (entry.size, entry.ext)
            h = row.get("content_hash")
            same_kind = read.get(kind, {})
            copy_of = same_kind.get(h) if row["status"] == "reuse" and h else None
            self._accept(row, reusable, state, copy_of)
            if kind in left:
                if row["status"] != DocStatus.PROBLEM and h and h not in same_kind:
                    read.setdefault(kind, {})[h] = StoredFingerprint(
                        **{f: row[f] for f in StoredFingerprint.__dataclass_fields__}
                    )
                left[kind] -= 1
                if left[kind] <= 0:
                    del left[kind]
                    read.pop(kind, None)
            now = time.monotonic()
            if now - last_emit >= 0.05 or done == total:
                last_emit = now
                reading(entry)
            self._flush(state, left=total - done)

        def prepare(entry: FileEntry) -> FileEntry:
            copies = read.get((entry.size, entry.ext))
            return replace(entry, read_copies=tuple(copies)) if copies else entry

        def page(entry: FileEntry, page: int, pages: int) -> None:
            reading(entry, ocr_page=page, ocr_pages=pages)

        if total == 0:
            return
        progress(ProgressEvent(Stage.READING, done=0, total=total, again=again))
        workers_mod.read_files(
            entries,
            handle,
            cancel,
            reusable=frozenset(reusable),
            n_workers=workers or os.cpu_count() or 1,
            budget=self.read_budget,
            analyse=self._analyse_in_worker,
            ocr=ocr_options,
            on_page=page,
            prepare=prepare,
        )

    def _accept(
        self,
        row: dict[str, Any],
        reusable: dict[str, Any],
        state: _ScanState,
        copy_of: StoredFingerprint | None = None,
    ) -> None:
        """Count and queue one reader's row; ``copy_of``: what this scan read from a file with
        the same bytes, size and extension (the row is then a copy of it)."""
        summary = state.summary
        if row["status"] == "reuse":
            copy = row["content_hash"] not in reusable  # of a file read earlier in this scan
            fp = copy_of if copy and copy_of is not None else reusable[row["content_hash"]]
            row.update(
                text_hash=fp.text_hash,
                simhash=fp.simhash,
                sketch=fp.sketch,
                shingles=fp.shingles,
                token_count=fp.token_count,
                text_chars=fp.text_chars,
                format=fp.format,
                status=fp.status,
                error=fp.error,
            )
            if copy:  # read as a file (hashed), only not extracted twice
                self._count_read(row, state)
            else:
                summary.files_reused += 1
        elif row["status"] == DocStatus.PROBLEM:
            summary.problems.append(Problem(row["path"], row["error"]))
        else:
            self._count_read(row, state)
        state.pending_rows.append(row)

    @staticmethod
    def _count_read(row: dict[str, Any], state: _ScanState) -> None:
        summary = state.summary
        summary.files_fingerprinted += 1
        if row["path"] in state.again:
            summary.files_read_again += 1
        summary.bytes_read += row["size"]
        summary.text_bytes += row["text_chars"]

    def _flush(self, state: _ScanState, force: bool = False, left: int | None = None) -> None:
        """Write the pending rows when a batch is full or a while has passed, on the scan's
        writer thread (_BatchWriter); ``force``: every row now, in this thread, once the batch
        in flight is written. ``left``: how many files are still to come back, when known (a
        batch is then no larger than they are, _WRITE_BATCH_MIN)."""
        writer = state.writer
        if force and writer is not None:
            try:
                writer.wait(state.pending_rows)
            finally:
                state.summary.marks_dropped.extend(writer.marks_dropped)
                writer.marks_dropped.clear()
        rows = state.pending_rows
        if not rows:
            return
        if force:
            state.summary.marks_dropped.extend(self.store.upsert_documents(rows))
            state.pending_rows = []
            state.last_write = time.monotonic()
        elif (
            len(rows) >= _batch_rows(left)
            or time.monotonic() - state.last_write > _WRITE_INTERVAL_S
        ):
            if writer is None:
                writer = state.writer = _BatchWriter(self.store.upsert_documents)
            writer.wait(rows)  # the batch before; a failed one's rows go back, ahead of these
            state.pending_rows = []
            state.last_write = time.monotonic()
            writer.start(rows)

    # --- grouping -------------------------------------------------------------------------------

    def _long_keys(self) -> bool:
        """Whether this index proposes long documents through their keys (by its size: the
        full and the incremental regroup ask alike, so they find the same groups)."""
        return grouping.long_keys_used(self.store.document_count(estimate=True))

    def _grouping_items(
        self, ids: Iterable[int] | None = None, loaded: Sequence[Any] = (), long_keys: bool = True
    ) -> tuple[list[grouping.GroupingItem], dict[int, Any]]:
        # All documents: only each sketch's keys up front (build_groups loads the sketches of
        # candidates; a long document's keys only with ``long_keys``); a few: whole sketches at
        # once (not again those already ``loaded``).
        if ids is None:
            rows = self.store.grouping_rows(None, keys_only=True, long_keys=long_keys)
        else:
            have = {r.id for r in loaded}
            rows = list(loaded) + self.store.grouping_rows([i for i in ids if i not in have])
        refs = [self.store.location(r) for r in self._reference_roots()]  # rows hold locations

        def rank(path: str) -> int:  # a file in a reference folder first
            return 0 if refs and any(_under(path, root) for root in refs) else 1

        # one comprehension over the rows' fields (a million rows' attributes looked up one
        # by one took a second)
        make = grouping.GroupingItem
        items = [
            make(
                doc_id,
                simhash,
                content,
                text or content,
                (rank(path), mtime, len(path), path),
                sketch or b"",
            )  # fmt: skip
            for doc_id, path, _size, mtime, content, text, simhash, sketch in rows
        ]
        return items, {r.id: r for r in rows}

    def _matching_key(self, s: Settings | None = None) -> list[Any]:
        """What the stored groups depend on besides the documents themselves (grouped with
        ``s``, by default the saved settings), the rules that verify a pair among them."""
        s = s or self.settings()
        return [
            *s.matching,
            FINGERPRINT_VERSION,
            sketch_mod.VERIFICATION_VERSION,
            grouping.GROUPS_VERSION,
            sorted(self.store.location(r) for r in self._reference_roots()),
            len(self.store.ignored_hash_pairs()),
        ]

    def _leaving(self, doc_ids: Iterable[int]) -> tuple[set[int], set[int]]:
        """The groups these documents are about to leave, and the documents that stay in those
        groups or close to them: what the incremental regroup after they left starts from. Read
        before they go: a group whose reference leaves the index goes with it (its row holds the
        reference), and its other members' rows with it, so the copies left would be in no group
        (nor would a document close to the group whose closest member left)."""
        ids = set(doc_ids)
        touched = set(self.store.groups_of(ids).values())
        staying = set(self.store.members_of_groups(touched))
        staying |= set(self.store.close_to_groups(touched))
        return touched, staying - ids

    def regroup(
        self,
        changed: Iterable[int] | None = None,
        touched_groups: Iterable[int] = (),
        *,
        settings: Settings | None = None,
        staying: Iterable[int] = (),
    ) -> int:
        """Bring the groups up to date with the index (no file is read); returns the number of
        groups.

        With ``changed`` (documents added or changed since the groups were built) and
        ``touched_groups`` (groups that lost a member), only those documents are matched: each
        is looked up through the simhash block index in SQL and through its indexed candidate
        keys (sketch.candidate_keys and sketch.edge_keys; a long document's in an index of up to
        grouping.LONG_KEYS_MAX_DOCUMENTS); its candidates verified, the
        groups of everything it matched are rebuilt in place, keeping their ids. Every
        fingerprint is reloaded only for a full regroup: when the matching settings, the
        reference folders or the ignored pairs changed, or when most of the index is new.
        ``settings`` (default: the saved ones) are a scan's of one run. ``staying``: the
        documents of ``touched_groups`` that stayed, and those close to them, as
        :meth:`_leaving` read them before the others left.
        """
        # On a shared index, one machine at a time reads the groups and writes them back; the
        # next one then sees (and matches against) what the first wrote.
        with self.store.exclusive("grouping"):
            count = self._regroup(changed, touched_groups, settings or self.settings(), staying)
        self._announce(Changes(groups=True))
        return count

    def _regroup(
        self,
        changed: Iterable[int] | None,
        touched_groups: Iterable[int],
        s: Settings,
        staying: Iterable[int] = (),
    ) -> int:
        changed_ids = None if changed is None else list(changed)
        count = self.store.document_count(estimate=True)
        # whether long documents are proposed through their keys is one of the rules: groups
        # built on the other side of grouping.LONG_KEYS_MAX_DOCUMENTS are grouped again once
        long_keys = grouping.long_keys_used(count)
        key = [*self._matching_key(s), long_keys]
        full = (
            changed_ids is None
            or self.store.get_setting("grouping_key") != key
            or len(changed_ids)
            > max(min(_INCREMENTAL_MAX, count // 5), count // _INCREMENTAL_SHARE)
        )
        if full:
            with collection_paused():  # every document's row and item, kept to the end
                built, items, by_id = self._group_all(
                    s.min_similarity, s.max_distance, long_keys, workers_mod.helper_process
                )
                self.store.replace_groups(
                    built,
                    {i: r.size for i, r in by_id.items()},
                    {i: r.path for i, r in by_id.items()},
                )
                self.store.set_setting("grouping_key", key)
                count = len(built)
                _drop_gradually(built, items, by_id)
            return count
        touched = set(touched_groups)
        if changed_ids or touched:
            self._regroup_around(changed_ids, touched, s, count, set(staying))
        return self.store.group_count()

    def _regroup_around(
        self,
        changed: list[int],
        touched: set[int],
        s: Settings,
        count: int,
        staying: frozenset[int] | set[int] = frozenset(),
    ) -> None:
        """Incremental regroup (see :meth:`regroup`) in an index of ``count`` documents."""
        region = set(changed) | staying
        rows = self.store.grouping_rows(changed)
        # the radius the full grouping would use for an index of this size, and its keys
        radius = grouping.candidate_radius(count, s.max_distance)
        long_keys = grouping.long_keys_used(count)
        region.update(
            self.store.lookup_near_many([r.simhash for r in rows if r.simhash is not None], radius)
        )
        region.update(self.store.rows_by_text({r.text_hash or r.content_hash for r in rows}))
        # the keys their sketches hold, as the key table does (no sketch decoded for them)
        keys = [
            k for r in rows for k in sketch_mod.raw_candidate_keys(r.sketch, long_keys=long_keys)
        ]
        region.update(self.store.documents_sharing_keys(keys))
        touched |= set(self.store.groups_of(region).values())
        touched |= self.store.close_groups_of(region)
        region.update(self.store.members_of_groups(touched))
        region.update(self.store.close_to_groups(touched))
        items, by_id = self._grouping_items(region, loaded=[r for r in rows if r.id in region])
        built = grouping.build_groups(
            items,
            s.min_similarity,
            self.store.ignored_hash_pairs(),
            max_distance=radius,
            line_counts=self.store.line_counts,
            helper=workers_mod.helper_process,
            long_keys=long_keys,
        )
        self.store.replace_groups(
            built,
            {i: r.size for i, r in by_id.items()},
            {i: r.path for i, r in by_id.items()},
            replaced=touched,
        )

    def count_groups_at(self, min_similarity: float) -> int:
        """How many groups there would be at another similarity threshold (settings preview)."""
        try:
            threshold = check_similarity(min_similarity)
        except ValueError as exc:
            raise DedupError(str(exc)) from None
        with collection_paused():  # every document's row and item, kept to the end
            built, items, by_id = self._group_all(
                threshold, self.settings().max_distance, self._long_keys()
            )
            count = len(built)
            _drop_gradually(built, items, by_id)
        return count

    def _group_all(
        self,
        threshold: float,
        max_distance: int,
        long_keys: bool,
        helper: grouping.HelperFactory | None = None,
    ) -> tuple[list[grouping.BuiltGroup], list[grouping.GroupingItem], dict[int, Any]]:
        """The groups of the whole index at ``threshold``, with the items and rows they were
        made from: each document's candidate keys read up front, full sketches for the
        candidates alone."""
        items, by_id = self._grouping_items(long_keys=long_keys)
        built = grouping.build_groups(
            items,
            threshold,
            self.store.ignored_hash_pairs(),
            max_distance=max_distance,
            load_sketches=self.store.sketches,
            line_counts=self.store.line_counts,
            helper=helper,
            long_keys=long_keys,
        )
        return built, items, by_id

    # --- results --------------------------------------------------------------------------------

    def group_count(self, *, text: str = "", regex: bool = False) -> int:
        return self.store.group_count(text, regex)

    def group_page(
        self,
        offset: int,
        limit: int,
        *,
        sort: str = "reclaimable",
        descending: bool = True,
        text: str = "",
        regex: bool = False,
    ) -> list[GroupSummary]:
        page = self.store.group_page(offset, limit, sort, descending, text, regex)
        close = self.store.close_counts(g.id for g in page)
        return [
            GroupSummary(
                g.id,
                g.kind,
                g.member_count,
                g.reclaimable_size,
                g.reference_path,
                g.max_distance,
                g.total_size,
                g.min_similarity,
                close.get(g.id, 0),
            )
            for g in page
        ]

    def _groups(self, group_ids: Sequence[int], kinds: dict[int, str]) -> list[Group]:
        refs = self._reference_roots()
        unread = list(self.folder_problems())  # listed folders the last scan could not read
        members = self.store.group_members(list(group_ids))
        close = self.store.close_documents(list(group_ids))
        out = []
        for gid in group_ids:
            group = Group(gid, GroupKind(kinds[gid]))
            near = close[gid]
            paths = {d.id: d.path for _m, d in members[gid]} if near else {}
            group.close.extend(
                CloseDocument(
                    doc_id=d.id,
                    path=d.path,
                    size=d.size,
                    modified=datetime.fromtimestamp(d.mtime_ns / 1e9, UTC),
                    format=d.format,
                    member_id=c.member_id,
                    member_path=paths.get(c.member_id, ""),
                    similarity=c.similarity,
                    in_reference_folder=any(_under(d.path, r) for r in refs),
                )
                for c, d in near
            )
            for m, d in members[gid]:
                group.members.append(
                    Member(
                        doc_id=d.id,
                        path=d.path,
                        size=d.size,
                        modified=datetime.fromtimestamp(d.mtime_ns / 1e9, UTC),
                        format=d.format,
                        is_reference=m.is_reference,
                        distance=m.distance,
                        similarity=m.similarity,
                        content_hash=d.content_hash or "",
                        in_reference_folder=any(_under(d.path, r) for r in refs),
                        in_unread_folder=bool(unread) and pathrules.is_inside_any(d.path, unread),
                    )
                )
            out.append(group)
        _drop_gradually(members, close)  # the rows read: not freed in one hold of the GIL
        return out

    def group(self, group_id: int) -> Group:
        kind = self.store.group_kind(group_id)
        if kind is None:
            raise DedupError(f"no group {group_id}")
        return self._groups([group_id], {group_id: kind})[0]

    def groups(self) -> list[Group]:
        self._regroup_if_built_otherwise()
        rows = self.store.all_group_rows()
        return self._groups([g.id for g in rows], {g.id: g.kind for g in rows})

    def _regroup_if_built_otherwise(self) -> None:
        """Groups still built with a scan's one-run matching parameters (a scan stopped between
        its two groupings) are grouped again with the saved ones before they are reported or
        removed from: every group shown is grouped by the saved settings."""
        if self.store.read_only:  # an index opened read-only is reported as it stands
            return
        key = self.store.get_setting("grouping_key")
        if isinstance(key, list) and key[:2] != self.settings().matching:
            self.regroup()

    def problems(self) -> list[Problem]:
        return [Problem(p, r) for p, r in self.store.problems()]

    def stats(self) -> ResultStats:
        t = self.store.result_totals()
        last = self.store.last_scan()
        return ResultStats(
            groups=t["groups"],
            documents=t["documents"],
            duplicate_documents=t["duplicate_documents"],
            reclaimable_size=t["reclaimable_size"],
            marked=t["marked"],
            marked_size=t["marked_size"],
            problems=self.store.problem_count(),
            last_scan=(last.finished_at or last.started_at) if last else None,
            extra_copies=t["extra_copies"],
        )

    # --- marks ----------------------------------------------------------------------------------

    def set_marked(self, doc_ids: Iterable[int], marked: bool) -> Changes:
        """Mark or unmark documents; a document in a reference folder is never marked."""
        ids = list(doc_ids)
        if marked:
            refs = self._reference_roots()
            ids = [
                d.id for d in self.store.documents(ids) if not any(_under(d.path, r) for r in refs)
            ]
        self.store.set_marked(ids, marked)
        return self._announce(Changes.of_marks(ids))

    def marked_ids(self) -> set[int]:
        return self.store.marked_ids()

    def marked_among(self, doc_ids: Iterable[int]) -> set[int]:
        """Which of ``doc_ids`` are marked (a view of one group asks this, not for every mark)."""
        return self.store.marked_among(doc_ids)

    def clear_marks(self) -> Changes:
        self.store.clear_marks()
        return self._announce(Changes.of_marks())

    #: The marking rules the index applies itself (see :meth:`apply_mark_rule`).
    MARK_RULES = (
        "all_but_reference",
        "keep_only",
        "newest",
        "oldest",
        "largest",
        "smallest",
        "shortest_path",
        "keep_in_folder",
        "add_in_folder",
        "invert",
    )

    def apply_mark_rule(
        self,
        rule: str,
        *,
        folder: str | None = None,
        group_ids: Sequence[int] | None = None,
        keep_id: int | None = None,
    ) -> Changes:
        """Set the marks of the groups ``group_ids`` (every group when None) by a rule, in the
        index itself (no group is loaded): the same rules as :mod:`desktop_dedup.core.marking`
        (keep rules may mark the reference; all but the reference, in a folder and invert leave
        it alone; documents in reference folders are never touched). ``keep_only`` keeps
        ``keep_id``; ``keep_in_folder``/``add_in_folder`` take ``folder``."""
        if rule not in self.MARK_RULES:
            raise DedupError(f"unknown marking rule: {rule}")
        if rule in ("keep_in_folder", "add_in_folder") and not folder:
            raise DedupError(f"the {rule} rule needs a folder")
        if rule == "keep_only" and keep_id is None:
            raise DedupError("the keep_only rule needs the document to keep")
        self.store.apply_mark_rule(
            rule,
            self._reference_roots(),
            folder=os.path.normpath(folder) if folder else None,
            group_ids=group_ids,
            keep_id=keep_id,
        )
        return self._announce(Changes.of_marks())

    def marked_for_removal(self) -> MarkedForRemoval:
        """What removing the marked files would take (see :class:`MarkedForRemoval`)."""
        rows = self.store.marked_in_groups()
        sizes = {r[0]: r[1] for r in rows}
        ids = tuple(sizes)
        away = self._marked_away(ids)
        near = frozenset(self.near_ids(ids)) - away if ids else frozenset()
        return MarkedForRemoval(
            doc_ids=ids,
            size=sum(sizes.values()),
            whole_groups=tuple(self.store.fully_marked_groups()),
            near_ids=near,
            near_size=sum(sizes[i] for i in near),
            away_ids=away,
            away_size=sum(sizes[i] for i in away),
        )

    def _marked_away(self, ids: Sequence[int]) -> frozenset[int]:
        """Of the marked ``ids``, those a removal refuses for a folder that is not there: their
        own (REASON_FOLDER_AWAY) or that of every copy to keep (REASON_KEPT_AWAY), as
        :meth:`_candidates` finds them, read from the index. Nothing to read while every
        listed folder is there."""
        folders_away = self._folders_away()
        if not ids or not folders_away:
            return frozenset()
        marked = set(ids)
        docs = {d.id: d.path for d in self.store.documents(list(ids))}
        out = set(pathrules.inside_some(docs.values(), folders_away))
        away = {i for i, path in docs.items() if path in out}
        groups = self.store.groups_of(list(ids))
        for rows in self.store.group_members(sorted(set(groups.values()))).values():
            if _all_away([d.path for _, d in rows if d.id not in marked], folders_away):
                away.update(d.id for _, d in rows if d.id in marked)
        closest = self.store.closest_members(i for i in ids if i not in groups)
        kept = {d.id: d.path for d in self.store.documents(list(set(closest.values())))}
        away.update(
            i
            for i, member in closest.items()
            if member in kept and pathrules.inside_some([kept[member]], folders_away)
        )
        return frozenset(away)

    def database_version(self) -> int | None:
        """Changes when another program or window commits to this index (None where that cannot
        be told: a shared server); what the app watches to say so and show the new state."""
        return self.store.data_version()

    def linkable_ids(self, doc_ids: Iterable[int]) -> dict[int, int]:
        """Of ``doc_ids``, those whose bytes (content hash) a member of their group that is not
        among them holds, with their sizes: what *replace by hard links* may link (each is
        verified again from the disk as it goes). Reads the index only."""
        chosen = set(doc_ids)
        groups = self.store.groups_of(chosen)
        out: dict[int, int] = {}
        for rows in self.store.group_members(sorted(set(groups.values()))).values():
            kept = {d.content_hash for _, d in rows if d.id not in chosen and d.content_hash}
            out.update((d.id, d.size) for _, d in rows if d.id in chosen and d.content_hash in kept)
        return out

    # --- review ---------------------------------------------------------------------------------

    def _folders_away(self) -> list[str]:
        """The listed folders on this machine that are not there now (a drive unplugged, a
        share not mounted: gone, empty or not listable, scanning.unreadable_root), and the
        folders inside them where a drive or a share was mounted
        and nothing is now: a scan keeps their files as they were (walk_files' ``unlisted``),
        so the index holds files that cannot be opened until they are back."""
        away = [f for f in self.folders_to_scan() if scanning.unreadable_root(f)]
        return away + [m for m in self.store.mount_points() if scanning.mount_away(m)]

    @staticmethod
    def _mounts_away(
        remembered: Sequence[str],
        roots: Sequence[str],
        unlisted: Sequence[str],
        settings: Settings,
    ) -> list[str]:
        """Of the folders where a scan found a drive or a share mounted (``remembered``), those
        this scan of ``roots`` looked in and found nothing mounted in (scanning.mount_away),
        but for those it passes over (excluded) or could not list anyway (``unlisted``)."""
        away = []
        for folder in remembered:
            root = next((r for r in roots if pathrules.is_inside(folder, r)), None)
            if (
                root is None
                or pathrules.is_inside_any(folder, unlisted)
                or scanning.excluded_below(folder, root, settings.exclude_globs)
            ):
                continue
            if scanning.mount_away(folder):
                away.append(folder)
        return away

    def _not_found_reason(self, path: str) -> str:
        """Why a document of the index is not at its path: its listed folder is not there (a
        drive unplugged: the scan kept its files as they were), or it went since the scan."""
        for folder in self._folders_away():
            if pathrules.is_inside(path, folder):
                return (
                    f"{path} cannot be opened: its folder {folder} is not there (a drive "
                    "unplugged, or a share not mounted?)"
                )
        return f"{path} no longer exists (moved or deleted since the scan)"

    def document_text(self, doc_id: int) -> str:
        """The document's text, extracted now; the last few are kept (keyed by the document,
        its content hash and the file's size and mtime), so a diff redrawn with its sides
        swapped or another option does not read the files again."""
        doc = self.store.document(doc_id)
        if doc is None:
            raise DedupError(f"no document {doc_id}")
        if not self.store.is_here(doc.path):
            raise DedupError(
                f"{doc.path} is on another machine or on a share not mounted here: open it on a "
                "machine that has it"
            )
        try:
            st = os.stat(doc.path)
        except FileNotFoundError:
            raise DedupError(self._not_found_reason(doc.path)) from None
        except OSError as exc:
            raise DedupError(f"cannot open {doc.path}: {exc.strerror}") from None
        # the text depends on the file and on whether OCR may read it (scanned PDF pages)
        key = (doc.id, doc.path, doc.content_hash, st.st_size, st.st_mtime_ns, self.settings().ocr)
        cached = self._texts.pop(key, None)
        if cached is None:
            from desktop_dedup.core.extract import extract_text  # the readers: not for a scan

            try:
                with ocr.using(self._ocr_for_review()):
                    cached = extract_text(doc.path, reader_extension(doc.path, doc.format)).text
            except ExtractionError as exc:
                raise DedupError(f"cannot read {doc.path}: {exc.reason}") from exc
        self._texts[key] = cached  # most recent last
        while len(self._texts) > _TEXT_CACHE_SIZE:
            del self._texts[next(iter(self._texts))]
        return cached

    def pair_similarity(self, doc_a: int, doc_b: int) -> float:
        """The verified share of common text of two indexed documents: the figure the group
        table, the reports and the diff show (1.0 for the same text, from the stored sketches
        otherwise; no file is read)."""
        return self._pair_verdict(doc_a, doc_b)[0]

    def _pair_verdict(self, doc_a: int, doc_b: int) -> tuple[float, str | None]:
        """:meth:`pair_similarity`, and why it is 0 when a rule made it so (_verdict, at the
        index's threshold)."""
        rows = {r.id: r for r in self.store.grouping_rows([doc_a, doc_b])}
        if len(rows) != 2 and doc_a != doc_b:
            raise DedupError("both documents must be in the index")
        a, b = rows[doc_a], rows[doc_b]
        if (a.text_hash or a.content_hash) == (b.text_hash or b.content_hash):
            return 1.0, None
        return _verdict(
            sketch_mod.decode(a.sketch),
            sketch_mod.decode(b.sketch),
            self.store.line_counts,
            self.settings().min_similarity,
        )

    def diff(self, doc_a: int, doc_b: int, *, ignore_whitespace_punct: bool = False) -> DiffResult:
        """The side-by-side diff; its similarity is :meth:`pair_similarity`, the same figure
        the group shows (the word-level diff decides only what is highlighted)."""
        from desktop_dedup.core.diff import diff_texts

        text_a, text_b = self.document_text(doc_a), self.document_text(doc_b)
        result = diff_texts(text_a, text_b, ignore_whitespace_punct=ignore_whitespace_punct)
        try:
            similarity, why = self._pair_verdict(doc_a, doc_b)
        except DedupError:  # not (or no longer) matchable: the diff's own word-level figure
            return result
        return _with_verdict(result, similarity, why, text_a, text_b)

    # --- actions --------------------------------------------------------------------------------

    def near_ids(self, doc_ids: Iterable[int]) -> set[int]:
        """Of ``doc_ids``, those whose text differs from every member of their group that is
        not among ``doc_ids``: removing them would lose text the kept copies do not hold (what
        the app asks about before including them). Reads the index only."""
        removing = set(doc_ids)
        groups = self.store.groups_of(removing)
        members = self.store.group_members(sorted(set(groups.values())))
        # a document close to a group has a text of its own: no member holds it
        near = set(self.store.closest_members(removing - set(groups)))
        for rows in members.values():
            kept = {(d.text_hash or d.content_hash) for _, d in rows if d.id not in removing}
            near.update(
                d.id
                for _, d in rows
                if d.id in removing and (d.text_hash or d.content_hash) not in kept
            )
        return near

    def _candidates(
        self, doc_ids: Iterable[int], action: str, include_near: bool = False
    ) -> tuple[list[actions.RemovalCandidate], list[actions.ActionResult]]:
        """What may be removed, and what is refused with its reason. The whole group is
        verified first: a copy is kept (one of the members not being removed exists at its
        resolved path with the content that made the group), and a member whose text differs
        from every verified kept copy (a near duplicate) goes only with ``include_near``."""
        ids = list(dict.fromkeys(doc_ids))
        refs = self._reference_roots()
        groups = self.store.groups_of(ids)
        # a document close to a group is kept against the member it is closest to alone
        closest = self.store.closest_members(i for i in ids if i not in groups)
        docs = {d.id: d for d in self.store.documents([*ids, *closest.values()])}
        members = self.store.group_members(sorted(set(groups.values())))
        removing = set(ids)
        folders_away = self._folders_away()

        def away(path: str) -> bool:
            return bool(folders_away) and pathrules.is_inside_any(path, folders_away)

        kept_texts: dict[int, set[str]] = {}
        kept_away: set[int] = set()  # groups whose every copy to keep is in a folder away
        for gid, rows in members.items():
            verified = set()
            staying = [d for _, d in rows if d.id not in removing]
            for d in staying:
                kept = actions.RemovalCandidate(
                    d.id, d.path, d.size, d.mtime_ns, d.content_hash or ""
                )
                if actions.verify_unchanged(kept) is None:
                    verified.add(d.text_hash or d.content_hash)
            kept_texts[gid] = verified
            if not verified and _all_away([d.path for d in staying], folders_away):
                kept_away.add(gid)
        cands, refused = [], []
        for doc_id in ids:
            d = docs.get(doc_id)
            if d is None:
                continue
            reason = None
            gid = groups.get(doc_id)
            if not self.store.is_here(d.path):
                reason = REASON_ELSEWHERE
            elif any(_under(d.path, r) for r in refs):
                reason = actions.REASON_REFERENCE
            elif away(d.path):
                reason = actions.REASON_FOLDER_AWAY
            elif gid is None and doc_id in closest:
                reason = self._closest_kept(closest[doc_id], docs, removing, include_near)
            elif gid is None:
                reason = actions.REASON_NOT_GROUPED
            elif gid in kept_away:
                reason = actions.REASON_KEPT_AWAY
            elif not kept_texts.get(gid):
                reason = actions.REASON_KEPT_CHANGED
            elif not include_near and (d.text_hash or d.content_hash) not in kept_texts[gid]:
                reason = actions.REASON_NEAR
            if reason is not None:
                refused.append(actions.ActionResult(d.id, d.path, action, False, reason))
                continue
            cands.append(
                actions.RemovalCandidate(d.id, d.path, d.size, d.mtime_ns, d.content_hash or "")
            )
        return cands, refused

    @staticmethod
    def _closest_kept(
        member_id: int, docs: dict[int, Any], removing: set[int], include_near: bool
    ) -> str | None:
        """Why a document close to a group may not go (None: it may): the member it is closest
        to must stay, unchanged since the scan, and it holds text of its own that no member
        holds (a near duplicate of that member), so it goes only with ``include_near``."""
        if member_id in removing:
            return actions.REASON_CLOSEST_GOING
        m = docs.get(member_id)
        kept = (
            None
            if m is None
            else actions.RemovalCandidate(m.id, m.path, m.size, m.mtime_ns, m.content_hash or "")
        )
        if kept is None or actions.verify_unchanged(kept) is not None:
            return actions.REASON_KEPT_CHANGED
        return None if include_near else actions.REASON_NEAR

    def plan_removal(
        self, doc_ids: Iterable[int], *, include_near: bool = False, hardlink: bool = False
    ) -> tuple[list[int], list[actions.ActionResult]]:
        """What :meth:`trash` or :meth:`move` would remove now (ids) and refuse (with reasons),
        checking the groups as they would; each file is verified again as it goes."""
        cands, refused = self._candidates(doc_ids, "plan", include_near and not hardlink)
        if hardlink:  # identical bytes only
            kept = self._identical_kept(c.doc_id for c in cands)
            refused += [
                actions.ActionResult(c.doc_id, c.path, "plan", False, actions.REASON_NOT_IDENTICAL)
                for c in cands
                if c.doc_id not in kept
            ]
            cands = [c for c in cands if c.doc_id in kept]
        return [c.doc_id for c in cands], refused

    def _after_action(self, results: list[actions.ActionResult], action: str) -> None:
        """The removed documents leave the index (each file's outcome is already journaled)."""
        removed = [r.doc_id for r in results if r.ok]
        if removed:
            touched, staying = self._leaving(removed)
            self.store.delete_documents(removed)
            self.regroup(changed=[], touched_groups=touched, staying=staying)
        self._announce(Changes(groups=bool(removed), marks=bool(removed), journal=True))

    def recover_journal(self) -> list[str]:
        """Settle removals a crash or a kill interrupted: every intent without an outcome is
        decided from the disk, so each file is either in place or where the journal says, and
        a move never leaves one file in two places. Returns the entries settled."""
        settled: list[str] = []
        gone: list[int] = []
        for row in self.store.pending_journal():
            src, dst = row.path, row.destination
            src_there = os.path.lexists(src)
            dst_there = bool(dst) and os.path.lexists(dst)
            if not src_there and (row.action == "trash" or dst_there):
                ok, reason = True, ""
            elif src_there and dst_there:
                # Linked or copied but the original not yet unlinked: undo the copy when the
                # original still holds the recorded content; otherwise keep both and say so.
                try:
                    same = os.path.samefile(src, dst) or (
                        actions.content_hash_file(src) == row.content_hash
                    )
                except OSError:
                    same = False
                if same:
                    os.unlink(dst)
                    ok, reason, dst = False, "interrupted; left in place", ""
                else:
                    ok, reason = False, "interrupted; both copies kept, check them"
            elif src_there:
                ok, reason, dst = False, "interrupted before it was removed; left in place", ""
            else:
                ok, reason = False, "interrupted; the file is gone and was not found at the target"
            self.store.journal_update(row.id, ok=ok, reason=reason, destination=dst or "")
            if ok:
                gone += self.store.ids_by_path([src])
            settled.append(row.path)
            log.warning("journal recovery: %s %s -> %s", row.action, src, reason or "done")
        if gone:
            touched, staying = self._leaving(gone)
            self.store.delete_documents(gone)
            self.regroup(changed=[], touched_groups=touched, staying=staying)
        if settled:
            self._announce(Changes(groups=bool(gone), marks=bool(gone), journal=True))
        return settled

    def trash(
        self,
        doc_ids: Iterable[int],
        *,
        trash: Callable[[str], None] | None = None,
        progress: ProgressSink = null_progress,
        cancel: CancelToken | None = None,
        include_near: bool = False,
        trash_refusal: Callable[[str], str | None] | None = None,
    ) -> list[actions.ActionResult]:
        """Send documents to the system trash, each verified unchanged right before it goes,
        after their groups are verified (see :meth:`_candidates`). A file on a volume where the
        platform has no trash is refused, never deleted (``trash_refusal``, see
        :func:`desktop_dedup.core.volumes.trash_checker`)."""
        cands, refused = self._candidates(doc_ids, "trash", include_near)
        wal = _StoreJournal(self.store)
        for r in refused:
            wal.end(r)
        results = refused + actions.trash_files(
            cands,
            trash=trash,
            progress=progress,
            cancel=cancel,
            reference_roots=self._reference_roots(),  # second guard, checked per file
            journal=wal,
            trash_refusal=trash_refusal,
        )
        self._after_action(results, "trash")
        return results

    def move(
        self,
        doc_ids: Iterable[int],
        target_dir: str | os.PathLike[str],
        *,
        progress: ProgressSink = null_progress,
        cancel: CancelToken | None = None,
        include_near: bool = False,
        keep_structure: bool = False,
    ) -> list[actions.ActionResult]:
        """Move documents into ``target_dir`` (name conflicts get " (1)", " (2)" ...), with the
        same checks as :meth:`trash`; ``keep_structure``: each keeps its folders below the
        scanned folder it came from."""
        cands, refused = self._candidates(doc_ids, "move", include_near)
        wal = _StoreJournal(self.store)
        for r in refused:
            wal.end(r)
        results = refused + actions.move_files(
            cands,
            os.fspath(target_dir),
            progress=progress,
            cancel=cancel,
            reference_roots=self._reference_roots(),
            journal=wal,
            structure_roots=self._scanned_roots() if keep_structure else None,
        )
        self._after_action(results, "move")
        return results

    def _scanned_roots(self) -> list[str]:
        """The configured folders and the last scan's roots (what a kept structure is of)."""
        roots = [f.path for f in self.folders()]
        last = self.store.last_scan()
        if last is not None:
            roots += json.loads(last.roots or "[]")
        return list(dict.fromkeys(roots))

    def _identical_kept(self, doc_ids: Iterable[int]) -> dict[int, actions.RemovalCandidate]:
        """For each of ``doc_ids``, a member of its group that is not among them and holds the
        same bytes (the reference first): what a hard link would point to."""
        removing = set(doc_ids)
        groups = self.store.groups_of(removing)
        members = self.store.group_members(sorted(set(groups.values())))
        out = {}
        for doc_id in removing:
            rows = members.get(groups.get(doc_id), [])
            mine = next((d for _, d in rows if d.id == doc_id), None)
            if mine is None or not mine.content_hash:
                continue
            for _m, d in sorted(rows, key=lambda r: (not r[0].is_reference, r[0].position)):
                if d.id not in removing and d.content_hash == mine.content_hash:
                    out[doc_id] = actions.RemovalCandidate(
                        d.id, d.path, d.size, d.mtime_ns, d.content_hash
                    )
                    break
        return out

    def hardlink(
        self,
        doc_ids: Iterable[int],
        *,
        progress: ProgressSink = null_progress,
        cancel: CancelToken | None = None,
    ) -> list[actions.ActionResult]:
        """Replace documents by hard links to a kept copy with the same bytes (never for near
        or same-text copies), with the same checks as :meth:`trash`; journalled as "hardlink".
        A linked copy leaves the index: it is the kept file now (scans list a file once)."""
        cands, refused = self._candidates(doc_ids, "hardlink", include_near=False)
        wal = _StoreJournal(self.store)
        for r in refused:
            wal.end(r)
        results = refused + actions.link_files(
            cands,
            self._identical_kept(c.doc_id for c in cands),
            progress=progress,
            cancel=cancel,
            reference_roots=self._reference_roots(),
            journal=wal,
        )
        self._after_action(results, "hardlink")
        return results

    def journal(self) -> list[JournalEntry]:
        return [
            JournalEntry(
                j.time,
                j.action,
                j.path,
                j.destination,
                j.content_hash,
                j.size,
                j.ok,
                j.reason,
                j.id,
            )
            for j in self.store.journal()
        ]

    # --- restore (core/restore.py) ----------------------------------------------------------------

    def restorable(self) -> list[JournalEntry]:
        """Journal entries that can be undone: files sent to the trash or moved to a folder,
        not restored since (newest first)."""
        return restore_mod.restorable(self.journal())

    def restore(
        self, entry_ids: Iterable[int], *, dry_run: bool = False, platform: str = sys.platform
    ) -> list[restore_mod.RestoreResult]:
        """Put the files of these journal entries back at their original paths (see
        :mod:`desktop_dedup.core.restore`); each restore is journalled (action "restore", from
        the trashed or moved file to the original path). ``dry_run``: only check."""
        entries = {e.id: e for e in self.journal()}
        open_ids = {e.id for e in restore_mod.restorable(entries.values())}
        results = []
        for entry_id in dict.fromkeys(entry_ids):
            entry = entries.get(entry_id)
            if entry is None:
                results.append(
                    restore_mod.RestoreResult(False, "no such journal entry", "", "", entry_id)
                )
                continue
            if entry_id not in open_ids and entry.ok and entry.action in ("trash", "move"):
                result = restore_mod.RestoreResult(
                    False, restore_mod.REASON_RESTORED, entry.path, "", entry_id
                )
            else:
                result = restore_mod.restore_entry(entry, dry_run=dry_run, platform=platform)
            results.append(result)
            if not dry_run and entry.action in ("trash", "move"):
                self.store.add_journal(
                    [
                        {
                            "action": "restore",
                            "path": result.source or entry.destination,
                            "destination": result.path,
                            "content_hash": entry.content_hash,
                            "size": entry.size,
                            "ok": result.ok,
                            "reason": result.reason,
                        }
                    ]
                )
        if not dry_run:
            self._announce(Changes(journal=True))
        return results

    # --- not duplicates ---------------------------------------------------------------------------

    def ignore_pair(self, doc_a: int, doc_b: int) -> Changes:
        docs = {d.id: d for d in self.store.documents([doc_a, doc_b])}
        if len(docs) != 2:
            raise DedupError("both documents must be in the index")
        a, b = docs[doc_a], docs[doc_b]
        if a.content_hash and a.content_hash == b.content_hash:
            # Ignores are keyed by content: a pair of the same bytes would ignore a file
            # against itself (and every other copy of it).
            raise DedupError("the two files are byte-for-byte identical: they cannot be ignored")
        self.store.add_ignored_pairs([(a.content_hash, b.content_hash, a.path, b.path)])
        self.regroup()
        return self._announce(Changes(ignored=True, groups=True))

    def ignore_group(self, group_id: int) -> Changes:
        members = self.group(group_id).members
        pairs = [
            (x.content_hash, y.content_hash, x.path, y.path)
            for i, x in enumerate(members)
            for y in members[i + 1 :]
            if x.content_hash != y.content_hash  # the same bytes cannot be told apart
        ]
        if not pairs:
            raise DedupError("the group's files are byte-for-byte identical: it cannot be ignored")
        self.store.add_ignored_pairs(pairs)
        self.regroup()
        return self._announce(Changes(ignored=True, groups=True))

    def ignored_pairs(self) -> list[IgnoredPair]:
        return [
            IgnoredPair(r.hash_a, r.hash_b, r.path_a, r.path_b, r.created_at)
            for r in self.store.ignored_pairs()
        ]

    def clear_ignored(self, pairs: Iterable[tuple[str, str]] | None = None) -> Changes:
        self.store.clear_ignored(pairs)
        self.regroup()
        return self._announce(Changes(ignored=True, groups=True))

    # --- reports ----------------------------------------------------------------------------------

    def _report_args(self) -> dict[str, Any]:
        s = self.settings()
        return {
            "settings": {
                "min_similarity": s.min_similarity,
                "max_distance": s.max_distance,
                "extensions": list(s.extensions),
                "exclude_globs": list(s.exclude_globs),
                "min_size": s.min_size,
                "max_size": s.max_size,
                "fingerprint_version": FINGERPRINT_VERSION,
            },
            "app_version": __version__,
        }

    def report(self, fmt: str) -> str:
        from desktop_dedup.core.report import render_report

        return render_report(self.groups(), self.problems(), fmt, **self._report_args())

    def export_report(
        self,
        fmt: str,
        path: str | os.PathLike[str],
        language: str = "en",
        reason_text: Callable[[str], str] | None = None,
    ) -> None:
        """Write the report; an HTML one in ``language``, its reasons as ``reason_text`` gives
        them (the app passes its own)."""
        from desktop_dedup.core.report import write_report

        groups = self.groups()
        write_report(
            path,
            groups,
            self.problems(),
            fmt,
            language=language,
            reason_text=reason_text,
            **self._report_args(),
        )
        _drop_gradually(groups)  # 100,000 groups: not freed in one hold of the GIL


def text_similarity(text_a: str, text_b: str) -> float:
    """The share of common text of two texts, by the same rule as grouping (1.0 for the same
    words in the same order; otherwise from their sketches, verified)."""
    return _text_verdict(text_a, text_b)[0]


def _text_verdict(text_a: str, text_b: str) -> tuple[float, str | None]:
    """:func:`text_similarity`, and why it is 0 when a rule made it so (_verdict)."""
    from desktop_dedup.core.fingerprint import fingerprint_text  # not loaded for a scan

    fa, fb = fingerprint_text(text_a), fingerprint_text(text_b)
    if fa.text_hash == fb.text_hash and fa.token_count:
        return 1.0, None
    return _verdict(
        sketch_mod.decode(fa.sketch), sketch_mod.decode(fb.sketch), None, DEFAULT_MIN_SIMILARITY
    )


# Why a pair whose share of common text reaches the threshold is 0 (_verdict): two pages of one
# template that swapped a repeated word both ways; two texts that share only boilerplate
SWAPPED, BOILERPLATE = "swapped", "boilerplate"


def _verdict(
    a: sketch_mod.TextSketch,
    b: sketch_mod.TextSketch,
    common: sketch_mod.LineCounts | None,
    threshold: float,
) -> tuple[float, str | None]:
    """The verified share of two sketches, and why it is 0 when their share without the
    vetoes reaches ``threshold``: SWAPPED when the two swapped a repeated word both ways (two
    pages of one template), BOILERPLATE when what they share is lines many texts of the index
    hold (``common``; sketch.shares_only_boilerplate); None otherwise."""
    share = sketch_mod.verified_similarity(a, b, common=common)
    if share > 0.0:
        return share, None
    if sketch_mod.verified_similarity(a, b, common=common, veto=False) < threshold:
        return share, None
    if sketch_mod.substituted(a, b):
        return share, SWAPPED
    if common is not None and sketch_mod.shares_only_boilerplate(a, b, common):
        return share, BOILERPLATE
    return share, None


def _with_verdict(
    result: DiffResult, similarity: float, why: str | None, text_a: str, text_b: str
) -> DiffResult:
    """``result`` with the index's figure, and why it is 0 when a rule made it so: the two
    words swapped, or that the two share only boilerplate."""
    from desktop_dedup.core.diff import swapped_words

    words = swapped_words(text_a, text_b, sketch_mod.SALIENT_MIN_COUNT) if why == SWAPPED else None
    return replace(result, similarity=similarity, swapped=words, boilerplate=why == BOILERPLATE)


def diff_files(
    path_a: str | os.PathLike[str],
    path_b: str | os.PathLike[str],
    *,
    ignore_whitespace_punct: bool = False,
) -> DiffResult:
    """The side-by-side diff of two files of any supported format (no index needed), with the
    similarity the app would show for them. ExtractionError (its reason naming the file) when
    one cannot be read."""
    from desktop_dedup.core.extract import extract_text  # the readers: not for a scan

    texts = []
    for path in (path_a, path_b):
        try:
            texts.append(extract_text(os.fspath(path), reader_extension(os.fspath(path))).text)
        except ExtractionError as exc:
            raise ExtractionError(f"{os.fspath(path)}: {exc.reason}") from exc
    from desktop_dedup.core.diff import diff_texts

    result = diff_texts(texts[0], texts[1], ignore_whitespace_punct=ignore_whitespace_punct)
    return _with_verdict(result, *_text_verdict(texts[0], texts[1]), texts[0], texts[1])


def reader_extension(path: str, indexed_format: str = "") -> str:
    """The extension whose reader reads ``path``: its own when supported, else the format the
    scan read it as, else plain text for a file whose content is text (``README``, ``.log``)."""
    from desktop_dedup.core.extract import SUPPORTED_EXTENSIONS
    from desktop_dedup.core.scanning import PLAIN_TEXT, looks_like_text

    ext = Path(path).suffix.lower().lstrip(".")
    if ext in SUPPORTED_EXTENSIONS:
        return ext
    if indexed_format in SUPPORTED_EXTENSIONS:
        return indexed_format
    return PLAIN_TEXT if looks_like_text(path) else ext


def _check_distance(k: int) -> None:
    if not isinstance(k, int) or not 0 <= k <= MAX_SUPPORTED_DISTANCE:
        raise DedupError(f"distance must be a whole number from 0 to {MAX_SUPPORTED_DISTANCE}")
