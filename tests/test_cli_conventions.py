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
import pytest

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


def test_exit_codes_are_listed_in_every_help():
    for args, codes in (
        ([], ("0", "1", "2", "3", "130")),
        (["scan"], ("0", "1", "2", "3", "130")),
        (["report"], ("0", "1", "2", "3", "130")),
        (["remove"], ("0", "1", "2", "3", "130")),
        (["diff"], ("0", "1", "2")),
    ):
        out = run(*args, "--help")
        assert out.returncode == 0, out.stderr
        status = out.stdout.split("exit status:", 1)[1]
        listed = {line.split()[0] for line in status.splitlines() if line.startswith("  ")}
        assert set(codes) <= listed, (args, status)


def _trio(tmp_path: Path) -> tuple[Path, Path, Path, str]:
    root = tmp_path / "docs"
    a = docgen.write_txt(root / "a.txt", docgen.SAMPLE_EN)
    os.utime(a, ns=(1_500_000_000_000_000_000,) * 2)  # the oldest: kept
    b, c = root / "b.txt", root / "c.txt"
    b.write_bytes(a.read_bytes())
    c.write_bytes(a.read_bytes())
    db = str(tmp_path / "db.sqlite")
    scan = run("scan", str(root), "--db", db, "--quiet")
    assert scan.returncode == 0, scan.stderr
    return a, b, c, db


def test_remove_exits_3_when_a_file_was_refused(tmp_path: Path):
    a, b, c, db = _trio(tmp_path)
    with open(c, "a", encoding="utf-8") as handle:  # changed since the scan: must be refused
        handle.write("one more line")
    target = tmp_path / "removed"
    target.mkdir()
    args = ("remove", "--db", db, "--keep", "oldest", "--move-to", str(target))
    assert run(*args).returncode == 0  # the plan changes nothing
    out = run(*args, "--yes")
    assert out.returncode == 3, out.stdout + out.stderr
    assert a.exists() and not b.exists() and c.exists()
    assert (target / "b.txt").exists()
    assert f"skipped {os.path.realpath(c)}: changed since the scan" in out.stdout


def test_remove_exits_0_when_everything_went(tmp_path: Path):
    a, b, c, db = _trio(tmp_path)
    target = tmp_path / "removed"
    target.mkdir()
    out = run("remove", "--db", db, "--keep", "oldest", "--move-to", str(target), "--yes")
    assert out.returncode == 0, out.stdout + out.stderr
    assert a.exists() and not b.exists() and not c.exists()


def _bytes_run(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *args], capture_output=True, env=env, timeout=120)


def _has_locale(name: str) -> bool:
    try:
        listed = subprocess.run(["locale", "-a"], capture_output=True, text=True).stdout
    except OSError:
        return False
    return name.lower().replace("-", "") in listed.lower().replace("-", "").split()


@pytest.mark.parametrize(
    "locale_env",
    [
        # a Chinese Windows console redirected: Python writes the code page (GB18030/cp936)
        {"PYTHONIOENCODING": "gb18030"},
        # a stream that cannot hold Chinese at all: Python raised UnicodeEncodeError
        {"PYTHONIOENCODING": "ascii"},
        {"LC_ALL": "C", "LANG": "C"},
        pytest.param(
            {"LC_ALL": "zh_CN.GB18030", "LANG": "zh_CN.GB18030"},
            marks=pytest.mark.skipif(
                not _has_locale("zh_CN.gb18030"), reason="locale zh_CN.GB18030 not installed"
            ),
        ),
    ],
    ids=["gb18030-stream", "ascii-stream", "C", "zh_CN.GB18030"],
)
def test_output_is_utf8_whatever_the_locale(tmp_path: Path, locale_env: dict[str, str]):
    root = tmp_path / "文档"
    docgen.write_txt(root / "江南.txt", docgen.SAMPLE_ZH)
    docgen.write_txt(root / "江南 副本.txt", docgen.SAMPLE_ZH)
    (root / "空白.md").touch()  # a skipped file: its name goes into the scan summary
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "PYTHONIO"))}
    env.pop("PYTHONUTF8", None)
    env.update(locale_env)
    db = str(tmp_path / "db.sqlite")
    scan = _bytes_run(env, "scan", str(root), "--db", db, "--quiet")
    assert scan.returncode == 0, scan.stderr.decode("utf-8", "replace")
    assert "空白.md".encode() in scan.stdout
    report = _bytes_run(env, "report", "--db", db, "--format", "json")
    assert report.returncode == 0, report.stderr.decode("utf-8", "replace")
    data = json.loads(report.stdout.decode("utf-8"))  # strict: fails on GB18030 bytes
    names = {Path(m["path"]).name for g in data["groups"] for m in g["members"]}
    assert names == {"江南.txt", "江南 副本.txt"}
    missing = _bytes_run(env, "report", "--db", str(root / "无.sqlite"))
    assert missing.returncode == 1
    assert "无.sqlite".encode() in missing.stderr  # the error message too
    plan = _bytes_run(env, "remove", "--db", db, "--keep", "oldest")
    assert plan.returncode == 0 and "江南".encode() in plan.stdout


def test_exclude_globs_ignore_case_where_the_file_system_does(tmp_path: Path, monkeypatch):
    from desktop_dedup.core import scanning
    from desktop_dedup.core.models import ScanOptions

    docgen.write_txt(tmp_path / "Drafts" / "a.txt", docgen.SAMPLE_EN)
    docgen.write_txt(tmp_path / "keep" / "NOTES.TXT", docgen.SAMPLE_EN)
    docgen.write_txt(tmp_path / "keep" / "b.txt", docgen.SAMPLE_EN)
    options = ScanOptions(roots=(str(tmp_path),), exclude_globs=("drafts", "notes.*"))

    def names() -> set[str]:
        return {Path(f.path).name for f in scanning.walk_files(options, [])}

    monkeypatch.setattr(scanning, "EXCLUDES_IGNORE_CASE", False)  # Linux
    assert names() == {"a.txt", "NOTES.TXT", "b.txt"}
    monkeypatch.setattr(scanning, "EXCLUDES_IGNORE_CASE", True)  # Windows, macOS
    assert names() == {"b.txt"}


def test_scan_and_remove_json(tmp_path: Path):
    root = tmp_path / "docs"
    a = docgen.write_txt(root / "a.txt", docgen.SAMPLE_EN)
    os.utime(a, ns=(1_500_000_000_000_000_000,) * 2)
    b, c = root / "b 副本.txt", root / "c.txt"
    b.write_bytes(a.read_bytes())
    c.write_bytes(a.read_bytes())
    (root / "empty.md").touch()
    db = str(tmp_path / "db.sqlite")
    scan = run("scan", str(root), "--db", db, "--json")
    assert scan.returncode == 0, scan.stderr
    summary = json.loads(scan.stdout)
    assert summary["files_seen"] == 3 and summary["files_read"] == 3
    assert summary["groups"] == 1 and summary["duplicate_documents"] == 3
    assert summary["reclaimable_bytes"] == 2 * a.stat().st_size
    assert summary["interrupted"] is False
    assert [s["path"] for s in summary["skipped"]] == [os.path.realpath(root / "empty.md")]
    assert "empty" in summary["skipped"][0]["reason"]

    target = tmp_path / "moved"
    target.mkdir()
    args = ("remove", "--db", db, "--keep", "oldest", "--move-to", str(target), "--json")
    plan = json.loads(run(*args).stdout)
    assert plan["dry_run"] is True and plan["action"] == "move"
    assert {r["path"] for r in plan["removed"]} == {os.path.realpath(b), os.path.realpath(c)}
    assert b.exists() and c.exists()

    c.write_text("changed after the scan", encoding="utf-8")
    done = run(*args, "--yes")
    assert done.returncode == 3, done.stderr
    result = json.loads(done.stdout)
    assert result["dry_run"] is False
    (moved,) = result["removed"]
    assert moved["path"] == os.path.realpath(b)
    assert moved["destination"] == str(target.resolve() / "b 副本.txt")
    assert Path(moved["destination"]).exists() and not b.exists()
    (kept,) = result["kept"]
    assert kept["path"] == os.path.realpath(c) and "changed since the scan" in kept["reason"]


def test_the_commands_count_their_files(tmp_path: Path):
    """Every count of files the commands print is counted: "1 file", not "1 files" (a scan,
    a removal's plan and result, a restore's plan and result)."""
    import re

    root = tmp_path / "docs"
    a = docgen.write_txt(root / "a.txt", docgen.SAMPLE_EN)
    os.utime(a, ns=(1_500_000_000_000_000_000,) * 2)  # the oldest: kept
    b = root / "b.txt"
    b.write_bytes(a.read_bytes())
    db = str(tmp_path / "db.sqlite")
    scan = run("scan", str(root), "--db", db, "--quiet")
    assert re.search(r"^Scanned 2 files in ", scan.stdout, re.M), scan.stdout
    target = tmp_path / "removed"
    target.mkdir()
    args = ("remove", "--db", db, "--keep", "oldest", "--move-to", str(target))
    plan = run(*args)
    assert re.search(r"^Would move .* 1 file \(", plan.stdout, re.M), plan.stdout
    done = run(*args, "--yes")
    assert re.search(r"^1 of 1 file removed \(", done.stdout, re.M), done.stdout
    assert not b.exists()
    back = run("restore", "--db", db)
    assert re.search(r"^Would restore 1 file; nothing was changed", back.stdout, re.M), back.stdout
    back = run("restore", "--db", db, "--yes")
    assert re.search(r"^1 of 1 file restored; scan again to see it\.$", back.stdout, re.M), (
        back.stdout
    )
    assert b.exists()
