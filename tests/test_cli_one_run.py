"""A scan's flags apply to that scan unless --save (issue 8 item 4: "no hidden state"), through
the real command line on real SQLite files.

The corpus: an identical Chinese pair, and an English pair of which one has every 8th word
replaced (about 81 % of the text in common): one group at --similarity 90, two at the default
75 %. A scan with --similarity 90 counts its one group, leaves the saved 75 % alone, and leaves
the index grouped by it, so ``report`` and ``remove`` show both groups."""

from __future__ import annotations

import json
import os
from pathlib import Path

import docgen
import pytest
from clirun import cli

from desktop_dedup.core.service import DedupService


@pytest.fixture
def docs(tmp_path: Path) -> dict[str, str]:
    root = tmp_path / "docs"
    words = docgen.SAMPLE_EN.split(" ")
    edited = " ".join(w if i % 8 else f"zebra{i}" for i, w in enumerate(words))
    paths = {
        "en": docgen.write_txt(root / "en.txt", docgen.SAMPLE_EN),
        "en_edited": docgen.write_txt(root / "en edited.txt", edited),
        "zh": docgen.write_txt(root / "zh.txt", docgen.SAMPLE_ZH),
        "zh_copy": docgen.write_txt(root / "zh copy.txt", docgen.SAMPLE_ZH),
    }
    return {"root": str(root), **{k: os.path.realpath(p) for k, p in paths.items()}}


def _report(db: Path) -> dict:
    proc = cli("report", "--db", str(db))
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def _grouped(report: dict) -> list[list[str]]:
    return sorted(sorted(m["path"] for m in g["members"]) for g in report["groups"])


def _scan(db: Path, root: str, *flags: str):
    proc = cli("scan", root, "--db", str(db), "--quiet", "--workers", "1", *flags)
    assert proc.returncode == 0, proc.stderr
    return proc


def test_a_flag_without_save_applies_to_that_scan_only(docs, tmp_path: Path) -> None:
    db = tmp_path / "index.sqlite"
    both = [sorted([docs["en"], docs["en_edited"]]), sorted([docs["zh"], docs["zh_copy"]])]

    scan = _scan(db, docs["root"], "--similarity", "90", "--json")
    out = json.loads(scan.stdout)
    # this scan's groups: at 90 % the edited English copy is not a near duplicate
    assert (out["groups"], out["duplicate_documents"], out["min_similarity"]) == (1, 2, 0.9)
    assert out["reclaimable_bytes"] == os.path.getsize(docs["zh_copy"])
    assert out["settings_saved"] is False

    report = _report(db)
    assert report["settings"]["min_similarity"] == 0.75  # the saved setting, unchanged
    assert _grouped(report) == both  # and the index grouped by it
    with DedupService(db) as svc:
        assert svc.settings().min_similarity == 0.75
        assert svc.stats().groups == 2  # what the app shows

    # remove plans from the same groups (a dry run: nothing changes)
    remove = cli("remove", "--db", str(db), "--include-near", "--json")
    assert remove.returncode == 0, remove.stderr
    going = sorted(f["path"] for f in json.loads(remove.stdout)["removed"])
    assert len(going) == 2  # a copy of each pair: the English pair is a group again
    assert len({docs["en"], docs["en_edited"]} & set(going)) == 1

    text = _scan(db, docs["root"], "--similarity", "90").stdout
    assert "1 duplicate group, 2 documents" in text
    assert "at least 90% the same text" in text
    assert "Not saved: --similarity applied to this scan only (add --save to keep them)." in text
    assert "grouped by the saved settings again (near duplicates: at least 75% the same" in text
    assert _grouped(_report(db)) == both

    plain = _scan(db, docs["root"]).stdout  # the saved 75 %, nothing said about saving
    assert "2 duplicate groups, 4 documents" in plain and "Not saved" not in plain


def test_save_makes_the_flags_the_saved_settings(docs, tmp_path: Path) -> None:
    db = tmp_path / "index.sqlite"
    saved = json.loads(_scan(db, docs["root"], "--similarity", "90", "--save", "--json").stdout)
    assert (saved["groups"], saved["settings_saved"]) == (1, True)
    report = _report(db)
    assert report["settings"]["min_similarity"] == 0.9
    assert _grouped(report) == [sorted([docs["zh"], docs["zh_copy"]])]
    # a later plain scan keeps the saved 90 %
    assert "1 duplicate group, 2 documents" in _scan(db, docs["root"]).stdout
    # and one at 75 % without --save counts both groups, then leaves the index at 90 %
    assert "2 duplicate groups" in _scan(db, docs["root"], "--similarity", "75").stdout
    assert _grouped(_report(db)) == [sorted([docs["zh"], docs["zh_copy"]])]


def test_filters_without_save_are_not_saved_either(docs, tmp_path: Path) -> None:
    db = tmp_path / "index.sqlite"
    Path(docs["root"], "server.log").write_text(docgen.SAMPLE_EN, encoding="utf-8")
    out = json.loads(
        _scan(db, docs["root"], "--text-types", "log", "--distance", "8", "--json").stdout
    )
    assert out["files_seen"] == 5 and out["settings_saved"] is False  # the .log was read
    with DedupService(db) as svc:
        assert svc.settings().text_extensions == () and svc.settings().max_distance == 10
    out = json.loads(_scan(db, docs["root"], "--json").stdout)
    assert out["files_seen"] == 4 and out["filtered"]["by_extension"] == {"log": 1}


def test_groups_left_by_other_settings_are_regrouped_before_a_report(docs, tmp_path) -> None:
    """A one-run scan stopped between its two groupings (killed) leaves groups made with its
    settings: report regroups by the saved ones before it shows any."""
    db = tmp_path / "index.sqlite"
    _scan(db, docs["root"])
    with DedupService(db) as svc:
        svc.regroup(settings=svc.settings_with(min_similarity=0.9))
        assert svc.store.group_count() == 1  # the stored groups are 90 %'s now
    report = _report(db)
    assert report["settings"]["min_similarity"] == 0.75
    assert len(report["groups"]) == 2
