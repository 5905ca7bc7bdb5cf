"""Database faults end in one line on stderr and exit 1 (issue 7 case 9), and opening an index
to report on it writes nothing."""

from __future__ import annotations

import hashlib
import os
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
