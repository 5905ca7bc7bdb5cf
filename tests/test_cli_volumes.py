"""Trash that never deletes (issue 11 item 1): on a volume where the platform keeps no trash
(a network share or removable drive on Windows, a network volume on macOS) "move to the trash"
is refused with a reason, the file stays, and the journal records the refusal. The rules are
checked on Linux with fake mount tables and a fake GetDriveTypeW."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import docgen
import pytest

from desktop_dedup.core import volumes
from desktop_dedup.core.service import DedupService

# /proc/self/mountinfo lines as Linux writes them (proc(5)); a space in a path is \040.
MOUNTINFO = """\
22 1 259:2 / / rw,relatime shared:1 - ext4 /dev/nvme0n1p2 rw
40 22 0:38 / /mnt/nas rw,relatime shared:20 - nfs4 nas:/export rw,vers=4.2
41 22 0:39 / /mnt/office\\040share rw,relatime shared:21 - cifs //server/docs rw
42 22 8:17 / /media/stick rw,nosuid shared:22 - vfat /dev/sdb1 rw
43 22 0:40 / /home/me/remote rw - fuse.sshfs me@host:/srv rw
"""

MAC_MOUNT = """\
/dev/disk3s1s1 on / (apfs, sealed, local, read-only, journaled)
/dev/disk3s5 on /System/Volumes/Data (apfs, local, journaled, nobrowse, protect)
//me@nas._smb._tcp.local/Docs on /Volumes/Docs (smbfs, nodev, nosuid, mounted by me)
/dev/disk4s1 on /Volumes/STICK (msdos, local, nodev, nosuid, noowners)
"""


def fake_sysfs(tmp_path: Path) -> Path:
    """/sys/dev/block/8:17 -> the partition sdb1 of the removable disk sdb."""
    sysfs = tmp_path / "sys"
    disk = sysfs / "devices" / "usb1" / "block" / "sdb"
    (disk / "sdb1").mkdir(parents=True)
    (disk / "removable").write_text("1\n")
    internal = sysfs / "devices" / "pci0" / "block" / "nvme0n1"
    (internal / "nvme0n1p2").mkdir(parents=True)
    (internal / "removable").write_text("0\n")
    (sysfs / "dev" / "block").mkdir(parents=True)
    os.symlink(disk / "sdb1", sysfs / "dev" / "block" / "8:17")
    os.symlink(internal / "nvme0n1p2", sysfs / "dev" / "block" / "259:2")
    return sysfs


def test_linux_mount_table_kinds(tmp_path: Path):
    table = volumes.parse_mountinfo(MOUNTINFO, sysfs=fake_sysfs(tmp_path))
    kinds = {v.mount_point: v.kind for v in table}
    assert kinds == {
        "/": "local",
        "/mnt/nas": "network",
        "/mnt/office share": "network",
        "/media/stick": "removable",
        "/home/me/remote": "network",
    }
    assert volumes.volume_of("/mnt/office share/a b.txt", table).fstype == "cifs"
    assert volumes.volume_of("/mnt/nasty/x.txt", table).mount_point == "/"
    # Linux keeps a trash folder on every writable volume: nothing is refused there.
    for path in ("/mnt/nas/x.txt", "/media/stick/x.txt"):
        assert volumes.trash_refusal(path, platform="linux", volumes=table) is None


def test_macos_network_volume_refused():
    table = volumes.parse_mac_mount(MAC_MOUNT)
    assert {v.mount_point: v.kind for v in table}["/Volumes/Docs"] == "network"
    check = volumes.trash_checker(platform="darwin", volumes=table)
    assert check("/Volumes/Docs/report.docx") == volumes.REASON_NETWORK_NO_TRASH
    assert check("/Volumes/STICK/report.docx") is None  # .Trashes on the stick
    assert check("/Users/me/report.docx") is None


@pytest.mark.parametrize(
    ("path", "drive", "reason"),
    [
        (r"\\server\share\a.txt", 3, volumes.REASON_NETWORK_NO_TRASH),
        (r"\\?\UNC\server\share\a.txt", 3, volumes.REASON_NETWORK_NO_TRASH),
        (r"Z:\docs\a.txt", volumes.DRIVE_REMOTE, volumes.REASON_NETWORK_NO_TRASH),
        (r"E:\a.txt", volumes.DRIVE_REMOVABLE, volumes.REASON_REMOVABLE_NO_TRASH),
        (r"C:\Users\me\a.txt", volumes.DRIVE_FIXED, None),
        (r"\\?\C:\Users\me\a.txt", volumes.DRIVE_FIXED, None),
    ],
)
def test_windows_shares_and_removable_drives_refused(path, drive, reason):
    assert volumes.trash_refusal(path, platform="win32", drive_type=lambda p: drive) == reason


def test_refused_trash_keeps_the_file_and_journals_why(tmp_path: Path):
    """Through the service, with a real index: the file on the "network" volume stays, the
    result and the journal say why, and the index still has it; the local copy goes."""
    root = tmp_path / "docs"
    a = docgen.write_txt(root / "a.txt", docgen.SAMPLE_EN)
    os.utime(a, ns=(1_500_000_000_000_000_000,) * 2)
    share, local = root / "share" / "b.txt", root / "c.txt"
    share.parent.mkdir()
    shutil.copyfile(a, share)
    shutil.copyfile(a, local)
    table = [
        volumes.Volume("/", "ext4", "/dev/sda1", volumes.LOCAL),
        volumes.Volume(os.path.realpath(share.parent), "smbfs", "//nas/share", volumes.NETWORK),
    ]
    sent: list[str] = []
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()

    def fake_trash(path: str) -> None:
        sent.append(path)
        shutil.move(path, bin_dir / Path(path).name)

    with DedupService(tmp_path / "db.sqlite") as svc:
        svc.scan([root], workers=1)
        ids = {m.path: m.doc_id for g in svc.groups() for m in g.members}
        results = svc.trash(
            [ids[os.path.realpath(share)], ids[os.path.realpath(local)]],
            trash=fake_trash,
            trash_refusal=volumes.trash_checker(platform="darwin", volumes=table),
        )
        by_path = {r.path: r for r in results}
        refused = by_path[os.path.realpath(share)]
        assert not refused.ok and refused.reason == volumes.REASON_NETWORK_NO_TRASH
        assert by_path[os.path.realpath(local)].ok
        assert share.exists() and not local.exists()
        assert sent == [os.path.realpath(local)]
        journal = {j.path: j for j in svc.journal()}
        assert journal[os.path.realpath(share)].ok is False
        assert journal[os.path.realpath(share)].reason == volumes.REASON_NETWORK_NO_TRASH
        remaining = {m.path for g in svc.groups() for m in g.members}
        assert os.path.realpath(share) in remaining


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/mountinfo")
def test_this_machines_mount_table_is_read(tmp_path: Path):
    table = volumes.current_volumes()
    assert "/" in {v.mount_point for v in table}
    here = volumes.volume_of(str(tmp_path), table)
    assert here is not None and os.path.realpath(tmp_path).startswith(here.mount_point)
