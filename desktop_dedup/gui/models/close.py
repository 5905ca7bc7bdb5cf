"""The documents close to one group: each in no group, verified the same as one member of the
group but not as every member, so the rule against chaining keeps it out (README, How matching
works). Shown under the group's files, never checkable: they are not the group's duplicates,
and nothing marks or removes them with it.
"""

from __future__ import annotations

import os
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt

from desktop_dedup.gui.formatting import format_similarity, format_size

ModelIndex = QModelIndex | QPersistentModelIndex

CLOSE_NAME, CLOSE_FOLDER, CLOSE_SIZE, CLOSE_SIMILARITY, CLOSE_MEMBER = range(5)


class CloseModel(QAbstractTableModel):
    """Rows are ``Group.close`` in the service's order (closest first)."""

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._close: list[Any] = []

    def set_group(self, group: Any | None) -> None:
        self.beginResetModel()
        self._close = list(group.close) if group is not None else []
        self.endResetModel()

    def document(self, row: int) -> Any | None:
        return self._close[row] if 0 <= row < len(self._close) else None

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
                return os.path.basename(c.path)
            if column == CLOSE_FOLDER:
                return os.path.dirname(c.path)
            if column == CLOSE_SIZE:
                return format_size(c.size)
            if column == CLOSE_SIMILARITY:
                return format_similarity(c.similarity)
            if column == CLOSE_MEMBER:
                return os.path.basename(c.member_path)
            return None
        if role == Qt.ItemDataRole.ToolTipRole:
            return self.tr(
                "Shares {share} of its text with {member}, but not enough with every file of "
                "this group to be one of its duplicates: it is never marked or removed with "
                "it. Select it to compare the two.\n{path}"
            ).format(share=format_similarity(c.similarity), member=c.member_path, path=c.path)
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (CLOSE_SIZE, CLOSE_SIMILARITY):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.AccessibleTextRole and column == CLOSE_NAME:
            return self.tr("{name}, close to {member}").format(
                name=os.path.basename(c.path), member=os.path.basename(c.member_path)
            )
        return None

    def flags(self, index: ModelIndex) -> Qt.ItemFlag:
        if not index.isValid() or self.document(index.row()) is None:
            return Qt.ItemFlag.NoItemFlags
        return (
            Qt.ItemFlag.ItemIsEnabled
            | Qt.ItemFlag.ItemIsSelectable
            | Qt.ItemFlag.ItemNeverHasChildren
        )
