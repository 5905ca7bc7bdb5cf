"""A kill during a removal leaves every file accounted for (issue 7, case 4): the journal is
written ahead (an intent committed before each file moves, the outcome after), and opening the
index settles what was interrupted, so each file is either in place or at the destination the
journal names, never in both places, and no intent is left open."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from desktop_dedup.core.service import DedupService

FILES = 1500


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    root = tmp_path_factory.mktemp("lib") / "docs"
    root.mkdir()
    text = "The river town wakes slowly in spring; mist lies on the water at dawn. " * 40
    for i in range(FILES):
        p = root / f"copy{i:04d}.txt"
        p.write_text(text, encoding="utf-8")
        os.utime(p, ns=(1_600_000_000_000_000_000 + i,) * 2)  # copy0000 is the reference
    return root


@pytest.mark.parametrize("kill_after", [0.2, 0.6, 1.2])
def test_sigkill_during_a_move_leaves_every_file_accounted_for(tmp_path, library, kill_after):
    root = tmp_path / "docs"
    root.mkdir()
    for p in library.iterdir():
        os.link(p, root / p.name)  # a fresh tree for each run (same bytes, same mtimes)
    db, target = tmp_path / "db.sqlite", tmp_path / "moved"
    target.mkdir()
    cli = [sys.executable, "-m", "desktop_dedup"]
    subprocess.run([*cli, "scan", str(root), "--db", str(db), "--quiet"], check=True, timeout=300)
    proc = subprocess.Popen(
        [*cli, "remove", "--db", str(db), "--move-to", str(target), "--yes"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not any(target.iterdir()) and proc.poll() is None:
        time.sleep(0.01)
    time.sleep(kill_after)
    if proc.poll() is None:
        os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    with DedupService(db) as svc:  # opening the index settles what was interrupted
        journal = svc.journal()
    assert not [j for j in journal if j.reason == "in progress"]
    in_place = {p.name for p in root.iterdir()}
    moved = {p.name for p in target.iterdir()}
    assert not in_place & moved, "a file is in two places"
    assert in_place | moved == {f"copy{i:04d}.txt" for i in range(FILES)}
    assert "copy0000.txt" in in_place  # the reference never moves
    done = {os.path.basename(j.destination) for j in journal if j.ok}
    assert done == moved, "a moved file the journal does not know, or the other way round"
