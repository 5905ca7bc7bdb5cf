"""Database faults end in one line on stderr and exit 1 (issue 7 case 9), and opening an index
to report on it writes nothing."""

from __future__ import annotations

import hashlib
import json
import os
import resource
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import docgen

CLI = [sys.executable, "-m", "desktop_dedup"]


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=120)


def test_a_damaged_database_is_one_line_and_exit_1(tmp_path: Path):
    db = tmp_path / "db.sqlite"
    db.write_bytes(os.urandom(8192))
    for args in (["report", "--db", str(db)], ["remove", "--db", str(db)]):
        out = run(*args)
        assert out.returncode == 1
        lines = out.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("desktop-dedup: ")
        assert "Traceback" not in out.stderr and "sqlalche.me" not in out.stderr


def test_reporting_writes_nothing_to_the_database(tmp_path: Path):
    root = tmp_path / "docs"
    docgen.write_txt(root / "a.txt", docgen.SAMPLE_EN)
    docgen.write_txt(root / "b.txt", docgen.SAMPLE_EN)
    db = tmp_path / "db.sqlite"
    assert run("scan", str(root), "--db", str(db), "--quiet").returncode == 0
    run("report", "--db", str(db), "--format", "csv")  # settles the WAL once

    def state() -> dict[str, str]:
        return {
            p.name: hashlib.sha256(p.read_bytes()).hexdigest()
            for p in tmp_path.iterdir()
            if p.name.startswith("db.sqlite")
        }

    before = state()
    out = run("report", "--db", str(db), "--format", "json")
    assert out.returncode == 0 and '"groups"' in out.stdout
    assert state() == before


def _scanned(tmp_path: Path) -> tuple[Path, Path]:
    root = tmp_path / "docs"
    docgen.write_txt(root / "a.txt", docgen.SAMPLE_EN)
    docgen.write_txt(root / "b.txt", docgen.SAMPLE_EN)
    docgen.write_txt(root / "c.txt", docgen.SAMPLE_ZH)
    db = tmp_path / "index" / "db.sqlite"
    assert run("scan", str(root), "--db", str(db), "--quiet").returncode == 0
    return root, db


def _one_line_exit_1(out: subprocess.CompletedProcess) -> str:
    assert out.returncode == 1, (out.returncode, out.stderr)
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("desktop-dedup: "), out.stderr
    assert "Traceback" not in out.stderr
    return lines[0]


def test_a_read_only_database_is_reported_on_and_refuses_writes_in_one_line(tmp_path: Path):
    """Issue 7 case 9: read-only commands work on a read-only index; the others end in one
    line and exit 1. Run without the rights that let root write anywhere (tests/unprivileged)."""
    from unprivileged import unprivileged

    root, db = _scanned(tmp_path)
    for p in db.parent.iterdir():
        p.chmod(0o444)
    db.parent.chmod(0o555)
    before = {p.name: p.read_bytes() for p in db.parent.iterdir()}
    try:

        def run_ro(*args: str) -> subprocess.CompletedProcess:
            cmd = unprivileged([*CLI, *args])
            return subprocess.run(cmd, capture_output=True, text=True, timeout=120)

        out = run_ro("report", "--db", str(db), "--format", "json")
        assert out.returncode == 0, out.stderr
        groups = json.loads(out.stdout)["groups"]
        assert [len(g["members"]) for g in groups] == [2]
        line = _one_line_exit_1(run_ro("scan", str(root), "--db", str(db), "--quiet"))
        assert "readonly" in line or "read-only" in line
        assert {p.name: p.read_bytes() for p in db.parent.iterdir()} == before
    finally:
        db.parent.chmod(0o755)


def test_a_locked_database_is_one_line_and_exit_1(tmp_path: Path):
    """Another process holds the write lock longer than the busy timeout (10 s)."""
    root, db = _scanned(tmp_path)
    docgen.write_txt(root / "d.txt", docgen.SAMPLE_ZH + "\n新的一段。")
    holder = sqlite3.connect(db, timeout=1)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        line = _one_line_exit_1(run("scan", str(root), "--db", str(db), "--quiet"))
        assert "locked" in line
    finally:
        holder.rollback()
        holder.close()
    assert sqlite3.connect(db).execute("PRAGMA integrity_check").fetchone() == ("ok",)


def test_a_full_disk_is_one_line_and_exit_1_and_the_database_stays_whole(tmp_path: Path):
    """Writing past the file size limit fails as a full disk does (EFBIG instead of ENOSPC);
    the scan stops with one line, and the index is intact and usable afterwards."""
    root, db = _scanned(tmp_path)
    for k in range(300):  # documents enough to outgrow the limit below
        docgen.write_txt(root / f"more{k}.txt", f"{docgen.SAMPLE_EN}\n{k} " * 3)
    limit = db.stat().st_size + 64 * 1024

    def limited() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    out = subprocess.run(
        [*CLI, "scan", str(root), "--db", str(db), "--quiet"],
        capture_output=True, text=True, timeout=300, preexec_fn=limited,
    )  # fmt: skip
    line = _one_line_exit_1(out)
    assert "full" in line or "disk" in line or "I/O" in line or "large" in line, line
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    con.close()
    assert run("report", "--db", str(db), "--format", "csv").returncode == 0
