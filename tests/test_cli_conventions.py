"""Command-line conventions (issue 11 item 3): diff's exit codes as diff(1), the report format
from the output file's name, a missing index is an error for report and remove, and options may
come anywhere on the line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import docgen

CLI = [sys.executable, "-m", "desktop_dedup"]


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=120)


def test_diff_exit_codes(tmp_path: Path):
    a = docgen.write_txt(tmp_path / "a.txt", docgen.SAMPLE_EN)
    same = docgen.write_html(tmp_path / "same.html", docgen.SAMPLE_EN)
    other = docgen.write_txt(tmp_path / "b.txt", docgen.SAMPLE_EN.replace("bridge", "tower"))
    assert run("diff", str(a), str(same)).returncode == 0
    assert run("diff", str(a), str(other)).returncode == 1
    assert run("diff", str(a), str(tmp_path / "missing.txt")).returncode == 2


def test_report_and_remove_need_an_existing_index(tmp_path: Path):
    typo = tmp_path / "tpyo.sqlite"
    for args in (["report", "--db", str(typo)], ["remove", "--db", str(typo)]):
        out = run(*args)
        assert out.returncode == 1 and "no index" in out.stderr and str(typo) in out.stderr
    assert not typo.exists()


def test_report_format_from_the_file_name_and_options_anywhere(tmp_path: Path):
    root, ref = tmp_path / "docs", tmp_path / "ref"
    docgen.write_txt(ref / "master.txt", docgen.SAMPLE_ZH)
    docgen.write_txt(root / "copy.txt", docgen.SAMPLE_ZH)
    db = str(tmp_path / "db.sqlite")
    scan = run("scan", str(root), "--reference", str(ref), str(ref), "--db", db, "--quiet")
    assert scan.returncode == 0, scan.stderr
    for name, check in (
        ("r.html", lambda t: t.lstrip().lower().startswith("<!doctype html")),
        ("r.csv", lambda t: t.lstrip("\ufeff").startswith("group_id,kind")),
        ("r.json", lambda t: json.loads(t)["groups"]),
    ):
        out = tmp_path / name
        assert run("report", "--db", db, "--output", str(out)).returncode == 0
        assert check(out.read_text(encoding="utf-8")), name
    (group,) = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))["groups"]
    reference = next(m for m in group["members"] if m["is_reference"])
    assert reference["path"] == os.path.realpath(ref / "master.txt")
