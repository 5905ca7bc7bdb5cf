"""Issue 9 item 6 and 7 in the app: restore from the journal, move keeping the folder structure,
hard links instead of copies, the external diff tool, and what the scan's filters skipped.

:func:`install` adds all of it to a :class:`~desktop_dedup.gui.main_window.MainWindow` (one line
there): the journal opens with a *Restore selected* button, *Move marked to folder…* asks for
the folder with a *Keep the folder structure* box, *Actions → Replace marked by hard links…*,
*Review → Open both in external diff tool* (``Ctrl+D``) with *Settings → External diff tool…*,
and the scan's status message says what the filters passed over. Long work (restore, move,
link) runs as the window's background tasks.
"""

from __future__ import annotations

import logging
from typing import Any

from PySide6.QtCore import QObject, QSettings
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QMenu,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop_dedup.core import external_diff
from desktop_dedup.core.pathrules import shown as shown_path
from desktop_dedup.gui import dialogs
from desktop_dedup.gui.formatting import format_size, plural
from desktop_dedup.gui.list_dialogs import JournalDialog
from desktop_dedup.gui.reasons import translate_reason

log = logging.getLogger(__name__)

DIFF_COMMAND_KEY = "external_diff/command"


class MoveTargetDialog(QDialog):
    """The folder to move the marked files to, and whether to keep their folders."""

    def __init__(self, title: str, start: str = "", parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(title)
        self.path = QLineEdit(start)
        self.path.setAccessibleName(self.tr("Target folder"))
        browse = QPushButton(self.tr("Browse…"))
        browse.clicked.connect(self._browse)
        self.keep_structure = QCheckBox(self.tr("Keep the folder structure"))
        self.keep_structure.setToolTip(
            self.tr(
                "Each file keeps its folders below the scanned folder it came from "
                "(docs/2023/a.txt goes to TARGET/2023/a.txt); otherwise all go directly into "
                "the target folder."
            )
        )
        row = QHBoxLayout()
        row.addWidget(self.path, 1)
        row.addWidget(browse)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(self.tr("Folder:")))
        layout.addLayout(row)
        layout.addWidget(self.keep_structure)
        layout.addWidget(self.buttons)
        self.resize(560, self.sizeHint().height())

    def folder(self) -> str:
        return self.path.text().strip()

    def _browse(self) -> None:
        chosen = QFileDialog.getExistingDirectory(self, self.windowTitle(), self.folder())
        if chosen:
            self.path.setText(chosen)


class RestoreJournalDialog(JournalDialog):
    """The removal journal with *Restore selected*: files sent to the trash or moved to a
    folder go back to where they were (see core/restore.py)."""

    def __init__(self, extras: ReviewActions, parent: QWidget | None = None):
        self._extras = extras
        super().__init__(extras.window.service.journal(), parent)
        self.restore_button = QPushButton(self.tr("Restore selected"))
        self.restore_button.setToolTip(
            self.tr(
                "Put the selected removed files back at their original paths. Each is checked "
                "against the content recorded here; a name that is taken is never overwritten."
            )
        )
        self.buttons.insertWidget(0, self.restore_button)
        self.restore_button.clicked.connect(self.restore_selected)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.view.selectionModel().selectionChanged.connect(lambda *_: self._update_button())
        self._restorable: set[int] = set()
        self.refresh()

    def refresh(self) -> None:
        service = self._extras.window.service
        self.show_entries(service.journal())
        self._restorable = {e.id for e in service.restorable()}
        self._update_button()

    def selected_ids(self) -> list[int]:
        rows = sorted({i.row() for i in self.view.selectionModel().selectedRows()})
        return [self.model.payload(r).id for r in rows]

    def restorable_selected(self) -> list[int]:
        return [i for i in self.selected_ids() if i in self._restorable]

    def _update_button(self) -> None:
        self.restore_button.setEnabled(bool(self.restorable_selected()))

    def select_entries(self, entry_ids: set[int]) -> None:
        """Select the rows of these journal entries (what a click would do)."""
        flags = self.view.selectionModel().SelectionFlag
        self.view.clearSelection()
        for row in range(self.model.rowCount()):
            if self.model.payload(row).id in entry_ids:
                self.view.selectionModel().select(
                    self.model.index(row, 0), flags.Select | flags.Rows
                )
        self._update_button()

    def restore_selected(self) -> Any:
        ids = self.restorable_selected()
        if not ids:
            return None
        return self._extras.restore(ids, on_done=lambda _results: self.refresh())


class ReviewActions(QObject):
    """What :func:`install` adds to the main window."""

    def __init__(self, window: Any):
        super().__init__(window)
        self.window = window
        self.last_restore_results: list[Any] = []
        self._settings: QSettings = getattr(window, "_settings", None) or QSettings()

        # The journal, with Restore.
        window.act_journal.triggered.disconnect()
        window.act_journal.triggered.connect(lambda _checked=False: self.show_journal())
        window.show_journal = self.show_journal

        self.act_hardlink = QAction(self.tr("Replace marked by hard links…"), window)
        self.act_hardlink.setStatusTip(
            self.tr(
                "Replace each marked identical copy by a hard link to the copy kept: the space "
                "is freed and both names stay"
            )
        )
        self.act_hardlink.triggered.connect(lambda _checked=False: self.hardlink_marked())
        self.act_external_diff = QAction(self.tr("Open both in external diff tool"), window)
        self.act_external_diff.setShortcut(QKeySequence("Ctrl+D"))
        self.act_external_diff.triggered.connect(lambda _checked=False: self.open_external_diff())
        self.act_diff_tool = QAction(self.tr("External diff tool…"), window)
        self.act_diff_tool.triggered.connect(lambda _checked=False: self.choose_diff_tool())
        for action in (self.act_hardlink, self.act_external_diff, self.act_diff_tool):
            window.addAction(action)  # shortcuts work wherever focus is in the window
        window._mutating_actions.append(self.act_hardlink)  # waits while a task runs
        self._add_to_menu(window.act_move, self.act_hardlink)
        self._add_to_menu(window.act_copy_path, self.act_external_diff)
        self._add_to_menu(window.act_settings, self.act_diff_tool)

        window.scanFinished.connect(self._on_scan_finished)

    def _add_to_menu(self, neighbour: QAction, action: QAction) -> None:
        for top in self.window.menuBar().actions():
            menu: QMenu | None = top.menu()
            if menu is None:
                continue
            items = menu.actions()
            if neighbour in items:
                after = items.index(neighbour) + 1
                menu.insertAction(items[after] if after < len(items) else None, action)
                return
        self.window.menuBar().addAction(action)

    # ------------------------------------------------------------------ journal and restore
    def show_journal(self) -> Any:
        return self.window._show_dialog("journal", RestoreJournalDialog(self, self.window))

    def restore(self, entry_ids: list[int], on_done: Any = None) -> Any:
        """Put the files of these journal entries back; then a scan of the listed folders
        (which reads only what came back) shows those inside them in the results again."""

        def job(service: Any, progress: Any, cancel: Any) -> Any:
            results = service.restore(entry_ids)
            return results, service.in_listed_folders(r.path for r in results if r.ok)

        def done(outcome: Any) -> None:
            results, listed = list(outcome[0]), outcome[1]
            self.last_restore_results = results
            ok = [r for r in results if r.ok]
            failed = [r for r in results if not r.ok]
            if listed:
                text = self.tr(
                    "Restored %n file(s); scanning the folders to bring the results up to date…",
                    "",
                    len(ok),
                )
            elif ok:
                text = self.tr(
                    "Restored %n file(s) outside the listed folders: the results show only "
                    "files in the list's folders.",
                    "",
                    len(ok),
                )
            else:
                text = self.tr("Restored %n file(s).", "", len(ok))
            self.window.statusBar().showMessage(plural(text, len(ok)), 15000)
            if failed:
                dialogs.current().warning(
                    self.window,
                    self.tr("Some files were not restored"),
                    "\n".join(
                        f"{shown_path(r.path)}: {translate_reason(r.reason)}" for r in failed
                    ),
                )
            if on_done is not None:
                on_done(results)
            if listed:
                self.window.start_scan()

        return self.window._start_task("restore", self.tr("Restoring…"), job, done)

    # ------------------------------------------------------------------ move keeping folders
    def move_marked(self) -> None:
        """Plan (off the GUI thread, main_window), ask for the folder and whether to keep the
        folder structure, then move the marked files there as a task."""
        self.window._plan_marked_removal(self._move_planned)

    def _move_planned(self, plan: Any) -> Any:
        w = self.window
        choice = dialogs.current().choose_move_folder(w, self.tr("Move the marked files to"))
        if not choice:
            return None
        target, keep_structure = choice
        if not w._confirm_whole_groups(list(plan.whole_groups)):
            return None
        include_near = w._include_near(plan)
        if include_near is None:
            return None
        count, size = plan.going(include_near)
        informative = self.tr(
            "Files with the same name get a number added; nothing is overwritten."
        )
        if keep_structure:
            informative = (
                self.tr("Each keeps its folders below the scanned folder it came from.")
                + " "
                + informative
            )
        if not dialogs.current().confirm(
            w,
            self.tr("Move to folder"),
            plural(self.tr("Move %n file(s) ({size}) to {folder}?", "", count), count).format(
                size=format_size(size), folder=target
            ),
            informative=informative,
            ok_text=self.tr("Move"),
        ):
            return None
        ids = list(plan.doc_ids)

        def job(service: Any, progress: Any, cancel: Any) -> Any:
            return service.move(
                ids,
                target,
                progress=progress,
                cancel=cancel,
                include_near=include_near,
                keep_structure=keep_structure,
            )

        return w._start_task("move", self.tr("Moving files…"), job, w._on_action_done)

    # ------------------------------------------------------------------ hard links
    def hardlink_marked(self) -> None:
        """Plan (off the GUI thread), find which marked files are identical to a kept copy
        (from the index, off the GUI thread too), ask, then link them as a task."""

        def planned(plan: Any) -> None:
            ids = list(plan.doc_ids)
            self.window.ops.read(
                lambda s: s.linkable_ids(ids),
                lambda linkable: self._hardlink_planned(plan, linkable),
                key="linkable",
                label="plan",
            )

        self.window._plan_marked_removal(planned)

    def _hardlink_planned(self, plan: Any, linkable: dict[int, int]) -> Any:
        w = self.window
        if not linkable:
            dialogs.current().info(
                w,
                self.tr("Replace by hard links"),
                self.tr(
                    "None of the marked files can be replaced by a hard link: only copies with "
                    "the very same bytes as a kept copy, on the same drive, can."
                ),
            )
            return None
        link_ids = [d for d in plan.doc_ids if d in linkable]
        refused = len(plan.doc_ids) - len(link_ids)
        if not dialogs.current().confirm(
            w,
            self.tr("Replace by hard links"),
            plural(
                self.tr(
                    "Replace %n identical file(s) by hard links to the kept copy ({size} freed)?",
                    "",
                    len(link_ids),
                ),
                len(link_ids),
            ).format(size=format_size(sum(linkable[d] for d in link_ids))),
            informative=plural(
                self.tr(
                    "Both names stay and show the same file; a change made through one shows "
                    "in the other. %n marked file(s) are not identical copies and are left "
                    "alone.",
                    "",
                    refused,
                ),
                refused,
            ),
            ok_text=self.tr("Replace by hard links"),
        ):
            return None

        def job(service: Any, progress: Any, cancel: Any) -> Any:
            return service.hardlink(link_ids, progress=progress, cancel=cancel)

        return w._start_task("hardlink", self.tr("Linking files…"), job, w._on_action_done)

    # ------------------------------------------------------------------ external diff tool
    def diff_command(self) -> str:
        stored = self._settings.value(DIFF_COMMAND_KEY, "", type=str)
        return stored or external_diff.default_command()

    def choose_diff_tool(self) -> str | None:
        text, ok = QInputDialog.getText(
            self.window,
            self.tr("External diff tool"),
            self.tr(
                "The command that compares two files. {a} and {b} stand for the reference and "
                "the selected file (otherwise both are added at the end). Empty: the first of "
                "meld, kdiff3, kompare, code --diff… that is installed."
            ),
            QLineEdit.EchoMode.Normal,
            self.diff_command(),
        )
        if not ok:
            return None
        self.set_diff_command(text.strip())
        return text.strip()

    def set_diff_command(self, command: str) -> None:
        self._settings.setValue(DIFF_COMMAND_KEY, command)

    def open_external_diff(self) -> list[str] | None:
        w = self.window
        group, member = w.current_group(), w.current_member()
        if group is None or member is None or member.doc_id == group.reference.doc_id:
            w.statusBar().showMessage(
                self.tr("Select a file other than the reference to compare it with the reference."),
                6000,
            )
            return None
        command = self.diff_command()
        if not command:
            dialogs.current().warning(
                w,
                self.tr("External diff tool"),
                self.tr(
                    "No diff tool was found (meld, kdiff3, kompare, Visual Studio Code…). "
                    "Install one, or set its command in Settings → External diff tool…"
                ),
            )
            return None
        try:
            argv = external_diff.command_argv(command, group.reference.path, member.path)
            dialogs.current().start_program(argv)
        except (OSError, ValueError) as exc:
            dialogs.current().error(
                w,
                self.tr("External diff tool"),
                self.tr("Could not start {command}.").format(command=command),
                str(exc),
            )
            return None
        return argv

    # ------------------------------------------------------------------ scan summary
    def filtered_summary(self, counts: Any) -> str:
        """What the scan's filters passed over, in words ("" when nothing)."""
        parts = []
        if counts.other_types:
            top = sorted(counts.by_extension.items(), key=lambda kv: (-kv[1], kv[0]))[:4]
            types = ", ".join(f"{'.' + e if e else self.tr('no extension')} {n}" for e, n in top)
            parts.append(
                plural(self.tr("%n of other types", "", counts.other_types), counts.other_types)
                + f" ({types})"
            )
        if counts.not_text:
            parts.append(
                plural(
                    self.tr("%n without an extension that are not text", "", counts.not_text),
                    counts.not_text,
                )
            )
        if counts.scripts:
            parts.append(
                plural(
                    self.tr("%n script(s) without an extension (#!)", "", counts.scripts),
                    counts.scripts,
                )
            )
        excluded = counts.excluded_files + counts.excluded_folders
        if excluded:
            parts.append(plural(self.tr("%n excluded by a pattern", "", excluded), excluded))
        if counts.too_small:
            parts.append(
                plural(self.tr("%n under the minimum size", "", counts.too_small), counts.too_small)
            )
        if counts.hard_links:
            parts.append(
                plural(
                    self.tr("%n hard links to a file already listed", "", counts.hard_links),
                    counts.hard_links,
                )
            )
        if not parts:
            return ""
        return self.tr("Not scanned: {parts}.").format(parts="; ".join(parts))

    def _on_scan_finished(self, summary: Any) -> None:
        counts = getattr(summary, "filtered", None)
        text = self.filtered_summary(counts) if counts is not None else ""
        if not text:
            return
        bar = self.window.statusBar()
        current = bar.currentMessage()
        message = f"{current} {text}" if current else text
        bar.showMessage(message, 15000)
        bar.setToolTip(message)


def install(window: Any) -> ReviewActions:
    """Add restore, move keeping folders, hard links, the external diff tool and the filter
    counts to ``window``; kept as ``window.review_actions``."""
    extras = ReviewActions(window)
    window.review_actions = extras
    return extras


__all__ = ["MoveTargetDialog", "RestoreJournalDialog", "ReviewActions", "install"]
