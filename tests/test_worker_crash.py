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


def test_a_file_submitted_to_a_pool_that_just_broke_is_not_lost(tmp_path, monkeypatch):
    """The race behind this file's flaky test, made deterministic: a worker dies while the scan
    is handing out more files, so ``submit`` itself raises BrokenProcessPool. The file being
    handed out must be read in the next pool, not dropped without a word."""
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    from desktop_dedup.core import service as service_mod

    calls = {"n": 0}

    class BreaksOnTheFifthSubmit(ProcessPoolExecutor):
        def submit(self, fn, /, *args, **kwargs):
            calls["n"] += 1
            if calls["n"] == 5:  # the canary, then three files, then the break
                raise BrokenProcessPool("a worker died")
            return super().submit(fn, *args, **kwargs)

    monkeypatch.setattr(service_mod, "ProcessPoolExecutor", BreaksOnTheFifthSubmit)
    root = tmp_path / "docs"
    paths = _library(root, n=6)
    with DedupService(tmp_path / "db.sqlite") as svc:
        svc.pool_threshold = 1
        summary = svc.scan([root], workers=2)
        problems = svc.problems()
    assert calls["n"] > 5
    assert problems == []
    assert summary.files_fingerprinted == len(paths)
