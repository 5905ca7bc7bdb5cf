"""Files a scan kept because it could not read their folder can be let go on purpose.

A scan that cannot read a folder (a drive unplugged, a share not mounted, permissions changed)
keeps its files as last scanned, flagged, and refuses to remove them. That protects a drive that
comes back; a drive retired for good, a share that moved, a folder locked on purpose would leave
its files and its warning in the results for ever (deleting the empty folder does not help: the
desktop removes a stick's folder itself when it unmounts it). Forgetting them is the user's
call: they leave the index, their groups and their marks; the files themselves are not touched,
and a scan that finds them again reads them again.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import docgen
import pytest
from test_unavailable_folders import NOTE, _groups, _library
from unprivileged import unprivileged

from desktop_dedup.core.errors import DedupError
from desktop_dedup.core.models import KeptFolder
from desktop_dedup.core.service import DedupService


def test_forgetting_a_folder_whose_files_a_scan_kept(tmp_path: Path, db_target: str | Path) -> None:
    """On SQLite and on a shared PostgreSQL index."""
    laptop, usb = _library(tmp_path)
    db = db_target
    with DedupService(db) as svc:
        svc.scan([laptop, usb], workers=1)
        before = _groups(svc)
        assert len(before) == 2
        edited = os.path.realpath(usb / "minutes (edited).txt")
        (edited_id,) = svc.store.ids_by_path([edited])
        svc.set_marked([edited_id], True)
        assert svc.kept_folders() == []  # nothing kept: nothing to forget
    away = tmp_path / "retired"
    usb.rename(away)
    usb.mkdir()  # the mount point, without its drive
    broken = laptop / "broken.pdf"
    broken.write_bytes(b"%PDF-1.4 not really")
    with DedupService(db) as svc:
        summary = svc.scan([laptop, usb], workers=1)
        assert (summary.files_kept, summary.files_removed) == (3, 0)
        usb_path = os.path.realpath(usb)
        assert svc.kept_folders() == [
            KeptFolder(
                usb_path,
                3,
                "folder is empty (a drive or share not mounted?): its files are kept as last "
                "scanned",
            )
        ]
        problems = {p.path for p in svc.problems()}
        assert problems == {usb_path, os.path.realpath(broken)}
        # only a folder whose files a scan kept can be forgotten, and nothing changes otherwise
        for other in (os.path.realpath(laptop), os.path.realpath(broken), str(tmp_path / "x")):
            with pytest.raises(DedupError, match="kept no files"):
                svc.forget_kept([other])
        assert _groups(svc) == before
        assert svc.forget_kept(dry_run=True) == svc.kept_folders()  # a dry run: nothing more
        assert _groups(svc) == before
        forgotten = svc.forget_kept([usb_path])
        assert [(k.path, k.files) for k in forgotten] == [(usb_path, 3)]
        # gone from the index, their groups and marks with them; the other files stay
        assert svc.store.ids_by_path([edited]) == []
        assert _groups(svc) == set()
        assert svc.marked_ids() == set()
        assert {p.path for p in svc.problems()} == {os.path.realpath(broken)}
        assert svc.folder_problems() == {}
        assert svc.stats().problems == 1
        assert svc.kept_folders() == []
        assert svc.stats().documents == 2  # the report and the notes (the PDF is a problem)
        # the folder stays listed: the user chose to forget its files, not the folder (a
        # shared index lists what its team chose, not what a scan was given)
        assert [f.path for f in svc.folders()] == (
            [] if svc.store.shared else sorted([os.path.realpath(laptop), usb_path])
        )
    assert sorted(p.name for p in away.iterdir()) == [
        "minutes (edited).txt",
        "minutes.txt",
        "report copy.txt",
    ]  # the files themselves are not touched
    with DedupService(db) as svc:
        # the next scan has nothing to keep there, and says nothing of it
        again = svc.scan([laptop, usb], workers=1)
        assert (again.files_kept, again.files_removed) == (0, 0)
        assert [p.path for p in again.problems] == [os.path.realpath(broken)]
    usb.rmdir()
    away.rename(usb)
    with DedupService(db) as svc:
        svc.scan(
            [laptop, usb], workers=1
        )  # the drive back: its files are read again, grouped again
        assert len(svc.store.paths_under([os.path.realpath(usb)])) == 3
        assert _groups(svc) == before


def test_forgetting_a_folder_inside_a_forgotten_one_and_a_remembered_mount(
    tmp_path: Path, db_target: str | Path
) -> None:
    """Forgetting a listed folder that is not there takes the files of every folder inside it,
    and the mount points the scans remembered there: a scan no longer looks for them."""
    laptop, usb = _library(tmp_path)
    db = db_target
    with DedupService(db) as svc:
        svc.scan([laptop, usb], workers=1)
    usb.rename(tmp_path / "gone")
    with DedupService(db) as svc:
        assert svc.scan([laptop, usb], workers=1).files_kept == 3
        # as a scan remembers them (one in a folder it read would have been forgotten by it)
        svc.store.set_mount_points([str(usb / "stick"), str(laptop / "nas")])
        assert [k.files for k in svc.forget_kept([os.path.realpath(usb)])] == [3]
        assert svc.store.mount_points() == [str(laptop / "nas")]


def test_forget_on_the_command_line(tmp_path: Path) -> None:
    """``forget`` lists the folders whose files the last scan kept, and with --yes lets them
    go; as everywhere, a dry run unless --yes. Here a folder whose permissions changed."""
    laptop, usb = _library(tmp_path)
    docgen.write_txt(usb / "inner" / "minutes again.txt", NOTE)
    db = tmp_path / "index.sqlite"
    cli = [sys.executable, "-m", "desktop_dedup"]
    scan = [*cli, "scan", "--db", str(db), "--workers", "1", "--quiet"]
    first = subprocess.run(unprivileged([*scan, str(tmp_path)]), capture_output=True, text=True)
    assert first.returncode == 0, first.stderr

    def forget(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*cli, "forget", "--db", str(db), *args], capture_output=True, text=True, timeout=120
        )

    nothing = forget()
    assert (nothing.returncode, nothing.stdout) == (
        0,
        "No files kept from folders a scan could not read.\n",
    )
    usb.chmod(0)
    try:
        kept = subprocess.run(unprivileged(scan), capture_output=True, text=True, timeout=300)
    finally:
        usb.chmod(0o755)
    assert kept.returncode == 0, kept.stderr
    usb_path = os.path.realpath(usb)
    dry = forget()
    assert dry.returncode == 0, dry.stderr
    assert dry.stdout == (
        f"  {usb_path}  4 files (permission denied (folder))\n"
        "Would forget 4 files; nothing was changed. Add --yes to do it.\n"
    )
    listed = json.loads(forget("--json").stdout)
    assert listed == {
        "action": "forget",
        "dry_run": True,
        "folders": [{"path": usb_path, "files": 4, "reason": "permission denied (folder)"}],
    }
    wrong = forget(str(laptop), "--yes")
    assert wrong.returncode == 1
    assert f"the last scan kept no files of {os.path.realpath(laptop)}" in wrong.stderr
    done = forget(usb_path, "--yes", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["dry_run"] is False
    with DedupService(db) as svc:
        assert svc.kept_folders() == []
        assert _groups(svc) == set()
        assert svc.stats().documents == 2
    assert forget().stdout == "No files kept from folders a scan could not read.\n"
