"""Paths are escaped in terminal output (issue 7 case 10): a file name holding an escape
sequence or a newline is printed with visible escapes, never as raw control characters."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import docgen


def test_control_characters_in_file_names_are_escaped(tmp_path: Path):
    root = tmp_path / "docs"
    a = docgen.write_txt(root / "a.txt", docgen.SAMPLE_EN)
    os.utime(a, ns=(1_500_000_000_000_000_000,) * 2)
    evil = root / "x\x1b]0;pwned\x07\nfake line.txt"
    shutil.copyfile(a, evil)
    (root / "bad\x1b[31m.txt").write_bytes(b"\xff\xfe\x00garbage\x00\x01\x02" * 50)  # a problem
    db = str(tmp_path / "db.sqlite")
    run = [sys.executable, "-m", "desktop_dedup"]
    scan = subprocess.run([*run, "scan", str(root), "--db", db], capture_output=True, text=True)
    assert scan.returncode == 0, scan.stderr
    plan = subprocess.run([*run, "remove", "--db", db], capture_output=True, text=True)
    assert plan.returncode == 0, plan.stderr
    for out in (scan.stdout + scan.stderr, plan.stdout):
        assert "\x1b" not in out and "\x07" not in out
    assert "x\\x1b]0;pwned\\x07\\nfake line.txt" in plan.stdout
    assert not any(line.startswith("fake line") for line in plan.stdout.splitlines())
