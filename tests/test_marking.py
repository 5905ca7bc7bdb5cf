"""Marking rules: what each rule marks, and that references are never marked."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from desktop_dedup.core import marking
from desktop_dedup.core.marking import KeepRule
from desktop_dedup.core.models import Group, GroupKind, Member

BASE = datetime(2024, 1, 1, tzinfo=UTC)


def member(doc_id, path, *, size=100, age_days=0, ref=False, ref_folder=False) -> Member:
    return Member(
        doc_id=doc_id,
        path=path,
        size=size,
        modified=BASE - timedelta(days=age_days),
        format="txt",
        is_reference=ref,
        distance=0,
        similarity=1.0,
        in_reference_folder=ref_folder,
    )


@pytest.fixture
def group() -> Group:
    return Group(
        id=1,
        kind=GroupKind.NEAR,
        members=[
            member(1, "/docs/a/report.txt", size=300, age_days=30, ref=True),
            member(2, "/docs/backup/old/report.txt", size=100, age_days=40),
            member(3, "/docs/b/report-final.txt", size=500, age_days=1),
            member(4, "/docs/b/r.txt", size=200, age_days=10),
        ],
    )


def test_mark_all_but_reference(group):
    assert marking.mark_all_but_reference([group]) == {2, 3, 4}


@pytest.mark.parametrize(
    ("rule", "kept"),
    [
        (KeepRule.NEWEST, 3),
        (KeepRule.OLDEST, 2),
        (KeepRule.LARGEST, 3),
        (KeepRule.SMALLEST, 2),
        (KeepRule.SHORTEST_PATH, 4),
    ],
)
def test_keep_rules_keep_chosen_member_and_reference(group, rule, kept):
    marked = marking.mark_keeping([group], rule)
    assert kept not in marked
    assert 1 not in marked  # the reference is kept whatever the rule says
    assert marked == {2, 3, 4} - {kept}


def test_keep_in_folder(group):
    assert marking.mark_keeping([group], KeepRule.IN_FOLDER, "/docs/b") == {2}
    # No member in the folder: nothing is marked for that group.
    assert marking.mark_keeping([group], "in_folder", "/elsewhere") == set()
    with pytest.raises(ValueError):
        marking.mark_keeping([group], KeepRule.IN_FOLDER)


def test_folder_match_is_by_component(group):
    # "/docs/b" must not match "/docs/backup/...".
    assert marking.mark_in_folder([group], "/docs/b") == {3, 4}
    assert marking.mark_in_folder([group], "/docs/backup") == {2}
    assert marking.mark_in_folder([group], "/docs/a") == set()  # only the reference lives there


def test_reference_folder_members_never_marked(group):
    group.members[2].in_reference_folder = True
    assert marking.mark_all_but_reference([group]) == {2, 4}
    assert 3 not in marking.invert_marks([group], set())
    assert marking.mark_in_folder([group], "/docs/b") == {4}


def test_invert_and_clear(group):
    assert marking.invert_marks([group], {2}) == {3, 4}
    assert marking.invert_marks([group], {2, 3, 4}) == set()
    assert marking.clear_marks() == set()


def test_fully_marked_groups_detects_whole_group(group):
    assert marking.fully_marked_groups([group], {2, 3, 4}) == []
    assert marking.fully_marked_groups([group], {1, 2, 3, 4}) == [group]


def test_marked_members_in_order(group):
    assert [m.doc_id for m in marking.marked_members([group, group], {4, 2})] == [2, 4]


@st.composite
def groups_strategy(draw):
    groups = []
    next_id = 1
    for gid in range(draw(st.integers(1, 5))):
        n = draw(st.integers(2, 6))
        ref_index = draw(st.integers(0, n - 1))
        members = []
        for i in range(n):
            members.append(
                member(
                    next_id,
                    draw(st.sampled_from(["/a/x.txt", "/b/y/x.txt", "/b/z.txt", "/c/longer/x.md"]))
                    + str(next_id),
                    size=draw(st.integers(1, 1000)),
                    age_days=draw(st.integers(0, 100)),
                    ref=i == ref_index,
                    ref_folder=draw(st.booleans()),
                )
            )
            next_id += 1
        groups.append(Group(id=gid, kind=GroupKind.NEAR, members=members))
    return groups


@given(groups_strategy(), st.sampled_from(list(KeepRule)), st.sampled_from(["/a", "/b", "/c"]))
def test_no_rule_ever_marks_a_protected_member_or_whole_group(groups, rule, folder):
    protected = {
        m.doc_id for g in groups for m in g.members if m.is_reference or m.in_reference_folder
    }
    results = [
        marking.mark_keeping(groups, rule, folder),
        marking.mark_all_but_reference(groups),
        marking.mark_in_folder(groups, folder),
        marking.invert_marks(groups, marking.mark_in_folder(groups, folder)),
    ]
    for marked in results:
        assert not marked & protected
        assert marking.fully_marked_groups(groups, marked) == []
