"""Several machines, one index (issue 12): a document's location is (share or machine, path).

The same network share mounted at different paths on two machines is one document; two
laptops' private folders at the same path are two; a machine removes only what it can reach.
Marks are per person, reference folders and ignored pairs are the team's. The "machines" are
DESKTOP_DEDUP_MACHINE and a mount table of their own (volumes.MOUNTINFO_ENV), on a real
PostgreSQL server; the translation itself is checked on fake mount tables of every kind."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import docgen
import psycopg
import pytest

from desktop_dedup.core.errors import DedupError
from desktop_dedup.core.service import REASON_ELSEWHERE, DedupService
from desktop_dedup.core.store import SCHEMA_VERSION, Store
from desktop_dedup.core.volumes import (
    LOCAL,
    MOUNTINFO_ENV,
    NETWORK,
    Locator,
    Volume,
    parse_mac_mount,
    parse_mountinfo,
    share_id,
)

# --- the translation, on fake mount tables ------------------------------------------------------

MOUNTINFO = """\
22 1 254:1 / / rw,relatime - ext4 /dev/vda1 rw
40 22 0:50 / /mnt/share rw,relatime - nfs4 fileserver:/export rw,vers=4.2
41 22 0:51 / /media/alice/Team\\040Docs rw,relatime - cifs //FileServer/Team\\040Docs rw
42 22 0:52 / /srv/sub rw,relatime - nfs fileserver:/export/projects/2026 rw
43 22 254:2 / /data rw,relatime - xfs /dev/vdb1 rw
"""


def test_a_share_is_named_by_its_server_whatever_the_mount_point() -> None:
    vols = {v.mount_point: v for v in parse_mountinfo(MOUNTINFO, sysfs="/nonexistent")}
    assert share_id(vols["/mnt/share"]) == "nfs://fileserver/export"
    # SMB names servers and shares without regard to case; a space in the mount table is \040
    assert share_id(vols["/media/alice/Team Docs"]) == "smb://fileserver/team docs"
    assert share_id(vols["/srv/sub"]) == "nfs://fileserver/export/projects/2026"
    assert share_id(vols["/data"]) is None and share_id(vols["/"]) is None
    # macOS names the user in the source; it is not part of the share
    (mac,) = parse_mac_mount("//alice@FileServer/Team Docs on /Volumes/Team Docs (smbfs, nodev)")
    assert share_id(mac) == "smb://fileserver/team docs"
    assert share_id(Volume("/home/a/x", "fuse.sshfs", "bob@nas:/home/bob", NETWORK)) == (
        "sshfs://nas/home/bob"
    )


def test_two_machines_see_one_share_and_keep_their_own_disks_apart() -> None:
    vols_a = parse_mountinfo(MOUNTINFO, sysfs="/nonexistent")
    vols_b = [
        Volume("/", "ext4", "/dev/sda2", LOCAL),
        Volume("/media/bob/export", "nfs", "FILESERVER:/export/", NETWORK),
    ]
    a, b = Locator("laptop-a", vols_a), Locator("laptop-b", vols_b)
    # one file of the share: one location, each machine's own path for it
    loc = a.location("/mnt/share/projects/2026/plan.txt")
    assert loc == "nfs://fileserver/export/projects/2026/plan.txt"
    assert a.location("/srv/sub/plan.txt") == loc  # another mount of a part of it
    assert b.location("/media/bob/export/projects/2026/plan.txt") == loc
    assert b.local_path(loc) == "/media/bob/export/projects/2026/plan.txt"
    assert a.local_path(loc) in ("/mnt/share/projects/2026/plan.txt", "/srv/sub/plan.txt")
    # the mount point itself is on the share (a folder scanned at its top)
    assert b.location("/media/bob/export") == "nfs://fileserver/export"
    # private folders at the same path are two places
    mine, theirs = a.location("/home/me/letter.txt"), b.location("/home/me/letter.txt")
    assert (mine, theirs) == (
        "file://laptop-a/home/me/letter.txt",
        "file://laptop-b/home/me/letter.txt",
    )
    assert a.location("/data/x.txt") == "file://laptop-a/data/x.txt"  # a local disk
    assert a.local_path(mine) == "/home/me/letter.txt"
    # what this machine cannot reach has no path here, and is shown as its location
    assert a.local_path(theirs) is None and a.display(theirs) == theirs
    assert b.local_path("smb://fileserver/team docs/x.txt") is None
    assert a.local_path("smb://fileserver/team docs/x.txt") == "/media/alice/Team Docs/x.txt"
    assert a.location(theirs) == theirs  # a location stays what it is


def test_windows_paths_name_shares_by_unc_and_drives_by_machine() -> None:
    w = Locator("desk-7", [], platform="win32")
    assert w.location(r"\\FileServer\Export\a\b.txt") == "smb://fileserver/export/a/b.txt"
    assert w.location(r"\\?\UNC\FileServer\Export\b.txt") == "smb://fileserver/export/b.txt"
    assert w.location(r"C:\Users\me\b.txt") == "file://desk-7/C:/Users/me/b.txt"
    assert w.local_path("file://desk-7/C:/Users/me/b.txt") == r"C:\Users\me\b.txt"
    assert w.local_path("smb://fileserver/export/a/b.txt") == r"\\fileserver\export\a\b.txt"
    assert w.local_path("file://laptop-a/home/me/b.txt") is None
    # a drive letter mapped to a share is that share (as the share's UNC path is)
    mapped = Locator("desk-7", [], platform="win32", drive_share={"Z:": r"\\FileServer\Export"}.get)
    assert mapped.location(r"z:\a\b.txt") == "smb://fileserver/export/a/b.txt"
    assert mapped.location(r"C:\a\b.txt") == "file://desk-7/C:/a/b.txt"


# --- two machines and two people on one PostgreSQL database ---------------------------------------


def _mounts(path: Path, *mounts: tuple[str, str, str]) -> str:
    lines = ["1 0 254:1 / / rw,relatime - ext4 /dev/vda1 rw"]
    for n, (point, fstype, source) in enumerate(mounts, start=2):
        lines.append(f"{n} 1 0:{n} / {point} rw,relatime - {fstype} {source} rw")
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def _paths(url: str) -> list[str]:
    dbname, host = url.split("/")[3].split("?")[0], url.split("host=")[1]
    with psycopg.connect(host=host, user="postgres", dbname=dbname, autocommit=True) as conn:
        return [p for (p,) in conn.execute("SELECT path FROM documents ORDER BY path")]


@pytest.fixture
def two_machines(tmp_path: Path, monkeypatch):
    """Machine A mounts the share at .../a/mnt/share, machine B at .../b/media/alice/share
    (two copies of one tree, same names, contents and times: what each machine sees of it);
    both have a private folder at the same path, .../home/me/Documents."""
    share_a = tmp_path / "a" / "mnt" / "share"
    docgen.write_txt(share_a / "report.txt", docgen.SAMPLE_EN)
    docgen.write_txt(share_a / "notes.txt", docgen.SAMPLE_ZH)
    share_b = tmp_path / "b" / "media" / "alice" / "share"
    shutil.copytree(share_a, share_b)  # copy2: the same mtimes
    private = tmp_path / "home" / "me" / "Documents"
    docgen.write_txt(private / "letter.txt", docgen.SAMPLE_EN)
    tables = {
        "laptop-a": _mounts(tmp_path / "mounts-a", (str(share_a), "nfs4", "fileserver:/export")),
        "laptop-b": _mounts(tmp_path / "mounts-b", (str(share_b), "nfs", "fileserver:/export")),
    }

    def be(machine: str, user: str = "alice") -> None:
        monkeypatch.setenv("DESKTOP_DEDUP_MACHINE", machine)
        monkeypatch.setenv(MOUNTINFO_ENV, tables[machine])
        monkeypatch.setenv("DESKTOP_DEDUP_USER", user)

    return be, share_a, share_b, private


def test_one_share_is_one_document_and_private_folders_stay_apart(two_machines, pg_url) -> None:
    be, share_a, share_b, private = two_machines
    be("laptop-a")
    with DedupService(pg_url) as a:
        a.scan([share_a, private], workers=1)
    be("laptop-b")
    with DedupService(pg_url) as b:
        b.scan([share_b, private], workers=1)
    expected = sorted(
        [
            "nfs://fileserver/export/notes.txt",
            "nfs://fileserver/export/report.txt",
            f"file://laptop-a{private}/letter.txt",
            f"file://laptop-b{private}/letter.txt",
        ]
    )
    assert _paths(pg_url) == expected
    be("laptop-a")
    with DedupService(pg_url) as a:  # A scans again: B's folder of the same name stays
        a.scan([share_a, private], workers=1)
        assert _paths(pg_url) == expected
        (group,) = a.groups()
        seen_by_a = sorted(m.path for m in group.members)
    be("laptop-b")
    with DedupService(pg_url) as b:
        (group,) = b.groups()
        seen_by_b = sorted(m.path for m in group.members)
    # each machine sees the share through its own mount point, its own letter by its path and
    # the other laptop's as a location
    assert seen_by_a == sorted(
        [str(share_a / "report.txt"), str(private / "letter.txt"), expected[1]]
    )
    assert seen_by_b == sorted(
        [str(share_b / "report.txt"), str(private / "letter.txt"), expected[0]]
    )


def test_a_machine_removes_only_what_it_can_reach(two_machines, pg_url) -> None:
    be, share_a, share_b, private = two_machines
    be("laptop-a")
    with DedupService(pg_url) as a:
        a.scan([share_a, private], workers=1)
    be("laptop-b")
    trashed: list[str] = []

    def trash(path: str) -> None:
        trashed.append(path)
        os.unlink(path)

    with DedupService(pg_url) as b:
        b.scan([share_b, private], workers=1)
        (group,) = b.groups()
        by_path = {m.path: m.doc_id for m in group.members}
        laptop_a_letter = by_path[f"file://laptop-a{private}/letter.txt"]
        (refused,) = b.trash([laptop_a_letter], trash=trash)
        assert (refused.ok, refused.reason) == (False, REASON_ELSEWHERE)
        with pytest.raises(DedupError, match="on another machine"):  # nor read for a diff
            b.document_text(laptop_a_letter)
        assert trashed == [] and (private / "letter.txt").exists()
        # the share's copy is reachable here, at B's mount point, and is checked there (the
        # kept copy B can verify is its own letter)
        (done,) = b.trash([by_path[str(share_b / "report.txt")]], trash=trash)
        assert done.ok, done.reason
    assert trashed == [str(share_b / "report.txt")]
    assert _paths(pg_url) == [
        f"file://laptop-a{private}/letter.txt",
        f"file://laptop-b{private}/letter.txt",
        "nfs://fileserver/export/notes.txt",
    ]


def test_marks_are_per_person_references_and_ignores_are_the_teams(two_machines, pg_url) -> None:
    be, share_a, share_b, private = two_machines
    # a near copy (two identical files cannot be told apart: they are not "ignored")
    docgen.write_txt(private / "letter.txt", docgen.SAMPLE_EN + "\nKind regards, me.\n")
    be("laptop-a", user="alice")
    with DedupService(pg_url) as alice:
        alice.scan([share_a, private], workers=1)
        (group,) = alice.groups()
        ids = {Path(m.path).name: m.doc_id for m in group.members}
        alice.set_marked([ids["letter.txt"]], True)
    be("laptop-b", user="bob")
    with DedupService(pg_url) as bob:
        assert bob.marked_ids() == set()  # alice's choice is not bob's
        bob.set_marked([ids["report.txt"]], True)
        assert bob.marked_ids() == {ids["report.txt"]}
        assert bob.stats().marked == 1
        bob.clear_marks()  # clears bob's only
        assert bob.marked_ids() == set()
        bob.set_marked([ids["report.txt"]], True)
    be("laptop-a", user="alice")
    with DedupService(pg_url) as alice:
        assert alice.marked_ids() == {ids["letter.txt"]}
        # the team's: a reference folder set on A is one on B, at B's mount point
        alice.add_folder(share_a, reference=True)
    be("laptop-b", user="bob")
    with DedupService(pg_url) as bob:
        assert [(f.path, f.is_reference) for f in bob.folders()] == [(str(share_b), True)]
        (group,) = bob.groups()
        ref = next(m for m in group.members if m.is_reference)
        assert ref.path == str(share_b / "report.txt") and ref.in_reference_folder
        # an ignored pair is a fact about two texts: everyone's
        bob.ignore_group(group.id)
        assert bob.groups() == []
    be("laptop-a", user="alice")
    with DedupService(pg_url) as alice:
        assert alice.groups() == [] and len(alice.ignored_pairs()) == 1
        # a changed content drops everyone's marks on it (each reviewed the old one)
        docgen.write_txt(private / "letter.txt", docgen.SAMPLE_EN + "\nP.S. changed.\n")
        summary = alice.scan([share_a, private], workers=1)
        assert summary.marks_dropped == [str(private / "letter.txt")]
        assert alice.marked_ids() == set()
    be("laptop-b", user="bob")
    with DedupService(pg_url) as bob:
        assert bob.marked_ids() == {ids["report.txt"]}  # bob's mark on unchanged content stays


def test_a_scans_reference_folders_stay_when_another_machine_scans(two_machines, pg_url) -> None:
    """``scan --reference`` folders are kept per machine on a shared index: B's scan without
    them does not drop A's (which would change the groups for everyone and regroup the whole
    index), and B sees them at its own mount point."""
    be, share_a, share_b, private = two_machines
    be("laptop-a")
    with DedupService(pg_url) as a:
        a.scan([share_a, private], reference_roots=[share_a], workers=1)
    be("laptop-b")
    with DedupService(pg_url) as b:
        key = b.store.get_setting("grouping_key")
        b.scan([share_b, private], workers=1)
        # what the groups depend on did not change (else every scan would regroup in full)
        assert b.store.get_setting("grouping_key") == key
        assert b.store.scan_reference_roots() == [str(share_b)]
        (group,) = b.groups()
        ref = next(m for m in group.members if m.is_reference)
        assert ref.path == str(share_b / "report.txt") and ref.in_reference_folder
        (refused,) = b.trash([ref.doc_id], trash=os.unlink)
        assert not refused.ok and "reference" in refused.reason
        b.scan([share_b, private], reference_roots=[private], workers=1)
        assert sorted(b.store.scan_reference_roots()) == sorted([str(share_b), str(private)])
    be("laptop-a")
    with DedupService(pg_url) as a:  # B's private folder is not A's
        assert sorted(a.store.scan_reference_roots()) == sorted(
            [str(share_a), f"file://laptop-b{private}"]
        )


def test_a_version_5_server_database_moves_to_locations_and_marks(tmp_path, pg_url, monkeypatch):
    """Schema 6 on a database schema 5 wrote: plain paths become locations (those on a network
    mount of the migrating machine the share's), the shared marked flag becomes the migrating
    person's marks."""
    share = tmp_path / "mnt" / "share"
    monkeypatch.setenv(MOUNTINFO_ENV, _mounts(tmp_path / "m", (str(share), "cifs", "//nas/docs")))
    monkeypatch.setenv("DESKTOP_DEDUP_MACHINE", "laptop-a")
    monkeypatch.setenv("DESKTOP_DEDUP_USER", "alice")
    Store(pg_url).close()
    dbname, host = pg_url.split("/")[3].split("?")[0], pg_url.split("host=")[1]
    with psycopg.connect(host=host, user="postgres", dbname=dbname, autocommit=True) as conn:
        # what schema 5 held
        conn.execute("DROP TABLE marks")
        conn.execute("ALTER TABLE documents ADD COLUMN marked BOOLEAN NOT NULL DEFAULT false")
        for path, marked in ((f"{share}/a.txt", True), ("/home/me/b.txt", False)):
            conn.execute(
                "INSERT INTO documents (path, size, mtime_ns, status, token_count, text_chars, "
                "format, fp_version, marked) VALUES (%s, 1, 1, 'ok', 0, 0, 'txt', 1, %s)",
                (path, marked),
            )
        conn.execute("INSERT INTO folders (path, is_reference) VALUES (%s, true)", (str(share),))
        conn.execute(
            "INSERT INTO settings (key, value) VALUES ('scan_reference_roots', %s)",
            (f'["{share}/sub"]',),
        )
        conn.execute("UPDATE desktop_dedup_schema SET version = 5")
    store = Store(pg_url)
    try:
        assert _paths(pg_url) == ["file://laptop-a/home/me/b.txt", "smb://nas/docs/a.txt"]
        assert store.folders() == [(str(share), True)]
        assert store.scan_reference_roots() == [f"{share}/sub"]
        (a_id,) = store.ids_by_path([f"{share}/a.txt"])
        assert store.marked_ids() == {a_id}
    finally:
        store.close()
    with psycopg.connect(host=host, user="postgres", dbname=dbname, autocommit=True) as conn:
        assert conn.execute("SELECT user_name FROM marks").fetchall() == [("alice",)]
        assert conn.execute(
            "SELECT value FROM settings WHERE key = 'scan_reference_roots'"
        ).fetchall() == [('{"laptop-a": ["smb://nas/docs/sub"]}',)]
        assert conn.execute("SELECT version FROM desktop_dedup_schema").fetchall() == [
            (SCHEMA_VERSION,)
        ]


def test_a_share_mounted_after_start_is_found(tmp_path: Path, monkeypatch) -> None:
    """A running app reads the mount table again (every few seconds at most) when it meets a
    share it does not know: mounted since it started."""
    table = tmp_path / "mountinfo"
    monkeypatch.setenv(MOUNTINFO_ENV, _mounts(table))
    here = Locator("laptop-a")
    loc = "smb://nas/docs/a.txt"
    assert here.local_path(loc) is None
    _mounts(table, ("/media/docs", "cifs", "//nas/docs"))
    assert here.local_path(loc) is None  # read a moment ago: not read again yet
    monkeypatch.setattr(Locator, "_REREAD_S", 0.0)
    assert here.local_path(loc) == "/media/docs/a.txt"
    assert here.local_path("file://laptop-b/home/me/a.txt") is None
