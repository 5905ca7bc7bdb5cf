"""Files without an extension and extra text extensions are scanned when they are text, and what
the filters passed over is counted in the summary (issue 9 item 7)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import docgen
import pytest
from clirun import cli

from desktop_dedup.core.models import FilterCounts, ScanOptions
from desktop_dedup.core.scanning import SNIFF_BYTES, looks_like_text, walk_files
from desktop_dedup.core.service import DedupService

REPO = Path(__file__).resolve().parents[1]
PNG = bytes.fromhex("89504e470d0a1a0a0000000d49484452") + bytes(range(256)) * 8


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "docs"
    docgen.write_txt(root / "notice.txt", docgen.SAMPLE_EN)
    shutil.copyfile(root / "notice.txt", root / "LICENSE")  # the same text, no extension
    (root / "copyright").write_bytes(docgen.SAMPLE_ZH.encode("gb18030"))  # legacy code page
    docgen.write_txt(root / "zh.txt", docgen.SAMPLE_ZH)
    (root / "README").write_bytes(docgen.SAMPLE_EN.encode("utf-16"))  # with a BOM
    (root / "program").write_bytes(PNG)  # binary without an extension: not text
    # a script without an extension is a program, as a .sh or .py file is: not a document
    (root / "backup").write_text("#!/bin/sh\n# " + docgen.SAMPLE_EN + "\ntar czf b.tgz ~\n")
    (root / ".bashrc").write_text("alias ll='ls -l'\n", encoding="utf-8")  # hidden: not read
    (root / "server.log").write_text(docgen.SAMPLE_EN, encoding="utf-8")  # --text-types log
    (root / "photo.jpg").write_bytes(PNG)
    (root / "scan.jpg").write_bytes(PNG)
    (root / "tiny.txt").write_text("hi", encoding="utf-8")
    (root / "node_modules").mkdir()
    (root / "node_modules" / "x.txt").write_text(docgen.SAMPLE_EN, encoding="utf-8")
    (root / "~$draft.docx").write_bytes(b"lock")
    os.link(root / "zh.txt", root / "zh hard link.txt")
    return root


def test_looks_like_text(tmp_path: Path):
    cases = {
        "utf8": docgen.SAMPLE_ZH.encode("utf-8"),
        "gb18030": docgen.SAMPLE_ZH.encode("gb18030"),
        "utf16": docgen.SAMPLE_EN.encode("utf-16-le"),  # no BOM
        # a 3-byte character cut by the sample's end is not binary
        "long-utf8": ("x" * (SNIFF_BYTES - 1) + "中文" * 100).encode("utf-8"),
    }
    for name, data in cases.items():
        (tmp_path / name).write_bytes(data)
        assert looks_like_text(str(tmp_path / name)), name
    (tmp_path / "png").write_bytes(PNG)
    (tmp_path / "zeros").write_bytes(bytes(4096))
    (tmp_path / "empty").write_bytes(b"")
    for name in ("png", "zeros", "empty", "missing"):
        assert not looks_like_text(str(tmp_path / name)), name
    os.mkfifo(tmp_path / "fifo")  # must not block
    assert not looks_like_text(str(tmp_path / "fifo"))


def test_walk_lists_text_without_extension_and_counts_what_it_passes_over(tree: Path):
    counts = FilterCounts()
    problems: list = []
    options = ScanOptions(roots=(str(tree),), min_size=3, text_extensions=("log",))
    found = {Path(e.path).name: e.ext for e in walk_files(options, problems, counts=counts)}
    assert found == {
        "notice.txt": "txt",
        "LICENSE": "text",
        "copyright": "text",
        "README": "text",
        "server.log": "text",
        # one name of zh.txt's file: sorted, "zh hard link.txt" comes first, zh.txt is the link
        "zh hard link.txt": "txt",
    }
    assert counts.by_extension == {"jpg": 2, "": 1}  # .bashrc: a hidden file is not sniffed
    assert counts.not_text == 1  # program
    assert counts.scripts == 1  # backup
    assert (counts.excluded_files, counts.excluded_folders) == (1, 1)  # ~$draft.docx, node_modules
    assert counts.too_small == 1  # tiny.txt
    assert counts.hard_links == 1
    assert counts.total == 8
    assert problems == []


def test_without_plain_text_among_the_types_nothing_is_sniffed(tree: Path):
    counts = FilterCounts()
    options = ScanOptions(roots=(str(tree),), extensions=("docx",))
    assert list(walk_files(options, [], counts=counts)) == []
    assert counts.by_extension[""] == 6 and counts.not_text == counts.scripts == 0


def test_service_groups_an_extensionless_copy_and_shows_its_diff(tree: Path, tmp_path: Path):
    with DedupService(tmp_path / "db.sqlite") as svc:
        summary = svc.scan([tree], workers=1)
        assert summary.filtered.by_extension == {"jpg": 2, "": 1, "log": 1}
        names = sorted(sorted(Path(m.path).name for m in g.members) for g in svc.groups())
        assert names == [["LICENSE", "README", "notice.txt"], ["copyright", "zh hard link.txt"]]
        group = next(g for g in svc.groups() if any(m.path.endswith("LICENSE") for m in g.members))
        ids = {Path(m.path).name: m.doc_id for m in group.members}
        result = svc.diff(ids["notice.txt"], ids["LICENSE"])
        assert result.similarity == 1.0 and result.change_rows == []


def test_cli_scan_reports_the_filters_and_reads_extra_text_types(tree: Path, tmp_path: Path):
    db = str(tmp_path / "index.sqlite")
    proc = cli("scan", str(tree), "--db", db, "--quiet", "--text-types", "log", "--save", "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["filtered"] == {
        "other_types": 3,
        "by_extension": {"jpg": 2, "": 1},
        "excluded_files": 1,
        "excluded_folders": 1,
        "too_small": 0,
        "not_text": 1,
        "scripts": 1,
        "hard_links": 1,
    }
    assert out["skipped"] == []
    text = cli("scan", str(tree), "--db", db, "--quiet")
    assert text.returncode == 0, text.stderr
    assert (
        "Not scanned (filters): 3 of other types (.jpg 2, no extension 1); 1 without an "
        "extension that are not text; 1 script without an extension (#!); 1 file and 1 "
        "folder matching an exclude pattern; "
        "1 hard link to a file already listed." in text.stdout
    )
    report = json.loads(cli("report", "--db", db).stdout)
    paths = {Path(m["path"]).name for g in report["groups"] for m in g["members"]}
    assert {"LICENSE", "README", "copyright", "server.log"} <= paths
    diff = cli("diff", str(tree / "notice.txt"), str(tree / "LICENSE"))
    assert diff.returncode == 0, diff.stdout + diff.stderr
