"""The documents close to one group: each in no group, verified the same as one member of the
group but not as every member, so the rule against chaining keeps it out (README, How matching
works). Shown under the group's files. They are not the group's duplicates: no rule marks them
with it. A checkbox marks one by hand, after its review; it is then removed like a near
duplicate of the member it is closest to, only while that member stays (service._candidates).
Its checkbox is the members' (MarkedRows).
"""

from __future__ import annotations

import os
from typing import Any

from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor

from desktop_dedup.core.pathrules import shown as shown_path
from desktop_dedup.gui.formatting import format_similarity, format_size
from desktop_dedup.gui.models.members import MarkedRows

ModelIndex = QModelIndex | QPersistentModelIndex

CLOSE_NAME, CLOSE_FOLDER, CLOSE_SIZE, CLOSE_SIMILARITY, CLOSE_MEMBER = range(5)


class CloseModel(MarkedRows):
    """Rows are ``Group.close`` in the service's order (closest first)."""

    def __init__(self, service: Any, parent: QObject | None = None, *, ops: Any = None):
        super().__init__(service, parent, ops=ops)
        self._close: list[Any] = []

    def _rows(self) -> list[Any]:
        return self._close

    def set_group(self, group: Any | None) -> None:
        self.beginResetModel()
        self._close = list(group.close) if group is not None else []
        self._marked = self._read_marks()
        self.endResetModel()

    def document(self, row: int) -> Any | None:
        return self._row(row)

    def rowCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._close)

    def columnCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else 5

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal or role != Qt.ItemDataRole.DisplayRole:
            return None
        headers = (
            self.tr("Name"),
            self.tr("Folder"),
            self.tr("Size"),
            self.tr("Similarity"),
            self.tr("Closest to"),
        )
        return headers[section] if 0 <= section < len(headers) else None

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        c = self.document(index.row()) if index.isValid() else None
        if c is None:
            return None
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if column == CLOSE_NAME:
                return os.path.basename(shown_path(c.path))
            if column == CLOSE_FOLDER:
                return os.path.dirname(shown_path(c.path))
            if column == CLOSE_SIZE:
                return format_size(c.size)
            if column == CLOSE_SIMILARITY:
                return format_similarity(c.similarity)
            if column == CLOSE_MEMBER:
                return os.path.basename(shown_path(c.member_path))
            return None
        if role == Qt.ItemDataRole.CheckStateRole:
            return self._check_state(index)
        if role == Qt.ItemDataRole.ForegroundRole and c.doc_id in self._marked:
            return QBrush(QColor("#b3261e"))
        if role == Qt.ItemDataRole.ToolTipRole:
            return self.tr(
                "Shares {share} of its text with {member}, but not enough with every file of "
                "this group to be one of its duplicates: no rule marks it with the group. "
                "Select it to compare the two; tick it to remove it while {member} is kept.\n"
                "{path}"
            ).format(
                share=format_similarity(c.similarity),
                member=shown_path(c.member_path),
                path=shown_path(c.path),
            )
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (CLOSE_SIZE, CLOSE_SIMILARITY):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.AccessibleTextRole and column == CLOSE_NAME:
            text = self.tr("{name}, close to {member}").format(
                name=os.path.basename(shown_path(c.path)),
                member=os.path.basename(shown_path(c.member_path)),
            )
            if c.doc_id not in self._marked:
                return text
            marked = self.tr("marked")
            return f"{text} {marked}"
        return None
