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
import time
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
    "Locator",
    "MOUNTINFO_ENV",
    "is_location",
    "mount_table",
    "share_id",
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


# --- locations: where a document is, in terms every machine sharing an index agrees on ---------

#: Test hook: a file in /proc/self/mountinfo's format read instead of this machine's mount table
#: (two "machines" in one test see one share at different mount points).
MOUNTINFO_ENV = "_DESKTOP_DEDUP_TEST_MOUNTINFO"

_SMB_FS = frozenset({"cifs", "smb", "smb2", "smb3", "smbfs"})
_LOCATION = re.compile(r"^[a-z][a-z0-9+.-]*://")
_HOST_PATH = re.compile(r"^(?:[^@/]*@)?(\[[^\]]+\]|[^:/\[]+):(.*)$")


def is_location(value: str) -> bool:
    """Whether ``value`` is a location (``scheme://...``) rather than a path on this machine."""
    return _LOCATION.match(value) is not None


def share_id(volume: Volume) -> str | None:
    """The location of a network volume's top: ``smb://server/share[/sub]`` for an SMB/CIFS
    source ``//server/share`` (``//user@server/share`` on macOS), ``nfs://server/export`` for an
    NFS source ``server:/export``, ``FSTYPE://host/path`` for other ``host:/path`` sources (sshfs,
    glusterfs ...). Every machine that mounts the share, wherever, names it the same. ``None`` for
    a volume that is not a network share."""
    if volume.kind != NETWORK:
        return None
    source = _unescape_octal(volume.source)
    fstype = volume.fstype.removeprefix("fuse.")
    if source.startswith("//") or volume.fstype in _SMB_FS:
        host, _, share = source.lstrip("/").partition("/")
        host = host.rpartition("@")[2].lower()  # //;AUTH;user@server, //user@server
        share, _, sub = share.strip("/").partition("/")
        # SMB names servers and shares without regard to case; paths inside are left alone
        return _join("smb", host, "/".join(p for p in (share.lower(), sub.strip("/")) if p))
    scheme = "nfs" if fstype.startswith("nfs") else fstype
    m = _HOST_PATH.match(source)
    if m is None:
        return f"{scheme}://{source.strip('/')}"  # rclone "remote:", ceph monitors ...
    return _join(scheme, m.group(1).lower(), m.group(2).strip("/"))


def _join(scheme: str, host: str, path: str) -> str:
    return f"{scheme}://{host}" + (f"/{path}" if path else "")


class Locator:
    """Translates between a path on this machine and a location in a shared index.

    A location is (volume, path within it) written as one string: a file on a network share is
    ``smb://server/share/dir/file`` or ``nfs://server/export/dir/file``, the same on every machine
    whatever the mount point (``/mnt/share``, ``/media/alice/share``, ``\\\\server\\share``); a
    file on a machine's own disk is ``file://MACHINE/home/me/file`` (RFC 8089's file URL with the
    machine as host), so two laptops' folders at the same path stay apart. A location that is
    neither on one of this machine's disks nor on a share mounted here has no local path
    (:meth:`local_path` gives ``None``): another machine's document, which only that machine can
    open or remove.

    ``volumes`` is the mount table (read from this machine when omitted); ``platform`` a
    ``sys.platform`` value (Windows paths: ``C:\\dir`` is on this machine, ``\\\\server\\share``
    is a share, reachable from every Windows machine by that name, and so is a drive letter
    mapped to one: ``drive_share`` says which, Windows' WNetGetConnectionW when omitted)."""

    def __init__(
        self,
        machine: str,
        volumes: Sequence[Volume] | None = None,
        platform: str | None = None,
        drive_share: Callable[[str], str | None] | None = None,
    ):
        self.machine = machine
        self.platform = sys.platform if platform is None else platform
        self._drive_share = drive_share or _windows_drive_share
        self._drives: dict[str, str | None] = {}
        self._live = volumes is None  # this machine's table: read again when a share is missed
        self._read_at = time.monotonic()
        self._use(mount_table() if volumes is None else volumes)

    _REREAD_S = 10.0

    def _use(self, volumes: Sequence[Volume]) -> None:
        # (mount point, share id), the longest mount point first (it is the one a path is on)
        mounts = [(v.mount_point.rstrip("/") or "/", share_id(v)) for v in volumes if v.mount_point]
        # a later mount over the same point hides the earlier one
        seen: dict[str, str | None] = {}
        for point, sid in mounts:
            seen[point] = sid
        self._mounts = sorted(seen.items(), key=lambda m: len(m[0]), reverse=True)
        # share id -> this machine's mount point (the shortest wins: one path per location)
        self._shares: list[tuple[str, str]] = []
        for point, sid in reversed(self._mounts):
            if sid is not None and all(s != sid for s, _ in self._shares):
                self._shares.append((sid, point))
        self._shares.sort(key=lambda s: len(s[0]), reverse=True)
        self._points = {point for point, _ in self._mounts}
        self._local_prefix = f"file://{self.machine}"
        self._to_loc: dict[str, tuple[str, str]] = {}  # folder -> (mount point, location prefix)
        self._to_path: dict[str, tuple[str, str] | None] = {}

    def network_mounts(self) -> list[tuple[str, str]]:
        """(mount point, share location) of this machine's network mounts, the deepest first."""
        return [(point, sid) for point, sid in self._mounts if sid is not None]

    # --- path -> location ---

    def location(self, path: str) -> str:
        """The location of ``path`` (an absolute path on this machine, already resolved; a
        location is returned as it is)."""
        if is_location(path):
            return path
        if self.platform == "win32":
            return self._windows_location(path)
        if path in self._points:  # a mount point is on the volume mounted there
            hit = self._volume_prefix(path)
        else:
            folder = path.rpartition("/")[0] or "/"
            hit = self._to_loc.get(folder)
            if hit is None:
                hit = self._to_loc[folder] = self._volume_prefix(folder)
        point, prefix = hit
        if not prefix:
            return self._local_prefix + path
        return prefix + path[len(point) if point != "/" else 0 :]

    def _volume_prefix(self, folder: str) -> tuple[str, str]:
        for point, sid in self._mounts:
            if folder == point or folder.startswith(point if point == "/" else point + "/"):
                return (point, sid or "")
        return ("/", "")

    def _windows_location(self, path: str) -> str:
        p = path.replace("\\", "/")
        if p.startswith("//?/UNC/"):
            p = "//" + p[8:]
        elif p.startswith("//?/"):
            p = p[4:]
        if re.match(r"^[A-Za-z]:(/|$)", p):  # a drive letter: mapped to a share?
            drive = p[:2].upper()
            if drive not in self._drives:
                self._drives[drive] = self._drive_share(drive)
            unc = self._drives[drive]
            if unc:
                p = unc.replace("\\", "/").rstrip("/") + p[2:]
        if p.startswith("//"):  # \\server\share\dir
            host, _, rest = p[2:].partition("/")
            share, _, sub = rest.partition("/")
            return _join("smb", host.lower(), "/".join(x for x in (share.lower(), sub) if x))
        return f"{self._local_prefix}/{p}"  # C:/dir/file on this machine

    # --- location -> path ---

    def local_path(self, location: str) -> str | None:
        """The path of ``location`` on this machine, or ``None`` when it is on another machine's
        disk or on a share not mounted here. A plain path is returned as it is."""
        if not is_location(location):
            return location
        folder = location.rpartition("/")[0]
        hit = self._to_path.get(folder, False)
        if hit is False:
            hit = self._path_prefix(location)
            # the folder's answer holds for every location in it unless a share's top is the
            # folder or below it (then the answer depends on the rest of the name)
            if not any(sid == folder or sid.startswith(folder + "/") for sid, _ in self._shares):
                self._to_path[folder] = hit
        if hit is None:
            # a share mounted since the table was read (at most every few seconds: another
            # machine's documents miss every time)
            if (
                self._live
                and not location.startswith("file://")
                and time.monotonic() - self._read_at > self._REREAD_S
            ):
                self._read_at = time.monotonic()
                self._use(mount_table())
                return self.local_path(location)
            return None
        prefix, point = hit
        rest = location[len(prefix) :]
        if self.platform == "win32":
            return point + rest.replace("/", "\\")
        return (point.rstrip("/") + rest) or "/"

    def _path_prefix(self, location: str) -> tuple[str, str] | None:
        """(location prefix, local prefix) for ``location``'s volume, when it is here."""
        if location.startswith(self._local_prefix + "/"):
            if self.platform == "win32":
                return (self._local_prefix + "/", "")
            return (self._local_prefix, "")
        if location.startswith("smb://") and self.platform == "win32":
            return ("smb:/", "\\")  # smb://server/share/x -> \\server\share\x
        for sid, point in self._shares:
            if location == sid or location.startswith(sid + "/"):
                return (sid, point)
        return None

    def display(self, location: str) -> str:
        """What a person sees: the path on this machine, or the location itself."""
        path = self.local_path(location)
        return location if path is None else path


def _windows_drive_share(drive: str) -> str | None:
    """The ``\\\\server\\share`` a Windows drive letter (``"Z:"``) is mapped to, or None."""
    if sys.platform != "win32":
        return None
    import ctypes  # Windows only

    size = ctypes.c_ulong(1024)
    buffer = ctypes.create_unicode_buffer(size.value)
    mpr = ctypes.WinDLL("mpr")  # type: ignore[attr-defined]
    if mpr.WNetGetConnectionW(drive, buffer, ctypes.byref(size)) != 0:  # not a mapped drive
        return None
    return buffer.value or None


def mount_table() -> list[Volume]:
    """This machine's mount table, or the test's (``MOUNTINFO_ENV``)."""
    fake = os.environ.get(MOUNTINFO_ENV)
    if fake:
        return parse_mountinfo(Path(fake).read_text())
    return current_volumes()


def mount_points_among(folders: Sequence[str], table: Sequence[Volume] | None = None) -> list[str]:
    """Those of ``folders`` (each on another device than the folder holding it: walk_files'
    ``mounts``) on which the mount table says a file system is mounted. A btrfs subvolume has
    a device number of its own too, but nothing is mounted on it, and a subvolume deleted is
    gone, not unmounted. Where the table cannot be read (or there is none: Windows), all of
    them."""
    if not folders:
        return []
    points = {v.mount_point for v in (mount_table() if table is None else table)}
    if not points:
        return list(folders)
    return [f for f in folders if f in points or os.path.realpath(f) in points]
