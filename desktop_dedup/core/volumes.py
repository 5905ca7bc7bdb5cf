"""Which kind of volume a file is on, and whether "move to the trash" there would delete it.

send2trash cannot always keep its promise: on Windows, a file on a network share (a UNC path or
a mapped drive) or on a removable drive has no recycle bin, and the shell deletes it for good
while reporting success (send2trash issues #2 and #94). macOS keeps no trash on most network
shares either. Before a file goes to the trash, :func:`trash_refusal` says why it must not, so
the removal records a refusal ("move it to a folder instead") rather than a deletion.

Linux keeps a freedesktop trash on every volume it can write (``.Trash-UID`` at the volume's top,
or the home trash across devices), so nothing is refused there; the volume is still classified,
so the same rules can be checked on Linux with fake mount tables for every platform.

Everything here reads the mount table as text (``/proc/self/mountinfo`` on Linux, ``mount``'s
output on macOS) and takes it as an argument, so tests pass fake tables.
"""

from __future__ import annotations

import logging
import os
import re
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

LOCAL, NETWORK, REMOVABLE = "local", "network", "removable"

# File system types that live on another machine (Linux names, then macOS and BSD names).
NETWORK_FS = frozenset(
    {
        "nfs",
        "nfs4",
        "cifs",
        "smb",
        "smb2",
        "smb3",
        "smbfs",
        "ncpfs",
        "afs",
        "coda",
        "9p",
        "ceph",
        "glusterfs",
        "lustre",
        "gpfs",
        "beegfs",
        "davfs",
        "fuse.sshfs",
        "fuse.rclone",
        "fuse.s3fs",
        "fuse.gvfsd-fuse",
        "fuse.glusterfs",
        "fuse.davfs2",
        "afpfs",
        "webdav",
        "ftp",
    }
)

# Windows GetDriveTypeW results.
DRIVE_REMOVABLE, DRIVE_FIXED, DRIVE_REMOTE, DRIVE_CDROM, DRIVE_RAMDISK = 2, 3, 4, 5, 6

REASON_NETWORK_NO_TRASH = (
    "is on a network drive, which has no trash: sending it there would delete it for good; "
    "move it to a folder instead"
)
REASON_REMOVABLE_NO_TRASH = (
    "is on a removable drive, which has no recycle bin: sending it there would delete it for "
    "good; move it to a folder instead"
)


@dataclass(frozen=True)
class Volume:
    mount_point: str
    fstype: str
    source: str
    kind: str  # LOCAL, NETWORK or REMOVABLE


def _unescape_octal(field: str) -> str:
    """Mount tables write space, tab, newline and backslash in paths as ``\\040`` and so on."""
    return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), field)


def _sysfs_removable(major_minor: str, sysfs: Path) -> bool:
    """Whether the block device (or the disk it is a partition of) says it is removable."""
    try:
        device = (sysfs / "dev" / "block" / major_minor).resolve(strict=True)
    except OSError:
        return False
    for folder in (device, device.parent):
        try:
            return (folder / "removable").read_text().strip() == "1"
        except OSError:
            continue
    return False


def parse_mountinfo(text: str, sysfs: str | os.PathLike[str] = "/sys") -> list[Volume]:
    """Volumes from Linux's ``/proc/self/mountinfo`` (see proc(5)); removable devices are
    recognised from ``sysfs`` (``/sys/dev/block/MAJ:MIN/.../removable``)."""
    volumes = []
    for line in text.splitlines():
        left, sep, right = line.partition(" - ")
        fields, tail = left.split(), right.split()
        if not sep or len(fields) < 5 or len(tail) < 2:
            continue
        fstype, source = tail[0], tail[1]
        if fstype in NETWORK_FS or source.startswith("//"):
            kind = NETWORK
        elif _sysfs_removable(fields[2], Path(sysfs)):
            kind = REMOVABLE
        else:
            kind = LOCAL
        volumes.append(Volume(_unescape_octal(fields[4]), fstype, source, kind))
    return volumes


_MAC_MOUNT = re.compile(r"^(?P<source>.+?) on (?P<point>.+) \((?P<opts>[^()]*)\)$")


def parse_mac_mount(text: str) -> list[Volume]:
    """Volumes from macOS's ``mount`` output: ``//user@server/share on /Volumes/share (smbfs,
    nodev, nosuid, mounted by user)``. "local" in the options marks a volume on this machine;
    "removable" is not said there, and removable volumes keep a ``.Trashes`` folder anyway."""
    volumes = []
    for line in text.splitlines():
        m = _MAC_MOUNT.match(line.strip())
        if not m:
            continue
        opts = [o.strip() for o in m.group("opts").split(",")]
        fstype = opts[0] if opts else ""
        network = fstype in NETWORK_FS or ("local" not in opts and fstype not in ("devfs",))
        kind = NETWORK if network else LOCAL
        volumes.append(Volume(m.group("point"), fstype, m.group("source"), kind))
    return volumes


def volume_of(path: str, volumes: Sequence[Volume]) -> Volume | None:
    """The volume whose mount point is the longest prefix of ``path`` (resolved first)."""
    real = os.path.realpath(path)
    best: Volume | None = None
    for v in volumes:
        point = v.mount_point.rstrip("/") or "/"
        inside = real == point or real.startswith(point if point == "/" else point + "/")
        if inside and (best is None or len(point) >= len(best.mount_point.rstrip("/") or "/")):
            best = v  # a later mount over the same point hides the earlier one
    return best


def current_volumes() -> list[Volume]:
    """This machine's mount table (Linux and macOS; empty where it cannot be read)."""
    try:
        if sys.platform.startswith("linux"):
            # bytes decoded as file names are: a mount point need not be valid UTF-8
            return parse_mountinfo(os.fsdecode(Path("/proc/self/mountinfo").read_bytes()))
        if sys.platform == "darwin":
            out = subprocess.run(["/sbin/mount"], capture_output=True, timeout=10, check=False)
            return parse_mac_mount(os.fsdecode(out.stdout))
    except (OSError, subprocess.SubprocessError) as exc:
        log.warning("cannot read the mount table: %s", exc)
    return []


def _windows_drive_type(path: str) -> int:
    import ctypes  # Windows only

    root = os.path.splitdrive(os.path.abspath(path))[0] + "\\"
    return ctypes.windll.kernel32.GetDriveTypeW(root)  # type: ignore[attr-defined]


def _windows_refusal(path: str, drive_type: Callable[[str], int]) -> str | None:
    absolute = path.replace("/", "\\")
    if absolute.startswith("\\\\?\\UNC\\") or (
        absolute.startswith("\\\\") and not absolute.startswith("\\\\?\\")
    ):
        return REASON_NETWORK_NO_TRASH  # \\server\share\... : no recycle bin on shares
    kind = drive_type(path)
    if kind == DRIVE_REMOTE:
        return REASON_NETWORK_NO_TRASH
    if kind in (DRIVE_REMOVABLE, DRIVE_CDROM, DRIVE_RAMDISK):
        return REASON_REMOVABLE_NO_TRASH
    return None


def trash_refusal(
    path: str,
    *,
    platform: str | None = None,
    volumes: Sequence[Volume] | None = None,
    drive_type: Callable[[str], int] | None = None,
) -> str | None:
    """Why sending ``path`` to the trash would delete it for good, or ``None`` when the platform
    keeps it in a trash there. ``platform`` is a ``sys.platform`` value; ``volumes`` the mount
    table (read from this machine when omitted); ``drive_type`` Windows' GetDriveTypeW."""
    platform = sys.platform if platform is None else platform
    if platform == "win32":
        return _windows_refusal(path, drive_type or _windows_drive_type)
    if platform == "darwin":
        volume = volume_of(path, current_volumes() if volumes is None else volumes)
        if volume is not None and volume.kind == NETWORK:
            return REASON_NETWORK_NO_TRASH
    # Linux and the BSDs: the freedesktop trash has a folder on every writable volume.
    return None


def trash_checker(
    *,
    platform: str | None = None,
    volumes: Sequence[Volume] | None = None,
    drive_type: Callable[[str], int] | None = None,
) -> Callable[[str], str | None]:
    """:func:`trash_refusal` with the mount table read once, for a batch of files."""
    platform = sys.platform if platform is None else platform
    if volumes is None and platform == "darwin":
        volumes = current_volumes()

    def check(path: str) -> str | None:
        return trash_refusal(path, platform=platform, volumes=volumes, drive_type=drive_type)

    return check


__all__ = [
    "LOCAL",
    "NETWORK",
    "REMOVABLE",
    "REASON_NETWORK_NO_TRASH",
    "REASON_REMOVABLE_NO_TRASH",
    "Volume",
    "current_volumes",
    "parse_mac_mount",
    "parse_mountinfo",
    "trash_checker",
    "trash_refusal",
    "volume_of",
]
