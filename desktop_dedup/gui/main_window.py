"""The main window: folders, scan with progress, groups, members, side-by-side diff, actions.

Everything here adapts :class:`DedupService` calls to widgets. Calls that can take more than a
frame on a large database (regroups, pages and counts, diffs, marking rules, removal planning,
reports) are ops (:mod:`desktop_dedup.gui.ops`): reads on a reader thread, mutations on one
writer, each with its own service. Scans, trash and move run as tasks with progress
(:mod:`desktop_dedup.gui.tasks`). Only one-group reads stay on the GUI thread. Every mutation's
Changes arrive on ``self.ops.changed`` (the change hub), and the views refresh from it.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterable
from functools import partial
from typing import Any

from PySide6.QtCore import (
    QByteArray,
    QItemSelectionModel,
    QModelIndex,
    QSettings,
    QSize,
    Qt,
    QTimer,
    QUrl,
    Signal,
)
from PySide6.QtGui import (
    QAction,
    QActionGroup,
    QCloseEvent,
    QDragEnterEvent,
    QDropEvent,
    QFont,
    QFontMetrics,
    QGuiApplication,
    QIcon,
    QKeySequence,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QDockWidget,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMainWindow,
    QMenu,
    QPushButton,
    QSplitter,
    QStyle,
    QTableView,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from desktop_dedup.core import pathrules
from desktop_dedup.core.changes import Changes
from desktop_dedup.core.marking import KeepRule
from desktop_dedup.core.pathrules import shown as shown_path
from desktop_dedup.gui import dialogs, review_actions
from desktop_dedup.gui.diff_view import DiffView
from desktop_dedup.gui.folders import FolderPanel, local_dirs_from_mime
from desktop_dedup.gui.formatting import format_duration, format_size, plural
from desktop_dedup.gui.list_dialogs import (
    ActionResultsDialog,
    IgnoredPairsDialog,
    JournalDialog,
    ProblemsDialog,
)
from desktop_dedup.gui.models.close import CLOSE_FOLDER, CloseModel
from desktop_dedup.gui.models.groups import COL_FOLDER as COL_GROUP_FOLDER
from desktop_dedup.gui.models.groups import COL_RECLAIMABLE, PAGE_SIZE, GroupsModel
from desktop_dedup.gui.models.members import (
    COL_FOLDER,
    COL_MODIFIED,
    COL_NAME,
    COL_SIMILARITY,
    COL_SIZE,
    MembersModel,
)
from desktop_dedup.gui.ops import OpRunner
from desktop_dedup.gui.progress_panel import ProgressPanel
from desktop_dedup.gui.reasons import reason_translator
from desktop_dedup.gui.settings_dialog import SettingsDialog
from desktop_dedup.gui.tasks import ServiceTask, TaskHolder

log = logging.getLogger(__name__)

#: How often the window looks for changes another program or window made to its index (ms).
OUTSIDE_CHECK_MS = 2000

REPORT_FILTERS = {
    "html": "HTML (*.html)",
    "json": "JSON (*.json)",
    "csv": "CSV (*.csv)",
}


def _interface_language() -> str:
    try:
        from desktop_dedup import i18n

        return i18n.current_language()
    except ImportError:  # pragma: no cover - i18n ships with the app
        return "en"


def _icon(name: str) -> QIcon:
    try:
        from desktop_dedup.resources import icon

        return icon(name)
    except Exception:  # decoration only
        return QIcon()


FULL_SIZE = QSize(1400, 860)


def first_window_size(room: QSize) -> QSize:
    """The main window's size at its first start, on a screen with ``room`` for windows:
    FULL_SIZE, or what the room holds less the frame and title bar a window manager adds (a
    1366 x 768 or 1280 x 800 laptop, 1920 x 1080 at 150 %: 1280 x 720). It opened at FULL_SIZE
    whatever the screen, its status bar and the compared pane off a laptop's. A saved geometry
    that no longer fits (a smaller screen) Qt shrinks and moves onto the screen itself."""
    return FULL_SIZE.boundedTo(QSize(room.width() - 16, room.height() * 9 // 10))


class MainWindow(QMainWindow):
    """``trash`` replaces send2trash (tests send files to a test trash folder); ``page_size`` is
    how many groups the lazy model fetches at a time (the benchmark's non-lazy baseline sets it
    to everything)."""

    #: A scan ended (ScanSummary; ``cancelled`` tells whether it was stopped).
    scanFinished = Signal(object)
    #: A trash/move ended: list of ActionResult.
    actionFinished = Signal(object)
    #: A background task raised: message.
    taskFailed = Signal(str)
    #: The group shown in the members table changed (group id or -1).
    groupShown = Signal(int)
    #: A report was written: its path.
    exported = Signal(str)
    #: Another program or window changed the index (the views were refreshed).
    outsideChanged = Signal()
    #: The reader of names that are not UTF-8 is loaded (pathrules.read_names_off_thread):
    #: emitted from its thread, received on this one.
    namesReadable = Signal()

    def __init__(
        self,
        service: Any,
        *,
        trash: Callable[[str], None] | None = None,
        settings: QSettings | None = None,
        page_size: int = PAGE_SIZE,
        parent: QWidget | None = None,
    ):
        super().__init__(parent)
        self.service = service
        self._trash = trash
        self._settings = settings if settings is not None else QSettings()
        self._page_size = page_size
        self.ops = OpRunner(service.db_path, parent=self)
        # "Working…" shows only when an op runs long enough to notice (no flicker).
        self._busy_timer = QTimer(self)
        self._busy_timer.setSingleShot(True)
        self._busy_timer.setInterval(300)
        self._busy_timer.timeout.connect(lambda: self.busy_label.setVisible(self.ops.busy))
        self.ops.changed.connect(self._on_changes)
        # What this thread's own service changes (a dialog's quick edit) reaches the hub too.
        service.add_change_listener(self.ops.changed.emit)
        self.ops.failed.connect(self._on_op_failed)
        # Another program or window writing to this index (a CLI scan, a second window): the
        # window says so and shows the new state. Own work re-baselines the counter.
        self._db_version: int | None = None
        self._outside_timer = QTimer(self)
        self._outside_timer.setInterval(OUTSIDE_CHECK_MS)
        self._outside_timer.timeout.connect(self._check_outside_changes)
        self._outside_timer.start()
        self.ops.changed.connect(lambda _changes: self._rebaseline())
        self.ops.busyChanged.connect(lambda _busy: self._rebaseline())
        self._keep_selection: tuple[int | None, int | None] = (None, None)
        self.last_stats: Any = None
        self.tasks = TaskHolder(self)
        self.tasks.busyChanged.connect(self._on_busy_changed)
        self.last_scan_summary: Any = None
        self.last_action_results: list[Any] = []
        self.open_dialogs: dict[str, Any] = {}

        # Qt appends the application display name ("— Desktop Dedup") to window titles itself.
        self.setWindowTitle(self.tr("Duplicate documents"))
        self.setAcceptDrops(True)
        self._build_widgets()
        self._build_actions()
        self._build_menus_and_toolbar()
        self._restore_layout()
        self.ops.busyChanged.connect(self._on_ops_busy)

        self.reload_results()
        self._update_actions()
        review_actions.install(self)  # restore, move keeping folders, hard links, diff tool
        # A name that is not UTF-8 shows its escapes until its reader is loaded, off this thread
        self.namesReadable.connect(self._show_names_again)
        self._stop_reading_names = pathrules.read_names_off_thread(self._names_readable)

    def _names_readable(self) -> None:
        try:
            self.namesReadable.emit()
        except RuntimeError:  # the window is gone: nothing to show again
            pass

    def _show_names_again(self) -> None:
        """Every name on screen again, now read in its code page where it can be."""
        for view in (self.groups_view, self.members_view, self.close_view):
            view.viewport().update()
        self.folder_panel.retitle()
        self.diff_view.retitle()

    # ---------------------------------------------------------------- construction
    def _build_widgets(self) -> None:
        self.folder_panel = FolderPanel(self.service, ops=self.ops)
        self.folder_panel.foldersChanged.connect(self._on_folders_changed)
        self.folder_dock = QDockWidget(self.tr("Folders"), self)
        self.folder_dock.setObjectName("folders_dock")
        self.folder_dock.setWidget(self.folder_panel)
        # Closable, or Qt disables its View menu entry for good (and it could not come back).
        self.folder_dock.setFeatures(
            QDockWidget.DockWidgetFeature.DockWidgetMovable
            | QDockWidget.DockWidgetFeature.DockWidgetFloatable
            | QDockWidget.DockWidgetFeature.DockWidgetClosable
        )
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.folder_dock)

        self.filter_edit = QLineEdit()
        self.filter_edit.setPlaceholderText(self.tr("Filter groups by file path…"))
        self.filter_edit.setClearButtonEnabled(True)
        self.filter_edit.setAccessibleName(self.tr("Filter groups by path"))
        self.regex_box = QCheckBox(self.tr("Regex"))
        self.regex_box.setToolTip(self.tr("Treat the filter as a regular expression"))
        self._filter_timer = QTimer(self)
        self._filter_timer.setSingleShot(True)
        self._filter_timer.setInterval(250)
        self._filter_timer.timeout.connect(self.apply_filter)
        self.filter_edit.textChanged.connect(lambda _t: self._filter_timer.start())
        self.filter_edit.returnPressed.connect(self.apply_filter)
        self.regex_box.toggled.connect(lambda _c: self.apply_filter())

        self.groups_model = GroupsModel(self.service, self, page_size=self._page_size, ops=self.ops)
        self.groups_model.filterError.connect(self._on_filter_error)
        self.groups_model.reloaded.connect(self._on_groups_reloaded)
        self.groups_view = QTableView()
        self.groups_view.setAccessibleName(self.tr("Duplicate groups"))
        self.groups_view.setModel(self.groups_model)
        self._setup_table(self.groups_view, COL_GROUP_FOLDER)
        self.groups_view.horizontalHeader().setSortIndicator(
            COL_RECLAIMABLE, Qt.SortOrder.DescendingOrder
        )
        self.groups_view.setSortingEnabled(True)
        self.groups_view.selectionModel().currentRowChanged.connect(self._on_group_row_changed)
        self.groups_model.modelReset.connect(self._on_groups_reset)

        self.members_model = MembersModel(self.service, None, self, ops=self.ops)
        self.members_model.marksChanged.connect(self._on_marks_changed)
        self.members_view = QTableView()
        self.members_view.setAccessibleName(self.tr("Files in the selected group"))
        self.members_view.setModel(self.members_model)
        self._setup_table(self.members_view, COL_FOLDER)
        self.members_view.selectionModel().currentRowChanged.connect(self._on_member_row_changed)
        self.members_view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.members_view.customContextMenuRequested.connect(self._members_context_menu)

        # Documents close to the group but not the same as every file of it (not its
        # duplicates: no rule marks them); selecting one compares it with its closest member.
        self.close_model = CloseModel(self.service, self, ops=self.ops)
        self.close_model.marksChanged.connect(self._on_marks_changed)
        self.close_view = QTableView()
        self.close_view.setAccessibleName(self.tr("Files close to the selected group"))
        self.close_view.setModel(self.close_model)
        self._setup_table(self.close_view, CLOSE_FOLDER)
        self.close_view.selectionModel().currentRowChanged.connect(self._on_close_row_changed)
        self.close_view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.close_view.customContextMenuRequested.connect(self._close_context_menu)
        self.close_title = QLabel()
        self.close_title.setWordWrap(True)
        self.close_title.setToolTip(
            self.tr(
                "Each of these files is the same as one file of this group, but not as every "
                "file of it, so it is not one of its duplicates: no rule marks it with the "
                "group. Select one to compare it with the file it is closest to; tick it to "
                "remove it while that file is kept."
            )
        )

        self.diff_view = DiffView()
        self.diff_view.set_ops(self.ops)
        self.diff_view.rendered.connect(lambda *_a: self._update_actions())
        self.diff_view.failed.connect(lambda _m: self._update_actions())

        filter_row = QHBoxLayout()
        filter_row.setContentsMargins(0, 0, 0, 0)
        filter_row.addWidget(self.filter_edit, 1)
        filter_row.addWidget(self.regex_box)
        groups_box = QWidget()
        groups_layout = QVBoxLayout(groups_box)
        groups_layout.setContentsMargins(0, 0, 0, 0)
        groups_layout.addLayout(filter_row)
        groups_layout.addWidget(self.groups_view, 1)
        self.members_title = QLabel(self.tr("Files"))
        members_box = QWidget()
        members_layout = QVBoxLayout(members_box)
        members_layout.setContentsMargins(0, 0, 0, 0)
        members_layout.addWidget(self.members_title)
        members_layout.addWidget(self.members_view, 3)
        members_layout.addWidget(self.close_title)
        members_layout.addWidget(self.close_view, 1)
        self.close_title.setVisible(False)
        self.close_view.setVisible(False)

        self.left_splitter = QSplitter(Qt.Orientation.Vertical)
        self.left_splitter.addWidget(groups_box)
        self.left_splitter.addWidget(members_box)
        self.left_splitter.setStretchFactor(0, 3)
        self.left_splitter.setStretchFactor(1, 2)
        self.main_splitter = QSplitter(Qt.Orientation.Horizontal)
        self.main_splitter.addWidget(self.left_splitter)
        self.main_splitter.addWidget(self.diff_view)
        self.main_splitter.setStretchFactor(0, 1)
        self.main_splitter.setStretchFactor(1, 1)
        self.main_splitter.setChildrenCollapsible(False)

        self.progress_panel = ProgressPanel()
        self.progress_panel.cancelRequested.connect(self.cancel_task)

        central = QWidget()
        central_layout = QVBoxLayout(central)
        central_layout.setContentsMargins(4, 4, 4, 0)
        central_layout.addWidget(self.main_splitter, 1)
        central_layout.addWidget(self.progress_panel)
        self.setCentralWidget(central)

        self.status_label = QLabel()
        self.status_label.setAccessibleName(self.tr("Summary"))
        self.problems_button = QPushButton()
        self.problems_button.setFlat(True)
        self.problems_button.clicked.connect(self.show_problems)
        self.busy_label = QLabel(self.tr("Working…"))
        self.busy_label.setAccessibleName(self.tr("Working"))
        self.busy_label.setVisible(False)
        self.statusBar().addPermanentWidget(self.busy_label)
        self.statusBar().addPermanentWidget(self.problems_button)
        self.statusBar().addPermanentWidget(self.status_label)

    def _setup_table(self, view: QTableView, stretch_column: int) -> None:
        """Rows, eliding, and a header whose folder column takes the spare width (and gives it
        up first), so every column stays on screen at 1280x800; right-click the header to
        choose the columns. Widths, order and hidden columns are saved with the window."""
        view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        view.setAlternatingRowColors(True)
        view.setWordWrap(False)
        view.verticalHeader().setVisible(False)
        view.verticalHeader().setDefaultSectionSize(view.fontMetrics().height() + 8)
        header = view.horizontalHeader()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(stretch_column, QHeaderView.ResizeMode.Stretch)
        header.setMinimumSectionSize(48)
        header.setSectionsMovable(True)
        header.setHighlightSections(False)
        header.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        header.customContextMenuRequested.connect(
            lambda pos, h=header: self._choose_columns(h, pos)
        )
        view.setTextElideMode(Qt.TextElideMode.ElideMiddle)

    def _choose_columns(self, header: QHeaderView, pos: Any) -> None:
        menu = QMenu(self)
        model = header.model()
        visible = [c for c in range(header.count()) if not header.isSectionHidden(c)]
        for column in range(header.count()):
            title = model.headerData(column, Qt.Orientation.Horizontal)
            action = menu.addAction(str(title))
            action.setCheckable(True)
            action.setChecked(not header.isSectionHidden(column))
            # The last visible column cannot be hidden: an empty table helps nobody.
            action.setEnabled(not (visible == [column]))
            action.toggled.connect(lambda on, c=column: header.setSectionHidden(c, not on))
        menu.popup(header.mapToGlobal(pos))

    def _action(
        self,
        text: str,
        slot: Callable[[], Any],
        shortcut: QKeySequence | str | Iterable[Any] | None = None,
        icon: str = "",
        tip: str = "",
    ) -> QAction:
        action = QAction(text, self)
        if icon:
            action.setIcon(_icon(icon))
        if shortcut is not None:
            if isinstance(shortcut, (list, tuple)):
                action.setShortcuts([QKeySequence(s) for s in shortcut])
            else:
                action.setShortcut(QKeySequence(shortcut))
        if tip:
            action.setToolTip(tip)
            action.setStatusTip(tip)
        action.triggered.connect(lambda _checked=False: slot())
        self.addAction(action)  # shortcuts work wherever focus is in the window
        return action

    def _build_actions(self) -> None:
        self.act_add_folder = self._action(
            self.tr("Add folder…"),
            self.folder_panel.choose_and_add,
            QKeySequence.StandardKey.Open,
            "folder-add",
            self.tr("Add a folder to scan"),
        )
        self.act_scan = self._action(
            self.tr("Scan"),
            self.start_scan,
            QKeySequence.StandardKey.Refresh,
            "scan",
            self.tr("Scan the folders for duplicate documents"),
        )
        self.act_cancel = self._action(
            self.tr("Cancel"), self.cancel_task, "Esc", "cancel", self.tr("Stop the running task")
        )
        self.act_export = {
            fmt: self._action(label, partial(self.export_results, fmt), icon="export")
            for fmt, label in (
                ("html", self.tr("Export as HTML…")),
                ("csv", self.tr("Export as CSV…")),
                ("json", self.tr("Export as JSON…")),
            )
        }
        self.act_quit = self._action(self.tr("Quit"), self.close, QKeySequence.StandardKey.Quit)

        self.act_next_group = self._action(
            self.tr("Next group"), self.next_group, ["N", "Alt+Down"], "next"
        )
        self.act_previous_group = self._action(
            self.tr("Previous group"), self.previous_group, ["P", "Alt+Up"], "previous"
        )
        self.act_next_change = self._action(
            self.tr("Next change"), self.diff_view.next_change, "F8", "next"
        )
        self.act_previous_change = self._action(
            self.tr("Previous change"), self.diff_view.previous_change, "Shift+F8", "previous"
        )
        self.act_swap = self._action(
            self.tr("Swap sides"), self.diff_view.swap_sides, "Ctrl+Shift+X", "swap"
        )
        self.act_open = self._action(
            self.tr("Open file"), self.open_current_file, "Ctrl+Return", "open"
        )
        self.act_reveal = self._action(
            self.tr("Show in file manager"), self.reveal_current_file, "Ctrl+Shift+R", "reveal"
        )
        self.act_copy_path = self._action(
            self.tr("Copy path"), self.copy_current_path, "Ctrl+Shift+C", "copy"
        )

        self.act_toggle_mark = self._action(
            self.tr("Mark / unmark file"), self.toggle_mark_current, "M", "mark"
        )
        self.act_mark_group = self._action(
            self.tr("Mark all but the reference in this group"), self.mark_current_group, "Ctrl+M"
        )
        self.act_mark_all = self._action(
            self.tr("Mark all but the reference in every group"), self.mark_all_groups
        )
        self.act_keep = {
            rule: self._action(label, partial(self.apply_keep_rule, rule))
            for rule, label in (
                (KeepRule.NEWEST, self.tr("Keep the newest, mark the rest")),
                (KeepRule.OLDEST, self.tr("Keep the oldest, mark the rest")),
                (KeepRule.LARGEST, self.tr("Keep the largest, mark the rest")),
                (KeepRule.SMALLEST, self.tr("Keep the smallest, mark the rest")),
                (KeepRule.SHORTEST_PATH, self.tr("Keep the shortest path, mark the rest")),
            )
        }
        self.act_keep_this = self._action(
            self.tr("Keep this one, mark the others"), self.keep_current_member, "Ctrl+K"
        )
        self.act_keep_in_folder = self._action(
            self.tr("Keep the one in folder…"), self.keep_in_chosen_folder
        )
        self.act_mark_in_folder = self._action(
            self.tr("Mark everything in folder…"), self.mark_in_chosen_folder
        )
        self.act_invert = self._action(self.tr("Invert marks"), self.invert_marks, "Ctrl+I")
        self.act_clear_marks = self._action(
            self.tr("Clear all marks"), self.clear_marks, "Ctrl+Shift+M"
        )

        self.act_trash = self._action(
            self.tr("Move marked to trash…"),
            self.trash_marked,
            QKeySequence.StandardKey.Delete,
            "trash",
            self.tr("Move the marked files to the trash"),
        )
        self.act_move = self._action(
            self.tr("Move marked to folder…"), self.move_marked, icon="export"
        )
        self.act_ignore_pair = self._action(
            self.tr("Not duplicates: ignore this pair"), self.ignore_current_pair, icon="ignore"
        )
        self.act_ignore_group = self._action(
            self.tr("Not duplicates: ignore this group"), self.ignore_current_group, icon="ignore"
        )

        self.act_problems = self._action(self.tr("Problems…"), self.show_problems, icon="problems")
        self.act_journal = self._action(
            self.tr("Removal journal…"), self.show_journal, icon="journal"
        )
        self.act_ignored = self._action(self.tr("Ignored pairs…"), self.show_ignored)
        self.act_settings = self._action(
            self.tr("Settings…"),
            self.show_settings,
            QKeySequence.StandardKey.Preferences,
            "settings",
        )
        self.act_about = self._action(self.tr("About Desktop Dedup"), self.show_about, icon="about")

        # Actions that change files or the database must wait while a task runs.
        self._mutating_actions = [
            self.act_scan,
            self.act_trash,
            self.act_move,
            self.act_settings,
            self.act_toggle_mark,
            self.act_mark_group,
            self.act_mark_all,
            self.act_keep_this,
            self.act_keep_in_folder,
            self.act_mark_in_folder,
            self.act_invert,
            self.act_clear_marks,
            self.act_ignore_pair,
            self.act_ignore_group,
            self.act_add_folder,
            *self.act_keep.values(),
        ]

    def _build_menus_and_toolbar(self) -> None:
        bar = self.menuBar()
        file_menu = bar.addMenu(self.tr("&File"))
        file_menu.addAction(self.act_add_folder)
        file_menu.addAction(self.act_scan)
        file_menu.addAction(self.act_cancel)
        file_menu.addSeparator()
        export_menu = file_menu.addMenu(_icon("export"), self.tr("Export results"))
        for action in self.act_export.values():
            export_menu.addAction(action)
        file_menu.addSeparator()
        file_menu.addAction(self.act_quit)

        review = bar.addMenu(self.tr("&Review"))
        for action in (
            self.act_next_group,
            self.act_previous_group,
            None,
            self.act_next_change,
            self.act_previous_change,
            self.act_swap,
            None,
            self.act_open,
            self.act_reveal,
            self.act_copy_path,
        ):
            review.addSeparator() if action is None else review.addAction(action)

        mark = bar.addMenu(self.tr("&Mark"))
        mark.addAction(self.act_toggle_mark)
        mark.addAction(self.act_mark_group)
        mark.addAction(self.act_mark_all)
        mark.addSeparator()
        mark.addAction(self.act_keep_this)
        for action in self.act_keep.values():
            mark.addAction(action)
        mark.addAction(self.act_keep_in_folder)
        mark.addAction(self.act_mark_in_folder)
        mark.addSeparator()
        mark.addAction(self.act_invert)
        mark.addAction(self.act_clear_marks)

        actions = bar.addMenu(self.tr("&Actions"))
        actions.addAction(self.act_trash)
        actions.addAction(self.act_move)
        actions.addSeparator()
        actions.addAction(self.act_ignore_pair)
        actions.addAction(self.act_ignore_group)

        view = bar.addMenu(self.tr("&View"))
        view.addAction(self.folder_dock.toggleViewAction())
        view.addAction(self.act_problems)
        view.addAction(self.act_journal)
        view.addAction(self.act_ignored)

        settings = bar.addMenu(self.tr("&Settings"))
        settings.addAction(self.act_settings)
        self.language_menu = settings.addMenu(self.tr("Language"))
        self._build_language_menu()

        help_menu = bar.addMenu(self.tr("&Help"))
        help_menu.addAction(self.act_about)

        toolbar = QToolBar(self.tr("Main toolbar"))
        toolbar.setObjectName("main_toolbar")
        toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        for action in (
            self.act_add_folder,
            self.act_scan,
            self.act_cancel,
            None,
            self.act_previous_group,
            self.act_next_group,
            self.act_toggle_mark,
            self.act_trash,
            None,
            self.act_export["html"],
        ):
            toolbar.addSeparator() if action is None else toolbar.addAction(action)
        self.addToolBar(Qt.ToolBarArea.TopToolBarArea, toolbar)
        self.toolbar = toolbar

    def _build_language_menu(self) -> None:
        try:
            from desktop_dedup import i18n
        except ImportError:
            self.language_menu.setEnabled(False)
            return
        group = QActionGroup(self)
        stored = i18n.stored_language()
        self.act_language_system = QAction(self.tr("Follow the system"), self, checkable=True)
        self.act_language_system.setChecked(stored == i18n.SYSTEM)
        self.act_language_system.triggered.connect(partial(self._choose_language, i18n.SYSTEM))
        group.addAction(self.act_language_system)
        self.language_menu.addAction(self.act_language_system)
        self.language_menu.addSeparator()
        for code, name in i18n.available_languages():
            action = QAction(name, self, checkable=True)
            action.setChecked(code == stored)
            action.triggered.connect(partial(self._choose_language, code))
            group.addAction(action)
            self.language_menu.addAction(action)

    def _choose_language(self, code: str, _checked: bool = False) -> None:
        from desktop_dedup import i18n

        i18n.set_language(code)
        dialogs.current().info(
            self,
            self.tr("Language"),
            self.tr("The new language will be used the next time you start the app."),
        )

    # ---------------------------------------------------------------- layout persistence
    def _first_size(self) -> QSize:
        """The window's size before any is saved (:func:`first_window_size`), on its screen."""
        screen = self.screen() or QGuiApplication.primaryScreen()
        if screen is None:
            return FULL_SIZE
        return first_window_size(screen.availableGeometry().size())

    def _restore_layout(self) -> None:
        self.resize(self._first_size())
        s = self._settings
        for key, restore in (
            ("window/geometry", self.restoreGeometry),
            ("window/state", self.restoreState),
            ("window/main_splitter", self.main_splitter.restoreState),
            ("window/left_splitter", self.left_splitter.restoreState),
            ("window/diff_splitter", self.diff_view.splitter.restoreState),
        ):
            value = s.value(key)
            if isinstance(value, QByteArray) and not value.isEmpty():
                restore(value)
        self._first_layout = s.value("window/main_splitter") is None
        self._members_sized = False
        for key, view in (
            ("window/groups_header", self.groups_view),
            ("window/members_header", self.members_view),
        ):
            value = s.value(key)
            if isinstance(value, QByteArray) and not value.isEmpty():
                view.horizontalHeader().restoreState(value)
                self._members_sized = self._members_sized or view is self.members_view
            elif view is self.groups_view:
                metrics = self.groups_view.fontMetrics()
                wide = self.width() >= FULL_SIZE.width()
                for column, sample in (
                    (0, "Near duplicate"),  # the longest kind, in English
                    (1, "999"),
                    (2, "999.9 MB"),
                    # a shorter name where the window is narrower than it is made for: a
                    # longer one left the Similarity column no room beside the scroll bar of
                    # a hundred groups at 1280 x 800 ("Similari"); names elide in the middle
                    (3, "a-typical-file-name.txt" if wide else "a-file-name.txt"),
                    (5, "100.0 %"),
                ):
                    width = metrics.horizontalAdvance(sample) + 28
                    self.groups_view.setColumnWidth(column, width)
        self.regex_box.setChecked(s.value("filter/regex", False, type=bool))

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        if self._first_layout:
            # Sizes only stick once the layouts have given the splitters their real size.
            self._first_layout = False
            QTimer.singleShot(0, self._apply_first_layout)

    def _apply_first_layout(self) -> None:
        narrow = self.width() < 1500
        self.resizeDocks([self.folder_dock], [190 if narrow else 230], Qt.Orientation.Horizontal)
        width = max(800, self.main_splitter.width())
        left = 53 if narrow else 50
        self.main_splitter.setSizes([width * left // 100, width * (100 - left) // 100])
        height = max(400, self.left_splitter.height())
        self.left_splitter.setSizes([height * 55 // 100, height * 45 // 100])

    def save_layout(self) -> None:
        s = self._settings
        s.setValue("window/geometry", self.saveGeometry())
        s.setValue("window/state", self.saveState())
        s.setValue("window/main_splitter", self.main_splitter.saveState())
        s.setValue("window/left_splitter", self.left_splitter.saveState())
        s.setValue("window/diff_splitter", self.diff_view.splitter.saveState())
        s.setValue("window/groups_header", self.groups_view.horizontalHeader().saveState())
        if self._members_sized:
            s.setValue("window/members_header", self.members_view.horizontalHeader().saveState())
        s.setValue("filter/regex", self.regex_box.isChecked())
        s.sync()

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.tasks.busy:
            # Cancelling keeps everything fingerprinted so far; wait so the DB is left clean.
            self.tasks.cancel()
            self.tasks.wait(30_000)
        self.ops.shutdown()  # queued mutations finish first: a mark asked for is not lost
        self.service.remove_change_listener(self.ops.changed.emit)
        self._stop_reading_names()
        self.save_layout()
        super().closeEvent(event)

    # ---------------------------------------------------------------- drag and drop
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if not self.tasks.busy and local_dirs_from_mime(event.mimeData()):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dropEvent(self, event: QDropEvent) -> None:
        folders = local_dirs_from_mime(event.mimeData())
        if folders and not self.tasks.busy:
            event.acceptProposedAction()
            self.folder_panel.add_folders(folders)
        else:
            event.ignore()

    # ---------------------------------------------------------------- results
    def reload_results(self, keep_group: int | None = None, keep_row: int | None = None) -> None:
        """Re-read groups from the service (off the GUI thread); then re-select the same group
        (ids are stable across regroups), else the same row, else the first."""
        self._keep_selection = (keep_group, keep_row)
        self.groups_model.reload()

    def _on_groups_reloaded(self) -> None:
        keep_group, keep_row = self._keep_selection
        self._keep_selection = (None, None)
        row = None
        if keep_group is not None:
            row = self.groups_model.row_of_group(keep_group)
        if row is None and keep_row is not None and self.groups_model.total:
            row = min(keep_row, self.groups_model.total - 1)
        if row is None and self.groups_model.total:
            row = 0
        if row is not None:
            self.select_group_row(row)
        else:
            self.show_group(None)
        self.update_status()

    def _rebaseline(self) -> None:
        self._db_version = None  # the next check takes the counter as it is then

    def _check_outside_changes(self) -> None:
        if self.ops.busy or self.tasks.busy:
            self._db_version = None
            return
        try:
            version = self.service.database_version()
        except Exception:  # a database that went away says so elsewhere
            return
        if version is None:
            return
        if self._db_version is None:
            self._db_version = version
            return
        if version != self._db_version:
            self._db_version = version
            self.statusBar().showMessage(
                self.tr(
                    "The index was changed by another program or window; showing its new state."
                ),
                15000,
            )
            self.outsideChanged.emit()
            self.ops.changed.emit(
                Changes(
                    folders=True, settings=True, groups=True, marks=True, ignored=True, journal=True
                )
            )

    def _on_changes(self, changes: Changes) -> None:
        """The change hub: every mutation's Changes (core.changes) land here."""
        if changes.groups:
            self.reload_results(
                keep_group=self.members_model.group.id
                if self.members_model.group is not None
                else None,
                keep_row=self.current_group_row(),
            )
        elif changes.marks:
            self.members_model.refresh_marks()
            self.close_model.refresh_marks()
            self.update_status()
        self._update_actions()

    def _on_op_failed(self, message: str, details: str) -> None:
        dialogs.current().error(
            self,
            self.tr("Something went wrong"),
            self.tr("The operation stopped with an error: {error}").format(error=message),
            details,
        )
        self.taskFailed.emit(message)

    def _on_ops_busy(self, busy: bool) -> None:
        if busy:
            self._busy_timer.start()
        else:
            self._busy_timer.stop()
            self.busy_label.setVisible(False)
        self._update_actions()

    def apply_filter(self) -> None:
        self._filter_timer.stop()
        text = self.filter_edit.text().strip()
        group = self.members_model.group
        # The group on screen stays selected when it still matches (clearing a filter).
        self._keep_selection = (group.id if group is not None else None, 0)
        ok = self.groups_model.set_filter(text, self.regex_box.isChecked())
        if ok:
            self.filter_edit.setStyleSheet("")
            self.filter_edit.setToolTip("")

    def _on_filter_error(self, message: str) -> None:
        self.filter_edit.setStyleSheet("QLineEdit { background: #fdecea; }")
        self.filter_edit.setToolTip(
            self.tr("Invalid regular expression: {error}").format(error=message)
        )
        self.statusBar().showMessage(
            self.tr("Invalid regular expression: {error}").format(error=message), 5000
        )

    def _on_groups_reset(self) -> None:
        self.members_model.set_group(None)

    def update_status(self, stats: Any | None = None) -> None:
        """Refresh the summary line from the store (read off the GUI thread: a quarter of a
        second on 100,000 groups); ``stats`` shows given figures at once."""
        if stats is None:
            self.ops.read(lambda service: service.stats(), self.update_status, key="stats")
            return
        shown = self.groups_model.total
        parts = []
        if self.filter_edit.text().strip():
            parts.append(
                plural(self.tr("{shown} of %n group(s)", "", stats.groups), stats.groups).format(
                    shown=shown
                )
            )
        else:
            parts.append(plural(self.tr("%n group(s)", "", stats.groups), stats.groups))
        parts.append(plural(self.tr("%n document(s)", "", stats.documents), stats.documents))
        # The reference of a group is not a duplicate: a group of three holds two.
        parts.append(
            plural(
                self.tr("%n duplicate(s), {size} reclaimable", "", stats.extra_copies),
                stats.extra_copies,
            ).format(size=format_size(stats.reclaimable_size))
        )
        parts.append(
            self.tr("{count} marked ({size})").format(
                count=stats.marked, size=format_size(stats.marked_size)
            )
        )
        self.status_label.setText("  ·  ".join(parts))
        self.problems_button.setText(
            plural(self.tr("%n problem(s)", "", stats.problems), stats.problems)
        )
        self.problems_button.setVisible(stats.problems > 0)
        self.last_stats = stats

    def select_group_row(self, row: int) -> None:
        self.groups_model.ensure_loaded(row)
        if not 0 <= row < self.groups_model.rowCount():
            return
        index = self.groups_model.index(row, 0)
        self.groups_view.selectionModel().setCurrentIndex(
            index,
            QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows,
        )
        self.groups_view.scrollTo(index)

    def current_group_row(self) -> int | None:
        index = self.groups_view.currentIndex()
        return index.row() if index.isValid() else None

    def next_group(self) -> None:
        row = self.current_group_row()
        self.select_group_row(0 if row is None else row + 1)

    def previous_group(self) -> None:
        row = self.current_group_row()
        if row is not None and row > 0:
            self.select_group_row(row - 1)

    def _on_group_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        group_id = self.groups_model.group_id(current.row()) if current.isValid() else None
        if group_id is None:
            self.show_group(None)
            return
        self.show_group(self.service.group(group_id))

    def show_group(self, group: Any | None) -> None:
        self.members_model.set_group(group)
        self.close_model.set_group(group)
        close = len(group.close) if group is not None else 0
        self.close_title.setText(
            plural(
                self.tr(
                    "Close to this group, not the same as every file in it (%n file(s)):",
                    "",
                    close,
                ),
                close,
            )
        )
        self.close_title.setVisible(close > 0)
        self.close_view.setVisible(close > 0)
        if group is None:
            self.members_title.setText(self.tr("Files"))
            hint = None
            if self.groups_model.total == 0:
                if self.filter_edit.text().strip():
                    hint = self.tr("No group matches the filter.")
                elif self.service.folders():
                    hint = self.tr("No duplicates found yet. Press Scan (F5) to look for them.")
                else:
                    hint = self.tr("Add a folder on the left (or drop one here), then press Scan.")
            if hint is None:
                self.diff_view.clear()
            else:
                self.diff_view.show_message(hint)
            self.groupShown.emit(-1)
            self._update_actions()
            return
        self.members_title.setText(
            self.tr("Files in this group ({count})").format(count=len(group.members))
        )
        if not self._members_sized:
            # Once, from the first group's contents; then the user's widths (saved) rule.
            self._members_sized = True
            self.members_view.resizeColumnsToContents()
            header = self.members_view.horizontalHeader()
            # Long names would push size/date/similarity out of sight.
            header.resizeSection(COL_NAME, min(170, header.sectionSize(COL_NAME)))

        self._widen_member_columns()
        # Start on the first non-reference member: that is the one to judge.
        row = 1 if len(group.members) > 1 else 0
        self.members_view.selectionModel().setCurrentIndex(
            self.members_model.index(row, 0),
            QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows,
        )
        self.groupShown.emit(group.id)
        self._update_actions()

    def _widen_member_columns(self) -> None:
        """Widen the size, date and similarity columns to this group's texts (a reference's
        in bold), never narrow them: sized once, from the first group, "10.8 KB" in a later
        group's reference showed as "1…B" after "2.5 KB"."""
        view, model = self.members_view, self.members_model
        header = view.horizontalHeader()
        margin = view.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, view)
        bold_font = QFont(view.font())
        bold_font.setBold(True)
        plain, bold = QFontMetrics(view.font()), QFontMetrics(bold_font)
        for column in (COL_SIZE, COL_MODIFIED, COL_SIMILARITY):
            need = 0
            # The reference (bold) is the first row; a few hundred rows are plenty to measure,
            # and measuring a group of thousands would stall the GUI thread.
            for row in range(min(model.rowCount(), 300)):
                index = model.index(row, column)
                font = model.data(index, Qt.ItemDataRole.FontRole)
                metrics = bold if font is not None and font.bold() else plain
                need = max(need, metrics.horizontalAdvance(str(model.data(index) or "")))
            need += 2 * (margin + 1) + 2  # the text's margin each side (QCommonStyle), and 2 px
            if header.sectionSize(column) < need:
                header.resizeSection(column, need)

    def _on_member_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        group = self.members_model.group
        member = self.members_model.member(current.row()) if current.isValid() else None
        if group is None or member is None:
            return
        self.close_view.selectionModel().clear()
        reference = group.reference
        other = member
        if member.doc_id == reference.doc_id:
            others = [m for m in group.members if m.doc_id != reference.doc_id]
            if not others:
                return
            other = others[0]
        # Off the GUI thread; an unreadable file makes the diff view say so.
        self.diff_view.compare(
            self.service, reference.doc_id, reference.path, other.doc_id, other.path
        )
        self._update_actions()

    def _on_close_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        """A document close to the group, compared with the member it is closest to."""
        close = self.close_model.document(current.row()) if current.isValid() else None
        if close is None or self.members_model.group is None:
            return
        # no member is current now: choosing one again compares it with the reference
        self.members_view.selectionModel().clear()
        member_is_reference = close.member_id == self.members_model.group.reference.doc_id
        self.diff_view.compare(
            self.service,
            close.member_id,
            close.member_path,
            close.doc_id,
            close.path,
            first_role=None if member_is_reference else self.tr("Closest in the group"),
        )
        self._update_actions()

    def current_close_document(self) -> Any | None:
        """The document close to the group that is selected, if one is (and no member is)."""
        if self.members_view.currentIndex().isValid():
            return None
        index = self.close_view.currentIndex()
        return self.close_model.document(index.row()) if index.isValid() else None

    def _close_context_menu(self, pos: Any) -> None:
        self._popup_menu(
            self.close_view,
            pos,
            (self.act_toggle_mark, None, self.act_open, self.act_reveal, self.act_copy_path)
            + (None, self.act_ignore_pair),
        )

    def _popup_menu(self, view: Any, pos: Any, actions: tuple[QAction | None, ...]) -> None:
        """A context menu of ``actions`` (None: a separator) at ``pos`` in ``view``."""
        menu = QMenu(self)
        for action in actions:
            menu.addSeparator() if action is None else menu.addAction(action)
        menu.popup(view.viewport().mapToGlobal(pos))

    def current_member(self) -> Any | None:
        index = self.members_view.currentIndex()
        return self.members_model.member(index.row()) if index.isValid() else None

    def current_group(self) -> Any | None:
        return self.members_model.group

    # ---------------------------------------------------------------- marking
    @property
    def marked(self) -> set[int]:
        """The marked documents, as the store holds them (no copy is kept in the window)."""
        return self.service.marked_ids()

    def _on_marks_changed(self, ids: list, marked: bool) -> None:
        """A checkbox's mark was written (the hub has already refreshed the views)."""

    def toggle_mark_current(self) -> None:
        index = self.members_view.currentIndex()
        model: Any = self.members_model
        if not index.isValid():
            index = self.close_view.currentIndex()  # a file close to the group, by hand
            model = self.close_model
        if not index.isValid():
            return
        if not model.toggle(index.row()):
            self.statusBar().showMessage(
                self.tr("Files in reference folders cannot be marked."), 4000
            )

    def _mark_op(self, fn: Callable[[Any], Any], label: str = "marking") -> None:
        """A marking mutation on the writer; the hub repaints the views when it is done."""
        self.ops.write(fn, label=label)

    def set_marks(self, to_mark: set[int], scope: Iterable[Any]) -> None:
        """Make the marks inside ``scope`` groups exactly ``to_mark`` (others untouched)."""
        scope_ids = {m.doc_id for g in scope for m in g.members if not m.in_reference_folder}
        on = sorted(set(to_mark) & scope_ids)
        off = sorted(scope_ids - set(on))

        def job(service: Any) -> Any:
            return service.set_marked(off, False) | service.set_marked(on, True)

        self._mark_op(job)

    def mark_current_group(self) -> None:
        group = self.current_group()
        if group is not None:
            gid = group.id
            self._mark_op(lambda s: s.apply_mark_rule("all_but_reference", group_ids=[gid]))

    def mark_all_groups(self) -> None:
        self._mark_op(lambda s: s.apply_mark_rule("all_but_reference"), "mark all")

    def keep_current_member(self) -> None:
        """Mark every other copy of the selected member's group, the reference included."""
        group, member = self.current_group(), self.current_member()
        if group is None or member is None:
            return
        gid, keep = group.id, member.doc_id
        self._mark_op(lambda s: s.apply_mark_rule("keep_only", group_ids=[gid], keep_id=keep))

    def apply_keep_rule(self, rule: KeepRule, folder: str | None = None) -> None:
        name = "keep_in_folder" if KeepRule(rule) is KeepRule.IN_FOLDER else KeepRule(rule).value
        self._mark_op(lambda s: s.apply_mark_rule(name, folder=folder), "keep rule")

    def keep_in_chosen_folder(self) -> None:
        folder = dialogs.current().choose_folder(self, self.tr("Keep the copies in this folder"))
        if folder:
            self.apply_keep_rule(KeepRule.IN_FOLDER, folder)

    def mark_in_chosen_folder(self) -> None:
        folder = dialogs.current().choose_folder(self, self.tr("Mark every copy in this folder"))
        if folder:
            self.mark_in_folder(folder)

    def mark_in_folder(self, folder: str) -> None:
        self._mark_op(lambda s: s.apply_mark_rule("add_in_folder", folder=folder))

    def invert_marks(self) -> None:
        self._mark_op(lambda s: s.apply_mark_rule("invert"), "invert")

    def clear_marks(self) -> None:
        self._mark_op(lambda s: s.clear_marks())

    # ---------------------------------------------------------------- file hand-offs
    def _target_member(self) -> Any | None:
        """What opening, revealing or copying a path acts on: the selected member, or the
        selected document close to the group."""
        return self.current_member() or self.current_close_document()

    def open_current_file(self) -> None:
        member = self._target_member()
        if member is not None:
            dialogs.current().open_url(dialogs.file_url(member.path))

    def reveal_current_file(self) -> None:
        member = self._target_member()
        if member is not None:
            dialogs.current().reveal_in_file_manager(member.path)

    def copy_current_path(self) -> None:
        member = self._target_member()
        if member is not None:
            # a byte of the name that is not UTF-8 as an escape (\xd7): a Qt string drops it
            shown = shown_path(member.path)
            QGuiApplication.clipboard().setText(shown)
            self.statusBar().showMessage(self.tr("Copied {path}").format(path=shown), 3000)

    def _members_context_menu(self, pos: Any) -> None:
        self._popup_menu(
            self.members_view,
            pos,
            (self.act_toggle_mark, self.act_keep_this, self.act_mark_group, None)
            + (self.act_open, self.act_reveal, self.act_copy_path, None)
            + (self.act_ignore_pair, self.act_ignore_group),
        )

    # ---------------------------------------------------------------- tasks
    def _start_task(
        self, name: str, title: str, job: Callable[..., Any], on_success: Callable[[Any], None]
    ) -> ServiceTask | None:
        if self.tasks.busy:
            return None

        def job_reporting_changes(service: Any, progress: Any, cancel: Any) -> Any:
            collected: list[Changes] = []
            service.add_change_listener(collected.append)
            try:
                return job(service, progress, cancel), collected
            except BaseException as exc:
                exc.collected_changes = collected  # type: ignore[attr-defined]
                raise

        task = ServiceTask(self.service.db_path, job_reporting_changes, name=name)
        task.progressed.connect(self.progress_panel.update_event)

        def done(finished: ServiceTask) -> None:
            if finished.error is not None:
                self._on_task_failed(*finished.error)
                return
            result, collected = finished.result
            changes = Changes()
            for c in collected:
                changes |= c
            if changes:
                self.ops.changed.emit(changes)  # the task's service is not the hub's: relay
            on_success(result)

        self.progress_panel.start(title)
        self.tasks.start(task, done)
        return task

    def cancel_task(self) -> None:
        if self.tasks.busy:
            self.tasks.cancel()
            self.statusBar().showMessage(self.tr("Stopping…"))

    def _on_busy_changed(self, busy: bool) -> None:
        if not busy:
            self.progress_panel.finish()
        self.folder_panel.setEnabled(not busy)
        self._update_actions()

    def _on_task_failed(self, message: str, details: str) -> None:
        self.reload_results(keep_row=self.current_group_row())  # a task may have written some
        dialogs.current().error(
            self,
            self.tr("Something went wrong"),
            self.tr("The task stopped with an error: {error}").format(error=message),
            details,
        )
        self.taskFailed.emit(message)

    def after_writes(self, then: Callable[[], Any]) -> None:
        """Run ``then`` once the mutations queued so far are written (at once if none is)."""
        if self.ops.writing:
            self.ops.write(lambda _service: None, lambda _r: then(), label="barrier")
        else:
            then()

    def start_scan(self) -> ServiceTask | None:
        if self.ops.writing:
            # A folder just added or a mark just set is written first; then the scan starts.
            self.after_writes(self.start_scan)
            return None
        if not self.service.folders_to_scan():
            dialogs.current().info(
                self,
                self.tr("No folders"),
                self.tr(
                    "Add at least one folder to scan (File ▸ Add folder…, or drop one on "
                    "the window)."
                ),
            )
            return None

        def job(service: Any, progress: Any, cancel: Any) -> Any:
            return service.scan(None, progress=progress, cancel=cancel)

        return self._start_task("scan", self.tr("Scanning…"), job, self._on_scan_done)

    def _on_scan_done(self, summary: Any) -> None:
        self.last_scan_summary = summary  # the views were refreshed by the hub
        if summary.cancelled:
            kept = summary.files_fingerprinted
            message = plural(
                self.tr(
                    "Scan stopped. Kept the %n file(s) fingerprinted so far; scanning again "
                    "continues where it stopped.",
                    "",
                    kept,
                ),
                kept,
            )
        else:
            seen, groups, problems = summary.files_seen, summary.groups, len(summary.problems)
            message = (
                self.tr("{scanned} ({again} read again for this version): {groups}, {problems}.")
                if summary.files_read_again  # after an update (the progress panel said why)
                else self.tr("{scanned}: {groups}, {problems}.")
            ).format(
                scanned=plural(self.tr("Scanned %n file(s) in {time}", "", seen), seen).format(
                    time=format_duration(summary.seconds)
                ),
                again=summary.files_read_again,
                groups=plural(self.tr("%n group(s)", "", groups), groups),
                problems=plural(self.tr("%n problem(s)", "", problems), problems),
            )
            if summary.files_kept:  # in folders it could not read: an unplugged drive, ...
                message += plural(  # (its own leading space: none after a Chinese stop)
                    self.tr(
                        " %n file(s) in folders this scan could not read kept as last scanned "
                        "(View ▸ Problems…).",
                        "",
                        summary.files_kept,
                    ),
                    summary.files_kept,
                )
        self.statusBar().showMessage(message, 15000)
        self.statusBar().setToolTip(message)  # whole: the bar cuts a long one at its counts
        if summary.marks_dropped:
            # A mark is for the content that was reviewed; these files changed since.
            count = len(summary.marks_dropped)
            dialogs.current().info(
                self,
                self.tr("Marks removed"),
                plural(
                    self.tr(
                        "%n marked file(s) changed since they were marked and are no longer "
                        "marked:",
                        "",
                        count,
                    ),
                    count,
                )
                + "\n"
                + "\n".join(summary.marks_dropped[:20])
                + ("\n…" if count > 20 else ""),
            )
        self.scanFinished.emit(summary)

    def _plan_marked_removal(self, then: Callable[[Any], None]) -> None:
        """Read what the marks would remove (off the GUI thread), then ``then(plan)``."""
        if self.ops.writing:  # plan from the marks as they will be once written
            self.after_writes(lambda: self._plan_marked_removal(then))
            return

        def planned(plan: Any) -> None:
            if not plan.doc_ids:
                dialogs.current().info(
                    self,
                    self.tr("Nothing marked"),
                    self.tr("Mark the files to remove first (M or the checkbox)."),
                )
                return
            if not plan.going(True)[0]:  # every marked file is on a drive that is away
                count = len(plan.away_ids)
                dialogs.current().info(
                    self,
                    self.tr("Nothing can be removed now"),
                    plural(
                        self.tr(
                            "The %n marked file(s), or the copies to keep, are in folders that "
                            "are not there (a drive unplugged, or a share not mounted?).",
                            "",
                            count,
                        ),
                        count,
                    ),
                )
                return
            then(plan)

        self.ops.read(lambda s: s.marked_for_removal(), planned, key="plan", label="plan")

    def _confirm_whole_groups(self, whole: list[Any]) -> bool:
        if not whole:
            return True
        return dialogs.current().confirm(
            self,
            self.tr("Every copy would be removed"),
            plural(
                self.tr(
                    "In %n group(s) every file is marked, so no copy of that document would "
                    "be left. Continue anyway?",
                    "",
                    len(whole),
                ),
                len(whole),
            ),
            ok_text=self.tr("Remove every copy"),
            danger=True,
        )

    def _include_near(self, plan: Any) -> bool | None:
        """The explicit choice near duplicates need: each holds text its kept copy does not,
        so it goes only when the user says so (otherwise it is left in place, with a reason).
        None: the user cancelled the removal."""
        near = plan.near_ids
        if not near:
            return False
        answer = dialogs.current().ask(
            self,
            self.tr("Near duplicates are marked"),
            self.tr(
                "%n of the marked files are near duplicates: each holds text that the copy "
                "kept in its group does not. Remove them too?",
                "",
                len(near),
            ),
            [
                ("near", self.tr("Remove near duplicates too")),
                ("keep", self.tr("Keep near duplicates")),
            ],
            informative=self.tr(
                "Identical and same-text copies are removed either way. Near duplicates you "
                "do not include stay where they are."
            ),
            danger=True,
        )
        if answer is None:
            return None
        if answer == "keep" and not plan.going(False)[0]:
            dialogs.current().info(
                self,
                self.tr("Near duplicates are marked"),
                self.tr("Nothing was removed: every marked file is a near duplicate you kept."),
            )
            return None
        return answer == "near"

    def trash_marked(self) -> None:
        """Plan (off the GUI thread), ask, then move the marked files to the trash as a task."""
        self._plan_marked_removal(self._trash_planned)

    def _trash_planned(self, plan: Any) -> ServiceTask | None:
        if not self._confirm_whole_groups(list(plan.whole_groups)):
            return None
        include_near = self._include_near(plan)
        if include_near is None:
            return None
        count, size = plan.going(include_near)
        if not dialogs.current().confirm(
            self,
            self.tr("Move to trash"),
            plural(self.tr("Move %n file(s) ({size}) to the trash?", "", count), count).format(
                size=format_size(size)
            ),
            informative=self.tr(
                "Each file is checked against the scan right before it is moved; "
                "files changed since the scan are left alone."
            ),
            ok_text=self.tr("Move to trash"),
            danger=True,
        ):
            return None
        ids = list(plan.doc_ids)
        trash = self._trash

        def job(service: Any, progress: Any, cancel: Any) -> Any:
            return service.trash(
                ids, trash=trash, progress=progress, cancel=cancel, include_near=include_near
            )

        return self._start_task("trash", self.tr("Moving to trash…"), job, self._on_action_done)

    def move_marked(self) -> None:
        """Move the marked files to a folder, keeping their folders or not (review_actions)."""
        self.review_actions.move_marked()

    def _on_action_done(self, results: Any) -> None:
        results = list(results)
        self.last_action_results = results
        failed = [r for r in results if not r.ok]
        done = len(results) - len(failed)
        if failed:
            dialog = ActionResultsDialog(results, self)
            self._show_dialog("action_results", dialog)
        self.statusBar().showMessage(
            plural(self.tr("Removed %n file(s), {failed} left in place.", "", done), done).format(
                failed=len(failed)
            ),
            15000,
        )
        self.actionFinished.emit(results)

    # ---------------------------------------------------------------- not duplicates
    def ignore_current_pair(self) -> None:
        close = self.current_close_document()
        if close is not None:  # not a duplicate of the member it is closest to: listed no more
            pair = close.member_id, close.doc_id
            self.ops.write(lambda s: s.ignore_pair(*pair), label="ignore")
            return
        group = self.current_group()
        member = self.current_member()
        if group is None or member is None or member.doc_id == group.reference.doc_id:
            self.statusBar().showMessage(
                self.tr("Select a file other than the reference to ignore the pair."), 4000
            )
            return
        if member.content_hash and member.content_hash == group.reference.content_hash:
            # Ignores are keyed by content; byte-identical files share it.
            self.statusBar().showMessage(
                self.tr("These files are byte-for-byte identical; they cannot be ignored."), 6000
            )
            return
        a, b = group.reference.doc_id, member.doc_id
        # A regroup (seconds on a large index) on the writer; the hub reloads the groups and
        # keeps the selection (group ids are stable across regroups).
        self.ops.write(lambda s: s.ignore_pair(a, b), label="ignore")

    def ignore_current_group(self) -> None:
        group = self.current_group()
        if group is None:
            return
        if len({m.content_hash for m in group.members}) == 1:
            self.statusBar().showMessage(
                self.tr("This group's files are byte-for-byte identical; they cannot be ignored."),
                6000,
            )
            return
        gid = group.id
        self.ops.write(lambda s: s.ignore_group(gid), label="ignore")

    # ---------------------------------------------------------------- dialogs
    def _show_dialog(self, key: str, dialog: Any) -> Any:
        """Window-modal but non-blocking, kept referenced (tests reach it here)."""
        old = self.open_dialogs.get(key)
        if old is not None:
            old.close()
        self.open_dialogs[key] = dialog
        dialog.open()
        return dialog

    def show_problems(self) -> Any:
        # forgetting kept files is a regroup: on the writer, its changes reaching the hub
        dialog = ProblemsDialog(self.service, self, ops=self.ops)
        dialog.forgotten.connect(self.statusBar().showMessage)
        return self._show_dialog("problems", dialog)

    def show_journal(self) -> Any:
        return self._show_dialog("journal", JournalDialog(self.service.journal(), self))

    def show_ignored(self) -> Any:
        dialog = IgnoredPairsDialog(self.service, self, ops=self.ops)  # changes reach the hub
        return self._show_dialog("ignored", dialog)

    def show_settings(self) -> Any:
        dialog = SettingsDialog(self.service, self, ops=self.ops)
        # Written on the writer (a regroup when matching changed); the hub reloads the groups.
        dialog.accepted.connect(dialog.apply)
        return self._show_dialog("settings", dialog)

    def show_about(self) -> Any:
        try:
            from desktop_dedup.gui.about import show_about
        except ImportError:
            return None
        dialog = show_about(self, self.service.db_path)
        self.open_dialogs["about"] = dialog
        return dialog

    def export_results(self, fmt: str) -> str | None:
        default = os.path.join(os.path.expanduser("~"), f"desktop_dedup-report.{fmt}")
        path = dialogs.current().choose_save_file(
            self, self.tr("Export results"), default, REPORT_FILTERS[fmt]
        )
        if not path:
            return None
        language = _interface_language()

        def failed(message: str, _details: str) -> None:
            dialogs.current().error(
                self,
                self.tr("Export failed"),
                self.tr("Could not write {path}.").format(path=path),
                message,
            )

        def written(_result: Any) -> None:
            self.statusBar().showMessage(self.tr("Saved {path}").format(path=path), 8000)
            if fmt == "html":
                dialogs.current().open_url(QUrl.fromLocalFile(path))
            self.exported.emit(path)

        # Every group is read to write the report: seconds on a large index, off this thread.
        self.statusBar().showMessage(self.tr("Exporting to {path}…").format(path=path))
        reason_text = reason_translator()  # looked up here: the report is written off-thread
        self.ops.read(
            lambda s: s.export_report(fmt, path, language=language, reason_text=reason_text),
            written,
            on_error=failed,
            label="export",
        )
        return path

    # ---------------------------------------------------------------- misc
    def _on_folders_changed(self) -> None:
        if self.groups_model.total == 0:
            self.show_group(None)  # refresh the "what to do next" hint
        self._update_actions()

    def _update_actions(self) -> None:
        busy = self.tasks.busy
        for action in self._mutating_actions:
            action.setEnabled(not busy)
        self.act_cancel.setEnabled(busy)
        has_group = self.members_model.group is not None
        has_diff = self.diff_view.result is not None
        for action in (self.act_open, self.act_reveal, self.act_copy_path):
            action.setEnabled(has_group)
        for action in (self.act_next_change, self.act_previous_change, self.act_swap):
            action.setEnabled(has_diff)
        if not has_group:
            self.act_ignore_group.setEnabled(False)
            self.act_ignore_pair.setEnabled(False)
            self.act_mark_group.setEnabled(False)
            self.act_keep_this.setEnabled(False)
