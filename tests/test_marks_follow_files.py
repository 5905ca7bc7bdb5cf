"""A mark is for the content that was reviewed (issue 9): a marked copy changed outside the app
loses its mark at the next scan, and the scan says so; unchanged marked copies keep theirs."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import docgen

from desktop_dedup.core.service import DedupService


def make_copies(folder: Path) -> list[Path]:
    return [docgen.write_txt(folder / f"copy{k}.txt", docgen.SAMPLE_EN) for k in range(3)]


def test_a_changed_marked_file_loses_its_mark_at_rescan(tmp_path: Path):
    docs = tmp_path / "docs"
    paths = make_copies(docs)
    with DedupService(tmp_path / "db.sqlite") as svc:
        svc.scan([docs], workers=1)
        (group,) = svc.groups()
        by_path = {Path(m.path).name: m.doc_id for m in group.members}
        svc.set_marked([by_path["copy1.txt"], by_path["copy2.txt"]], True)
        assert svc.marked_ids() == {by_path["copy1.txt"], by_path["copy2.txt"]}

        with open(paths[2], "a", encoding="utf-8") as f:
            f.write("\nA paragraph only this copy has, written after the review.\n")
        os.utime(paths[2], (1_900_000_000, 1_900_000_000))  # a new mtime whatever the clock
        summary = svc.scan([docs], workers=1)

        assert summary.marks_dropped == [str(paths[2].resolve())]
        # The unchanged marked copy keeps its mark; the changed one lost it.
        assert svc.marked_ids() == {by_path["copy1.txt"]}


def test_an_unchanged_rescan_keeps_every_mark(tmp_path: Path):
    docs = tmp_path / "docs"
    paths = make_copies(docs)
    with DedupService(tmp_path / "db.sqlite") as svc:
        svc.scan([docs], workers=1)
        ids = [m.doc_id for m in svc.groups()[0].members[1:]]
        svc.set_marked(ids, True)
        os.utime(paths[1], (1_900_000_000, 1_900_000_000))  # touched, same content
        summary = svc.scan([docs], workers=1)
        assert summary.marks_dropped == []
        assert svc.marked_ids() == set(ids)


def test_cli_scan_says_which_marks_were_dropped(tmp_path: Path):
    docs = tmp_path / "docs"
    paths = make_copies(docs)
    db = tmp_path / "db.sqlite"
    with DedupService(db) as svc:
        svc.scan([docs], workers=1)
        member = next(m for m in svc.groups()[0].members if m.path == str(paths[1].resolve()))
        svc.set_marked([member.doc_id], True)
    paths[1].write_text(docgen.SAMPLE_EN + "\nMore.\n", encoding="utf-8")
    os.utime(paths[1], (1_900_000_000, 1_900_000_000))
    out = subprocess.run(
        [sys.executable, "-m", "desktop_dedup", "scan", str(docs), "--db", str(db)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    text = out.stdout + out.stderr
    assert "changed since it was marked" in text
    assert "copy1.txt" in text


def test_cli_remove_keep_newest_keeps_only_the_newest_of_three(tmp_path: Path):
    # Issue 9: on three copies it removed only the middle one (it kept the reference too).
    docs = tmp_path / "docs"
    paths = make_copies(docs)
    for k, path in enumerate(paths):  # copy0 oldest (the reference), copy2 newest
        os.utime(path, (1_600_000_000 + k * 1000, 1_600_000_000 + k * 1000))
    db = tmp_path / "db.sqlite"
    with DedupService(db) as svc:
        svc.scan([docs], workers=1)
        assert svc.groups()[0].reference.path == str(paths[0].resolve())
    target = tmp_path / "removed"
    target.mkdir()
    out = subprocess.run(
        [sys.executable, "-m", "desktop_dedup", "remove", "--db", str(db), "--keep", "newest"]
        + ["--move-to", str(target), "--yes"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    assert [p.exists() for p in paths] == [False, False, True]
    assert sorted(p.name for p in target.rglob("*.txt")) == ["copy0.txt", "copy1.txt"]
