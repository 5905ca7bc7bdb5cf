"""The members of one group, with a checkbox per markable member.

Checking a box writes the mark to the store (through the window's writer thread when an
:class:`~desktop_dedup.gui.ops.OpRunner` is given); documents in reference folders have no
checkbox at all. Marks live in the store only: the model keeps the marks of the group it shows,
read from the store when the group is set and again on :meth:`refresh_marks` (the window calls it
when the change hub says marks changed), never a set shared with other widgets.
"""

from __future__ import annotations

import os
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtGui import QBrush, QColor, QFont, QIcon

from desktop_dedup.core import pathrules
from desktop_dedup.core.marking import is_markable
from desktop_dedup.core.pathrules import shown as shown_path
from desktop_dedup.gui.formatting import format_datetime, format_similarity, format_size

ModelIndex = QModelIndex | QPersistentModelIndex

COL_NAME, COL_FOLDER, COL_SIZE, COL_MODIFIED, COL_FORMAT, COL_SIMILARITY = range(6)
DOC_ID_ROLE = Qt.ItemDataRole.UserRole + 1


def named_icon(name: str) -> QIcon | None:
    """The UI icon ``name``, or None where it cannot be had (the views then draw none)."""
    try:
        from desktop_dedup.resources import icon
    except ImportError:
        return None
    try:
        result = icon(name)
    except Exception:
        return None
    return None if result.isNull() else result


class MarkedRows(QAbstractTableModel):
    """Rows of documents (each with ``doc_id`` and ``in_reference_folder``) with a checkbox in
    column 0 for those that may be marked: the marks read from the store for the rows shown
    (:meth:`refresh_marks`), and written through the window's writer when ``ops`` is given
    (the change hub then repaints from the store), else at once. A subclass says which rows
    it shows (:meth:`_rows`)."""

    #: (doc_ids, marked) after the user toggled marks through the model.
    marksChanged = Signal(list, bool)

    def __init__(self, service: Any, parent: QObject | None = None, *, ops: Any = None):
        super().__init__(parent)
        self._service = service
        self._ops = ops
        self._marked: set[int] = set()  # the marks of the rows shown, as the store says

    def _rows(self) -> list[Any]:
        raise NotImplementedError

    def _row(self, row: int) -> Any | None:
        rows = self._rows()
        return rows[row] if 0 <= row < len(rows) else None

    def set_service(self, service: Any) -> None:
        self._service = service

    @property
    def marked(self) -> frozenset[int]:
        """The marked documents among the rows shown (as last read from the store)."""
        return frozenset(self._marked)

    def _read_marks(self) -> set[int]:
        rows = self._rows()
        return set(self._service.marked_among([r.doc_id for r in rows])) if rows else set()

    def refresh_marks(self) -> None:
        """Re-read the rows' marks from the store and repaint what changed."""
        rows = self._rows()
        if rows:
            self._marked = self._read_marks()
            last = len(rows) - 1
            self.dataChanged.emit(self.index(0, 0), self.index(last, self.columnCount() - 1))

    def toggle(self, row: int) -> bool:
        """Flip the mark of ``row``; False when that document cannot be marked."""
        r = self._row(row)
        if r is None or not is_markable(r):
            return False
        state = Qt.CheckState.Unchecked if r.doc_id in self._marked else Qt.CheckState.Checked
        return self.setData(self.index(row, 0), state, Qt.ItemDataRole.CheckStateRole)

    def _check_state(self, index: ModelIndex) -> Any:
        """The checkbox of ``index`` (column 0 of a markable row), else None."""
        r = self._row(index.row()) if index.isValid() else None
        if r is None or index.column() != 0 or not is_markable(r):
            return None
        return Qt.CheckState.Checked if r.doc_id in self._marked else Qt.CheckState.Unchecked

    def _row_flags(self, index: ModelIndex) -> Qt.ItemFlag:
        r = self._row(index.row()) if index.isValid() else None
        if r is None:
            return Qt.ItemFlag.NoItemFlags
        flags = (
            Qt.ItemFlag.ItemIsEnabled
            | Qt.ItemFlag.ItemIsSelectable
            | Qt.ItemFlag.ItemNeverHasChildren
        )
        if index.column() == 0 and is_markable(r):
            flags |= Qt.ItemFlag.ItemIsUserCheckable
        return flags

    def flags(self, index: ModelIndex) -> Qt.ItemFlag:
        return self._row_flags(index)

    def setData(self, index: ModelIndex, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.CheckStateRole or index.column() != 0:
            return False
        r = self._row(index.row()) if index.isValid() else None
        if r is None or not is_markable(r):
            return False
        checked = _as_check_state(value) == Qt.CheckState.Checked
        doc_id = r.doc_id
        if self._ops is not None:
            # On the writer, after whatever is queued before it; the change hub brings the
            # store's answer back (refresh_marks), so the box shows what the database holds.
            self._ops.write(
                lambda service: service.set_marked([doc_id], checked),
                lambda _changes: self.marksChanged.emit([doc_id], checked),
                label="mark",
            )
            return True
        self._service.set_marked([doc_id], checked)
        self.refresh_marks()
        self.marksChanged.emit([doc_id], checked)
        return True


class MembersModel(MarkedRows):
    """Rows are ``Group.members`` in the service's order (reference first)."""

    def __init__(
        self,
        service: Any,
        marked: Any = None,  # unused: kept for callers of the old signature
        parent: QObject | None = None,
        *,
        ops: Any = None,
    ):
        super().__init__(service, parent, ops=ops)
        self._group: Any | None = None
        self._ref_icon = named_icon("reference")
        self._unread_icon = named_icon("problems")

    def _rows(self) -> list[Any]:
        return self._group.members if self._group is not None else []

    @property
    def group(self) -> Any | None:
        return self._group

    def set_group(self, group: Any | None) -> None:
        self.beginResetModel()
        self._group = group
        self._marked = self._read_marks()
        self.endResetModel()

    def member(self, row: int) -> Any | None:
        return self._row(row)

    def row_of_doc(self, doc_id: int) -> int | None:
        if self._group is None:
            return None
        for row, m in enumerate(self._group.members):
            if m.doc_id == doc_id:
                return row
        return None

    # -- Qt model interface ------------------------------------------------------------------
    def rowCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008
        if parent.isValid() or self._group is None:
            return 0
        return len(self._group.members)

    def columnCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else 6

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal or role != Qt.ItemDataRole.DisplayRole:
            return None
        headers = (
            self.tr("Name"),
            self.tr("Folder"),
            self.tr("Size"),
            self.tr("Modified"),
            self.tr("Format"),
            self.tr("Similarity"),
        )
        return headers[section] if 0 <= section < len(headers) else None

    def _where(self, path: str) -> str:
        """A file's path as a tooltip gives it: as shown, and when its name is not UTF-8 (so
        shown as read in a code page, or by escapes) with its exact bytes too."""
        if not pathrules.has_undecodable(path):
            return shown_path(path)
        return self.tr("{path}\nIts name on disk is not UTF-8: {exact}").format(
            path=shown_path(path), exact=pathrules.escaped(path)
        )

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        m = self.member(index.row()) if index.isValid() else None
        if m is None:
            return None
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if column == COL_NAME:
                return os.path.basename(shown_path(m.path))
            if column == COL_FOLDER:
                return os.path.dirname(shown_path(m.path))
            if column == COL_SIZE:
                return format_size(m.size)
            if column == COL_MODIFIED:
                return format_datetime(m.modified)
            if column == COL_FORMAT:
                return str(m.format).upper()
            if column == COL_SIMILARITY:
                return self.tr("reference") if m.is_reference else format_similarity(m.similarity)
            return None
        if role == Qt.ItemDataRole.CheckStateRole:
            return self._check_state(index)
        if role == Qt.ItemDataRole.ToolTipRole:
            where = self._where(m.path)
            if m.is_reference:
                return self.tr(
                    "Reference: the copy the others are compared with, kept unless you mark "
                    "it.\n{path}"
                ).format(path=where)
            if m.in_reference_folder:
                return self.tr("In a reference folder: always kept.\n{path}").format(path=where)
            if column == COL_FOLDER and m.in_unread_folder:
                return self.tr(
                    "In a folder the last scan could not read (a drive unplugged?): kept as "
                    "last scanned; it cannot be compared or removed until the folder is "
                    "back.\n{path}"
                ).format(path=where)
            if column == COL_SIMILARITY:
                return self.tr("Shares {share} of its text with the reference").format(
                    share=format_similarity(m.similarity)
                )
            return where
        if role == Qt.ItemDataRole.FontRole and m.is_reference:
            font = QFont()
            font.setBold(True)
            return font
        if role == Qt.ItemDataRole.ForegroundRole and m.doc_id in self._marked:
            return QBrush(QColor("#b3261e"))
        if role == Qt.ItemDataRole.DecorationRole and column == COL_NAME and m.is_reference:
            return self._ref_icon
        if role == Qt.ItemDataRole.DecorationRole and column == COL_FOLDER and m.in_unread_folder:
            return self._unread_icon
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (COL_SIZE, COL_SIMILARITY):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.AccessibleTextRole and column == COL_NAME:
            state = self.tr("marked") if m.doc_id in self._marked else ""
            return " ".join(p for p in (os.path.basename(shown_path(m.path)), state) if p)
        if role == DOC_ID_ROLE:
            return m.doc_id
        return None


def _as_check_state(value: Any) -> Qt.CheckState:
    """Views hand the new check state over as an int or as the enum, depending on the binding."""
    if isinstance(value, Qt.CheckState):
        return value
    try:
        return Qt.CheckState(int(value))
    except (TypeError, ValueError):
        return Qt.CheckState.Checked if value else Qt.CheckState.Unchecked
