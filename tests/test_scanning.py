"""Walking folders and incremental rescans, through DedupService on real files and a real index.

What the index holds after a scan is read back with ``Store.known_files()`` (path -> size, mtime,
fingerprint version), so each test checks what a user would get, not an internal list.
"""

from __future__ import annotations

import os
import random
import shutil
import string
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "support"))
import recording_reader  # noqa: E402

from desktop_dedup.core import fingerprint, pipeline, rows, service  # noqa: E402
from desktop_dedup.core.models import DEFAULT_EXCLUDES  # noqa: E402
from desktop_dedup.core.service import DedupService  # noqa: E402

FORMATS = Path(__file__).parent / "data" / "formats"


def words_text(seed: int, n: int = 220) -> str:
    """Text whose vocabulary is its own: made-up words, so no two seeds look alike."""
    rng = random.Random(seed)
    vocab = ["".join(rng.choices(string.ascii_lowercase, k=rng.randint(4, 9))) for _ in range(90)]
    lines = []
    for _ in range(n // 11):
        lines.append(" ".join(rng.choice(vocab) for _ in range(11)) + ".")
    return "\n".join(lines) + "\n"


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def svc(tmp_path: Path):
    with DedupService(tmp_path / "db.sqlite") as s:
        yield s


def indexed(svc: DedupService) -> set[str]:
    return set(svc.store.known_files())


def real(p: Path) -> str:
    return os.path.realpath(p)


def test_recursion_extensions_and_default_excludes(tmp_path: Path, svc: DedupService) -> None:
    root = tmp_path / "docs"
    keep = [
        write(root / "top.txt", words_text(1)),
        write(root / "a" / "b" / "c" / "deep.md", words_text(2)),
        write(root / "a" / "page.HTML", "<p>" + words_text(3) + "</p>"),
    ]
    skipped = [
        write(root / "script.py", words_text(4)),
        write(root / "data.csv", words_text(5)),
    ]
    for folder in (".git", "node_modules", "__pycache__", ".Trash-1000", "sub/.git/objects"):
        skipped.append(write(root / folder / "hidden.txt", words_text(6)))
    summary = svc.scan([root], workers=1)
    assert indexed(svc) == {real(p) for p in keep}
    assert summary.files_seen == len(keep)
    assert not summary.problems

    # Extensions are a setting: with only txt, the md and HTML leave the index on the next scan.
    svc.update_settings(extensions=("txt",))
    summary = svc.scan([root], workers=1)
    assert indexed(svc) == {real(keep[0])}
    assert summary.files_removed == 2


def test_documents_of_unread_types_are_reported_not_passed_over(
    tmp_path: Path, svc: DedupService
) -> None:
    root = tmp_path / "docs"
    write(root / "read.txt", words_text(1))
    # An Outlook message is a compound file (as the Word 97 file LibreOffice wrote here is).
    (root / "mail").mkdir(parents=True)
    shutil.copy(FORMATS / "en.doc", root / "mail" / "邮件.msg")
    (root / "report.HWP").write_bytes(b"HWP Document File V3.00 \x1a\x01\x02\x03\x04\x05")
    write(root / "figure.ps", "%!PS-Adobe-3.0\n%%Title: figure\nnewpath 0 0 moveto showpage\n")
    write(root / "photo.jpg", "not a document")  # not a document: nothing to say
    write(root / "id_rsa.pub", "ssh-ed25519 AAAA")  # .pub is a key here, not Publisher
    # Same extensions, other contents: Tcl's message catalogues are .msg text files. They are
    # not Outlook messages, so they are counted with the other types, not reported as one.
    write(root / "msgs" / "de.msg", '::msgcat::mcset de DAYS_OF_WEEK_ABBREV [list "So" "Mo"]\n')
    write(root / "notes.hwp", "plain notes that happen to end in .hwp")
    # A type without one sure signature (CAJ has several) is reported unless it is text.
    (root / "paper.caj").write_bytes(b"HN\x00\x00" + bytes(range(256)) * 8)
    write(root / "todo.caj", "a text file named .caj")
    summary = svc.scan([root], workers=1)
    assert indexed(svc) == {real(root / "read.txt")}
    reasons = {os.path.basename(p.path): p.reason for p in summary.problems}
    assert reasons == {
        "邮件.msg": "not read: Outlook message (.msg) is a type this app cannot read",
        "report.HWP": "not read: Hangul document (.hwp) is a type this app cannot read",
        "figure.ps": "not read: PostScript document (.ps) is a type this app cannot read",
        "paper.caj": "not read: CNKI CAJ document (.caj) is a type this app cannot read",
    }
    assert summary.filtered.by_extension["msg"] == 1
    assert summary.filtered.by_extension["hwp"] == 1
    assert summary.filtered.by_extension["caj"] == 1


def test_custom_exclude_and_min_size(tmp_path: Path, svc: DedupService) -> None:
    root = tmp_path / "docs"
    big = write(root / "big.txt", words_text(10))
    small = write(root / "small.txt", "tiny words here\n")
    draft = write(root / "drafts-2026" / "d.txt", words_text(11))
    backup = write(root / "notes.bak.txt", words_text(12))
    svc.scan([root], workers=1)
    assert indexed(svc) == {real(p) for p in (big, small, draft, backup)}

    svc.update_settings(exclude_globs=DEFAULT_EXCLUDES + ("drafts-*", "*.bak.txt"), min_size=100)
    summary = svc.scan([root], workers=1)
    assert indexed(svc) == {real(big)}
    # Too small is a filter, not a problem; only a 0-byte file is reported as one.
    assert not summary.problems


def test_symlinks_are_not_followed(tmp_path: Path, svc: DedupService) -> None:
    root = tmp_path / "docs"
    target = write(root / "real.txt", words_text(20))
    outside = write(tmp_path / "elsewhere" / "outside.txt", words_text(21))
    os.symlink(target, root / "link.txt")
    os.symlink(root, root / "loop")  # a directory loop: must not hang
    os.symlink(root / "missing.txt", root / "dangling.txt")
    os.symlink(outside.parent, root / "to_elsewhere")
    summary = svc.scan([root], workers=1)
    assert indexed(svc) == {real(target)}
    assert summary.files_seen == 1
    assert summary.groups == 0  # the link did not make the file its own duplicate


def test_paths_are_absolute_and_resolved(
    tmp_path: Path, svc: DedupService, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "docs"
    one = write(root / "sub" / "one.txt", words_text(30))
    monkeypatch.chdir(tmp_path)
    svc.scan(["docs"], workers=1)
    assert indexed(svc) == {real(one)}
    assert all(os.path.isabs(p) for p in indexed(svc))
    svc.scan([f"docs{os.sep}sub{os.sep}..{os.sep}sub{os.sep}.."], workers=1)
    assert indexed(svc) == {real(one)}
    # Reached through a symlinked root, the stored path is still the resolved one.
    os.symlink(root, tmp_path / "alias")
    svc.scan([tmp_path / "alias"], workers=1)
    assert indexed(svc) == {real(one)}


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "tree"
    for i in range(6):
        write(root / f"d{i % 2}" / f"doc{i}.txt", words_text(100 + i))
    write(root / "d0" / "copy_of_doc1.txt", words_text(101))  # one identical pair
    return root


def test_unchanged_rescan_opens_no_file(
    tree: Path, svc: DedupService, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = svc.scan([tree], workers=1)
    assert first.files_fingerprinted == 7 and first.groups == 1
    log = tree.parent / "reader-calls.log"
    log.write_text("")
    svc._analyse_in_worker = recording_reader.read_and_record
    again = svc.scan([tree], workers=1)
    assert log.read_text() == ""
    assert again.files_fingerprinted == 0
    assert again.files_reused == 7
    assert again.groups == 1

    # A modified file is read again (and only that one).
    write(tree / "d1" / "doc3.txt", words_text(999))
    changed = svc.scan([tree], workers=1)
    assert log.read_text().splitlines() == [real(tree / "d1" / "doc3.txt")]
    assert changed.files_fingerprinted == 1 and changed.files_reused == 6


def test_moved_file_reuses_its_fingerprint(
    tree: Path, svc: DedupService, monkeypatch: pytest.MonkeyPatch
) -> None:
    svc.scan([tree], workers=1)
    old = tree / "d0" / "doc2.txt"
    new = tree / "d1" / "renamed" / "moved.txt"
    new.parent.mkdir()
    old.rename(new)
    log = tree.parent / "extract-calls.log"
    log.write_text("")
    svc._analyse_in_worker = recording_reader.read_and_record_extractions
    summary = svc.scan([tree], workers=1)
    assert real(new) not in log.read_text().splitlines(), "a moved file was extracted again"
    assert summary.files_fingerprinted == 0
    assert summary.files_reused == 7
    assert summary.files_removed == 1
    assert real(new) in indexed(svc) and real(old) not in indexed(svc)
    assert not summary.problems


def test_a_copy_is_read_once_per_scan(tmp_path: Path, svc: DedupService) -> None:
    """Byte-identical copies found in one scan are hashed, and extracted once: the first one
    read lends its fingerprint to the rest (a copy with another extension has another reader,
    and is read on its own)."""
    root = tmp_path / "tree"
    first = write(root / "a" / "report.txt", words_text(7))
    fillers = [write(root / "a" / f"zz{i}.txt", words_text(20 + i)) for i in range(2)]
    copies = [write(root / f"b{i}" / "report (copy).txt", words_text(7)) for i in range(3)]
    other_reader = write(root / "c" / "report.md", words_text(7))
    log = tmp_path / "extract-calls.log"
    log.write_text("")
    svc._analyse_in_worker = recording_reader.read_and_record_extractions
    summary = svc.scan([root], workers=1)
    extracted = log.read_text().splitlines()
    assert sorted(extracted) == sorted(real(p) for p in [first, *fillers, other_reader])
    assert summary.files_fingerprinted == 7 and summary.files_reused == 0
    assert not summary.problems
    members = {m.path: m.doc_id for g in svc.groups() for m in g.members}
    same_bytes = [real(p) for p in [first, *copies]]
    assert set(same_bytes) | {real(other_reader)} <= set(members)
    rows = svc.store.documents([members[p] for p in same_bytes])
    assert len({(d.text_hash, d.simhash, d.sketch) for d in rows}) == 1


def test_deleted_file_leaves_index_and_groups(tree: Path, svc: DedupService) -> None:
    svc.scan([tree], workers=1)
    copy = real(tree / "d0" / "copy_of_doc1.txt")
    assert any(copy in {m.path for m in g.members} for g in svc.groups())
    os.remove(copy)
    summary = svc.scan([tree], workers=1)
    assert summary.files_removed == 1
    assert copy not in indexed(svc)
    assert svc.groups() == [] and summary.groups == 0


def test_new_fingerprint_version_refingerprints(
    tree: Path, svc: DedupService, monkeypatch: pytest.MonkeyPatch
) -> None:
    svc.scan([tree], workers=1)
    new_version = fingerprint.FINGERPRINT_VERSION + 1
    for module in (fingerprint, pipeline, rows, service):
        monkeypatch.setattr(module, "FINGERPRINT_VERSION", new_version)
    svc._analyse_in_worker = recording_reader.read_as_next_version  # what workers run
    summary = svc.scan([tree], workers=1)
    assert summary.files_fingerprinted == 7
    assert summary.files_reused == 0
    assert {k.fp_version for k in svc.store.known_files().values()} == {new_version}
    assert summary.groups == 1


def test_files_read_again_for_a_new_fingerprint_version_are_counted_and_shown(
    tree: Path, svc: DedupService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The files an update reads again (unchanged, but fingerprinted by the version before)
    are counted in the summary and in every reading progress event, so the app can say why
    a rescan reads them all; a file changed since, or new, is read for that reason."""
    from desktop_dedup.core.progress import Stage

    svc.scan([tree], workers=1)
    assert svc.scan([tree], workers=1).files_read_again == 0
    new_version = fingerprint.FINGERPRINT_VERSION + 1
    for module in (fingerprint, pipeline, rows, service):
        monkeypatch.setattr(module, "FINGERPRINT_VERSION", new_version)
    svc._analyse_in_worker = recording_reader.read_as_next_version
    changed = sorted(p for p in tree.rglob("*.txt") if p.is_file())[0]
    changed.write_text(changed.read_text(encoding="utf-8") + "\nOne more line.\n", "utf-8")
    (tree / "new.txt").write_text("A new note about rivers, boats and the rain.\n", "utf-8")
    events = []
    summary = svc.scan([tree], workers=1, progress=events.append)
    assert (summary.files_fingerprinted, summary.files_read_again) == (8, 6)
    reading = [e for e in events if e.stage == Stage.READING]
    assert reading and {e.again for e in reading} == {6}
    assert svc.scan([tree], workers=1).files_read_again == 0
