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
def test_keep_rules_keep_only_the_chosen_member(group, rule, kept):
    # Issue 9: "keep the newest" kept the reference as well, so a two-file group whose
    # reference is the oldest got nothing marked. Only the rule's choice stays now.
    marked = marking.mark_keeping([group], rule)
    assert marked == {1, 2, 3, 4} - {kept}


def test_keep_newest_of_two_marks_the_older_reference(group):
    ref, newer = group.members[0], group.members[2]
    pair = Group(id=2, kind=GroupKind.SAME_TEXT, members=[ref, newer])
    assert marking.mark_keeping([pair], KeepRule.NEWEST) == {ref.doc_id}
    assert marking.mark_keeping([pair], KeepRule.OLDEST) == {newer.doc_id}


def test_keep_this_one_marks_every_other_copy(group):
    assert marking.mark_keeping_only(group, 3) == {1, 2, 4}
    assert marking.mark_keeping_only(group, 1) == {2, 3, 4}
    with pytest.raises(ValueError):
        marking.mark_keeping_only(group, 99)


def test_reference_folders_stay_unmarked_by_keep_rules(group):
    members = [*group.members[:3], member(5, "/refs/report.txt", age_days=0, ref_folder=True)]
    g = Group(id=3, kind=GroupKind.NEAR, members=members)
    # The newest is in a reference folder: it is kept, and so is nothing else.
    assert marking.mark_keeping([g], KeepRule.NEWEST) == {1, 2, 3}
    assert 5 not in marking.mark_keeping_only(g, 1)


def test_keep_in_folder(group):
    assert marking.mark_keeping([group], KeepRule.IN_FOLDER, "/docs/b") == {1, 2}
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
    in_ref_folder = {m.doc_id for g in groups for m in g.members if m.in_reference_folder}
    references = {m.doc_id for g in groups for m in g.members if m.is_reference}
    keep_rule = marking.mark_keeping(groups, rule, folder)
    bulk = [
        marking.mark_all_but_reference(groups),
        marking.mark_in_folder(groups, folder),
        marking.invert_marks(groups, marking.mark_in_folder(groups, folder)),
    ]
    # A keep rule may mark the reference (it keeps its own choice), never a reference folder.
    assert not keep_rule & in_ref_folder
    assert marking.fully_marked_groups(groups, keep_rule) == []
    for g in groups:
        if len(g.members) >= 2 and rule != KeepRule.IN_FOLDER:
            assert len([m for m in g.members if m.doc_id not in keep_rule]) >= 1
    for g in groups:
        # Keep this one: every member of the group but that one and reference folders.
        for m in g.members:
            marked = marking.mark_keeping_only(g, m.doc_id)
            assert m.doc_id not in marked and not marked & in_ref_folder
    for marked in bulk:
        assert not marked & (in_ref_folder | references)
        assert marking.fully_marked_groups(groups, marked) == []
