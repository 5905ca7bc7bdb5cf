"""Removal never takes the last copy (issue 7, cases 1-3), through the service and the CLI:
the kept copy is verified before anything goes, paths are checked after resolving every
component, and near duplicates (text the kept copy lacks) go only when asked for."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import docgen
import pytest

from desktop_dedup.core import actions
from desktop_dedup.core.errors import ActionError
from desktop_dedup.core.service import DedupService

OLD = (1_500_000_000_000_000_000,) * 2


def rp(p: Path) -> str:
    return os.path.realpath(p)


def to(bin_dir: Path):
    bin_dir.mkdir(exist_ok=True)
    return lambda path: shutil.move(path, bin_dir / Path(path).name)


@pytest.fixture
def trio(tmp_path: Path):
    root = tmp_path / "docs"
    a = docgen.write_txt(root / "a.txt", docgen.SAMPLE_EN)
    os.utime(a, ns=OLD)  # oldest: the reference, the copy kept
    b, c = root / "b.txt", root / "c.txt"
    shutil.copyfile(a, b)
    shutil.copyfile(a, c)
    svc = DedupService(tmp_path / "db.sqlite")
    svc.scan([root], workers=1)
    yield svc, a, b, c, tmp_path
    svc.close()


def _ids(svc):
    return {m.path: m.doc_id for g in svc.groups() for m in g.members}


def test_nothing_goes_when_the_kept_copy_is_gone(trio):
    svc, a, b, c, tmp = trio
    ids = _ids(svc)
    a.unlink()
    results = svc.trash([ids[rp(b)], ids[rp(c)]], trash=to(tmp / "bin"))
    assert [r.ok for r in results] == [False, False]
    assert {r.reason for r in results} == {actions.REASON_KEPT_CHANGED}
    assert b.exists() and c.exists()


def test_nothing_goes_when_the_kept_copy_holds_other_text(trio):
    svc, a, b, c, tmp = trio
    ids = _ids(svc)
    a.write_text("something else entirely", encoding="utf-8")
    results = svc.trash([ids[rp(b)], ids[rp(c)]], trash=to(tmp / "bin"))
    assert not any(r.ok for r in results) and b.exists() and c.exists()


def test_another_kept_member_is_enough(trio):
    svc, a, b, c, tmp = trio
    ids = _ids(svc)
    a.unlink()  # the reference is gone, but c stays and still holds the text
    (result,) = svc.trash([ids[rp(b)]], trash=to(tmp / "bin"))
    assert result.ok and not b.exists() and c.exists()


def test_a_folder_swapped_for_a_symlink_is_noticed(tmp_path: Path):
    """Outside any reference folder too: a folder on the path replaced by a link to another."""
    keep, first, other = tmp_path / "keep", tmp_path / "first", tmp_path / "other"
    doc = docgen.write_txt(keep / "x.txt", docgen.SAMPLE_EN)
    os.utime(doc, ns=OLD)
    first.mkdir()
    shutil.copyfile(doc, first / "y.txt")
    with DedupService(tmp_path / "db.sqlite") as svc:
        svc.scan([keep, first], workers=1)
        y_id = _ids(svc)[rp(first / "y.txt")]
        shutil.copytree(first, other)
        shutil.rmtree(first)
        first.symlink_to(other, target_is_directory=True)
        (result,) = svc.trash([y_id], trash=to(tmp_path / "bin"))
        assert not result.ok and result.reason == actions.REASON_LINKED_PATH
        assert (other / "y.txt").exists()


def test_a_folder_swapped_for_a_symlink_into_the_reference_folder(tmp_path: Path):
    master, copy = tmp_path / "master", tmp_path / "copy"
    original = docgen.write_txt(master / "report.txt", docgen.SAMPLE_ZH)
    copy.mkdir()
    shutil.copyfile(original, copy / "report.txt")
    with DedupService(tmp_path / "db.sqlite") as svc:
        svc.scan([master, copy], reference_roots=[master], workers=1)
        copy_id = _ids(svc)[rp(copy / "report.txt")]
        shutil.rmtree(copy)
        copy.symlink_to(master, target_is_directory=True)
        (result,) = svc.trash([copy_id], trash=to(tmp_path / "bin"))
        # resolved, the path is the reference copy: refused whichever check speaks first
        assert not result.ok
        assert result.reason in (actions.REASON_LINKED_PATH, actions.REASON_REFERENCE)
        assert original.exists()
        # a move target that is a symlink into a reference folder is that folder
        link = tmp_path / "target"
        link.symlink_to(master, target_is_directory=True)
        with pytest.raises(ActionError, match="reference folder"):
            svc.move([copy_id], link)
        assert original.exists()


def _near_group(tmp_path: Path):
    root = tmp_path / "docs"
    a = docgen.write_txt(root / "a.txt", docgen.SAMPLE_EN)
    os.utime(a, ns=OLD)
    words = docgen.SAMPLE_EN.split(" ")
    for i in range(10, len(words), 40):
        words[i] = "edited"
    b = docgen.write_txt(root / "b.txt", " ".join(words))  # a near copy: its own edits
    c = root / "c.txt"
    shutil.copyfile(a, c)  # an identical copy
    return root, a, b, c


def test_near_copies_stay_unless_included(tmp_path: Path):
    root, a, b, c = _near_group(tmp_path)
    with DedupService(tmp_path / "db.sqlite") as svc:
        svc.scan([root], workers=1)
        (group,) = svc.groups()
        assert group.kind == "near" and len(group.members) == 3
        ids = _ids(svc)
        assert svc.near_ids([ids[rp(b)], ids[rp(c)]]) == {ids[rp(b)]}
        results = {r.path: r for r in svc.trash([ids[rp(b)], ids[rp(c)]], trash=to(tmp_path / "x"))}
        assert results[rp(c)].ok and not c.exists()
        assert not results[rp(b)].ok and results[rp(b)].reason == actions.REASON_NEAR
        assert b.exists()
        (result,) = svc.trash([ids[rp(b)]], trash=to(tmp_path / "x"), include_near=True)
        assert result.ok and not b.exists() and a.exists()


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "desktop_dedup", *args], capture_output=True, text=True, timeout=300
    )


def test_cli_remove_is_a_dry_run_and_keeps_near_copies_by_default(tmp_path: Path):
    root, a, b, c = _near_group(tmp_path)
    db = str(tmp_path / "db.sqlite")
    assert _cli("scan", str(root), "--db", db, "--quiet").returncode == 0
    bin_dir = tmp_path / "moved"
    bin_dir.mkdir()
    dry = _cli("remove", "--db", db, "--move-to", str(bin_dir))
    assert dry.returncode == 0 and "nothing was changed" in dry.stdout
    assert f"kept {rp(b)}" in dry.stdout and "near duplicate" in dry.stdout
    assert a.exists() and b.exists() and c.exists() and not any(bin_dir.iterdir())
    done = _cli("remove", "--db", db, "--move-to", str(bin_dir), "--yes")
    assert done.returncode == 0, done.stderr
    assert a.exists() and b.exists() and not c.exists()
    near = _cli("remove", "--db", db, "--move-to", str(bin_dir), "--yes", "--include-near")
    assert near.returncode == 0 and a.exists() and not b.exists()
    assert sorted(p.name for p in bin_dir.iterdir()) == ["b.txt", "c.txt"]
