"""The folder list: what gets scanned, and which folders are references (always kept).

With an OpRunner, adding, removing and ticking a folder are mutations on the writer thread
(making a folder a reference regroups everything: seconds on a large index), and the panel
refreshes itself when the change hub says the folders changed.
"""

from __future__ import annotations

import logging
import os
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QIcon
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop_dedup.core.pathrules import is_inside
from desktop_dedup.core.pathrules import shown as shown_path
from desktop_dedup.gui import dialogs
from desktop_dedup.gui.formatting import plural
from desktop_dedup.gui.models.members import named_icon
from desktop_dedup.gui.reasons import translate_reason

log = logging.getLogger(__name__)

PATH_ROLE = Qt.ItemDataRole.UserRole + 1
#: Folders inside a listed one that the last scan could not read, named in its tooltip.
_INNER_SHOWN = 5


def local_dirs_from_mime(mime: Any) -> list[str]:
    """Local directories among dropped URLs (files and remote URLs are ignored)."""
    if not mime.hasUrls():
        return []
    paths = [dialogs.local_path(url) for url in mime.urls() if url.isLocalFile()]
    return [p for p in paths if os.path.isdir(p)]


class FolderList(QListWidget):
    """A list that accepts folders dropped from a file manager."""

    foldersDropped = Signal(object)  # a list of paths: a Qt string would drop a byte not UTF-8

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setAcceptDrops(True)
        self.setDragDropMode(QListWidget.DragDropMode.DropOnly)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if local_dirs_from_mime(event.mimeData()):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event: Any) -> None:
        if local_dirs_from_mime(event.mimeData()):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dropEvent(self, event: QDropEvent) -> None:
        folders = local_dirs_from_mime(event.mimeData())
        if folders:
            event.acceptProposedAction()
            self.foldersDropped.emit(folders)
        else:
            event.ignore()


class FolderPanel(QWidget):
    """Add/remove folders; the checkbox of a folder makes it a reference folder."""

    foldersChanged = Signal()

    def __init__(self, service: Any, parent: QWidget | None = None, *, ops: Any = None):
        super().__init__(parent)
        self._service = service
        self._ops = ops
        if ops is not None:
            ops.changed.connect(self._on_changes)
        # each row's folder, kept here: a Qt string drops a byte of a name that is not UTF-8
        self._paths: list[str] = []
        self._problems: dict[str, str] = {}
        self.list = FolderList()
        self.list.setAccessibleName(self.tr("Folders to scan"))
        self.list.setToolTip(
            self.tr(
                "Folders to scan. Tick a folder to make it a reference folder: "
                "its files are always kept and never marked or removed. "
                "You can drop folders here."
            )
        )
        self.hint = QLabel(self.tr("Add folders with the button or drop them here."))
        self.hint.setWordWrap(True)
        self.reference_hint = QLabel(
            self.tr("Tick a folder to make it a reference: its files are always kept.")
        )
        self.reference_hint.setWordWrap(True)
        self.reference_hint.setEnabled(False)  # drawn in the muted colour of help text
        self.add_button = QPushButton(self.tr("Add folder…"))
        self.remove_button = QPushButton(self.tr("Remove"))
        self.add_button.setAccessibleName(self.tr("Add folder"))
        self.remove_button.setAccessibleName(self.tr("Remove folder"))
        try:
            from desktop_dedup.resources import icon

            self.add_button.setIcon(icon("folder-add"))
            self.remove_button.setIcon(icon("folder-remove"))
        except Exception:
            log.debug("folder icons unavailable")

        buttons = QHBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.hint)
        layout.addWidget(self.reference_hint)
        layout.addLayout(buttons)

        self.add_button.clicked.connect(self.choose_and_add)
        self.remove_button.clicked.connect(self.remove_selected)
        self.list.foldersDropped.connect(self.add_folders)
        self.list.itemChanged.connect(self._on_item_changed)
        self.list.itemSelectionChanged.connect(self._update_buttons)
        self.refresh()

    def _on_changes(self, changes: Any) -> None:
        if changes.folders:
            self.refresh()
            self.foldersChanged.emit()

    def _write(self, fn: Any, refresh: bool = True) -> None:
        """A folder mutation: on the writer with ops (the hub refreshes), else here and now."""
        if self._ops is not None:
            self._ops.write(fn, label="folders")
        else:
            fn(self._service)
            if refresh:
                self.refresh()
            self.foldersChanged.emit()

    def set_service(self, service: Any) -> None:
        self._service = service
        self.refresh()

    def folders(self) -> list[tuple[str, bool]]:
        """(path, is_reference) as shown."""
        result = []
        for i in range(self.list.count()):
            item = self.list.item(i)
            result.append((self._path(item), item.checkState() == Qt.CheckState.Checked))
        return result

    def refresh(self) -> None:
        self.list.blockSignals(True)
        try:
            self.list.clear()
            folders = self._service.folders()
            self._paths = [folder.path for folder in folders]
            # what the last scan said of a folder it could not read (not found, ...)
            self._problems = self._service.folder_problems()
            for folder in folders:
                item = QListWidgetItem(shown_path(folder.path))
                item.setData(PATH_ROLE, folder.path)
                item.setFlags(
                    Qt.ItemFlag.ItemIsEnabled
                    | Qt.ItemFlag.ItemIsSelectable
                    | Qt.ItemFlag.ItemIsUserCheckable
                )
                item.setCheckState(
                    Qt.CheckState.Checked if folder.is_reference else Qt.CheckState.Unchecked
                )
                self._decorate(item, folder.is_reference, folder.path)
                self.list.addItem(item)
        finally:
            self.list.blockSignals(False)
        self.hint.setVisible(self.list.count() == 0)
        self.reference_hint.setVisible(self.list.count() > 0)
        self._update_buttons()

    def retitle(self) -> None:
        """Each folder's text again, as it is shown now (a name read in its code page)."""
        self.list.blockSignals(True)
        try:
            for i in range(self.list.count()):
                item = self.list.item(i)
                checked = item.checkState() == Qt.CheckState.Checked
                self._decorate(item, checked, self._path(item))
        finally:
            self.list.blockSignals(False)

    def choose_and_add(self) -> None:
        path = dialogs.current().choose_folder(self, self.tr("Add a folder to scan"))
        if path:
            self.add_folders([path])

    def add_folders(self, paths: list[str]) -> None:
        good = []
        for path in paths:
            if not os.path.isdir(path):
                dialogs.current().warning(
                    self,
                    self.tr("Not a folder"),
                    self.tr("{path} is not a folder.").format(path=path),
                )
                continue
            good.append(path)
        if good:
            self._write(lambda service: [service.add_folder(p) for p in good])

    def remove_selected(self) -> None:
        items = self.list.selectedItems()
        if not items:
            return
        paths = [self._path(item) for item in items]
        self._write(lambda service: [service.remove_folder(p) for p in paths])

    def set_reference(self, path: str, reference: bool) -> None:
        self._write(lambda service: service.set_folder_reference(path, reference))

    def _on_item_changed(self, item: QListWidgetItem) -> None:
        reference = item.checkState() == Qt.CheckState.Checked
        path = self._path(item)
        self.list.blockSignals(True)
        self._decorate(item, reference, path)
        self.list.blockSignals(False)
        # the item already shows the new state: no refresh (it would replace the item)
        self._write(lambda service: service.set_folder_reference(path, reference), False)

    def _path(self, item: QListWidgetItem) -> str:
        return self._paths[self.list.row(item)]

    def _decorate(self, item: QListWidgetItem, reference: bool, folder: str) -> None:
        path = shown_path(folder)
        if reference:
            text = self.tr("{path}  (reference: always kept)").format(path=path)
            tip = self.tr("Reference folder: files here are never marked or removed.")
        else:
            text, tip = path, self.tr("Tick to make this a reference folder.")
        problem = self._problems.get(folder)
        # a share not mounted inside it, a subfolder it could not list: their files were kept
        inner = sorted(p for p in self._problems if p != folder and is_inside(p, folder))
        if problem:  # an unplugged drive, a share not mounted: its files were kept
            text = self.tr("{folder}  (not read at the last scan)").format(folder=text)
            tip = (
                self.tr(
                    "The last scan could not read this folder: {reason}. Its files are kept as "
                    "the scan before left them; to drop them, remove the folder from the list "
                    "or choose Forget kept files… in the Problems list."
                ).format(reason=translate_reason(problem))
                + "\n"
                + tip
            )
        elif inner:
            text = self.tr("{folder}  (a folder inside not read at the last scan)").format(
                folder=text
            )
            lines = [
                self.tr("The last scan could not read {path}: {reason}.").format(
                    path=shown_path(p), reason=translate_reason(self._problems[p])
                )
                for p in inner[:_INNER_SHOWN]
            ]
            if len(inner) > _INNER_SHOWN:
                more = len(inner) - _INNER_SHOWN
                lines.append(plural(self.tr("… and %n more folder(s).", "", more), more))
            lines.append(
                self.tr(
                    "Their files are kept as the scan before left them; to drop them, choose "
                    "Forget kept files… in the Problems list."
                )
            )
            tip = "\n".join([*lines, tip])
        item.setText(text)
        item.setToolTip(tip)
        # seen in a narrow list too, where the words after a long path are cut off
        item.setIcon((named_icon("problems") or QIcon()) if problem or inner else QIcon())

    def _update_buttons(self) -> None:
        self.remove_button.setEnabled(bool(self.list.selectedItems()))
