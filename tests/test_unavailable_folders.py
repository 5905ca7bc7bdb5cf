"""A folder the scan cannot read this time loses nothing from the index.

An external drive unplugged, a network share not mounted, a folder whose permissions changed:
the scan cannot list it, which says nothing about whether its files still exist. Dropping them
("gone from the index") threw away their groups and marks, and the next scan with the drive
back read every file on it again. They stay as the last scan left them, and the scan says so;
files that are really gone (not listed in a folder the scan did read) still leave.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import docgen
import pytest
from unprivileged import unprivileged

from desktop_dedup.core import actions
from desktop_dedup.core.errors import DedupError
from desktop_dedup.core.service import DedupService
from desktop_dedup.core.volumes import Volume, mount_points_among

NOTE = (
    "The committee met on Tuesday to review the budget for the coming year. After a long "
    "discussion the members agreed to fund the new library wing, to repair the roof of the "
    "community hall before winter, and to ask the town for a grant towards the youth "
    "orchestra. The treasurer will circulate the revised figures next week."
)


def _groups(svc: DedupService) -> set[frozenset[str]]:
    return {frozenset(m.path for m in g.members) for g in svc.groups()}


def _library(tmp_path: Path) -> tuple[Path, Path]:
    laptop, usb = tmp_path / "laptop", tmp_path / "usb"
    docgen.write_txt(laptop / "report.txt", docgen.SAMPLE_EN)
    docgen.write_txt(usb / "report copy.txt", docgen.SAMPLE_EN)  # identical, across the two
    docgen.write_txt(usb / "minutes.txt", NOTE)
    docgen.write_txt(usb / "minutes (edited).txt", NOTE.replace("Tuesday", "Wednesday"))
    docgen.write_txt(laptop / "notes.txt", docgen.SAMPLE_ZH)
    return laptop, usb


def test_files_of_a_folder_that_is_not_there_stay_as_last_scanned(tmp_path: Path) -> None:
    laptop, usb = _library(tmp_path)
    db = tmp_path / "index.sqlite"
    with DedupService(db) as svc:
        first = svc.scan([laptop, usb], workers=1)
        assert first.files_fingerprinted == 5
        before = _groups(svc)
        assert len(before) == 2
        edited = os.path.realpath(usb / "minutes (edited).txt")
        (edited_id,) = svc.store.ids_by_path([edited])
        svc.set_marked([edited_id], True)
    unplugged = tmp_path / "usb-unplugged"
    usb.rename(unplugged)  # the drive's mount folder goes with the drive
    with DedupService(db) as svc:
        summary = svc.scan(None, workers=1)  # the app's Scan: the listed folders
        assert summary.files_removed == 0
        assert summary.files_kept == 3
        assert [(p.path, p.reason) for p in summary.problems] == [
            (os.path.realpath(usb), "folder not found")
        ]
        assert _groups(svc) == before
        assert svc.marked_ids() == {edited_id}
        # what the confirmation counts: nothing of the drive's
        plan = svc.marked_for_removal()
        assert (plan.doc_ids, plan.away_ids, plan.going(True)) == (
            (edited_id,),
            {edited_id},
            (0, 0),
        )
        # nothing goes while its folder is away, and the reasons say why, not "scan again"
        (laptop_copy,) = svc.store.ids_by_path([os.path.realpath(laptop / "report.txt")])
        going, refused = svc.plan_removal([edited_id, laptop_copy], include_near=True)
        assert going == []
        assert {r.doc_id: r.reason for r in refused} == {
            edited_id: "its folder is not there (a drive unplugged, or a share not mounted?)",
            laptop_copy: "the copy to keep is in a folder that is not there (a drive "
            "unplugged, or a share not mounted?)",
        }
        # what the review says when it cannot open such a file
        with pytest.raises(DedupError, match="its folder .* is not there .*a drive unplugged"):
            svc.document_text(edited_id)
        assert [f.path for f in svc.folders()] == sorted(
            [os.path.realpath(laptop), os.path.realpath(usb)]
        )
    with DedupService(db) as svc:  # what the Problems panel and the reports list
        assert [(p.path, p.reason) for p in svc.problems()] == [
            (os.path.realpath(usb), "folder not found")
        ]
        assert svc.folder_problems() == {os.path.realpath(usb): "folder not found"}
    unplugged.rename(usb)
    with DedupService(db) as svc:
        back = svc.scan(None, workers=1)
        assert (back.files_fingerprinted, back.files_reused, back.files_kept) == (0, 5, 0)
        assert back.problems == []
        # a scan without problems has none to show: not the scan's before
        assert (svc.problems(), svc.folder_problems()) == ([], {})
        assert svc.stats().problems == 0
        assert _groups(svc) == before
        assert svc.marked_ids() == {edited_id}
        going, refused = svc.plan_removal([edited_id, laptop_copy], include_near=True)
        assert (sorted(going), refused) == (sorted([edited_id, laptop_copy]), [])
        assert svc.marked_for_removal().going(True)[0] == 1
        # a file deleted from a folder the scan reads still leaves the index
        Path(edited).unlink()
        after = svc.scan(None, workers=1)
        assert (after.files_removed, after.files_kept) == (1, 0)
        assert len(_groups(svc)) == 1
        # and a folder named no more leaves with its files, as before
        only = svc.scan([laptop], workers=1)
        assert (only.files_removed, only.files_kept) == (2, 0)


def test_a_mount_folder_left_empty_keeps_its_files(tmp_path: Path) -> None:
    """A share mounted on a folder of its own (``/mnt/nas`` in fstab) leaves that folder empty
    when it is not mounted: a listed folder with nothing in it at all, whose files the index
    holds, keeps them as last scanned and says why; an empty folder the index knows nothing
    of is no problem."""
    laptop, usb = _library(tmp_path)
    spare = tmp_path / "spare"
    spare.mkdir()
    db = tmp_path / "index.sqlite"
    with DedupService(db) as svc:
        assert svc.scan([laptop, usb, spare], workers=1).problems == []
        before = _groups(svc)
    away = tmp_path / "on-the-server"
    usb.rename(away)
    usb.mkdir()  # the mount point, without the share on it
    with DedupService(db) as svc:
        summary = svc.scan(None, workers=1)
        assert (summary.files_removed, summary.files_kept) == (0, 3)
        assert [(p.path, p.reason) for p in summary.problems] == [
            (
                os.path.realpath(usb),
                "folder is empty (a drive or share not mounted?): its files are kept as last "
                "scanned",
            )
        ]
        assert _groups(svc) == before
        # its files are in a folder that is not there, as an unplugged drive's: the review
        # says so (not "moved or deleted"), and nothing of it is removed
        copy = os.path.realpath(usb / "report copy.txt")
        (copy_id,) = svc.store.ids_by_path([copy])
        with pytest.raises(DedupError, match="its folder .* is not there .*a drive unplugged"):
            svc.document_text(copy_id)
        going, refused = svc.plan_removal([copy_id], include_near=True)
        assert going == []
        assert [r.reason for r in refused] == [actions.REASON_FOLDER_AWAY]
    usb.rmdir()
    away.rename(usb)
    with DedupService(db) as svc:
        back = svc.scan(None, workers=1)
        assert (back.files_fingerprinted, back.files_kept, back.problems) == (0, 0, [])
        assert _groups(svc) == before
        going, refused = svc.plan_removal([copy_id], include_near=True)
        assert (going, refused) == ([copy_id], [])


def test_a_folder_that_cannot_be_listed_keeps_its_files(tmp_path: Path) -> None:
    """Through the command line, with the rights to bypass permissions dropped (also as root):
    a folder that became unreadable keeps its files, groups and all; the scan says how many it
    kept and why."""
    laptop, usb = _library(tmp_path)
    db = tmp_path / "index.sqlite"
    cmd = [sys.executable, "-m", "desktop_dedup", "scan", "--db", str(db), "--workers", "1"]
    first = subprocess.run(
        unprivileged([*cmd, str(tmp_path)]), capture_output=True, text=True, timeout=300
    )
    assert first.returncode == 0, first.stderr
    report = [sys.executable, "-m", "desktop_dedup", "report", "--db", str(db), "--format", "json"]

    def groups() -> set[frozenset[str]]:
        out = subprocess.run(report, capture_output=True, text=True, timeout=120, check=True)
        data = json.loads(out.stdout)
        return {frozenset(m["path"] for m in g["members"]) for g in data["groups"]}

    before = groups()
    assert len(before) == 2
    usb.chmod(0)
    try:
        again = subprocess.run(
            unprivileged([*cmd, "--json"]), capture_output=True, text=True, timeout=300
        )
        text = subprocess.run(unprivileged([*cmd]), capture_output=True, text=True, timeout=300)
    finally:
        usb.chmod(0o755)
    assert again.returncode == 0, again.stderr
    summary = json.loads(again.stdout)
    assert (summary["files_gone"], summary["files_kept"]) == (0, 3)
    assert summary["skipped"] == [
        {"path": os.path.realpath(usb), "reason": "permission denied (folder)"}
    ]
    assert groups() == before
    # the app flags the files of that folder (an icon by each in the group's list), as those of
    # a listed folder it could not read, and says why on its listed folder's row
    with DedupService(db) as svc:
        assert svc.folder_problems() == {os.path.realpath(usb): "permission denied (folder)"}
        flagged = {m.path for g in svc.groups() for m in g.members if m.in_unread_folder}
        assert flagged == {os.path.realpath(p) for p in usb.iterdir()}
    assert text.returncode == 0, text.stderr
    assert "0 gone from the index" in text.stdout
    assert (
        "3 files in folders this scan could not read kept as last scanned (the folders are "
        "listed below)." in text.stdout
    )


def _mount_namespace() -> list[str] | None:
    """The command that runs a program in a mount namespace of its own, where it may mount a
    file system that no other process sees and that goes when it ends (root's ``unshare -m``,
    or a user namespace's ``unshare -rm``); None where neither can."""
    for cmd in (["unshare", "-m"], ["unshare", "-rm"]):
        try:
            trial = subprocess.run([*cmd, "true"], capture_output=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            continue
        if trial.returncode == 0:
            return cmd
    return None


def test_a_share_mounted_inside_a_scanned_folder_keeps_its_files_when_unmounted(
    tmp_path: Path, db_target: str | Path
) -> None:
    """A drive or a share mounted on a folder inside a scanned one (an sshfs or rclone folder
    in the home, a NAS in fstab under it, a USB stick in the desktop's media folder): not
    mounted at the next scan, its mount point is an empty folder, or no folder at all. Its
    files are not gone: before, that scan dropped them with their groups and marks, and the
    next one with the share back read them all again. Mounted for real, a file system (tmpfs)
    on a folder of the scanned home, in a mount namespace of the scanning command's own; on
    SQLite and on a shared PostgreSQL index, which remembers each machine's mount points."""
    namespace = _mount_namespace()
    if namespace is None:
        pytest.skip("no mount namespace can be made here (unshare -m, unshare -rm)")
    home, share = tmp_path / "home", tmp_path / "share-content"
    docgen.write_txt(home / "report.txt", docgen.SAMPLE_EN)
    docgen.write_txt(home / "notes.txt", docgen.SAMPLE_ZH)
    docgen.write_txt(share / "report copy.txt", docgen.SAMPLE_EN)
    docgen.write_txt(share / "minutes.txt", NOTE)
    docgen.write_txt(share / "minutes (edited).txt", NOTE.replace("Tuesday", "Wednesday"))
    nas = home / "nas"
    nas.mkdir()
    db = db_target

    def scan_with_the_share_mounted() -> dict:
        script = (
            'mount -t tmpfs tmpfs "$1" && cp -a "$2"/. "$1"/ && '
            'exec "$3" -m desktop_dedup scan "$4" --db "$5" --workers 1 --json'
        )
        args = [str(nas), str(share), sys.executable, str(home), str(db)]
        done = subprocess.run(
            [*namespace, "sh", "-c", script, "sh", *args],
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    first = scan_with_the_share_mounted()
    assert (first["files_read"], first["skipped"]) == (5, [])
    assert list(nas.iterdir()) == []  # the share was mounted in the command's namespace only
    mount_point = os.path.realpath(nas)
    with DedupService(db) as svc:
        assert svc.store.mount_points() == [mount_point]
        before = _groups(svc)
        assert len(before) == 2
        edited = os.path.join(mount_point, "minutes (edited).txt")
        (edited_id,) = svc.store.ids_by_path([edited])
        svc.set_marked([edited_id], True)
    reason = (
        "nothing is mounted here now (a drive or share was at the last scan): its files are "
        "kept as last scanned"
    )
    for unmounted in ("an empty mount point", "no folder at all"):
        if unmounted == "no folder at all":
            nas.rmdir()  # the desktop removes a removable drive's folder when it unmounts it
        with DedupService(db) as svc:
            summary = svc.scan([home], workers=1)
            assert (summary.files_removed, summary.files_kept) == (0, 3), unmounted
            assert [(p.path, p.reason) for p in summary.problems] == [(mount_point, reason)]
            assert _groups(svc) == before
            assert svc.marked_ids() == {edited_id}
            assert svc.store.mount_points() == [mount_point]
            # a file there cannot go, and the review and the file list say why
            going, refused = svc.plan_removal([edited_id], include_near=True)
            assert going == []
            assert [r.reason for r in refused] == [actions.REASON_FOLDER_AWAY]
            with pytest.raises(DedupError, match="is not there"):
                svc.document_text(edited_id)
            flagged = {m.path for g in svc.groups() for m in g.members if m.in_unread_folder}
            assert flagged == {os.path.join(mount_point, n) for n in os.listdir(share)}
    nas.mkdir()
    back = scan_with_the_share_mounted()
    # nothing read again: the share's files are as they were (cp -a keeps their times)
    assert (back["files_read"], back["files_gone"], back["skipped"]) == (0, 0, [])
    with DedupService(db) as svc:
        assert _groups(svc) == before
        assert svc.marked_ids() == {edited_id}
        assert svc.store.mount_points() == [mount_point]
    # A mount point made an ordinary folder (the share's files copied in, then some deleted)
    # is read as one: what is not in it is gone, and it is no longer remembered.
    shutil.copy2(share / "minutes.txt", nas / "minutes.txt")
    with DedupService(db) as svc:
        summary = svc.scan([home], workers=1)
        assert (summary.files_removed, summary.files_kept, summary.problems) == (2, 0, [])
        assert svc.store.mount_points() == []
    (nas / "minutes.txt").unlink()
    # the two that went come back (the copy of report.txt by its bytes, not read), minutes.txt
    # as it was
    again = scan_with_the_share_mounted()
    assert (again["files_read"], again["skipped"]) == (1, [])
    # Unmounted, but passed over by this scan's exclusions: its files go, and it is forgotten.
    with DedupService(db) as svc:
        assert svc.store.mount_points() == [mount_point]
        run = svc.settings_with(exclude_globs=(*svc.settings().exclude_globs, "nas"))
        summary = svc.scan([home], workers=1, settings=run)
        assert (summary.files_removed, summary.files_kept, summary.problems) == (3, 0, [])
        assert svc.store.mount_points() == []


def test_only_a_folder_with_a_file_system_mounted_on_it_is_a_mount_point() -> None:
    """A btrfs subvolume has a device number of its own, as a mounted drive has, but nothing is
    mounted on it: deleted, it is gone, not unmounted. The mount table tells them apart; where
    it cannot be read, every folder on another device counts."""
    table = [
        Volume("/", "btrfs", "/dev/sda2", "local"),
        Volume("/home/ann/nas", "cifs", "//server/share", "network"),
    ]
    found = ["/home/ann/.snapshots", "/home/ann/nas"]
    assert mount_points_among(found, table) == ["/home/ann/nas"]
    assert mount_points_among(found, []) == found
