"""A scan writes its rows in batches on a thread of its own (service._BatchWriter): the readers
keep getting files while a batch is written, and a batch that fails to be written loses no row.

Real files, a real SQLite index and the real reader processes; the store's write is slowed or
made to fail once, as a busy disk or a moment of contention would.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

import pytest

from desktop_dedup.core import service as service_mod
from desktop_dedup.core.errors import DatabaseError
from desktop_dedup.core.service import DedupService

FILES = 2 * service_mod._WRITE_BATCH + 120  # full batches, and files enough after them


def _folder(tmp_path: Path) -> Path:
    root = tmp_path / "notes"
    root.mkdir()
    for k in range(FILES):
        (root / f"note{k:03}.txt").write_text(
            f"Note {k}: the harbour lantern {k * 7} by the orchard, meadow {k % 13} and willow.\n",
            encoding="utf-8",
        )
    return root


def _count_accepted(svc: DedupService, times: list[float]) -> None:
    accept = svc._accept

    def counted(row, *args, **kwargs):  # type: ignore[no-untyped-def]
        times.append(time.monotonic())
        return accept(row, *args, **kwargs)

    svc._accept = counted  # type: ignore[method-assign]


def _scanning(tmp_path: Path) -> tuple[DedupService, Path, list[float]]:
    """A service over a folder of FILES notes, and the times at which it accepts their rows."""
    root = _folder(tmp_path)
    svc = DedupService(tmp_path / "index.sqlite")
    accepted: list[float] = []
    _count_accepted(svc, accepted)
    return svc, root, accepted


def _stored(tmp_path: Path) -> int:
    con = sqlite3.connect(tmp_path / "index.sqlite")
    try:
        return con.execute("SELECT count(*) FROM documents").fetchone()[0]
    finally:
        con.close()


def _scan_writing_through(svc: DedupService, root: Path, through):  # type: ignore[no-untyped-def]
    """Scan ``root`` with two readers, each write of the store going through
    ``through(write, rows)``; the service is closed after."""
    write = svc.store.upsert_documents
    svc.store.upsert_documents = lambda rows: through(write, rows)  # type: ignore[method-assign]
    try:
        return svc.scan([root], workers=2)
    finally:
        svc.close()


def test_files_are_handed_out_while_a_batch_is_written(tmp_path: Path):
    svc, root, accepted = _scanning(tmp_path)
    window: list[float] = []
    writers: set[str] = set()

    def slow_first_write(write, rows):  # type: ignore[no-untyped-def]
        writers.add(threading.current_thread().name)
        if not window:  # the first batch: a slow disk
            window.append(time.monotonic())
            time.sleep(1.0)
            window.append(time.monotonic())
        return write(rows)

    summary = _scan_writing_through(svc, root, slow_first_write)
    assert summary.files_fingerprinted == FILES
    start, end = window
    during = sum(start < t < end for t in accepted)
    # Written in the scanning thread, no file came back while the batch was written: the
    # readers waited for it. Now they go on reading the files after the batch.
    assert during >= 20, f"{during} files came back while the first batch was written"
    assert "desktop-dedup-writer" in writers
    assert _stored(tmp_path) == FILES


def test_a_batch_that_fails_to_be_written_loses_no_row(tmp_path: Path):
    """The first batch fails (as a write refused for a moment would); the scan stops with the
    error, and every file it had read is in the index all the same: the failed batch's rows go
    back to be written by the scan's final write, as a failed write's did before."""
    svc, root, accepted = _scanning(tmp_path)
    calls: list[int] = []

    def fails_once(write, rows):  # type: ignore[no-untyped-def]
        calls.append(len(rows))
        if len(calls) == 1:
            raise DatabaseError("the disk refused the write")
        return write(rows)

    with pytest.raises(DatabaseError, match="refused"):
        _scan_writing_through(svc, root, fails_once)
    assert calls[0] == service_mod._WRITE_BATCH
    assert _stored(tmp_path) == len(accepted) >= service_mod._WRITE_BATCH


def test_the_batches_shrink_as_the_reading_ends_so_the_last_write_is_small(tmp_path: Path):
    """The grouping waits for the last write: written as a full batch, up to _WRITE_BATCH rows
    after the last file came back (tens of milliseconds with every core idle). As the files
    still to come run out, a batch is no larger than they are, so the last write is a few rows;
    and no batch is larger than _WRITE_BATCH, whose rows a failed write sends back."""
    svc, root, accepted = _scanning(tmp_path)
    sizes: list[tuple[int, float]] = []

    def recorded(write, rows):  # type: ignore[no-untyped-def]
        sizes.append((len(rows), time.monotonic()))
        return write(rows)

    summary = _scan_writing_through(svc, root, recorded)
    assert summary.files_fingerprinted == FILES == sum(n for n, _ in sizes)
    assert all(n <= service_mod._WRITE_BATCH for n, _ in sizes)
    assert sizes[0][0] == service_mod._WRITE_BATCH  # most of a scan goes in full batches
    last_file = max(accepted)
    after = [n for n, t in sizes if t >= last_file]  # written once every file was back
    assert sum(after) <= service_mod._WRITE_BATCH_MIN, sizes
    assert _stored(tmp_path) == FILES
