"""The command line as a user runs it: ``python -m desktop_dedup`` and the ``desktop-dedup`` script
in subprocesses, on real documents, checking output text, files written and exit codes.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import docgen
import owncorpus
import pytest

from desktop_dedup import __version__
from desktop_dedup.core.service import DedupService

SCRIPT = Path(sys.executable).parent / "desktop-dedup"
EVIL_DIR = "<script>alert(1)<"  # with the file name below: .../<script>alert(1)</script>.txt
EVIL_FILE = "script>.txt"


def run(*args: str, exe: list[str] | None = None) -> subprocess.CompletedProcess[str]:
    cmd = (exe or [sys.executable, "-m", "desktop_dedup"]) + list(args)
    return subprocess.run(cmd, capture_output=True, text=True, timeout=180)


@pytest.fixture(scope="module")
def scanned(tmp_path_factory: pytest.TempPathFactory) -> dict:
    base = tmp_path_factory.mktemp("cli")
    root = base / "docs"
    zh = [docgen.write_txt(root / "zh" / "江南.txt", docgen.SAMPLE_ZH)]
    zh.append(docgen.write_docx(root / "zh" / "江南.docx", docgen.SAMPLE_ZH))
    en = [docgen.write_txt(root / "en" / "river.txt", docgen.SAMPLE_EN)]
    en.append(docgen.write_pdf(root / "en" / "river.pdf", docgen.SAMPLE_EN))
    evil = root / EVIL_DIR / EVIL_FILE
    evil.parent.mkdir()
    shutil.copyfile(en[0], evil)
    en.append(evil)
    # Excluded on the command line: would otherwise join the Chinese group.
    docgen.write_html(root / "drafts" / "copy.html", docgen.SAMPLE_ZH)
    (root / "empty.md").touch()
    (root / "binary.txt").write_bytes(b"\x00\x01\x02\xff" * 4000)
    db = base / "index.sqlite"
    proc = run("scan", str(root), "--db", str(db), "--exclude", "drafts", "--workers", "1")
    return {
        "base": base,
        "root": root,
        "db": db,
        "proc": proc,
        "zh": [os.path.realpath(p) for p in zh],
        "en": [os.path.realpath(p) for p in en],
        "problems": {
            os.path.realpath(root / "empty.md"): "empty",
            os.path.realpath(root / "binary.txt"): "binary",
        },
    }


def test_version_both_ways() -> None:
    for exe in ([sys.executable, "-m", "desktop_dedup"], [str(SCRIPT)]):
        proc = run("--version", exe=exe)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.strip() == f"desktop-dedup {__version__}"


# Runs cli.main as the program does (no arguments given: sys.argv), with the command replaced
# by a probe of the collector (and whether the index's modules were loaded before it).
_COLLECTOR_PROBE = """
import gc, sys
from desktop_dedup import cli
import desktop_dedup.gui.app as app

def probe(*_):
    print(gc.isenabled(), gc.get_freeze_count() > 0, "sqlalchemy" in sys.modules)
    return 0

cli._run_command = probe
app.main = probe
sys.argv = ["desktop-dedup", *sys.argv[1:]]
cli.main()
"""


def test_a_command_runs_with_the_collector_on_once_it_has_loaded(tmp_path: Path) -> None:
    """The program turns the collector off while a command loads (cli._loaded: 0.1 s of every
    start). The command itself must run with it on again (a scan of a million files, a removal
    of thousands make garbage with cycles), with what loading made set aside; the app too."""
    db = str(tmp_path / "index.sqlite")
    expected = {
        ("report", "--db", db): ["True", "True", "True"],
        ("completion", "bash"): ["True", "True", "False"],  # loads no index
        (): ["True", "False"],  # the app: loads and collects as it always has
    }
    for args, seen in expected.items():
        env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
        out = subprocess.run(
            [sys.executable, "-c", _COLLECTOR_PROBE, *args],
            capture_output=True,
            text=True,
            timeout=180,
            env=env,
        )
        assert out.returncode == 0, out.stderr
        assert out.stdout.split()[: len(seen)] == seen, (args, out.stdout)


def test_bad_usage_exits_2() -> None:
    proc = run("frobnicate", exe=[str(SCRIPT)])
    assert proc.returncode == 2
    assert "invalid choice" in proc.stderr and "frobnicate" in proc.stderr
    proc = run("scan", "--distance", "99", ".")
    assert proc.returncode == 2
    assert "--distance" in proc.stderr


def test_scan_summary(scanned: dict) -> None:
    proc = scanned["proc"]
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    # 5 readable documents + the binary .txt are candidates (the binary one is read but not
    # fingerprinted); the empty one is filtered while walking (and reported); drafts excluded.
    assert re.search(r"^Scanned 6 files in [\d.]+ s: 5 read", out, re.M), out
    assert "2 duplicate groups, 5 documents" in out
    assert "2 files skipped:" in out
    lines = out.splitlines()
    for path, word in scanned["problems"].items():
        (line,) = [ln for ln in lines if ln.startswith(f"  {path}: ")]
        assert word in line.lower()
    assert "drafts" not in out


def test_scan_says_how_many_documents_are_close_to_a_group(tmp_path: Path) -> None:
    """A page and two copies edited in other places (each the same as the page, not as each
    other): the scan counts one group of two documents, and says that one more is close to it,
    which the report lists under the group; a folder without any says nothing of them."""
    from support.close_family import write_close_family

    paths = write_close_family(tmp_path / "docs")
    db = tmp_path / "index.sqlite"
    proc = run("scan", str(tmp_path / "docs"), "--db", str(db))
    assert proc.returncode == 0, proc.stderr
    assert "1 duplicate group, 2 documents" in proc.stdout
    assert "1 more document is close to a group but not the same as every" in proc.stdout
    report = json.loads(run("report", "--db", str(db), "--format", "json").stdout)
    (group,) = report["groups"]
    assert [c["path"] for c in group["close"]] == [os.path.realpath(paths["edited-b"])]
    paths["edited-b"].unlink()
    proc = run("scan", str(tmp_path / "docs"), "--db", str(db))
    assert proc.returncode == 0, proc.stderr
    assert "close to a group" not in proc.stdout


def _json(scanned: dict) -> dict:
    proc = run("report", "--db", str(scanned["db"]), "--format", "json")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_json_report_schema_stdout_and_file(scanned: dict) -> None:
    data = _json(scanned)
    assert {"groups", "problems", "schema_version", "summary"} <= set(data)
    groups = {frozenset(m["path"] for m in g["members"]) for g in data["groups"]}
    assert groups == {frozenset(scanned["zh"]), frozenset(scanned["en"])}
    for group in data["groups"]:
        assert {"id", "kind", "members"} <= set(group)
        assert group["kind"] in ("identical", "same_text", "near")
        assert sum(m["is_reference"] for m in group["members"]) == 1
        for m in group["members"]:
            assert {
                "path",
                "size",
                "modified",
                "format",
                "is_reference",
                "distance",
                "similarity",
            } <= set(m)
            assert os.path.isabs(m["path"])
            assert m["size"] == os.path.getsize(m["path"])
            assert datetime.fromisoformat(m["modified"]).tzinfo is not None
            assert 0 <= m["distance"] <= 3 and 0.0 <= m["similarity"] <= 1.0
    problems = {p["path"]: p["reason"] for p in data["problems"]}
    assert set(problems) == set(scanned["problems"])
    assert all(set(p) == {"path", "reason"} for p in data["problems"])

    out = scanned["base"] / "report.json"
    proc = run("report", "--db", str(scanned["db"]), "--format", "json", "--output", str(out))
    assert proc.returncode == 0 and proc.stdout == ""
    written = json.loads(out.read_text(encoding="utf-8"))
    written.pop("generated_at")
    data.pop("generated_at")
    assert written == data


def test_csv_report(scanned: dict) -> None:
    proc = run("report", "--db", str(scanned["db"]), "--format", "csv")
    assert proc.returncode == 0, proc.stderr
    rows = list(csv.DictReader(io.StringIO(proc.stdout)))
    member_paths = {r["path"] for r in rows if r["group_id"]}
    assert member_paths == set(scanned["zh"]) | set(scanned["en"])
    assert {r["path"] for r in rows if r["problem"]} == set(scanned["problems"])

    out = scanned["base"] / "report.csv"
    proc = run("report", "--db", str(scanned["db"]), "--format", "csv", "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    raw = out.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")  # Excel needs the BOM to read Chinese names
    assert list(csv.DictReader(io.StringIO(raw.decode("utf-8-sig")))) == rows


def test_html_report_escapes_a_script_file_name(scanned: dict) -> None:
    evil = os.path.realpath(scanned["root"] / EVIL_DIR / EVIL_FILE)
    assert evil.endswith("<script>alert(1)</script>.txt")
    proc = run("report", "--db", str(scanned["db"]), "--format", "html")
    assert proc.returncode == 0, proc.stderr
    out = scanned["base"] / "report.html"
    assert (
        run("report", "--db", str(scanned["db"]), "--format", "html", "-o", str(out)).returncode
        == 0
    )
    for page in (proc.stdout, out.read_text(encoding="utf-8")):
        assert "<html" in page.lower()
        assert "<script" not in page.lower()
        assert "&lt;script&gt;alert(1)&lt;/script&gt;.txt" in page
        assert "江南.docx" in page


def test_diff_marks_changed_chinese_words(tmp_path: Path) -> None:
    first = docgen.SAMPLE_ZH.splitlines()[1]
    changed = first.replace("老人", "姑娘")
    assert changed != first
    a = docgen.write_txt(tmp_path / "a.txt", docgen.SAMPLE_ZH.splitlines()[0] + "\n" + first)
    b = docgen.write_docx(tmp_path / "b.docx", docgen.SAMPLE_ZH.splitlines()[0] + "\n" + changed)
    proc = run("diff", str(a), str(b), "--color", "never")
    assert proc.returncode == 1, proc.stderr  # the texts differ, as diff(1) says
    out = proc.stdout
    assert out.startswith(f"--- {a}\n+++ {b}\n")
    assert "\x1b[" not in out
    removed = re.findall(r"\[-(.*?)-\]", out)
    added = re.findall(r"\{\+(.*?)\+\}", out)
    # Word level: only the changed word is marked, not the whole sentence or line.
    assert removed == ["老人"] and added == ["姑娘"], out
    assert "卖豆浆的" in out

    missing = run("diff", str(a), str(tmp_path / "nope.txt"))
    assert missing.returncode == 2  # trouble, as diff(1) says
    assert "nope.txt" in missing.stderr and "Traceback" not in missing.stderr


def test_diff_names_a_file_whose_name_is_not_utf8_as_the_scan_does(tmp_path: Path) -> None:
    """A name that is not UTF-8 is shown the same way in the diff's header as in every other
    line the command prints: read in its code page, GBK here, and marked so."""
    a = docgen.write_txt(tmp_path / "a.txt", docgen.SAMPLE_ZH)
    b = os.path.join(os.fsencode(tmp_path), "笔记.txt".encode("gbk"))
    with open(b, "w", encoding="utf-8") as f:
        f.write(docgen.SAMPLE_ZH + "补记。\n")
    proc = run("diff", str(a), os.fsdecode(b), "--color", "never")
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout.splitlines()[1] == f"+++ {tmp_path}/笔记.txt \u27e8GBK\u27e9"


def test_diff_says_why_two_pages_of_one_template_are_not_the_same_document(
    tmp_path: Path,
) -> None:
    """Two pages of one template, each naming its own program three times (svnlook and
    svndumpfilter): 90 % of the text is common, yet they are two documents, and the figure is
    0. Without a word why, a user sees 0 % for two files that look alike; the diff names the
    two words, with and without the index. A page and its copy with three words edited are
    the same document, and no such line is printed."""
    body = docgen.SAMPLE_EN.split()[:150]
    pages = {}
    for name in ("svnlook", "svndumpfilter"):
        words = list(body)
        for at in (0, 60, 120):
            words[at] = name
        pages[name] = docgen.write_txt(tmp_path / "docs" / f"{name}.txt", " ".join(words))
    edited = list(body)
    for at in (0, 60, 120):
        edited[at] = "svnlook"
    for at in (30, 90, 140):
        edited[at] = "changed"
    copy = docgen.write_txt(tmp_path / "docs" / "copy.txt", " ".join(edited))
    db = str(tmp_path / "index.sqlite")
    assert run("scan", str(tmp_path / "docs"), "--db", db, "--quiet").returncode == 0
    for extra in ([], ["--db", db]):
        proc = run("diff", str(pages["svnlook"]), str(pages["svndumpfilter"]), *extra)
        assert proc.returncode == 1, proc.stderr
        head = proc.stdout.splitlines()[2:4]
        assert head[0].startswith("similarity 0.000"), proc.stdout
        assert "svnlook" in head[1] and "svndumpfilter" in head[1], proc.stdout
        assert head[1].startswith("taken for two documents"), proc.stdout
        same = run("diff", str(pages["svnlook"]), str(copy), *extra)
        figure = float(re.search(r"similarity ([0-9.]+)", same.stdout).group(1))
        assert figure >= 0.75 and "taken for two documents" not in same.stdout, same.stdout


def test_diff_with_the_index_says_two_notes_share_only_a_disclaimer(tmp_path: Path) -> None:
    """Twelve different notes, each above one company disclaimer four times its length: most
    of each file is the disclaimer, and two files alone look 80 % the same; the index holds the
    disclaimer in every note, so its figure for two of them is 0, and the diff says why. A
    note's copy with a word changed under the disclaimer is the same document, and no such
    line is printed."""
    disclaimer = owncorpus.DISCLAIMER["en"]
    docs = tmp_path / "docs"
    notes = [s for s in owncorpus.short_sentences(80) if s.isascii()][:12]
    assert len(notes) == 12
    for i, note in enumerate(notes):
        docgen.write_txt(docs / f"n{i}.txt", f"{note}\n\n{disclaimer}")
    edited = owncorpus.one_word_changed(notes[0])
    docgen.write_txt(docs / "copy.txt", f"{edited}\n\n{disclaimer}")
    db = str(tmp_path / "index.sqlite")
    assert run("scan", str(docs), "--db", db, "--quiet").returncode == 0
    alone = run("diff", str(docs / "n0.txt"), str(docs / "n1.txt"))
    assert float(re.search(r"similarity ([0-9.]+)", alone.stdout).group(1)) >= 0.75
    assert "taken for two documents" not in alone.stdout, alone.stdout
    proc = run("diff", str(docs / "n0.txt"), str(docs / "n1.txt"), "--db", db)
    assert proc.returncode == 1, proc.stderr
    head = proc.stdout.splitlines()[2:4]
    assert head[0].startswith("similarity 0.000"), proc.stdout
    assert head[1].startswith("taken for two documents") and "disclaimer" in head[1], proc.stdout
    same = run("diff", str(docs / "n0.txt"), str(docs / "copy.txt"), "--db", db)
    figure = float(re.search(r"similarity ([0-9.]+)", same.stdout).group(1))
    assert figure >= 0.75 and "taken for two documents" not in same.stdout, same.stdout


def test_diff_with_the_index_shows_the_figure_of_its_groups(tmp_path: Path) -> None:
    """Twelve notes, each under one banner and above one footer about as long as itself: the
    index tells which lines are common, so its groups pair each note's two copies (100 %); two
    files alone cannot tell, so their own figure is lower. ``diff --db`` shows the index's,
    the group's; a file the index lacks is trouble (exit 2), with a message."""
    docs = tmp_path / "docs"
    banner = "Reposted from the community newsletter. All rights belong to the original author."
    footer = "Sent from my phone. Please excuse any typos in this message."
    words = docgen.SAMPLE_EN.split()
    for i in range(12):
        note = " ".join(words[i * 12 : i * 12 + 12])
        docgen.write_txt(docs / f"n{i}-banner.txt", f"{banner}\n\n{note}")
        docgen.write_txt(docs / f"n{i}-footer.txt", f"{note}\n\n{footer}")
    db = str(tmp_path / "index.sqlite")
    assert run("scan", str(docs), "--db", db, "--quiet").returncode == 0
    report = json.loads(run("report", "--db", db, "--format", "json").stdout)
    assert len(report["groups"]) == 12
    a, b = str(docs / "n0-banner.txt"), str(docs / "n0-footer.txt")
    alone = run("diff", a, b, "--color", "never")
    indexed = run("diff", a, b, "--color", "never", "--db", db)
    assert indexed.returncode == 1, indexed.stderr  # the texts differ: the banner, the footer
    shown = float(re.search(r"similarity ([0-9.]+)", indexed.stdout).group(1))
    own = float(re.search(r"similarity ([0-9.]+)", alone.stdout).group(1))
    assert shown == 1.0 and own < 0.75, (shown, own)
    assert alone.stdout.splitlines()[3:] == indexed.stdout.splitlines()[3:]  # the same changes
    outside = docgen.write_txt(tmp_path / "elsewhere.txt", "A note the index never saw.")
    missing = run("diff", a, str(outside), "--db", db)
    assert missing.returncode == 2 and "not in the index" in missing.stderr, missing.stderr
    assert "Traceback" not in missing.stderr


def test_a_scan_after_an_update_says_why_it_reads_every_file_again(tmp_path: Path) -> None:
    """README (Scan): after an update that reads or fingerprints files differently, the next
    scan reads every file once again, and says so: a rescan of a large folder that takes as
    long as the first one, without a word, looks like a fault. An index whose documents were
    fingerprinted by an older version (its rows say so): the unchanged files are read again
    and counted as such; a file changed since is read because it changed."""
    import sqlite3

    root = tmp_path / "docs"
    docgen.write_txt(root / "river.txt", docgen.SAMPLE_EN)
    docgen.write_docx(root / "river.docx", docgen.SAMPLE_EN)
    changed = docgen.write_txt(root / "jiangnan.txt", docgen.SAMPLE_ZH)
    db = tmp_path / "index.sqlite"
    assert run("scan", str(root), "--db", str(db), "--workers", "1").returncode == 0
    again = run("scan", str(root), "--db", str(db), "--workers", "1")
    assert "0 read, 3 unchanged or moved" in again.stdout and "again" not in again.stdout
    with sqlite3.connect(db) as con:  # as the version before this one left it
        con.execute("UPDATE documents SET fp_version = fp_version - 1")
    changed.write_text(docgen.SAMPLE_ZH + "\n补记。\n", encoding="utf-8")
    proc = run("scan", str(root), "--db", str(db), "--workers", "1")
    assert proc.returncode == 0, proc.stderr
    assert re.search(
        r"^Scanned 3 files in [\d.]+ s: 3 read \(2 of them again: this version reads documents "
        r"differently\), 0 unchanged or moved, 0 gone from the index\.$",
        proc.stdout,
        re.M,
    ), proc.stdout
    as_json = run("scan", str(root), "--db", str(db), "--workers", "1", "--json")
    assert json.loads(as_json.stdout)["files_read_again"] == 0


def test_a_scan_of_one_file_says_file(tmp_path: Path) -> None:
    """The summary counts its files: "Scanned 1 file", not "1 files"."""
    docgen.write_txt(tmp_path / "docs" / "river.txt", docgen.SAMPLE_EN)
    proc = run("scan", str(tmp_path / "docs"), "--db", str(tmp_path / "i.sqlite"))
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"^Scanned 1 file in [\d.]+ s: 1 read, ", proc.stdout, re.M), proc.stdout


def test_scan_without_folders_scans_the_folders_the_index_lists(tmp_path: Path) -> None:
    """`scan` with no PATH brings the index up to date with its folder list, as the app's
    Scan does: the list an earlier scan (or the app) made, its reference folders included;
    only what changed is read. An index that lists no folders asks for them (usage, exit 2)."""
    db = tmp_path / "index.sqlite"
    proc = run("scan", "--db", str(db))  # a typo in --db: no index made, none scanned
    assert proc.returncode == 1
    assert "no index at" in proc.stderr and "Traceback" not in proc.stderr
    assert not db.exists()
    DedupService(db).close()  # an index that lists no folders
    proc = run("scan", "--db", str(db))
    assert proc.returncode == 2
    assert "no folders" in proc.stderr and "PATH" in proc.stderr
    assert "Traceback" not in proc.stderr
    # nor any on this machine: a list of another machine's folders (a shared index's) is the
    # same answer, by the rule the scan itself follows (DedupService.folders_to_scan)
    with DedupService(db) as svc:
        svc.store.add_folder("file://OTHER-PC/home/ann/docs", False)
        assert svc.folders() and not svc.folders_to_scan()
    proc = run("scan", "--db", str(db))
    assert proc.returncode == 2, proc.stderr
    assert "the index lists none on this machine" in proc.stderr
    with DedupService(db) as svc:
        svc.store.remove_folder("file://OTHER-PC/home/ann/docs")
        assert not svc.folders()

    ref, other = tmp_path / "ref", tmp_path / "other"
    kept = docgen.write_txt(ref / "river.txt", docgen.SAMPLE_EN)
    copy = docgen.write_txt(other / "river copy.txt", docgen.SAMPLE_EN)
    proc = run("scan", str(ref), str(other), "--reference", str(ref), "--db", str(db))
    assert proc.returncode == 0, proc.stderr
    docgen.write_txt(other / "river again.txt", docgen.SAMPLE_EN + "\nOne more line.\n")

    proc = run("scan", "--db", str(db), "--json")
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert (summary["files_seen"], summary["files_read"]) == (3, 1)
    report = json.loads(run("report", "--db", str(db), "--format", "json").stdout)
    [group] = report["groups"]
    members = {os.path.basename(m["path"]): m["is_reference"] for m in group["members"]}
    assert members == {"river.txt": True, "river copy.txt": False, "river again.txt": False}
    assert os.path.realpath(kept) in {os.path.realpath(m["path"]) for m in group["members"]}
    assert copy.exists()
