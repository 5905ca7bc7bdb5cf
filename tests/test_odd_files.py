"""Files the scan must not lose track of or hang on (issue 7 cases 7 and 8)."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import docgen

from desktop_dedup.core import pipeline
from desktop_dedup.core.models import FileEntry, ScanOptions
from desktop_dedup.core.scanning import walk_files
from desktop_dedup.core.service import DedupService


def test_a_file_over_the_size_limit_is_a_problem_not_a_silence(tmp_path: Path):
    root = tmp_path / "docs"
    docgen.write_txt(root / "small.txt", docgen.SAMPLE_EN)
    big = root / "huge.txt"
    with open(big, "wb") as f:  # sparse: 3 GiB on paper, nothing on disk
        f.truncate(3 * 1024**3)
    problems = []
    found = list(walk_files(ScanOptions(roots=(str(root),)), problems))
    assert [Path(e.path).name for e in found] == ["small.txt"]
    assert [Path(p.path).name for p in problems] == ["huge.txt"]
    assert problems[0].reason == "larger than the 2 GB limit (3 GB); skipped"
    with DedupService(tmp_path / "db.sqlite") as svc:
        summary = svc.scan([root], workers=1)
    assert any(Path(p.path).name == "huge.txt" for p in summary.problems)


def test_a_file_swapped_for_a_fifo_after_listing_does_not_block(tmp_path: Path):
    path = tmp_path / "note.txt"
    path.write_text(docgen.SAMPLE_EN, encoding="utf-8")
    st = path.stat()
    entry = FileEntry(str(path), st.st_size, st.st_mtime_ns, "txt")
    path.unlink()
    os.mkfifo(path)  # nobody ever writes to it: reading it would wait forever
    result: list[dict] = []
    worker = threading.Thread(target=lambda: result.append(pipeline.analyse_file(entry)))
    worker.daemon = True
    worker.start()
    worker.join(10)
    assert not worker.is_alive(), "reading the FIFO blocked"
    assert result[0]["status"] == "problem"
    assert "not a regular file" in result[0]["error"]
