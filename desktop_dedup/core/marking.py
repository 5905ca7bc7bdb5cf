"""Rules that decide which group members to mark for removal.

Pure functions over :class:`~desktop_dedup.core.models.Group` returning sets of document ids, so
the GUI (and anything else) can preview, combine and persist marks without touching the disk.

Safety is the point of this module. A document inside a reference folder is never marked, and
no rule marks every member of a group. A "keep" rule means what it says (issue 9): "keep the
newest" keeps the newest copy and marks every other one, the group's reference included when it
is not the newest; without that, a group of two (reference = the oldest) got nothing marked. The
other bulk rules (all but the reference, in a folder, invert) leave the reference alone. By hand
the reference may be marked too; the app and the CLI warn before a whole group would go.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from enum import StrEnum

from desktop_dedup.core import pathrules
from desktop_dedup.core.models import CloseDocument, Group, Member


class KeepRule(StrEnum):
    """Which member of each group to keep; everything else markable gets marked."""

    NEWEST = "newest"
    OLDEST = "oldest"
    LARGEST = "largest"
    SMALLEST = "smallest"
    SHORTEST_PATH = "shortest_path"
    IN_FOLDER = "in_folder"


def is_markable(member: Member | CloseDocument) -> bool:
    """A member may be marked (by hand or by a keep rule), or a document close to a group by
    hand, unless it lives in a reference folder."""
    return not member.in_reference_folder


def _bulk_markable(member: Member) -> bool:
    # "All but the reference", "in folder" and "invert" never touch the reference.
    return is_markable(member) and not member.is_reference


def markable_ids(groups: Iterable[Group]) -> set[int]:
    """Every document id in ``groups`` that may be marked."""
    return {m.doc_id for g in groups for m in g.members if is_markable(m)}


def is_in_folder(path: str, folder: str) -> bool:
    """True when ``path`` lies inside ``folder`` (or below it), comparing whole path components
    (``/data/a`` does not contain ``/data/ab/x.txt``); the one rule of
    :func:`desktop_dedup.core.pathrules.is_inside`."""
    return pathrules.is_inside(path, folder)


def mark_all_but_reference(groups: Iterable[Group]) -> set[int]:
    """Mark every member but the reference: the classic "keep one copy" choice."""
    return {m.doc_id for g in groups for m in g.members if _bulk_markable(m)}


def _keep_key(rule: KeepRule) -> Callable[[Member], tuple]:
    # The path is the final tie-breaker so the choice is deterministic.
    if rule is KeepRule.NEWEST:
        return lambda m: (-m.modified.timestamp(), m.path)
    if rule is KeepRule.OLDEST:
        return lambda m: (m.modified.timestamp(), m.path)
    if rule is KeepRule.LARGEST:
        return lambda m: (-m.size, m.path)
    if rule is KeepRule.SMALLEST:
        return lambda m: (m.size, m.path)
    if rule is KeepRule.SHORTEST_PATH:
        return lambda m: (len(m.path), m.path)
    raise ValueError(f"rule {rule!r} has no ordering")


def mark_keeping(
    groups: Iterable[Group], rule: KeepRule | str, folder: str | None = None
) -> set[int]:
    """Per group, keep the member chosen by ``rule`` and mark the other markable members.

    ``KeepRule.IN_FOLDER`` keeps every member inside ``folder``; a group with no member there is
    left unmarked, because keeping "the one in folder X" means nothing for it and guessing would
    risk removing the copy the user wanted.
    """
    rule = KeepRule(rule)
    marked: set[int] = set()
    if rule is KeepRule.IN_FOLDER:
        if not folder:
            raise ValueError("the in_folder rule needs a folder")
        for group in groups:
            kept = [m for m in group.members if is_in_folder(m.path, folder)]
            if not kept:
                continue
            kept_ids = {m.doc_id for m in kept}
            marked.update(
                m.doc_id for m in group.members if is_markable(m) and m.doc_id not in kept_ids
            )
        return marked
    key = _keep_key(rule)
    for group in groups:
        if len(group.members) < 2:
            continue
        keep = min(group.members, key=key)
        marked.update(m.doc_id for m in group.members if is_markable(m) and m is not keep)
    return marked


def mark_keeping_only(group: Group, keep_id: int) -> set[int]:
    """ "Keep this one": mark every other member of ``group`` (reference included)."""
    if all(m.doc_id != keep_id for m in group.members):
        raise ValueError(f"document {keep_id} is not in group {group.id}")
    return {m.doc_id for m in group.members if is_markable(m) and m.doc_id != keep_id}


def mark_in_folder(groups: Iterable[Group], folder: str) -> set[int]:
    """Mark the members (not the reference) inside ``folder`` (e.g. an old backup directory)."""
    return {
        m.doc_id
        for g in groups
        for m in g.members
        if _bulk_markable(m) and is_in_folder(m.path, folder)
    }


def invert_marks(groups: Iterable[Group], marked: Iterable[int]) -> set[int]:
    """The members of ``groups`` but the reference that are not in ``marked`` (marks elsewhere
    dropped)."""
    current = set(marked)
    return {m.doc_id for g in groups for m in g.members if _bulk_markable(m)} - current


def clear_marks() -> set[int]:
    """No marks at all; exists so every bulk action in the UI maps to one function here."""
    return set()


def fully_marked_groups(groups: Iterable[Group], marked: Iterable[int]) -> list[Group]:
    """Groups in which every member is marked: removing them would lose the document entirely.

    Rules here never produce that, but marks persist across regrouping (a changed threshold can
    turn a marked document into a reference), so callers check before removing anything.
    """
    current = set(marked)
    return [g for g in groups if g.members and all(m.doc_id in current for m in g.members)]


def marked_members(groups: Iterable[Group], marked: Iterable[int]) -> list[Member]:
    """The members of ``groups`` whose ids are in ``marked``, each once, in group order."""
    current = set(marked)
    seen: set[int] = set()
    result: list[Member] = []
    for g in groups:
        for m in g.members:
            if m.doc_id in current and m.doc_id not in seen:
                seen.add(m.doc_id)
                result.append(m)
    return result
