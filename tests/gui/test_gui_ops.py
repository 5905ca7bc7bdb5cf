"""Issue 8: the window stays truthful. Ops run off the GUI thread, mutations announce their
changes on one hub signal, and what the window shows is what the database holds.

Real widgets, a real SQLite file, real documents; the ops run on their real threads.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import docgen
from gui_helpers import scan, select_member, settle
from PySide6.QtCore import Qt

from desktop_dedup.core.changes import Changes
from desktop_dedup.core.service import DedupService
from desktop_dedup.gui.models.members import COL_NAME
from desktop_dedup.gui.ops import OpRunner


def _two_folders(tmp_path: Path) -> tuple[Path, Path]:
    """``main`` and ``backup``, each holding the same two documents (two groups of two); the
    main copies are older, so they are the references until backup becomes a reference."""
    main, backup = tmp_path / "main", tmp_path / "backup"
    texts = {"report.txt": docgen.SAMPLE_EN, "notes.txt": docgen.SAMPLE_ZH}
    for name, text in texts.items():
        old = docgen.write_txt(main / name, text)
        docgen.write_txt(backup / name, text)
        stamp = time.time() - 86_400
        os.utime(old, (stamp, stamp))
    return main.resolve(), backup.resolve()


def _shown_marks(window) -> set[int]:
    """The documents whose checkbox is ticked in the members table."""
    model = window.members_model
    return {
        model.member(r).doc_id
        for r in range(model.rowCount())
        if model.data(model.index(r, COL_NAME), Qt.ItemDataRole.CheckStateRole)
        == Qt.CheckState.Checked
    }


def _marked_in_status(window) -> str:
    return next(p for p in window.status_label.text().split("  ·  ") if "marked" in p)


def _folder_item(window, path: Path):
    panel = window.folder_panel
    return next(
        panel.list.item(i)
        for i in range(panel.list.count())
        if panel.list.item(i).data(Qt.ItemDataRole.UserRole + 1) == str(path)
    )


def test_stale_mark_scenario_display_and_database_agree(qtbot, window, service, tmp_path):
    """The issue's reproduction: tick a folder as reference -> the window shows the regrouped
    groups; a copy that now lies in the reference folder cannot be (or stay) marked, and the
    status line says what the database holds."""
    main, backup = _two_folders(tmp_path)
    window.folder_panel.add_folders([str(main), str(backup)])
    settle(window)
    scan(qtbot, window)
    assert window.groups_model.total == 2
    # Issue 9 leftover: the reference of a group is not a duplicate (two pairs: 2, not 4).
    assert "2 duplicates" in window.status_label.text()
    # Issue 9 leftover: View > Folders can hide and show the folder list.
    toggle = window.folder_dock.toggleViewAction()
    assert toggle.isEnabled()
    toggle.trigger()
    assert window.folder_dock.isHidden()
    toggle.trigger()
    assert not window.folder_dock.isHidden()
    group = window.members_model.group
    assert Path(group.reference.path).parent == main
    shown_group_id = group.id
    # Mark the backup copy of the group on screen (by hand, the checkbox).
    backup_copy = next(m for m in group.members if Path(m.path).parent == backup)
    select_member(window, Path(backup_copy.path))
    window.act_toggle_mark.trigger()
    settle(window)
    assert service.marked_ids() == {backup_copy.doc_id}
    assert _shown_marks(window) == {backup_copy.doc_id}
    assert _marked_in_status(window).startswith("1 marked")

    # Tick backup as a reference folder: a full regroup on the writer.
    _folder_item(window, backup).setCheckState(Qt.CheckState.Checked)
    settle(window)
    shown = window.members_model.group
    # The window shows the new groups: the same group (its id kept across the regroup), now
    # with its reference in the reference folder, exactly as the database has it.
    assert shown.id == shown_group_id
    assert Path(shown.reference.path).parent == backup
    stored = service.group(shown.id)
    assert [(m.doc_id, m.is_reference) for m in shown.members] == [
        (m.doc_id, m.is_reference) for m in stored.members
    ]
    assert all(m.in_reference_folder for m in shown.members if Path(m.path).parent == backup)
    # The mark on the copy that now lies in a reference folder is gone, in both.
    assert service.marked_ids() == set()
    assert _shown_marks(window) == set()
    assert _marked_in_status(window).startswith("0 marked")

    # Ticking that copy again: refused, and status line and database still agree.
    select_member(window, Path(backup_copy.path))
    window.act_toggle_mark.trigger()
    settle(window)
    assert "reference folders cannot be marked" in window.statusBar().currentMessage()
    row = window.members_model.row_of_doc(backup_copy.doc_id)
    assert not window.members_model.setData(
        window.members_model.index(row, COL_NAME),
        Qt.CheckState.Checked,
        Qt.ItemDataRole.CheckStateRole,
    )
    settle(window)
    assert service.marked_ids() == set()
    assert service.stats().marked == 0
    assert _marked_in_status(window).startswith("0 marked")
    # Marking everything marks only the copies outside the reference folder; display agrees.
    window.act_mark_all.trigger()
    settle(window)
    in_main = {d for d, p in service.store.paths_under([str(main)])}
    assert service.marked_ids() == in_main
    assert _shown_marks(window) == in_main & {m.doc_id for m in shown.members}
    assert _marked_in_status(window).startswith("2 marked")


def test_views_refresh_from_the_change_signal_alone(qtbot, window, service, tmp_path):
    """Another process (the CLI, a second window) changes the database; the window learns of
    it only through the hub signal, and every view then shows the database's state."""
    main, backup = _two_folders(tmp_path)
    window.folder_panel.add_folders([str(main), str(backup)])
    settle(window)
    scan(qtbot, window)
    group = window.members_model.group
    other = DedupService(service.db_path)  # like the CLI: its own connection, no listener here
    try:
        other.apply_mark_rule("all_but_reference")
        (tmp_path / "third").mkdir()
        other.add_folder(tmp_path / "third")  # a third folder, unseen by the panel so far
        settle(window)
        # Nothing was announced to this window: it still shows the old state.
        assert _shown_marks(window) == set()
        assert window.folder_panel.list.count() == 2
        window.ops.changed.emit(Changes(marks=True, folders=True))
        settle(window)
        expected = {m.doc_id for m in group.members if not m.is_reference}
        assert _shown_marks(window) == expected
        assert _marked_in_status(window).startswith("2 marked")
        assert window.folder_panel.list.count() == 3

        # Groups: the other service drops the backup folder (its copies leave the index, so
        # every group goes); the change signal alone reloads the groups.
        other.remove_folder(str(backup))
        settle(window)
        assert window.groups_model.total == 2
        window.ops.changed.emit(Changes(groups=True))
        settle(window)
        assert window.groups_model.total == 0 == service.group_count()
        assert window.members_model.group is None
    finally:
        other.close()


def test_a_read_asked_again_supersedes_the_older_one(qtbot, service):
    runner = OpRunner(service.db_path)
    gate = threading.Event()
    got: list[object] = []
    try:
        runner.read(lambda s: gate.wait(10), lambda r: got.append(("first", r)), key="k")
        runner.read(lambda s: "second", lambda r: got.append(("second", r)), key="k")
        runner.read(lambda s: "third", lambda r: got.append(("third", r)), key="k")
        gate.set()
        assert runner.wait_idle(10_000)
        assert got == [("third", "third")]  # the first's answer dropped, the second skipped
    finally:
        runner.shutdown()


def test_mutations_run_in_order_off_the_gui_thread_and_report_changes(qtbot, service, tmp_path):
    runner = OpRunner(service.db_path)
    threads, order, hub = [], [], []
    runner.changed.connect(hub.append)
    folder = tmp_path / "f"
    folder.mkdir()
    try:

        def slow_add(s):
            threads.append(threading.get_ident())
            time.sleep(0.2)
            s.add_folder(folder)
            return "added"

        runner.write(slow_add, order.append)
        runner.write(lambda s: [f.path for f in s.folders()], order.append)
        assert runner.busy and runner.writing
        assert runner.wait_idle(10_000)
        assert order == ["added", [str(folder.resolve())]]
        assert threads and threads[0] != threading.get_ident()
        assert hub == [Changes(folders=True)]
        errors: list[str] = []
        runner.write(lambda s: s.ignore_pair(1, 2), on_error=lambda m, _d: errors.append(m))
        assert runner.wait_idle(10_000)
        assert errors == ["both documents must be in the index"]
        assert not runner.busy
    finally:
        runner.shutdown()
