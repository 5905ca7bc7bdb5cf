"""The scan hands each reader its files a batch at a time (core/workers.py, BATCH_FILES): one
message wakes a process, and a wake-up per file cost the scanning process more than reading the
answers. A file that hangs, crashes its reader or runs out of memory in the middle of a batch
must still cost that file only: the files after it in the batch go to another reader, and each
file's time budget is its own."""

from __future__ import annotations

import sys
from pathlib import Path

import docgen
import pytest

SUPPORT = Path(__file__).parent / "support"
sys.path.insert(0, str(SUPPORT))
import crashing_worker  # noqa: E402
import hostile_readers  # noqa: E402

from desktop_dedup.core import workers  # noqa: E402
from desktop_dedup.core.models import FileEntry  # noqa: E402
from desktop_dedup.core.service import DedupService  # noqa: E402
from desktop_dedup.core.workers import Budget  # noqa: E402

CASES = {
    # name of the bad file, the reader, the budget, the problem it must become
    "hangs": (
        "stuck.txt",
        hostile_readers.hang_or_read,
        Budget(seconds=1.5),
        "took longer than 1.5 s to read; skipped",
    ),
    "crashes": (
        "crash.txt",
        crashing_worker.analyse_or_crash,
        Budget(),
        "the reader crashed on this file; skipped",
    ),
    "runs out of memory": (
        "hog.txt",
        hostile_readers.hog_or_read,
        Budget(memory_mb=200),
        "needs more than 200 MB to read; skipped",
    ),
}


def _text(i: int) -> str:
    return f"第{i}份。" + docgen.SAMPLE_ZH.replace("城市", f"城市{i}", 1) + f"\n{i}\n"


def _record_batches(monkeypatch) -> list[list[str]]:
    """The names of the files of each batch the engine sends a reader, as it sends them."""
    batches: list[list[str]] = []
    send = workers.multiprocessing.connection.Connection.send

    def recording(self, obj):
        if isinstance(obj, list) and obj and all(isinstance(e, FileEntry) for e in obj):
            batches.append([Path(e.path).name for e in obj])
        return send(self, obj)

    monkeypatch.setattr(workers.multiprocessing.connection.Connection, "send", recording)
    return batches


@pytest.mark.parametrize("case", list(CASES))
def test_a_bad_file_in_the_middle_of_a_batch_costs_that_file_only(tmp_path, monkeypatch, case):
    name, analyse, budget, reason = CASES[case]
    root = tmp_path / "docs"
    # listed in name order: thirty files before the bad one, thirty after it
    before = [docgen.write_txt(root / f"b{i:02d}.txt", _text(i)) for i in range(30)]
    bad = docgen.write_txt(root / name, docgen.SAMPLE_EN)
    after = [docgen.write_txt(root / f"text{i:02d}.txt", _text(100 + i)) for i in range(30)]
    batches = _record_batches(monkeypatch)
    with DedupService(tmp_path / "db.sqlite") as svc:
        svc._analyse_in_worker = analyse
        svc.read_budget = budget
        summary = svc.scan([root], workers=2)
        problems = {p.path: p.reason for p in svc.problems()}
        stored = set(svc.store.known_files())
    # the bad file was handed out with files after it in the same batch
    assert any(name in b and b.index(name) < len(b) - 1 for b in batches), batches
    assert max(map(len, batches)) == workers.BATCH_FILES
    assert problems == {str(bad): reason}
    assert summary.files_fingerprinted == len(before) + len(after)
    assert stored == {str(p) for p in [*before, bad, *after]}


def test_each_file_of_a_batch_has_its_own_time_budget(tmp_path, monkeypatch):
    """Five files of half a second each in one batch take longer than the 1.5 s budget
    together: none of them took longer than its budget, so none is a problem."""
    root = tmp_path / "docs"
    paths = [docgen.write_txt(root / f"doc{i:02d}.txt", _text(i)) for i in range(20)]
    batches = _record_batches(monkeypatch)
    with DedupService(tmp_path / "db.sqlite") as svc:
        svc._analyse_in_worker = hostile_readers.read_in_half_a_second
        svc.read_budget = Budget(seconds=1.5)
        summary = svc.scan([root], workers=2)
        problems = svc.problems()
    assert max(map(len, batches)) * 0.5 > 1.5  # a batch took longer than one file's budget
    assert problems == []
    assert summary.files_fingerprinted == len(paths)
