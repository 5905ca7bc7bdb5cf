"""A small read-only table of pre-formatted rows (problems, journal, ignored pairs, results).

These lists are short (hundreds, not hundreds of thousands), so they are loaded whole.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt

ModelIndex = QModelIndex | QPersistentModelIndex
ROW_PAYLOAD_ROLE = Qt.ItemDataRole.UserRole + 1


class RowsModel(QAbstractTableModel):
    """Rows of strings with headers; each row may carry a payload object for the caller."""

    def __init__(self, headers: Sequence[str], parent: QObject | None = None):
        super().__init__(parent)
        self._headers = list(headers)
        self._rows: list[list[str]] = []
        self._payloads: list[Any] = []

    def set_rows(
        self, rows: Sequence[Sequence[str]], payloads: Sequence[Any] | None = None
    ) -> None:
        self.beginResetModel()
        self._rows = [[str(c) for c in r] for r in rows]
        self._payloads = list(payloads) if payloads is not None else [None] * len(self._rows)
        self.endResetModel()

    def rows(self) -> list[list[str]]:
        return [list(r) for r in self._rows]

    def headers(self) -> list[str]:
        return list(self._headers)

    def payload(self, row: int) -> Any:
        return self._payloads[row] if 0 <= row < len(self._payloads) else None

    def rowCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._headers)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if (
            orientation == Qt.Orientation.Horizontal
            and role == Qt.ItemDataRole.DisplayRole
            and 0 <= section < len(self._headers)
        ):
            return self._headers[section]
        return None

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        row = self._rows[index.row()]
        if not 0 <= index.column() < len(row):
            return None
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return row[index.column()]
        if role == ROW_PAYLOAD_ROLE:
            return self._payloads[index.row()]
        return None

    def flags(self, index: ModelIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return (
            Qt.ItemFlag.ItemIsEnabled
            | Qt.ItemFlag.ItemIsSelectable
            | Qt.ItemFlag.ItemNeverHasChildren
        )
