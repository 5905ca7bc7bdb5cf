"""What a mutation of the service changed, so the faces can refresh what shows it.

Every public mutator of :class:`~desktop_dedup.core.service.DedupService` announces a
:class:`Changes` to the listeners registered with ``service.add_change_listener`` (and those that
returned nothing before return it too). The app carries it on one signal to its models and
panels; they refresh from it instead of guessing what an action might have touched. No Qt here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Changes:
    """Which kinds of state changed. ``mark_ids`` names the documents whose mark changed when
    that was cheap to know (empty otherwise: treat every mark as possibly changed)."""

    folders: bool = False
    settings: bool = False
    groups: bool = False
    marks: bool = False
    ignored: bool = False
    journal: bool = False
    mark_ids: frozenset[int] = field(default_factory=frozenset)

    def __or__(self, other: Changes) -> Changes:
        if not isinstance(other, Changes):
            return NotImplemented
        return Changes(
            folders=self.folders or other.folders,
            settings=self.settings or other.settings,
            groups=self.groups or other.groups,
            marks=self.marks or other.marks,
            ignored=self.ignored or other.ignored,
            journal=self.journal or other.journal,
            mark_ids=self.mark_ids | other.mark_ids,
        )

    def __bool__(self) -> bool:
        return any(
            (self.folders, self.settings, self.groups, self.marks, self.ignored, self.journal)
        )

    @classmethod
    def of_marks(cls, ids: Iterable[int] = ()) -> Changes:
        return cls(marks=True, mark_ids=frozenset(ids))


NOTHING = Changes()

ChangeListener = Callable[[Changes], None]


class ChangeAnnouncer:
    """The listeners of one service; a failing listener is logged, never breaks the mutation."""

    def __init__(self) -> None:
        self._listeners: list[ChangeListener] = []

    def add(self, listener: ChangeListener) -> None:
        self._listeners.append(listener)

    def remove(self, listener: ChangeListener) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    def announce(self, changes: Changes) -> Changes:
        if changes:
            for listener in list(self._listeners):
                try:
                    listener(changes)
                except Exception:  # a face's bug must not undo or hide a committed change
                    import logging

                    logging.getLogger(__name__).exception("change listener failed")
        return changes
