"""A reader process that dies on one file costs that file only, never the scan."""

from __future__ import annotations

import sys
from pathlib import Path

import docgen

sys.path.insert(0, str(Path(__file__).parent / "support"))
import crashing_worker  # noqa: E402

from desktop_dedup.core.service import DedupService  # noqa: E402


def _library(root: Path, n: int = 30) -> list[Path]:
    paths = []
    for i in range(n):
        text = f"第{i}份文件。" + docgen.SAMPLE_ZH.replace("城市", f"城市{i}", 1)
        paths.append(docgen.write_txt(root / f"doc{i:03d}.txt", text))
    return paths


def test_a_crashing_file_is_recorded_and_every_other_file_is_read(tmp_path):
    root = tmp_path / "docs"
    paths = _library(root)
    crash = docgen.write_txt(root / "crash-me.txt", docgen.SAMPLE_EN)
    with DedupService(tmp_path / "db.sqlite") as svc:
        svc._analyse_in_worker = crashing_worker.analyse_or_crash
        summary = svc.scan([root], workers=2)
        problems = {p.path: p.reason for p in svc.problems()}
    assert not summary.cancelled
    assert problems == {str(crash): "the reader crashed on this file; skipped"}
    assert summary.files_fingerprinted == len(paths)


def test_a_reader_that_crashes_on_every_file_costs_each_file_not_the_scan(tmp_path):
    root = tmp_path / "docs"
    paths = _library(root, n=3)
    with DedupService(tmp_path / "db.sqlite") as svc:
        svc._analyse_in_worker = crashing_worker.always_crash
        summary = svc.scan([root], workers=2)
        problems = svc.problems()
    assert not summary.cancelled
    assert sorted(p.path for p in problems) == sorted(str(p) for p in paths)
    assert {p.reason for p in problems} == {"the reader crashed on this file; skipped"}


def test_a_file_handed_to_a_worker_that_just_died_is_not_lost(tmp_path, monkeypatch):
    """A worker's pipe breaks just as the scan hands it a file (the worker died between two
    files): the file must be read by a worker, not dropped without a word."""
    from multiprocessing.connection import Connection

    from desktop_dedup.core.models import FileEntry

    calls = {"n": 0, "files": 0}
    original = Connection.send

    def breaks_on_the_third_file(self, obj):
        if isinstance(obj, list) and all(isinstance(e, FileEntry) for e in obj):
            calls["n"] += 1  # files go to a worker a batch at a time (workers.BATCH_FILES)
            calls["files"] += len(obj)
            if calls["n"] == 3:
                raise BrokenPipeError("a worker died")
        return original(self, obj)

    monkeypatch.setattr(Connection, "send", breaks_on_the_third_file)
    root = tmp_path / "docs"
    paths = _library(root, n=6)
    with DedupService(tmp_path / "db.sqlite") as svc:
        summary = svc.scan([root], workers=2)
        problems = svc.problems()
    assert calls["files"] > len(paths)  # what the broken pipe took was handed out again
    assert problems == []
    assert summary.files_fingerprinted == len(paths)


def test_readers_read_with_the_collector_on(tmp_path):
    """The fork server loads the readers with the collector off (core/_worker_preload.py): the
    readers it forks must collect again (a reader lives as long as the scan), with what it
    loaded set aside."""
    root = tmp_path / "docs"
    _library(root, n=4)
    with DedupService(tmp_path / "db.sqlite") as svc:
        svc._analyse_in_worker = crashing_worker.report_collector
        svc.scan([root], workers=2)
        reasons = {p.reason for p in svc.problems()}
    assert reasons == {"collector on: True, loaded modules set aside: True"}
