"""Tests for core.actions with real files: verification before removal, trash, move, cancel."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import xxhash
from unprivileged import run_python

from desktop_dedup.core.actions import (
    REASON_CANCELLED,
    REASON_CONTENT,
    REASON_DIRECTORY,
    REASON_MISSING,
    REASON_NO_HASH,
    REASON_NO_TRASH,
    REASON_REFERENCE,
    REASON_SIZE,
    REASON_SYMLINK,
    RemovalCandidate,
    content_hash_file,
    move_files,
    trash_files,
    verify_unchanged,
)
from desktop_dedup.core.errors import ActionError
from desktop_dedup.core.progress import CancelToken, ProgressEvent, Stage

REPO = Path(__file__).resolve().parents[1]


def scanned(path: Path, doc_id: int = 1) -> RemovalCandidate:
    """What the scan would have recorded for ``path`` right now."""
    info = path.stat()
    return RemovalCandidate(
        doc_id, str(path), info.st_size, info.st_mtime_ns, content_hash_file(path)
    )


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


class FolderTrash:
    """A trash that moves files into a folder of tmp_path, recording what it was asked to do."""

    def __init__(self, folder: Path):
        self.folder = folder
        folder.mkdir()
        self.calls: list[str] = []

    def __call__(self, path: str) -> None:
        self.calls.append(path)
        os.rename(path, self.folder / f"{len(self.calls)}-{os.path.basename(path)}")


@pytest.fixture
def test_trash(tmp_path: Path) -> FolderTrash:
    return FolderTrash(tmp_path / "test-trash")


def test_content_hash_file_streams_large_files(tmp_path: Path):
    data = os.urandom(3 * 1024 * 1024 + 123)  # spans several 1 MiB chunks
    path = tmp_path / "big.bin"
    path.write_bytes(data)
    assert content_hash_file(path) == xxhash.xxh3_128(data).hexdigest()
    path.write_bytes(data[:-1] + bytes([data[-1] ^ 1]))
    assert content_hash_file(path) != xxhash.xxh3_128(data).hexdigest()
    empty = tmp_path / "empty"
    empty.write_bytes(b"")
    assert content_hash_file(empty) == xxhash.xxh3_128(b"").hexdigest()


def test_unchanged_file_goes_to_the_trash(tmp_path: Path, test_trash: FolderTrash):
    doc = write(tmp_path / "docs" / "报告 copy.txt", "年度报告" * 100)
    cand = scanned(doc, doc_id=42)
    assert verify_unchanged(cand) is None
    (result,) = trash_files([cand], trash=test_trash)
    assert (result.doc_id, result.action, result.ok, result.reason) == (42, "trash", True, "")
    assert not doc.exists()
    assert [p.read_text(encoding="utf-8") for p in test_trash.folder.iterdir()] == [
        "年度报告" * 100
    ]


def test_same_size_edit_with_restored_mtime_is_refused_by_content(
    tmp_path: Path, test_trash: FolderTrash
):
    doc = write(tmp_path / "a.txt", "The meeting is on Monday.")
    cand = scanned(doc)
    before = doc.stat()
    doc.write_text("The meeting is on Friday.", encoding="utf-8")  # same length
    os.utime(doc, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert doc.stat().st_size == cand.size and doc.stat().st_mtime_ns == cand.mtime_ns
    (result,) = trash_files([cand], trash=test_trash)
    assert not result.ok and result.reason == REASON_CONTENT
    assert doc.exists() and test_trash.calls == []


def test_size_change_and_missing_file_are_refused(tmp_path: Path, test_trash: FolderTrash):
    grown = write(tmp_path / "grown.txt", "short")
    gone = write(tmp_path / "gone.txt", "soon deleted")
    cands = [scanned(grown, 1), scanned(gone, 2)]
    grown.write_text("much longer now", encoding="utf-8")
    gone.unlink()
    results = trash_files(cands, trash=test_trash)
    assert [(r.doc_id, r.ok, r.reason) for r in results] == [
        (1, False, REASON_SIZE),
        (2, False, REASON_MISSING),
    ]
    assert grown.exists() and test_trash.calls == []


def test_directory_and_symlink_in_place_of_the_file_are_refused(
    tmp_path: Path, test_trash: FolderTrash
):
    as_dir = write(tmp_path / "became_dir.txt", "x")
    as_link = write(tmp_path / "became_link.txt", "same bytes")
    cands = [scanned(as_dir, 1), scanned(as_link, 2)]
    as_dir.unlink()
    as_dir.mkdir()
    original = write(tmp_path / "elsewhere" / "original.txt", "same bytes")
    as_link.unlink()
    as_link.symlink_to(original)
    results = trash_files(cands, trash=test_trash)
    assert [r.reason for r in results] == [REASON_DIRECTORY, REASON_SYMLINK]
    assert as_dir.is_dir() and as_link.is_symlink() and original.exists()
    assert test_trash.calls == []


def test_reference_folder_and_missing_hash_are_refused(tmp_path: Path, test_trash: FolderTrash):
    ref_root = tmp_path / "reference"
    in_ref = write(ref_root / "sub" / "keep.txt", "keep me")
    flagged = write(tmp_path / "flagged.txt", "flagged")
    unhashed = write(tmp_path / "unhashed.txt", "no hash")
    flagged_cand = scanned(flagged, 2)
    flagged_cand = RemovalCandidate(
        2,
        flagged_cand.path,
        flagged_cand.size,
        flagged_cand.mtime_ns,
        flagged_cand.content_hash,
        in_reference_folder=True,
    )
    bare = scanned(unhashed, 3)
    bare = RemovalCandidate(3, bare.path, bare.size, bare.mtime_ns, "")
    results = trash_files(
        [scanned(in_ref, 1), flagged_cand, bare], trash=test_trash, reference_roots=[str(ref_root)]
    )
    assert [r.reason for r in results] == [REASON_REFERENCE, REASON_REFERENCE, REASON_NO_HASH]
    assert in_ref.exists() and flagged.exists() and unhashed.exists()


def test_failing_trash_backend_is_a_per_file_result(tmp_path: Path):
    first = write(tmp_path / "first.txt", "1")
    second = write(tmp_path / "second.txt", "2")
    moved: list[str] = []

    def flaky(path: str) -> None:
        if path.endswith("first.txt"):
            raise PermissionError(13, "Permission denied", path)
        moved.append(path)
        os.unlink(path)

    results = trash_files([scanned(first, 1), scanned(second, 2)], trash=flaky)
    assert [(r.ok, r.reason) for r in results] == [(False, "permission denied"), (True, "")]
    assert first.exists() and not second.exists()


def test_unusable_trash_folder_is_reported(tmp_path: Path):
    from send2trash.exceptions import TrashPermissionError

    doc = write(tmp_path / "on-a-stick.txt", "x")

    def no_trash_here(path: str) -> None:
        raise TrashPermissionError(path)  # what send2trash raises without a usable trash dir

    (result,) = trash_files([scanned(doc)], trash=no_trash_here)
    assert not result.ok and result.reason == REASON_NO_TRASH
    assert doc.exists()


_MOVE = """
import json, sys
from desktop_dedup.core.actions import RemovalCandidate, move_files
path, size, mtime_ns, digest, target = sys.argv[1:]
(r,) = move_files([RemovalCandidate(1, path, int(size), int(mtime_ns), digest)], target)
print(json.dumps([r.ok, r.reason]))
"""


def test_permission_denied_on_move(tmp_path: Path):
    """A file in a folder the user may not write to cannot be moved away: refused with the
    reason, nothing left behind. Run without the rights that bypass permissions (even as root)."""
    locked_dir = tmp_path / "locked"
    doc = write(locked_dir / "a.txt", "text")
    cand = scanned(doc)
    target = tmp_path / "target"
    target.mkdir()
    args = [cand.path, str(cand.size), str(cand.mtime_ns), cand.content_hash, str(target)]
    locked_dir.chmod(0o500)
    try:
        result = run_python(_MOVE, *args)
    finally:
        locked_dir.chmod(0o700)
    assert result == [False, "permission denied"]
    assert doc.exists() and list(target.iterdir()) == []
    assert run_python(_MOVE, *args) == [True, ""]  # the same call with the folder writable
    assert not doc.exists() and [p.name for p in target.iterdir()] == ["a.txt"]


def test_progress_events_and_cancel_before_next_file(tmp_path: Path):
    docs = [write(tmp_path / f"d{k}.txt", f"document {k}") for k in range(4)]
    cands = [scanned(d, k) for k, d in enumerate(docs)]
    events: list[ProgressEvent] = []
    token = CancelToken()
    trashed: list[str] = []

    def trash_then_cancel(path: str) -> None:
        trashed.append(path)
        os.unlink(path)
        if len(trashed) == 2:
            token.cancel()  # the user clicks Cancel while the second file is being trashed

    results = trash_files(cands, trash=trash_then_cancel, progress=events.append, cancel=token)
    assert [(r.doc_id, r.ok) for r in results] == [(0, True), (1, True), (2, False), (3, False)]
    assert results[2].reason == results[3].reason == REASON_CANCELLED
    assert trashed == [str(docs[0]), str(docs[1])]
    assert docs[2].exists() and docs[3].exists()
    assert all(e.stage == Stage.REMOVING and e.total == 4 for e in events)
    assert [e.done for e in events] == [0, 1, 2]
    assert events[1].current == str(docs[1])
    assert events[2].bytes_done == cands[0].size + cands[1].size


def test_progress_reaches_total(tmp_path: Path, test_trash: FolderTrash):
    docs = [write(tmp_path / f"d{k}.txt", "x" * (k + 1)) for k in range(3)]
    events: list[ProgressEvent] = []
    trash_files(
        [scanned(d, k) for k, d in enumerate(docs)], trash=test_trash, progress=events.append
    )
    assert [e.done for e in events] == [0, 1, 2, 3]
    assert events[-1].done == events[-1].total == 3
    assert events[-1].bytes_done == 1 + 2 + 3


def test_move_with_name_conflicts_never_overwrites(tmp_path: Path):
    target = tmp_path / "moved"
    existing = write(target / "plan.md", "already here")
    write(target / "plan (1).md", "also here")
    one = write(tmp_path / "x" / "plan.md", "first copy")
    two = write(tmp_path / "y" / "plan.md", "second copy")
    dotfile = write(tmp_path / "z" / ".notes", "hidden")
    write(target / ".notes", "hidden existing")
    results = move_files([scanned(one, 1), scanned(two, 2), scanned(dotfile, 3)], target)
    assert all(r.ok and r.action == "move" for r in results)
    assert [Path(r.destination).name for r in results] == [
        "plan (2).md",
        "plan (3).md",
        ".notes (1)",
    ]
    assert existing.read_text(encoding="utf-8") == "already here"
    assert (target / "plan (1).md").read_text(encoding="utf-8") == "also here"
    assert Path(results[0].destination).read_text(encoding="utf-8") == "first copy"
    assert Path(results[1].destination).read_text(encoding="utf-8") == "second copy"
    assert not one.exists() and not two.exists() and not dotfile.exists()


def test_a_name_taken_between_the_check_and_the_move_is_not_overwritten(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """README: moves never overwrite, also when a file with the name appears after the name was
    checked (another program writing into the folder): the move itself refuses an existing
    name. The check is made to miss it here, as the race would."""
    from desktop_dedup.core import actions

    target = tmp_path / "moved"
    taken = write(target / "plan.md", "written meanwhile")
    doc = write(tmp_path / "x" / "plan.md", "the copy being moved")
    cand = scanned(doc)
    monkeypatch.setattr(actions.os.path, "lexists", lambda p: False)
    (result,) = move_files([cand], target)
    monkeypatch.undo()
    assert result.ok and Path(result.destination).name == "plan (1).md"
    assert taken.read_text(encoding="utf-8") == "written meanwhile"
    assert Path(result.destination).read_text(encoding="utf-8") == "the copy being moved"
    assert not doc.exists()


def test_move_refusals(tmp_path: Path):
    target = tmp_path / "target"
    already = write(target / "inside.txt", "in target")
    changed = write(tmp_path / "changed.txt", "before")
    cands = [scanned(already, 1), scanned(changed, 2)]
    changed.write_text("after, and longer", encoding="utf-8")
    results = move_files(cands, target)
    assert [r.ok for r in results] == [False, False]
    assert results[0].reason == "is already in the target folder"
    assert results[1].reason == REASON_SIZE
    assert already.exists() and changed.exists()

    with pytest.raises(ActionError, match="does not exist"):
        move_files(cands, tmp_path / "nowhere")
    ref = tmp_path / "ref"
    (ref / "inbox").mkdir(parents=True)
    with pytest.raises(ActionError, match="reference folder"):
        move_files(cands, ref / "inbox", reference_roots=[str(ref)])


_SUBPROCESS_TRASH = """
import json, sys
from desktop_dedup.core.actions import RemovalCandidate, trash_files
cand = RemovalCandidate(**json.loads(sys.argv[1]))
(result,) = trash_files([cand])
print(json.dumps({"ok": result.ok, "reason": result.reason}))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="freedesktop trash")
def test_real_send2trash_uses_xdg_data_home(tmp_path: Path):
    # send2trash reads XDG_DATA_HOME when it is imported, so the real call runs in a fresh
    # interpreter with the variable pointing into tmp_path (monkeypatch would be too late here).
    data_home = tmp_path / "xdg-data"
    data_home.mkdir()
    doc = write(tmp_path / "work" / "dup 副本.txt", "a duplicate to trash")
    cand = scanned(doc, 9)
    env = dict(os.environ, XDG_DATA_HOME=str(data_home), PYTHONPATH=str(REPO))
    proc = subprocess.run(
        [sys.executable, "-c", _SUBPROCESS_TRASH, json.dumps(cand.__dict__)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout.strip().splitlines()[-1]) == {"ok": True, "reason": ""}
    assert not doc.exists()
    home_trash = data_home / "Trash"
    if (home_trash / "files" / doc.name).exists():
        trash_dir = home_trash
    else:  # tmp_path on another filesystem than $HOME: send2trash uses the volume's .Trash-UID
        mount = Path(tmp_path)
        while not os.path.ismount(mount):
            mount = mount.parent
        trash_dir = mount / f".Trash-{os.getuid()}"
    trashed = trash_dir / "files" / doc.name
    info = trash_dir / "info" / f"{doc.name}.trashinfo"
    try:
        assert trashed.read_text(encoding="utf-8") == "a duplicate to trash"
        assert info.read_text(encoding="utf-8").startswith("[Trash Info]\n")
    finally:
        if trash_dir != home_trash:  # leave no litter in a shared volume trash
            trashed.unlink(missing_ok=True)
            info.unlink(missing_ok=True)
