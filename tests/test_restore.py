"""Restore from the journal (issue 9 item 6): a file sent to the real freedesktop trash of the
test's temporary HOME, or moved to a folder, goes back to its original path after its content
hash is checked; a taken name is never overwritten; every restore is journalled."""

from __future__ import annotations

import json
import os
import shutil
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import docgen
import pytest
from clirun import cli

from desktop_dedup.core import restore
from desktop_dedup.core.service import DedupService

OLD = (1_500_000_000_000_000_000,) * 2
REPO = Path(__file__).resolve().parents[1]
linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="freedesktop trash")


def rp(p: Path) -> str:
    return os.path.realpath(p)


@pytest.fixture
def pair(tmp_path: Path):
    """A scanned pair: ``keep`` (the reference, oldest) and ``extra`` (its identical copy)."""
    root = tmp_path / "docs"
    keep = docgen.write_txt(root / "keep.txt", docgen.SAMPLE_EN)
    os.utime(keep, ns=OLD)
    extra = root / "sub" / "extra 副本.txt"
    extra.parent.mkdir()
    shutil.copyfile(keep, extra)
    svc = DedupService(tmp_path / "db.sqlite")
    svc.scan([root], workers=1)
    yield svc, keep, extra, tmp_path
    svc.close()


def _doc_id(svc: DedupService, path: Path) -> int:
    return next(m.doc_id for g in svc.groups() for m in g.members if m.path == rp(path))


def _trash_extra(svc: DedupService, extra: Path):
    (result,) = svc.trash([_doc_id(svc, extra)])  # the real send2trash
    assert result.ok, result.reason
    assert not extra.exists()
    (entry,) = [e for e in svc.journal() if e.action == "trash"]
    return entry


@linux_only
def test_a_trashed_file_goes_back_with_its_bytes_and_the_restore_is_journalled(pair):
    svc, keep, extra, _ = pair
    entry = _trash_extra(svc, extra)
    (item,) = restore.trashed_items(rp(extra))
    assert os.path.exists(item.file_path) and os.path.exists(item.info_path)
    assert [e.id for e in svc.restorable()] == [entry.id]

    (result,) = svc.restore([entry.id])
    assert (result.ok, result.reason) == (True, "")
    assert extra.read_text(encoding="utf-8") == docgen.SAMPLE_EN
    assert not os.path.exists(item.file_path) and not os.path.exists(item.info_path)
    last = svc.journal()[-1]
    assert (last.action, last.ok, last.path, last.destination) == (
        "restore",
        True,
        item.file_path,
        rp(extra),
    )
    assert svc.restorable() == []
    (again,) = svc.restore([entry.id])
    assert (again.ok, again.reason) == (False, restore.REASON_RESTORED)


@linux_only
def test_a_taken_name_is_never_overwritten(pair):
    svc, keep, extra, _ = pair
    entry = _trash_extra(svc, extra)
    extra.write_text("a new file under the old name", encoding="utf-8")
    (result,) = svc.restore([entry.id])
    assert (result.ok, result.reason) == (False, restore.REASON_TAKEN)
    assert extra.read_text(encoding="utf-8") == "a new file under the old name"
    (item,) = restore.trashed_items(rp(extra))
    assert Path(item.file_path).read_text(encoding="utf-8") == docgen.SAMPLE_EN
    last = svc.journal()[-1]
    assert (last.action, last.ok, last.reason) == ("restore", False, restore.REASON_TAKEN)
    assert [e.id for e in svc.restorable()] == [entry.id]  # still there to restore later


@linux_only
def test_a_trashed_file_whose_content_changed_is_not_put_back(pair):
    """The content hash the journal recorded is checked: a file in the trash under that
    original path that holds other bytes is not the file that was removed."""
    svc, keep, extra, _ = pair
    entry = _trash_extra(svc, extra)
    (item,) = restore.trashed_items(rp(extra))
    Path(item.file_path).write_text(docgen.SAMPLE_EN + " tampered", encoding="utf-8")
    (result,) = svc.restore([entry.id])
    assert (result.ok, result.reason) == (False, restore.REASON_TRASH_CHANGED)
    assert not extra.exists()
    assert os.path.exists(item.file_path) and os.path.exists(item.info_path)


@linux_only
def test_of_two_files_trashed_from_one_path_the_journalled_one_comes_back(pair, tmp_path):
    svc, keep, extra, _ = pair
    entry = _trash_extra(svc, extra)
    from send2trash import send2trash

    extra.write_text("a later file with the same name", encoding="utf-8")
    send2trash(str(extra))  # trashed by someone else, a moment later
    assert len(restore.trashed_items(rp(extra))) == 2
    (result,) = svc.restore([entry.id])
    assert result.ok, result.reason
    assert extra.read_text(encoding="utf-8") == docgen.SAMPLE_EN
    (left,) = restore.trashed_items(rp(extra))
    assert Path(left.file_path).read_text(encoding="utf-8") == "a later file with the same name"


@linux_only
def test_a_dry_run_changes_nothing(pair):
    svc, keep, extra, _ = pair
    entry = _trash_extra(svc, extra)
    journal_before = svc.journal()
    (result,) = svc.restore([entry.id], dry_run=True)
    (item,) = restore.trashed_items(rp(extra))
    assert (result.ok, result.source) == (True, item.file_path)
    assert not extra.exists()
    assert svc.journal() == journal_before


def test_a_moved_file_is_moved_back_and_a_changed_one_is_not(pair, tmp_path):
    svc, keep, extra, _ = pair
    target = tmp_path / "moved"
    target.mkdir()
    (moved,) = svc.move([_doc_id(svc, extra)], target)
    assert moved.ok
    (entry,) = [e for e in svc.journal() if e.action == "move"]
    Path(moved.destination).write_text("edited after the move", encoding="utf-8")
    (refused,) = svc.restore([entry.id])
    assert (refused.ok, refused.reason) == (False, restore.REASON_MOVED_CHANGED)
    assert not extra.exists()
    Path(moved.destination).write_text(docgen.SAMPLE_EN, encoding="utf-8")
    shutil.rmtree(extra.parent)  # its folder is gone too: made again
    (result,) = svc.restore([entry.id])
    assert result.ok, result.reason
    assert extra.read_text(encoding="utf-8") == docgen.SAMPLE_EN
    assert not os.path.exists(moved.destination)


@pytest.mark.parametrize(
    ("platform", "where"), [("win32", "Recycle Bin"), ("darwin", "Trash in the Finder")]
)
def test_on_windows_and_macos_the_user_is_told_where_to_restore_from(pair, platform, where):
    svc, keep, extra, tmp_path = pair
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (result,) = svc.trash(
        [_doc_id(svc, extra)], trash=lambda p: shutil.move(p, bin_dir / Path(p).name)
    )
    assert result.ok
    entry = svc.journal()[-1]
    (refused,) = svc.restore([entry.id], platform=platform)
    assert not refused.ok and where in refused.reason
    assert not extra.exists()


def test_trashinfo_paths_relative_to_a_volume_trash_and_percent_encoded(tmp_path: Path):
    top = tmp_path / "volume"
    trash = top / f".Trash-{os.getuid()}"
    (trash / "files").mkdir(parents=True)
    (trash / "info").mkdir()
    (trash / "files" / "报告 1.txt").write_text("x", encoding="utf-8")
    (trash / "info" / "报告 1.txt.trashinfo").write_text(
        "[Trash Info]\nPath=docs/%E6%8A%A5%E5%91%8A%201.txt\nDeletionDate=2026-01-02T03:04:05\n",
        encoding="utf-8",
    )
    item = restore.read_trashinfo(str(trash), "报告 1.txt.trashinfo")
    assert item is not None
    assert item.original_path == str(top / "docs" / "报告 1.txt")
    assert item.deleted_at == datetime(2026, 1, 2, 3, 4, 5).astimezone()
    assert item.file_path == str(trash / "files" / "报告 1.txt")
    assert restore.read_trashinfo(str(trash), "notes.txt") is None


def test_an_item_trashed_long_before_the_journal_time_is_not_taken(tmp_path: Path):
    """Path and content alone do not decide: an old trashed copy of the same bytes is not the
    one this journal entry removed (it would take another item's place in the trash)."""
    data_home = Path(os.environ["XDG_DATA_HOME"])
    trash = data_home / "Trash"
    (trash / "files").mkdir(parents=True)
    (trash / "info").mkdir()
    original = tmp_path / "a.txt"
    (trash / "files" / "a.txt").write_text("same", encoding="utf-8")
    when = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
    old = (when - timedelta(days=30)).astimezone().strftime("%Y-%m-%dT%H:%M:%S")
    (trash / "info" / "a.txt.trashinfo").write_text(
        f"[Trash Info]\nPath={original}\nDeletionDate={old}\n", encoding="utf-8"
    )
    from desktop_dedup.core.actions import content_hash_file

    digest = content_hash_file(trash / "files" / "a.txt")
    assert restore.find_trashed(str(original), when - timedelta(days=30), digest) is not None
    assert restore.find_trashed(str(original), when, digest) is None


# --- the command line ------------------------------------------------------------------------


@linux_only
def test_cli_restore_lists_then_restores_by_path_and_by_id(tmp_path: Path):
    root = tmp_path / "docs"
    keep = docgen.write_txt(root / "keep.txt", docgen.SAMPLE_EN)
    os.utime(keep, ns=OLD)
    extra = root / "extra.txt"
    shutil.copyfile(keep, extra)
    other = root / "other.txt"
    shutil.copyfile(keep, other)
    db = str(tmp_path / "index.sqlite")
    assert cli("scan", str(root), "--db", db, "--quiet").returncode == 0
    done = cli("remove", "--db", db, "--yes")
    assert done.returncode == 0, done.stderr
    assert not extra.exists() and not other.exists()

    listing = cli("restore", "--db", db, "--json")
    assert listing.returncode == 0, listing.stderr
    plan = json.loads(listing.stdout)
    assert plan["dry_run"] is True
    assert {r["path"] for r in plan["restored"]} == {rp(extra), rp(other)}
    assert not extra.exists()

    dry = cli("restore", str(extra), "--db", db)
    assert dry.returncode == 0, dry.stderr
    assert rp(extra) in dry.stdout and "nothing was changed" in dry.stdout
    assert not extra.exists()

    by_path = cli("restore", str(extra), "--db", db, "--yes")
    assert by_path.returncode == 0, by_path.stderr
    assert extra.read_text(encoding="utf-8") == docgen.SAMPLE_EN

    (entry,) = [
        e
        for e in json.loads(cli("restore", "--db", db, "--json").stdout)["restored"]
        if e["path"] == rp(other)
    ]
    other.write_text("taken", encoding="utf-8")
    refused = cli("restore", str(entry["entry"]), "--db", db, "--yes", "--json")
    assert refused.returncode == 3, refused.stderr
    out = json.loads(refused.stdout)
    assert out["restored"] == [] and out["kept"][0]["reason"] == restore.REASON_TAKEN
    said = cli("restore", str(entry["entry"]), "--db", db, "--yes").stdout
    assert said.splitlines()[-1] == "0 of 1 file restored.", said  # nothing to scan again for
    other.unlink()
    by_id = cli("restore", str(entry["entry"]), "--db", db, "--yes")
    assert by_id.returncode == 0, by_id.stderr
    assert other.read_text(encoding="utf-8") == docgen.SAMPLE_EN
    assert cli("restore", str(tmp_path / "never-removed.txt"), "--db", db).returncode == 1
