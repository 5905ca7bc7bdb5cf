"""Issue 8: every public mutator of DedupService says what it changed (core.changes.Changes),
so the app's views refresh from that and not from guesses. Real SQLite, real files, a real scan.

A new public method must be listed below as a reader or a mutator, or the first test fails.
"""

from __future__ import annotations

import inspect
import shutil
from pathlib import Path

import docgen
import pytest

from desktop_dedup.core.changes import Changes
from desktop_dedup.core.service import DedupService

READERS = {
    "close",
    "add_change_listener",
    "remove_change_listener",
    "folders",
    "folders_to_scan",
    "folder_problems",
    "kept_folders",
    "in_listed_folders",
    "settings",
    "settings_with",
    "count_groups_at",
    "group_count",
    "group_page",
    "group",
    "groups",
    "problems",
    "stats",
    "marked_ids",
    "marked_among",
    "marked_for_removal",
    "document_text",
    "pair_similarity",
    "diff",
    "near_ids",
    "plan_removal",
    "journal",
    "ignored_pairs",
    "report",
    "export_report",
    "restorable",
    "ocr_options",
    "linkable_ids",
    "database_version",
}

# mutator -> the kinds of change it must report (at least)
MUTATORS = {
    "add_folder": {"folders"},
    "remove_folder": {"folders", "groups", "marks"},
    "forget_kept": {"folders", "groups", "marks"},
    "set_folder_reference": {"folders", "groups", "marks"},
    "update_settings": {"settings", "groups"},
    "scan": {"groups", "marks"},
    "regroup": {"groups"},
    "set_marked": {"marks"},
    "clear_marks": {"marks"},
    "apply_mark_rule": {"marks"},
    "trash": {"groups", "marks", "journal"},
    "move": {"groups", "marks", "journal"},
    "hardlink": {"groups", "marks", "journal"},
    "restore": {"journal"},
    "recover_journal": {"journal"},
    "ignore_pair": {"ignored", "groups"},
    "ignore_group": {"ignored", "groups"},
    "clear_ignored": {"ignored", "groups"},
}

KINDS = ("folders", "settings", "groups", "marks", "ignored", "journal")


def _public_methods() -> set[str]:
    return {
        name
        for name, member in inspect.getmembers(DedupService, inspect.isfunction)
        if not name.startswith("_")
    }


def test_every_public_method_is_classified():
    assert _public_methods() == READERS | set(MUTATORS)


@pytest.fixture
def scanned(tmp_path):
    docs = tmp_path / "docs"
    for sub in ("a", "b", "c"):
        docgen.write_txt(docs / sub / "same.txt", docgen.SAMPLE_EN)
    docgen.write_txt(docs / "zh" / "one.txt", docgen.SAMPLE_ZH)
    docgen.write_txt(docs / "zh" / "two.txt", docgen.SAMPLE_ZH.replace("城市", "乡村", 1))
    svc = DedupService(tmp_path / "db.sqlite3")
    svc.add_folder(docs)
    svc.scan(workers=1)
    heard: list[Changes] = []
    svc.add_change_listener(heard.append)
    yield svc, docs, heard
    svc.close()


def _kinds(heard: list[Changes]) -> set[str]:
    total = Changes()
    for c in heard:
        total |= c
    return {k for k in KINDS if getattr(total, k)}


def _call(
    name: str,
    svc: DedupService,
    docs: Path,
    tmp_path: Path,
    heard: list[Changes],
    before_groups: list,
) -> None:
    groups = svc.groups()
    same = next(g for g in groups if len({m.content_hash for m in g.members}) == 1)
    near = next(g for g in groups if g is not same)
    copy = next(m for m in same.members if not m.is_reference)
    if name == "add_folder":
        (tmp_path / "more").mkdir()
        svc.add_folder(tmp_path / "more")
    elif name == "remove_folder":
        svc.add_folder(docs / "a")  # a second folder in the list...
        svc.remove_folder(str(docs.resolve()))  # ...and the outer one, with b and c, goes
    elif name == "forget_kept":
        usb = tmp_path / "usb"
        docgen.write_txt(usb / "same.txt", docgen.SAMPLE_EN)
        svc.add_folder(usb)
        svc.scan(workers=1)
        usb.rename(tmp_path / "unplugged")
        svc.scan(workers=1)  # its file kept as last scanned
        before_groups[:] = [(g.id, [m.doc_id for m in g.members]) for g in svc.groups()]
        heard.clear()
        assert [k.files for k in svc.forget_kept()] == [1]
    elif name == "set_folder_reference":
        svc.set_folder_reference(str(docs.resolve()), True)
    elif name == "update_settings":
        svc.update_settings(min_similarity=0.95)
    elif name == "scan":
        docgen.write_txt(docs / "d" / "same.txt", docgen.SAMPLE_EN)
        svc.scan(workers=1)
    elif name == "regroup":
        svc.regroup()
    elif name == "set_marked":
        svc.set_marked([copy.doc_id], True)
    elif name == "clear_marks":
        svc.clear_marks()
    elif name == "apply_mark_rule":
        svc.apply_mark_rule("newest")
    elif name == "trash":
        bin_ = tmp_path / "bin"
        bin_.mkdir()
        svc.trash([copy.doc_id], trash=lambda p: shutil.move(p, bin_ / "x"))
    elif name == "move":
        (tmp_path / "moved").mkdir()
        svc.move([copy.doc_id], tmp_path / "moved")
    elif name == "hardlink":
        svc.hardlink([copy.doc_id])
    elif name == "restore":
        bin_ = tmp_path / "bin"
        bin_.mkdir()
        svc.trash([copy.doc_id], trash=lambda p: shutil.move(p, bin_ / "x"))
        heard.clear()
        (entry,) = svc.restorable()
        svc.restore([entry.id])  # not in a real trash folder: refused, and journalled
    elif name == "recover_journal":
        svc.store.journal_begin(
            {
                "action": "trash",
                "path": str(tmp_path / "gone.txt"),
                "destination": "",
                "content_hash": "0" * 32,
                "size": 1,
            }
        )
        assert svc.recover_journal()
    elif name == "ignore_pair":
        svc.ignore_pair(near.members[0].doc_id, near.members[1].doc_id)
    elif name == "ignore_group":
        svc.ignore_group(near.id)
    elif name == "clear_ignored":
        svc.ignore_group(near.id)
        svc.clear_ignored()
    else:  # pragma: no cover - the classification test names every mutator
        raise AssertionError(name)


@pytest.mark.parametrize("name", sorted(MUTATORS))
def test_each_mutator_reports_its_change(name, scanned, tmp_path):
    svc, docs, heard = scanned
    before_marks = svc.marked_ids()
    before_groups = [(g.id, [m.doc_id for m in g.members]) for g in svc.groups()]
    _call(name, svc, docs, tmp_path, heard, before_groups)
    assert heard, f"{name} announced nothing"
    assert _kinds(heard) >= MUTATORS[name], name
    # and what it reports did change (or could have: a regroup reports groups regardless)
    if "marks" in MUTATORS[name] and name in ("set_marked", "apply_mark_rule"):
        assert svc.marked_ids() != before_marks
    if name in (
        "remove_folder",
        "forget_kept",
        "trash",
        "move",
        "hardlink",
        "ignore_group",
        "ignore_pair",
    ):
        after = [(g.id, [m.doc_id for m in g.members]) for g in svc.groups()]
        assert after != before_groups


def test_a_returned_change_is_the_announced_one(scanned):
    svc, _, heard = scanned
    copy = next(m for g in svc.groups() for m in g.members if not m.is_reference)
    returned = svc.set_marked([copy.doc_id], True)
    assert returned == heard[-1] == Changes(marks=True, mark_ids=frozenset({copy.doc_id}))


def test_a_failing_listener_neither_undoes_nor_hides_the_change(scanned):
    svc, _, heard = scanned

    def broken(_changes):
        raise RuntimeError("a face's bug")

    svc.add_change_listener(broken)
    copy = next(m for g in svc.groups() for m in g.members if not m.is_reference)
    svc.set_marked([copy.doc_id], True)
    assert svc.marked_ids() == {copy.doc_id}
    assert heard and heard[-1].marks


def test_identical_files_cannot_be_ignored_and_nothing_is_announced(scanned):
    """The rule lives in the service (the window only words it): ignores are keyed by content,
    so a pair of the same bytes would ignore a file against itself."""
    from desktop_dedup.core.errors import DedupError

    svc, _, heard = scanned
    same = next(g for g in svc.groups() if len({m.content_hash for m in g.members}) == 1)
    with pytest.raises(DedupError, match="identical"):
        svc.ignore_pair(same.members[0].doc_id, same.members[1].doc_id)
    with pytest.raises(DedupError, match="identical"):
        svc.ignore_group(same.id)
    assert svc.ignored_pairs() == [] and heard == []
