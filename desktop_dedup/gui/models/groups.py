"""Lazy table of duplicate groups: pages from ``service.group_page`` as the view scrolls.

Why lazy: a library with 100,000 groups must show its first screen at once. The model asks the
service for the total (one COUNT) and the first page only; ``canFetchMore``/``fetchMore`` bring
in further pages when the view nears the end. Sorting and filtering are done by the service in
SQL (a proxy model would need every row loaded), so both simply restart the paging.

With an :class:`~desktop_dedup.gui.ops.OpRunner` the count and the first page of a reload are
read off the GUI thread (a filter on 100,000 groups takes longer than a frame); ``reloaded``
is emitted once the new rows are in. Later pages (``fetchMore``) are single indexed reads.
"""

from __future__ import annotations

import logging
import os
import re
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
)

from desktop_dedup.core.pathrules import shown as shown_path
from desktop_dedup.gui.formatting import (
    format_similarity,
    format_size,
    kind_explanation,
    kind_label,
    plural,
)

log = logging.getLogger(__name__)

ModelIndex = QModelIndex | QPersistentModelIndex

PAGE_SIZE = 200

COL_KIND, COL_FILES, COL_RECLAIMABLE, COL_REFERENCE, COL_FOLDER, COL_SIMILARITY = range(6)
SORT_KEYS = {
    COL_KIND: "kind",
    COL_FILES: "members",
    COL_RECLAIMABLE: "reclaimable",
    COL_REFERENCE: "path",
    COL_FOLDER: "path",
    COL_SIMILARITY: "similarity",
}
GROUP_ID_ROLE = Qt.ItemDataRole.UserRole + 1


class GroupsModel(QAbstractTableModel):
    """One row per group; ``GROUP_ID_ROLE`` gives the group id for any cell."""

    #: Emitted after a reload with the filtered total, so status lines can update.
    totalChanged = Signal(int)
    #: Emitted when a filter could not be applied (e.g. a bad regular expression).
    filterError = Signal(str)
    #: Emitted when a reload has put its rows in (at once without ops, later with them).
    reloaded = Signal()

    def __init__(
        self,
        service: Any,
        parent: QObject | None = None,
        page_size: int = PAGE_SIZE,
        *,
        ops: Any = None,
    ):
        super().__init__(parent)
        self._service = service
        self._ops = ops
        self._page_size = page_size
        self._rows: list[Any] = []
        self._total = 0
        self._sort_key = "reclaimable"
        self._descending = True
        self._sort_column = COL_RECLAIMABLE
        self._filter_text = ""
        self._filter_regex = False

    # -- public API --------------------------------------------------------------------------
    @property
    def total(self) -> int:
        """Groups matching the current filter (loaded or not)."""
        return self._total

    @property
    def loaded(self) -> int:
        return len(self._rows)

    @property
    def sort_column(self) -> int:
        return self._sort_column

    @property
    def sort_order(self) -> Qt.SortOrder:
        return Qt.SortOrder.DescendingOrder if self._descending else Qt.SortOrder.AscendingOrder

    def set_service(self, service: Any) -> None:
        self._service = service
        self.reload()

    def summary(self, row: int) -> Any | None:
        """The GroupSummary at ``row`` (None when out of range)."""
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def group_id(self, row: int) -> int | None:
        summary = self.summary(row)
        return summary.id if summary is not None else None

    def row_of_group(self, group_id: int) -> int | None:
        """Row of a loaded group; used to restore the selection after a reload."""
        for row, summary in enumerate(self._rows):
            if summary.id == group_id:
                return row
        return None

    def set_filter(self, text: str, regex: bool = False) -> bool:
        """Filter by member path text (or regex); False (and old filter kept) if it is invalid."""
        if regex and text:
            # The store evaluates REGEXP with Python's re and treats a bad pattern as "no
            # match"; check here so the user hears why instead of seeing an empty list.
            try:
                re.compile(text)
            except re.error as exc:
                self.filterError.emit(str(exc))
                return False
        self._filter_text = text
        self._filter_regex = regex
        self.reload()
        return True

    def reload(self) -> None:
        """Start paging again from the top (after a scan, a removal, a new sort or filter)."""
        query = (self._filter_text, self._filter_regex, self._sort_key, self._descending)
        size = self._page_size

        def fetch(service: Any) -> tuple[int, list[Any]]:
            text, regex, sort, descending = query
            total = service.group_count(text=text, regex=regex)
            page = service.group_page(
                0, size, sort=sort, descending=descending, text=text, regex=regex
            )
            return total, list(page) if total else []

        if self._ops is None:
            self._apply(fetch(self._service))
        else:
            self._ops.read(fetch, self._apply, key="groups-reload", label="groups")

    def _apply(self, result: tuple[int, list[Any]]) -> None:
        self.beginResetModel()
        self._total, self._rows = result
        self.endResetModel()
        self.totalChanged.emit(self._total)
        self.reloaded.emit()

    def ensure_loaded(self, row: int) -> None:
        """Fetch pages until ``row`` is loaded (for keyboard "next group" past the last page)."""
        while row >= len(self._rows) and self.canFetchMore(QModelIndex()):
            self.fetchMore(QModelIndex())

    # -- Qt model interface ------------------------------------------------------------------
    def rowCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else 6

    def canFetchMore(self, parent: ModelIndex) -> bool:
        return not parent.isValid() and len(self._rows) < self._total

    def fetchMore(self, parent: ModelIndex) -> None:
        if parent.isValid():
            return
        page = self._page(len(self._rows))
        # The filtered total can shrink between calls (another thread removed files); never
        # insert beyond what the service really returned.
        if not page:
            self._total = len(self._rows)
            return
        first = len(self._rows)
        self.beginInsertRows(QModelIndex(), first, first + len(page) - 1)
        self._rows.extend(page)
        self.endInsertRows()

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal or role != Qt.ItemDataRole.DisplayRole:
            return None
        headers = (
            self.tr("Kind"),
            self.tr("Files"),
            self.tr("Reclaimable"),
            self.tr("Reference file"),
            self.tr("Folder"),
            self.tr("Similarity"),
        )
        return headers[section] if 0 <= section < len(headers) else None

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        summary = self._rows[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if column == COL_KIND:
                return kind_label(summary.kind)
            if column == COL_FILES:
                if summary.close_count:  # files close to it, not among its members
                    return self.tr("{members}+{close}").format(
                        members=summary.member_count, close=summary.close_count
                    )
                return str(summary.member_count)
            if column == COL_RECLAIMABLE:
                return format_size(summary.reclaimable_size)
            if column == COL_REFERENCE:
                return os.path.basename(shown_path(summary.reference_path))
            if column == COL_FOLDER:
                return os.path.dirname(shown_path(summary.reference_path))
            if column == COL_SIMILARITY:
                return format_similarity(summary.min_similarity)
            return None
        if role == Qt.ItemDataRole.ToolTipRole:
            if column == COL_KIND:
                return kind_explanation(summary.kind)
            if column in (COL_REFERENCE, COL_FOLDER):
                return shown_path(summary.reference_path)
            if column == COL_SIMILARITY:
                return self.tr(
                    "The least share of text any member has in common with the reference"
                )
            if column == COL_FILES and summary.close_count:
                return plural(
                    self.tr(
                        "%n more file(s) close to this group, not the same as every file in "
                        "it: listed below its files",
                        "",
                        summary.close_count,
                    ),
                    summary.close_count,
                )
            return None
        if role == Qt.ItemDataRole.TextAlignmentRole:
            if column in (COL_FILES, COL_RECLAIMABLE, COL_SIMILARITY):
                return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            return None
        if role == GROUP_ID_ROLE:
            return summary.id
        return None

    def flags(self, index: ModelIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return (
            Qt.ItemFlag.ItemIsEnabled
            | Qt.ItemFlag.ItemIsSelectable
            | Qt.ItemFlag.ItemNeverHasChildren
        )

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        key = SORT_KEYS.get(column)
        if key is None:
            return
        self._sort_column = column
        self._sort_key = key
        self._descending = order == Qt.SortOrder.DescendingOrder
        # Paging restarts from the top in the new order (a reset, not a layout change: the loaded
        # rows are replaced, not permuted).
        self.reload()

    # -- internals ---------------------------------------------------------------------------
    def _page(self, offset: int) -> list[Any]:
        if offset >= self._total:
            return []
        return list(
            self._service.group_page(
                offset,
                self._page_size,
                sort=self._sort_key,
                descending=self._descending,
                text=self._filter_text,
                regex=self._filter_regex,
            )
        )
