"""Dialogs that list things: problems (skipped files), the removal journal, ignored pairs,
and the outcome of a removal. Each can export its table as CSV.
"""

from __future__ import annotations

import csv
import logging
from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import QCoreApplication, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from desktop_dedup.core.pathrules import shown as shown_path
from desktop_dedup.gui import dialogs
from desktop_dedup.gui.formatting import format_datetime, format_size, plural
from desktop_dedup.gui.models.rows import RowsModel
from desktop_dedup.gui.reasons import action_label, reason_translator

log = logging.getLogger(__name__)


def write_csv(path: str, headers: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    """UTF-8 with BOM so spreadsheet programs read Chinese paths correctly."""
    with open(path, "w", encoding="utf-8-sig", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(headers)
        writer.writerows(rows)


class RowsDialog(QDialog):
    """A table of rows with Export… and Close; subclasses add their own buttons.

    Its own strings use ``QCoreApplication.translate("RowsDialog", ...)``: PySide's ``self.tr``
    looks up the *runtime* class name, which would miss them on ProblemsDialog etc.
    """

    def __init__(
        self,
        title: str,
        headers: Sequence[str],
        intro: str = "",
        parent: QWidget | None = None,
        *,
        empty: str = "",
    ):
        super().__init__(parent)
        self.setWindowTitle(title)
        # what the list says above its rows, and instead when it has none (else the same)
        self.intro_text, self.empty_text = intro, empty
        self.model = RowsModel(headers, self)
        self.view = QTableView()
        self.view.setModel(self.model)
        self.view.setAccessibleName(title)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setAlternatingRowColors(True)
        self.view.setWordWrap(False)
        self.view.verticalHeader().setVisible(False)
        self.view.horizontalHeader().setStretchLastSection(True)
        self.view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.intro = QLabel(intro)
        self.intro.setWordWrap(True)
        self.intro.setVisible(bool(intro))
        self.export_button = QPushButton(QCoreApplication.translate("RowsDialog", "Export…"))
        self.close_button = QPushButton(QCoreApplication.translate("RowsDialog", "Close"))
        self.export_button.clicked.connect(self.export)
        self.close_button.clicked.connect(self.accept)
        # Enter dismisses the list: the first button, Export…, was the default, and opened a
        # save dialog to someone closing a removal's list of files left in place
        self.export_button.setAutoDefault(False)
        self.close_button.setDefault(True)
        self.buttons = QHBoxLayout()
        self.buttons.addStretch(1)
        self.buttons.addWidget(self.export_button)
        self.buttons.addWidget(self.close_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.intro)
        layout.addWidget(self.view, 1)
        layout.addLayout(self.buttons)
        self.resize(900, 480)

    def set_rows(
        self, rows: Sequence[Sequence[str]], payloads: Sequence[Any] | None = None
    ) -> None:
        self.model.set_rows(rows, payloads)
        self.view.resizeColumnsToContents()
        self.export_button.setEnabled(bool(rows))
        text = self.intro_text if rows or not self.empty_text else self.empty_text
        self.intro.setText(text)
        self.intro.setVisible(bool(text))

    def export(self) -> str | None:
        path = dialogs.current().choose_save_file(
            self,
            QCoreApplication.translate("RowsDialog", "Export"),
            self.windowTitle() + ".csv",
            QCoreApplication.translate("RowsDialog", "CSV files (*.csv)"),
        )
        if not path:
            return None
        try:
            write_csv(path, self.model.headers(), self.model.rows())
        except OSError as exc:
            dialogs.current().error(
                self,
                QCoreApplication.translate("RowsDialog", "Export failed"),
                QCoreApplication.translate("RowsDialog", "Could not write {path}.").format(
                    path=path
                ),
                str(exc),
            )
            return None
        return path


class ProblemsDialog(RowsDialog):
    """The files the last scan skipped, and the folders it could not read: a folder whose
    files it kept as last scanned says how many, and *Forget kept files…* lets them go (a drive
    retired for good, a share that moved; service.forget_kept)."""

    #: the files kept from some folders were let go: what was said to the user (the window's
    #: status bar says it after the dialog)
    forgotten = Signal(str)

    def __init__(self, service: Any, parent: QWidget | None = None, *, ops: Any = None):
        super().__init__(
            self.tr("Problems"),
            [self.tr("File"), self.tr("Reason"), self.tr("Kept")],
            self._intro(kept=False),
            parent,
            empty=self.tr("No problems: every file was read."),
        )
        self._service = service
        self._ops = ops  # with an OpRunner the forgetting (a regroup) runs on its writer
        self.forget_button = QPushButton(self.tr("Forget kept files…"))
        self.forget_button.setToolTip(
            self.tr(
                "Let go of the files kept from the selected folders, which the last scan "
                "could not read: they leave the results. The files themselves are not touched."
            )
        )
        self.forget_button.setAutoDefault(False)
        self.buttons.insertWidget(0, self.forget_button)
        self.forget_button.clicked.connect(self.forget_selected)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.view.selectionModel().selectionChanged.connect(self._update_buttons)
        self.refresh()

    def refresh(self) -> None:
        """Read the problems and the kept folders again: on the reader thread when there is
        one (counting a drive's kept files reads the index), else here."""

        def read(service: Any) -> tuple[Any, Any]:
            return service.problems(), service.kept_folders()

        if self._ops is not None:
            self._ops.read(read, self._show, key="problems")
        else:
            self._show(read(self._service))

    def _show(self, found: tuple[Any, Any]) -> None:
        problems, kept_folders = found
        by_path = {k.path: k for k in kept_folders}
        shown = reason_translator()
        rows, payloads = [], []
        for p in problems:
            kept = by_path.pop(p.path, None)
            files = plural(self.tr("%n file(s)", "", kept.files), kept.files) if kept else ""
            rows.append((shown_path(p.path), shown(p.reason), files))
            payloads.append(kept)
        self.intro_text = self._intro(kept=any(payloads))
        self.set_rows(rows, payloads)
        self._update_buttons()

    def _intro(self, *, kept: bool) -> str:
        if not kept:
            return self.tr("These files were skipped. Everything else was scanned normally.")
        return self.tr(
            "These files were skipped. Everything else was scanned normally. A folder the scan "
            "could not read keeps its files as last scanned. If it is gone for good (a drive "
            "retired, a share moved), select it and choose Forget kept files…"
        )

    def _selected_kept(self) -> list[Any]:
        rows = sorted({i.row() for i in self.view.selectionModel().selectedRows()})
        return [k for k in map(self.model.payload, rows) if k is not None]

    def _update_buttons(self, *_args: Any) -> None:
        self.forget_button.setEnabled(bool(self._selected_kept()))

    def forget_selected(self) -> None:
        kept = self._selected_kept()
        if not kept:
            return
        files = sum(k.files for k in kept)
        text = (
            self.tr("Forget the {files} kept from {folder}?").format(
                files=plural(self.tr("%n file(s)", "", files), files),
                folder=shown_path(kept[0].path),
            )
            if len(kept) == 1
            else self.tr("Forget the {files} kept from {folders}?").format(
                files=plural(self.tr("%n file(s)", "", files), files),
                folders=plural(self.tr("%n folder(s)", "", len(kept)), len(kept)),
            )
        )
        if not dialogs.current().confirm(
            self,
            self.tr("Forget kept files"),
            text,
            ok_text=self.tr("Forget"),
            informative=self.tr(
                "They leave the results, with their groups and marks. The files themselves "
                "are not touched: a scan that finds them again reads them again."
            ),
        ):
            return
        paths = [k.path for k in kept]
        said = self.tr("Forgot {files}: they left the results (the files were not touched).")
        said = said.format(files=plural(self.tr("%n file(s)", "", files), files))

        def done(_forgotten: Any) -> None:
            self.refresh()
            self.forgotten.emit(said)

        if self._ops is not None:
            self._ops.write(
                lambda s: s.forget_kept(paths),
                done,
                # a scan since the list was shown may have read the folder: the list as it is
                on_error=lambda message, details: (
                    self.refresh(),
                    self._ops.failed.emit(message, details),
                ),
            )
        else:
            done(self._service.forget_kept(paths))


class JournalDialog(RowsDialog):
    def __init__(self, entries: Sequence[Any], parent: QWidget | None = None):
        super().__init__(
            self.tr("Removal journal"),
            [
                self.tr("Time"),
                self.tr("Action"),
                self.tr("Result"),
                self.tr("File"),
                self.tr("Destination"),
                self.tr("Size"),
                self.tr("Content hash"),
                self.tr("Reason"),
            ],
            self.tr("Every removal or move the app attempted, newest last."),
            parent,
            empty=self.tr(
                "No removals yet. The files you move to the trash or to a folder, or replace "
                "by hard links, will be listed here."
            ),
        )
        self.show_entries(entries)

    def show_entries(self, entries: Sequence[Any]) -> None:
        shown = reason_translator()  # looked up once, not once a row (a journal of thousands)
        self.set_rows(
            [
                (
                    format_datetime(e.time),
                    action_label(e.action),
                    self.tr("done") if e.ok else self.tr("refused"),
                    shown_path(e.path),
                    shown_path(e.destination),
                    format_size(e.size),
                    e.content_hash,
                    shown(e.reason),
                )
                for e in entries
            ],
            list(entries),
        )


class ActionResultsDialog(RowsDialog):
    """What went wrong in a removal: each refused file with its reason."""

    def __init__(self, results: Sequence[Any], parent: QWidget | None = None):
        failed = [r for r in results if not r.ok]
        done = len(results) - len(failed)
        super().__init__(
            self.tr("Some files were not removed"),
            [self.tr("File"), self.tr("Reason")],
            plural(self.tr("Removed %n file(s);", "", done), done)
            + plural(self.tr(" %n file(s) left in place:", "", len(failed)), len(failed)),
            parent,
        )
        shown = reason_translator()
        self.set_rows([(shown_path(r.path), shown(r.reason)) for r in failed], failed)


class IgnoredPairsDialog(RowsDialog):
    """Pairs marked "not duplicates"; removing them lets the pair group again."""

    def __init__(
        self,
        service: Any,
        parent: QWidget | None = None,
        on_change: Callable[[], None] | None = None,
        *,
        ops: Any = None,
    ):
        super().__init__(
            self.tr("Not duplicates"),
            [self.tr("File A"), self.tr("File B"), self.tr("Since")],
            self.tr(
                "Pairs you marked as not duplicates. They are matched by content, so they "
                "stay ignored when files are renamed."
            ),
            parent,
            empty=self.tr(
                "No pairs are ignored. To keep two files that are not duplicates out of the "
                "results, choose Actions → Not duplicates: ignore this pair."
            ),
        )
        self._service = service
        self._ops = ops  # with an OpRunner the regroup runs on its writer
        self._on_change = on_change
        self.remove_button = QPushButton(self.tr("Remove selected"))
        self.clear_button = QPushButton(self.tr("Clear all"))
        self.buttons.insertWidget(0, self.remove_button)
        self.buttons.insertWidget(1, self.clear_button)
        self.remove_button.clicked.connect(self.remove_selected)
        self.clear_button.clicked.connect(self.clear_all)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.refresh()

    def refresh(self) -> None:
        pairs = self._service.ignored_pairs()
        self.set_rows(
            [
                (shown_path(p.path_a), shown_path(p.path_b), format_datetime(p.created))
                for p in pairs
            ],
            list(pairs),
        )
        self.clear_button.setEnabled(bool(pairs))
        self.remove_button.setEnabled(bool(pairs))

    def remove_selected(self) -> None:
        rows = sorted({i.row() for i in self.view.selectionModel().selectedRows()})
        pairs = [self.model.payload(r) for r in rows]
        if not pairs:
            return
        self._clear([(p.hash_a, p.hash_b) for p in pairs])

    def clear_all(self) -> None:
        if not dialogs.current().confirm(
            self,
            self.tr("Clear all"),
            self.tr("Forget all {count} ignored pairs? They may be grouped again.").format(
                count=self.model.rowCount()
            ),
        ):
            return
        self._clear(None)

    def _clear(self, pairs: Any) -> None:
        """Forget ``pairs`` (all when None): a regroup, so on the writer when there is one."""
        if self._ops is not None:
            self._ops.write(lambda s: s.clear_ignored(pairs), lambda _c: self._changed())
        else:
            self._service.clear_ignored(pairs)
            self._changed()

    def _changed(self) -> None:
        self.refresh()
        if self._on_change is not None:
            self._on_change()
