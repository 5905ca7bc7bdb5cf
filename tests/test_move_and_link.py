"""More ways to remove (issue 9 item 6): move to a folder keeping the folder structure, and
replacing an identical copy by a hard link to the kept copy. Real files, the service and the
real CLI."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import docgen
import pytest
from clirun import cli

from desktop_dedup.core import actions
from desktop_dedup.core.service import DedupService

OLD = (1_500_000_000_000_000_000,) * 2
REPO = Path(__file__).resolve().parents[1]


def rp(p: Path) -> str:
    return os.path.realpath(p)


@pytest.fixture
def tree(tmp_path: Path) -> dict[str, Path]:
    root = tmp_path / "docs"
    keep = docgen.write_txt(root / "keep.txt", docgen.SAMPLE_EN)
    os.utime(keep, ns=OLD)  # the reference
    files = {"root": root, "keep": keep}
    for name, rel in (("deep", "a/b/x.txt"), ("other", "c/x.txt"), ("flat", "y.txt")):
        files[name] = root / rel
        files[name].parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(keep, files[name])
    # the same text in other bytes (UTF-16), and an edited copy (a near duplicate)
    files["same_text"] = root / "utf16.txt"
    files["same_text"].write_bytes(docgen.SAMPLE_EN.encode("utf-16"))
    files["near"] = docgen.write_txt(
        root / "near.txt", docgen.SAMPLE_EN.replace("meeting", "conference", 1) + " Extra words."
    )
    return files


def _ids(svc: DedupService) -> dict[str, int]:
    return {m.path: m.doc_id for g in svc.groups() for m in g.members}


def test_structure_folder():
    roots = ["/data/docs", "/data/docs/inner", "/other"]
    assert actions.structure_folder("/data/docs/a/b/x.txt", roots) == os.path.join("a", "b")
    assert actions.structure_folder("/data/docs/inner/c/x.txt", roots) == "c"  # innermost root
    assert actions.structure_folder("/data/docs/x.txt", roots) == ""
    assert actions.structure_folder("/elsewhere/x.txt", roots) == ""
    assert actions.structure_folder("/data/docsx/x.txt", roots) == ""  # not a prefix match


def test_move_keeps_the_folder_structure_below_the_scanned_root(tree, tmp_path: Path):
    target = tmp_path / "moved"
    target.mkdir()
    (target / "c").mkdir()
    (target / "c" / "x.txt").write_text("already here", encoding="utf-8")
    with DedupService(tmp_path / "db.sqlite") as svc:
        svc.scan([tree["root"]], workers=1)
        ids = _ids(svc)
        results = svc.move(
            [ids[rp(tree[k])] for k in ("deep", "other", "flat")], target, keep_structure=True
        )
        assert [r.ok for r in results] == [True, True, True]
        assert [r.destination for r in results] == [
            str(target / "a" / "b" / "x.txt"),
            str(target / "c" / "x (1).txt"),  # never overwritten
            str(target / "y.txt"),
        ]
        assert (target / "c" / "x.txt").read_text(encoding="utf-8") == "already here"
        assert (target / "a" / "b" / "x.txt").read_text(encoding="utf-8") == docgen.SAMPLE_EN
        moves = [e for e in svc.journal() if e.action == "move"]
        assert [e.destination for e in moves] == [r.destination for r in results]


def test_hardlink_replaces_identical_copies_only(tree, tmp_path: Path):
    with DedupService(tmp_path / "db.sqlite") as svc:
        svc.scan([tree["root"]], workers=1)
        ids = _ids(svc)
        keys = ("deep", "same_text", "near")
        by_id = {r.doc_id: r for r in svc.hardlink([ids[rp(tree[k])] for k in keys])}
        results = {k: by_id[ids[rp(tree[k])]] for k in keys}
        assert (results["deep"].ok, results["deep"].destination) == (True, rp(tree["keep"]))
        assert os.path.samefile(tree["deep"], tree["keep"])
        assert tree["deep"].read_text(encoding="utf-8") == docgen.SAMPLE_EN
        assert (results["same_text"].ok, results["same_text"].reason) == (
            False,
            actions.REASON_NOT_IDENTICAL,
        )
        assert (results["near"].ok, results["near"].reason) == (False, actions.REASON_NEAR)
        for k in ("same_text", "near"):
            assert not os.path.samefile(tree[k], tree["keep"])
        entry = next(e for e in svc.journal() if e.action == "hardlink" and e.ok)
        assert (entry.path, entry.destination) == (rp(tree["deep"]), rp(tree["keep"]))
        assert entry.content_hash == actions.content_hash_file(tree["keep"])
        assert not [p for p in tree["deep"].parent.iterdir() if p.name != "x.txt"]  # no litter

        # The next scan lists the two names of one file once: nothing left to reclaim there.
        summary = svc.scan([tree["root"]], workers=1)
        assert summary.filtered.hard_links == 1
        listed = {m.path for g in svc.groups() for m in g.members}
        assert len({rp(tree["deep"]), rp(tree["keep"])} & listed) == 1


def test_hardlink_is_verified_like_any_removal(tree, tmp_path: Path):
    with DedupService(tmp_path / "db.sqlite") as svc:
        svc.scan([tree["root"]], workers=1)
        ids = _ids(svc)
        tree["deep"].write_text(docgen.SAMPLE_EN + " changed", encoding="utf-8")
        (changed,) = svc.hardlink([ids[rp(tree["deep"])]])
        assert not changed.ok and changed.reason.startswith("changed since the scan")
        assert not os.path.samefile(tree["deep"], tree["keep"])


def test_link_files_refuses_when_the_kept_copy_changed(tree):
    def scanned(p: Path, doc_id: int) -> actions.RemovalCandidate:
        st = p.stat()
        return actions.RemovalCandidate(
            doc_id, str(p), st.st_size, st.st_mtime_ns, actions.content_hash_file(p)
        )

    cand, kept = scanned(tree["flat"], 1), scanned(tree["keep"], 2)
    tree["keep"].write_text(docgen.SAMPLE_EN.upper(), encoding="utf-8")
    (result,) = actions.link_files([cand], {1: kept})
    assert (result.ok, result.reason) == (False, actions.REASON_KEPT_CHANGED)
    assert tree["flat"].read_text(encoding="utf-8") == docgen.SAMPLE_EN


def test_cli_remove_hardlink_and_keep_structure(tree, tmp_path: Path):
    db = str(tmp_path / "index.sqlite")
    assert cli("scan", str(tree["root"]), "--db", db, "--quiet").returncode == 0
    dry = cli("remove", "--db", db, "--hardlink", "--json")
    assert dry.returncode == 0, dry.stderr
    plan = json.loads(dry.stdout)
    assert {r["path"] for r in plan["removed"]} == {rp(tree[k]) for k in ("deep", "other", "flat")}
    kept = {r["path"]: r["reason"] for r in plan["kept"]}
    assert kept[rp(tree["same_text"])] == actions.REASON_NOT_IDENTICAL
    assert not os.path.samefile(tree["deep"], tree["keep"])

    done = cli("remove", "--db", db, "--hardlink", "--yes")
    assert done.returncode == 0, done.stdout + done.stderr
    for k in ("deep", "other", "flat"):
        assert os.path.samefile(tree[k], tree["keep"])

    assert cli("remove", "--db", db, "--keep-structure").returncode == 1  # needs --move-to
    target = tmp_path / "moved"
    target.mkdir()
    assert cli("scan", str(tree["root"]), "--db", db, "--quiet").returncode == 0
    moved = cli("remove", "--db", db, "--move-to", str(target), "--keep-structure", "--yes")
    assert moved.returncode == 0, moved.stdout + moved.stderr
    assert (target / "utf16.txt").exists()  # a same-text copy: moved (not a hard link)
