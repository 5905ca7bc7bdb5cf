"""README's promises, one test each, written from README's words (not from what the code does).

Each test quotes the sentence it checks. They were written against seeded bugs (see
tests/mutation/run.py): each fails when the promise it names is broken.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tracemalloc
from pathlib import Path

import docgen
import pytest

from desktop_dedup.core import fingerprint as fp
from desktop_dedup.core.actions import (
    REASON_MTIME,
    RemovalCandidate,
    content_hash_file,
    trash_files,
)
from desktop_dedup.core.errors import ExtractionError
from desktop_dedup.core.extract import extract_text, load_readers
from desktop_dedup.core.service import DedupService

OLD, MIDDLE, NEW = 1_500_000_000, 1_600_000_000, 1_700_000_000  # seconds since the epoch


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "desktop_dedup", *args], capture_output=True, text=True, timeout=300
    )


def set_mtime(path: Path, seconds: int) -> Path:
    os.utime(path, ns=(seconds * 10**9, seconds * 10**9))
    return path


def copies(root: Path, names_and_times: list[tuple[str, int]]) -> list[Path]:
    """The same English article written at each relative path, with each modification time."""
    out = []
    for name, seconds in names_and_times:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(docgen.SAMPLE_EN, encoding="utf-8")
        out.append(set_mtime(path, seconds))
    return out


# --- Removal --------------------------------------------------------------------------------


def test_removal_refuses_a_file_whose_mtime_alone_changed(tmp_path: Path):
    """README: "right before each file goes, its size, mtime and content hash are checked
    against what was scanned ... A file that fails any check is skipped, with the reason."

    Same bytes, same size, only the modification time differs: the mtime check alone refuses
    it (the content hash would let it through)."""
    doc = tmp_path / "copy.txt"
    doc.write_text("The meeting is on Monday.", encoding="utf-8")
    set_mtime(doc, OLD)
    info = doc.stat()
    cand = RemovalCandidate(1, str(doc), info.st_size, info.st_mtime_ns, content_hash_file(doc))
    set_mtime(doc, NEW)
    trashed: list[str] = []
    (result,) = trash_files([cand], trash=trashed.append)
    assert (result.ok, result.reason) == (False, REASON_MTIME)
    assert trashed == [] and doc.read_text(encoding="utf-8") == "The meeting is on Monday."


def test_cli_remove_is_a_dry_run_without_yes_then_trashes_with_it(tmp_path: Path):
    """README: "`remove` only lists what it would remove (and what it would keep, with the
    reason) unless you add `--yes`." and "Exit codes: 0 done". The trash is the real
    freedesktop trash of the test's (temporary) HOME."""
    root = tmp_path / "docs"
    keep, extra = copies(root, [("keep.txt", OLD), ("extra.txt", NEW)])
    db = str(tmp_path / "index.sqlite")
    assert cli("scan", str(root), "--db", db, "--quiet").returncode == 0
    dry = cli("remove", "--db", db)
    assert dry.returncode == 0, dry.stderr
    assert os.path.realpath(extra) in dry.stdout
    assert os.path.realpath(keep) not in dry.stdout  # the reference is not listed for removal
    assert "nothing was changed" in dry.stdout
    assert keep.exists() and extra.exists()
    trash_dir = Path(os.environ["XDG_DATA_HOME"]) / "Trash" / "files"
    assert not trash_dir.exists() or not any(trash_dir.iterdir())

    done = cli("remove", "--db", db, "--yes")
    assert done.returncode == 0, done.stderr
    assert keep.exists() and not extra.exists()
    assert [p.name for p in trash_dir.iterdir()] == ["extra.txt"]
    assert (trash_dir / "extra.txt").read_text(encoding="utf-8") == docgen.SAMPLE_EN


def test_cli_exit_codes_for_errors_and_usage(tmp_path: Path):
    """README: "Exit codes: 0 done, 1 error (message on stderr), 2 usage" and "`report` and
    `remove` refuse a database that does not exist"."""
    missing = tmp_path / "typo.sqlite"
    for command in ("remove", "report"):
        proc = cli(command, "--db", str(missing))
        assert proc.returncode == 1 and proc.stderr.strip(), command
        assert not missing.exists()
    assert cli("remove", "--keep", "prettiest").returncode == 2


# --- The reference --------------------------------------------------------------------------


def _reference_after_scan(tmp_path: Path, root: Path, reference_roots=()) -> str:
    with DedupService(tmp_path / "index.sqlite") as svc:
        svc.scan([root], reference_roots=[str(r) for r in reference_roots], workers=1)
        (group,) = svc.groups()
        assert group.members[0].is_reference  # "The reference is listed first"
        return group.reference.path


def test_reference_is_the_oldest_copy_even_on_a_longer_path(tmp_path: Path):
    """README: "The reference (the copy to keep) is chosen by these rules, in order: 1. a file
    in a reference folder; 2. the oldest modification time; 3. the shortest path."""
    root = tmp_path / "docs"
    new, old, middle = copies(
        root,
        [("a.txt", NEW), ("archive/2019/old copy of a.txt", OLD), ("bb.txt", MIDDLE)],
    )
    assert _reference_after_scan(tmp_path, root) == os.path.realpath(old)


def test_reference_folder_beats_age_and_path(tmp_path: Path):
    root = tmp_path / "docs"
    old, _, in_ref = copies(
        root, [("a.txt", OLD), ("b.txt", MIDDLE), ("reference/keep me here.txt", NEW)]
    )
    assert _reference_after_scan(tmp_path, root, [root / "reference"]) == os.path.realpath(in_ref)


def test_reference_among_copies_of_one_age_is_the_shortest_path(tmp_path: Path):
    root = tmp_path / "docs"
    _, short, _ = copies(root, [("bbbb.txt", OLD), ("c.txt", OLD), ("dd/a.txt", OLD)])
    assert _reference_after_scan(tmp_path, root) == os.path.realpath(short)


def test_json_report_lists_the_oldest_copy_first_as_the_reference(tmp_path: Path):
    """README: "The reference is listed first in each group." (via the command line)"""
    root = tmp_path / "docs"
    _, old = copies(root, [("a.txt", NEW), ("zz/older.txt", OLD)])
    db = str(tmp_path / "index.sqlite")
    assert cli("scan", str(root), "--db", db, "--quiet").returncode == 0
    proc = cli("report", "--db", db, "--format", "json")
    (group,) = json.loads(proc.stdout)["groups"]
    assert [(m["path"], m["is_reference"]) for m in group["members"]] == [
        (os.path.realpath(old), True),
        (os.path.realpath(root / "a.txt"), False),
    ]


# --- Edge lines -----------------------------------------------------------------------------

# Made-up words: no stop word, no number, none shorter than two letters, unknown to jieba's IDF
# table alike, so each is one content token.
_SYLLABLES = ["bra", "dor", "fen", "gul", "hax", "jor", "kel", "mun", "pil", "quo", "rav", "sib"]


def _words(n: int, offset: int) -> list[str]:
    """``n`` distinct made-up words; different offsets give disjoint vocabularies."""
    out = []
    for i in range(offset, offset + n):
        a, b = divmod(i, len(_SYLLABLES))
        ending = ("", "n", "st", "ert")[i % 4]  # ragged lines: no fixed-width wrap to undo
        out.append(_SYLLABLES[a % len(_SYLLABLES)] + _SYLLABLES[b] + ending + "x" * (a // 12))
    return out


def _body(lines: int, words_per_line: int = 25) -> str:
    """Long lines (never peelable: more than 20 words) over one shared vocabulary."""
    vocab = _words(40, 0)
    return "\n".join(
        " ".join(vocab[(i * 7 + j * (1 + i % 3)) % len(vocab)] for j in range(words_per_line))
        for i in range(lines)
    )


def _tokens(text: str) -> int:
    return fp.fingerprint_text(text).token_count


def test_a_foreign_first_line_of_20_words_is_peeled_but_one_of_21_is_text():
    """README: "a first or last line that is short ... or foreign (almost none of its words occur
    in the rest of the text: an ad banner ...) ... a line of more than 20 words is always text."
    ``token_count`` counts the words that take part, so a peeled line adds none."""
    body = _body(12)  # 300 words: a 21-word line is well inside the 20 % budget
    assert _tokens(body) == 300
    banner20 = " ".join(_words(20, 100))
    banner21 = " ".join(_words(21, 100))
    assert _tokens(f"{banner20}\n{body}") == 300
    assert _tokens(f"{body}\n{banner20}") == 300
    assert _tokens(f"{banner21}\n{body}") == 321
    assert _tokens(f"{body}\n{banner21}") == 321


def test_each_end_has_its_own_budget_of_a_fifth_of_the_words():
    """README: "each end has its own budget of at most 20 % of the words"."""
    body = _body(4)  # 100 words
    top, bottom = " ".join(_words(18, 100)), " ".join(_words(18, 200))
    # 136 words in all: each banner (18) fits its end's budget (27.2); both together do not.
    assert _tokens(f"{top}\n{body}\n{bottom}") == 100
    small = _body(2)  # 50 words: a 15-word banner is more than a fifth of 65
    banner15 = " ".join(_words(15, 100))
    assert _tokens(f"{banner15}\n{small}") == 65
    assert _tokens(f"{small}\n{banner15}") == 65


# --- Bounded reading ------------------------------------------------------------------------


def test_a_huge_text_file_is_refused_before_it_is_read(tmp_path: Path):
    """README: "text files over **64 MiB**: their size is checked before reading, so memory
    stays bounded". A sparse 5 GB file costs no disk; reading it would allocate what it read."""
    path = tmp_path / "huge.txt"
    with open(path, "wb") as f:
        f.truncate(5 * 10**9)
    load_readers()  # as in a scan's readers: the modules are loaded once, not per file
    tracemalloc.start()
    try:
        with pytest.raises(ExtractionError) as info:
            extract_text(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # 5,000,000,000 bytes are 4.66 GiB: one size rule, 1024-based, for the size and the cap
    assert info.value.reason == "too large: 4.7 GB of text exceeds the 64 MB cap"
    assert peak < 1024 * 1024, f"{peak} bytes allocated while refusing a file unread"


# --- Rescans --------------------------------------------------------------------------------


def test_rescan_opens_no_unchanged_file_until_the_fingerprint_changes(tmp_path, monkeypatch):
    """README (`bench_rescan`): a rescan of an unchanged tree opens no file. A new fingerprint
    version (what the index depends on) makes every file be read again."""
    from desktop_dedup.core import service as service_mod

    root = tmp_path / "docs"
    copies(root, [("a.txt", OLD), ("b.txt", NEW), ("c.md", MIDDLE)])
    with DedupService(tmp_path / "index.sqlite") as svc:
        first = svc.scan([root], workers=1)
        assert (first.files_fingerprinted, first.files_reused) == (3, 0)
        again = svc.scan([root], workers=1)
        assert (again.files_fingerprinted, again.files_reused) == (0, 3)
        monkeypatch.setattr(service_mod, "FINGERPRINT_VERSION", fp.FINGERPRINT_VERSION + 1)
        bumped = svc.scan([root], workers=1)
        assert (bumped.files_fingerprinted, bumped.files_reused) == (3, 0)


def test_the_versions_readme_names_are_the_current_ones():
    """README (Using the app, Scan): "after an update that reads or fingerprints files
    differently (the fingerprint version, N since ...)" and "(the verification version, M
    since ...)": the numbers a user compares with the release notes are the code's."""
    import re

    from desktop_dedup.core import sketch

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    said = re.search(r"\(the fingerprint version,\s+(\d+) since", readme)
    verified = re.search(r"\(the verification\s+version,\s+(\d+) since", readme)
    assert said is not None and verified is not None
    assert int(said.group(1)) == fp.FINGERPRINT_VERSION
    assert int(verified.group(1)) == sketch.VERIFICATION_VERSION
