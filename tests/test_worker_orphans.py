"""Scan workers exit when the process that started them is killed (issue 7 case 11): a SIGKILL
of the CLI during a scan leaves no worker behind (they stayed >= 60 s at ~170 MB each)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import docgen
import pytest


def children_of(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(entry.name))
    return out


def descendants_of(pid: int) -> list[int]:
    """Children, grandchildren...: workers are forked by a fork server, a child of the CLI."""
    out, todo = [], [pid]
    while todo:
        kids = children_of(todo.pop())
        out += kids
        todo += kids
    return out


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_workers_exit_when_the_cli_is_killed(tmp_path: Path):
    root = tmp_path / "docs"
    for i in range(400):
        docgen.write_txt(root / f"d{i:03d}.txt", (docgen.SAMPLE_ZH + f"\n{i}\n") * 20)
    proc = subprocess.Popen(
        [sys.executable, "-m", "desktop_dedup", "scan", str(root), "--workers", "2", "--quiet",
         "--db", str(tmp_path / "db.sqlite")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    workers: list[int] = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(workers) < 3 and proc.poll() is None:
        workers = []
        for c in descendants_of(proc.pid):
            try:
                cmdline = Path(f"/proc/{c}/cmdline").read_bytes()
            except OSError:
                continue
            if b"spawn_main" in cmdline or b"forkserver" in cmdline:
                workers.append(c)
        time.sleep(0.05)
    assert len(workers) >= 3, "no worker processes seen"  # the fork server and two workers
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(alive(w) for w in workers):
        time.sleep(0.1)
    left = [w for w in workers if alive(w)]
    for w in left:
        os.kill(w, signal.SIGKILL)
    assert not left, "worker processes outlived the killed scan"


def test_the_fork_server_keeps_what_it_loaded_out_of_collections():
    """The fork server freezes what it loaded (core/_worker_preload.py): the collections of its
    shutdown, which a caller reading the CLI's output through a pipe waits for, and those of
    its workers, do not walk the readers' tables (tens of thousands of objects)."""
    code = "import gc, desktop_dedup.core._worker_preload; print(gc.get_freeze_count())"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert int(out.stdout) > 10_000
