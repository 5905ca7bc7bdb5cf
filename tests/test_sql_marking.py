"""Issue 8: the bulk marking rules run in the index (SQL), not over every group loaded into
Python. They must mark exactly what core.marking's rules (the Python reference, tested on
their own in test_marking.py) mark, on a real scanned index with a reference folder, on both
engines.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import docgen
import pytest

from desktop_dedup.core import marking
from desktop_dedup.core.errors import DedupError
from desktop_dedup.core.marking import KeepRule
from desktop_dedup.core.service import DedupService


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    """Groups of two to four copies spread over folders, with distinct mtimes, sizes (near
    copies: an added sentence) and path lengths; ``ref`` becomes a reference folder."""
    root = tmp_path_factory.mktemp("sqlmarks")
    rng = random.Random(8)
    words = docgen.SAMPLE_EN.split()
    stamp = 1_700_000_000
    for g in range(6):
        # six unrelated texts: random word sequences share no long run of words
        text = " ".join(rng.choice(words) for _ in range(600))
        for k in range(2 + g % 3):
            folder = rng.choice(["a", "b", "ref", "deep/er/folder"])
            extra = f" Added sentence number {k}." * k if g % 2 == 0 else ""
            path = docgen.write_txt(root / folder / f"g{g}-copy{k}{'x' * k}.txt", text + extra)
            stamp += rng.randint(1, 10_000)
            os.utime(path, (stamp, stamp))
    return root


@pytest.fixture
def svc(library, db_target):
    """A scanned index on each engine (SQLite, and PostgreSQL where paths are locations)."""
    service = DedupService(db_target)
    service.add_folder(library)
    service.add_folder(library / "ref")  # listed too, so that it can be made a reference
    service.scan(workers=1)
    yield service
    service.close()


def _expected(groups, prior: set[int], rule: str, folder: str | None = None) -> set[int]:
    """What the app did before issue 8: the rule's marks, made exact inside every group
    (outside any group, marks stay), computed with core.marking over all groups loaded."""
    scope = marking.markable_ids(groups)
    if rule == "add_in_folder":
        return prior | marking.mark_in_folder(groups, folder)
    if rule == "all_but_reference":
        wanted = marking.mark_all_but_reference(groups)
    elif rule == "invert":
        wanted = marking.invert_marks(groups, prior)
    elif rule == "keep_in_folder":
        wanted = marking.mark_keeping(groups, KeepRule.IN_FOLDER, folder)
    else:
        wanted = marking.mark_keeping(groups, KeepRule(rule))
    return (prior - scope) | (wanted & scope)


@pytest.mark.parametrize("reference_folder", [False, True])
@pytest.mark.parametrize(
    "rule",
    [
        "all_but_reference",
        "newest",
        "oldest",
        "largest",
        "smallest",
        "shortest_path",
        "invert",
        "keep_in_folder",
        "add_in_folder",
    ],
)
def test_sql_rule_marks_what_the_python_rule_marks(svc, library, rule, reference_folder):
    if reference_folder:
        svc.set_folder_reference(str((library / "ref").resolve()), True)
    groups = svc.groups()
    assert len(groups) == 6
    assert any(m.in_reference_folder for g in groups for m in g.members) == reference_folder
    all_ids = sorted(m.doc_id for g in groups for m in g.members if not m.in_reference_folder)
    prior = set(random.Random(rule).sample(all_ids, len(all_ids) // 3))
    svc.set_marked(prior, True)
    folder = str(library / "b") if "folder" in rule else None
    expected = _expected(groups, prior, rule, folder)
    svc.apply_mark_rule(rule, folder=folder)
    assert svc.marked_ids() == expected
    assert not any(m.doc_id in expected for g in groups for m in g.members if m.in_reference_folder)


def test_rules_scoped_to_one_group_leave_the_others_alone(svc):
    groups = svc.groups()
    first, second = groups[0], groups[1]
    other_copy = next(m for m in second.members if not m.is_reference)
    svc.set_marked([other_copy.doc_id], True)
    keep = first.members[-1]
    svc.apply_mark_rule("keep_only", group_ids=[first.id], keep_id=keep.doc_id)
    assert svc.marked_ids() == {m.doc_id for m in first.members if m is not keep} | {
        other_copy.doc_id
    }
    svc.apply_mark_rule("all_but_reference", group_ids=[first.id])
    assert svc.marked_ids() == {m.doc_id for m in first.members if not m.is_reference} | {
        other_copy.doc_id
    }


def test_a_keep_rule_on_a_hand_made_pair(tmp_path):
    """Stated by hand: keep the newest of two, the reference being the older copy."""
    old = docgen.write_txt(tmp_path / "d" / "old.txt", docgen.SAMPLE_EN)
    new = docgen.write_txt(tmp_path / "d" / "new.txt", docgen.SAMPLE_EN)
    os.utime(old, (1_600_000_000, 1_600_000_000))
    os.utime(new, (1_700_000_000, 1_700_000_000))
    with DedupService(tmp_path / "db.sqlite3") as svc:
        svc.add_folder(tmp_path / "d")
        svc.scan(workers=1)
        by_name = {Path(m.path).name: m.doc_id for m in svc.groups()[0].members}
        svc.apply_mark_rule("newest")
        assert svc.marked_ids() == {by_name["old.txt"]}
        svc.apply_mark_rule("oldest")
        assert svc.marked_ids() == {by_name["new.txt"]}
        svc.apply_mark_rule("invert")  # leaves the reference (old.txt) alone: unmarked
        assert svc.marked_ids() == set()
        plan = svc.marked_for_removal()
        assert plan.doc_ids == () and plan.whole_groups == ()
        svc.set_marked(by_name.values(), True)
        plan = svc.marked_for_removal()
        assert sorted(plan.doc_ids) == sorted(by_name.values())
        assert plan.whole_groups == (svc.groups()[0].id,)
        assert plan.size == old.stat().st_size + new.stat().st_size
        with pytest.raises(DedupError):
            svc.apply_mark_rule("keep_in_folder")
        with pytest.raises(DedupError):
            svc.apply_mark_rule("no such rule")
