"""Folder panel (dialog, drag and drop, reference folders), settings dialog, progress, tasks."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent

from desktop_dedup.core.progress import ProgressEvent
from desktop_dedup.core.service import DedupService
from desktop_dedup.gui.folders import FolderPanel
from desktop_dedup.gui.progress_panel import ProgressPanel
from desktop_dedup.gui.settings_dialog import SettingsDialog
from desktop_dedup.gui.tasks import ServiceTask, TaskHolder, ThrottledSink


@pytest.fixture
def service(tmp_path):
    svc = DedupService(tmp_path / "db.sqlite3")
    yield svc
    svc.close()


def drop(widget, paths) -> QDropEvent:
    """Drop ``paths`` (each a path, or an address as a file manager gives it) on ``widget``."""
    mime = QMimeData()
    mime.setUrls([p if isinstance(p, QUrl) else QUrl.fromLocalFile(str(p)) for p in paths])
    event = QDropEvent(
        QPointF(QPoint(5, 5)),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    widget.dropEvent(event)
    return event


def test_folders_added_by_dialog_and_drop_marked_reference_and_removed(
    qtbot, service, tmp_path, scripted_dialogs
):
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir()
    two.mkdir()
    a_file = tmp_path / "file.txt"
    a_file.write_text("x")
    panel = FolderPanel(service)
    qtbot.addWidget(panel)
    with qtbot.waitSignal(panel.foldersChanged):
        scripted_dialogs.folder_answers.append(str(one))
        qtbot.mouseClick(panel.add_button, Qt.MouseButton.LeftButton)
    # Files and the same folder again are ignored in a drop; new folders are added.
    drop(panel.list, [two, a_file, one])
    assert sorted(p for p, _ in panel.folders()) == [str(one), str(two)]
    assert sorted(f.path for f in service.folders()) == [str(one), str(two)]

    item = panel.list.item(0)
    item.setCheckState(Qt.CheckState.Checked)
    ref = {f.path: f.is_reference for f in service.folders()}
    assert ref[item.data(Qt.ItemDataRole.UserRole + 1)] is True
    assert "reference" in item.text()

    panel.list.setCurrentRow(1)
    removed = panel.list.item(1).data(Qt.ItemDataRole.UserRole + 1)
    qtbot.mouseClick(panel.remove_button, Qt.MouseButton.LeftButton)
    assert removed not in [f.path for f in service.folders()]
    assert panel.list.count() == 1


def test_settings_dialog_explains_threshold_and_saves(qtbot, service):
    dialog = SettingsDialog(service)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(lambda: "groups" in dialog.group_count.text())
    assert dialog.similarity.value() == 75  # the default, in percent
    dialog.similarity.setValue(70)
    assert "70 %" in dialog.explanation.text() and "carefully" in dialog.explanation.text()
    qtbot.waitUntil(lambda: "At 70 %" in dialog.group_count.text())
    dialog.distance.setValue(6)
    dialog.excludes.setPlainText("*.bak\nold-*")
    dialog.min_size.setValue(10)
    dialog.text_extensions.setText(".log, NFO;  ")
    pdf_row = next(
        i for i in range(dialog.extensions.count()) if dialog.extensions.item(i).text() == ".pdf"
    )
    dialog.extensions.item(pdf_row).setCheckState(Qt.CheckState.Unchecked)
    dialog.apply()
    saved = service.settings()
    assert saved.min_similarity == 0.7
    assert saved.max_distance == 6
    assert tuple(saved.exclude_globs) == ("*.bak", "old-*")
    assert saved.min_size == 10
    assert "pdf" not in saved.extensions and "txt" in saved.extensions
    assert saved.text_extensions == ("log", "nfo")
    again = SettingsDialog(service)
    qtbot.addWidget(again)
    assert again.text_extensions.text() == "log, nfo"


def test_progress_panel_shows_stage_counts_rate_and_eta(qtbot, monkeypatch):
    panel = ProgressPanel()
    qtbot.addWidget(panel)
    panel.start("Scanning…")
    assert panel.isVisible()
    clock = [100.0]
    monkeypatch.setattr(time, "monotonic", lambda: clock[0])
    panel.update_event(ProgressEvent("fingerprinting", 0, 200, "/a/b.txt", 0))
    clock[0] += 2.0
    panel.update_event(ProgressEvent("fingerprinting", 100, 200, "/a/c.txt", 2_000_000))
    assert panel.stage_label.text() == "Fingerprinting"
    assert panel.count_label.text() == "100 of 200 files"
    assert "50 files/s" in panel.rate_label.text()
    assert "2 s left" in panel.rate_label.text()
    assert panel.bar.maximum() == 200 and panel.bar.value() == 100
    with qtbot.waitSignal(panel.cancelRequested):
        qtbot.mouseClick(panel.cancel_button, Qt.MouseButton.LeftButton)
    assert not panel.cancel_button.isEnabled()


def test_throttled_sink_limits_rate_but_keeps_stage_changes_and_last_event():
    sent = []
    sink = ThrottledSink(sent.append, interval=10.0)
    for i in range(1000):
        sink(ProgressEvent("reading", i, 1000))
    sink(ProgressEvent("grouping", 0, 1))
    sink(ProgressEvent("grouping", 1, 1))
    sink.flush()
    assert [(e.stage, e.done) for e in sent] == [("reading", 0), ("grouping", 0), ("grouping", 1)]


def test_service_task_runs_on_its_own_service_and_thread(qtbot, service, tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.txt").write_text("hello " * 50, encoding="utf-8")
    (folder / "b.txt").write_text("hello " * 50, encoding="utf-8")
    service.add_folder(folder)
    holder = TaskHolder()
    seen_threads = []

    def job(svc, progress, cancel):
        import threading

        seen_threads.append((threading.current_thread().name, svc is not service))
        return svc.scan(None, progress=progress, cancel=cancel)

    task = ServiceTask(service.db_path, job, name="scan")
    with qtbot.waitSignal(task.succeeded, timeout=60_000) as result:
        holder.start(task)
        assert holder.busy
    qtbot.waitUntil(lambda: not holder.busy)
    assert result.args[0].groups == 1
    assert seen_threads[0][1]  # the worker built its own service
    assert seen_threads[0][0] != "MainThread"
    assert service.group_count() == 1  # the GUI thread's service sees the worker's writes


def test_service_task_reports_failures(qtbot, service):
    def job(svc, progress, cancel):
        raise ValueError("boom")

    holder = TaskHolder()
    task = ServiceTask(service.db_path, job, name="fails")
    with qtbot.waitSignal(task.failed, timeout=30_000) as failed:
        holder.start(task)
    assert failed.args[0] == "boom"
    assert "ValueError" in failed.args[1]
    qtbot.waitUntil(lambda: not holder.busy)


def test_enter_closes_a_list_of_files_left_in_place(qtbot, scripted_dialogs):
    """After a removal, the list of the files left in place (and the journal, the problems,
    the ignored pairs) answered Enter with its first button, Export…, which opened a save
    dialog to someone dismissing the list. Close is the default now."""
    from types import SimpleNamespace

    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QDialog

    from desktop_dedup.gui.list_dialogs import ActionResultsDialog

    results = [
        SimpleNamespace(ok=True, path="/docs/a.txt", reason=""),
        SimpleNamespace(ok=False, path="/docs/b.txt", reason="changed since the scan"),
    ]
    dialog = ActionResultsDialog(results)
    qtbot.addWidget(dialog)
    # each count with its own noun: "these 1 were left in place" read wrong
    assert dialog.intro.text() == "Removed 1 file; 1 file left in place:"
    other = ActionResultsDialog([results[1], results[1]])
    qtbot.addWidget(other)
    assert other.intro.text() == "Removed 0 files; 2 files left in place:"
    dialog.show()
    qtbot.waitExposed(dialog)
    dialog.view.setFocus()
    qtbot.keyClick(dialog.view, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not dialog.isVisible())
    assert dialog.result() == QDialog.DialogCode.Accepted
    assert "choose_save_file" not in scripted_dialogs.kinds()


def test_the_minimum_size_counts_its_bytes_in_english(qtbot, service):
    """The minimum size read "1 bytes" (its default)."""
    dialog = SettingsDialog(service)
    qtbot.addWidget(dialog)
    dialog.min_size.setValue(1)
    assert dialog.min_size.text() == "1 byte"
    dialog.min_size.setValue(2048)
    assert dialog.min_size.text() == "2048 bytes"
    dialog.min_size.setValue(0)
    assert dialog.min_size.text() == "0 bytes"


def test_the_progress_panel_says_why_unchanged_files_are_read_again(qtbot):
    """After an update that reads documents differently, a rescan reads every file again:
    the panel says so while it reads, and not at the next stage or task."""
    panel = ProgressPanel()
    qtbot.addWidget(panel)
    panel.start("Scanning…")
    panel.update_event(ProgressEvent("reading", 0, 10))
    assert panel.note_label.isHidden()
    panel.update_event(ProgressEvent("reading", 3, 10, "/a/b.txt", again=8))
    assert not panel.note_label.isHidden()
    assert panel.note_label.text() == (
        "Reading 8 unchanged files again: this version of the app reads documents differently."
    )
    panel.update_event(ProgressEvent("reading", 3, 10, "/a/b.txt", again=1))
    assert panel.note_label.text().startswith("Reading 1 unchanged file again:")
    panel.update_event(ProgressEvent("grouping"))
    assert panel.note_label.isHidden()
    panel.update_event(ProgressEvent("reading", 3, 10, again=8))
    panel.start("Removing…")
    assert panel.note_label.isHidden()


def test_a_scan_after_an_update_says_it_read_the_unchanged_files_again(
    window, service, tmp_path, qtbot
):
    """The app's own scan of an index the version before left (its rows say so): the panel
    says why the unchanged files are read while it reads them, and the status bar how many
    were, when the scan is done (in few words: it shares the status bar with the counts)."""
    import sqlite3

    import docgen

    root = tmp_path / "docs"
    docgen.write_txt(root / "river.txt", docgen.SAMPLE_EN)
    docgen.write_txt(root / "jiangnan.txt", docgen.SAMPLE_ZH)
    service.add_folder(root)
    service.scan(None, workers=1)
    with sqlite3.connect(tmp_path / "db.sqlite3") as con:
        con.execute("UPDATE documents SET fp_version = fp_version - 1")
    notes = []
    shown = window.progress_panel.update_event

    def update_event(event):
        shown(event)
        notes.append(window.progress_panel.note_label.text() if event.again else "")

    window.progress_panel.update_event = update_event
    window.start_scan()
    qtbot.waitUntil(lambda: getattr(window, "last_scan_summary", None) is not None, timeout=60_000)
    assert window.last_scan_summary.files_read_again == 2
    assert "Reading 2 unchanged files again" in " ".join(notes), notes
    message = window.statusBar().currentMessage()
    assert message.startswith("Scanned 2 files in ") and message.endswith(
        " (2 read again for this version): 0 groups, 0 problems."
    )


def _scanned_with_a_drive_unplugged(window, service, tmp_path, qtbot, broken=None):
    """A laptop's folder and a drive's, listed and scanned (their copies of one text a group),
    then the drive unplugged and the app's Scan run; with ``broken``, a PDF of these bytes on
    the laptop too."""
    import docgen

    laptop, usb = tmp_path / "laptop", tmp_path / "usb"
    docgen.write_txt(laptop / "river.txt", docgen.SAMPLE_EN)
    docgen.write_txt(usb / "river copy.txt", docgen.SAMPLE_EN)
    docgen.write_txt(usb / "jiangnan.txt", docgen.SAMPLE_ZH)
    if broken is not None:
        (laptop / "broken.pdf").write_bytes(broken)
    service.add_folder(laptop)
    service.add_folder(usb)
    service.scan(None, workers=1)
    usb.rename(tmp_path / "usb-unplugged")
    window.start_scan()
    qtbot.waitUntil(lambda: getattr(window, "last_scan_summary", None) is not None, timeout=60_000)
    return laptop, usb


def test_a_scan_with_a_folder_unplugged_says_its_files_were_kept(window, service, tmp_path, qtbot):
    """A listed folder that is not there (a drive unplugged) keeps its files in the results,
    and the status bar says so, after the counts, with where to read why."""
    laptop, usb = _scanned_with_a_drive_unplugged(window, service, tmp_path, qtbot)
    assert window.last_scan_summary.files_kept == 2
    message = window.statusBar().currentMessage()
    assert message.startswith("Scanned 1 file in ") and message.endswith(
        ": 1 group, 1 problem. 2 files in folders this scan could not read kept as last "
        "scanned (View ▸ Problems…)."
    ), message
    qtbot.waitUntil(lambda: window.groups_model.rowCount() == 1, timeout=10_000)
    # The kept copy cannot be compared while its folder is away, and the pane says why.
    from gui_helpers import select_member, settle

    window.groups_view.selectRow(0)
    settle(window)
    copy = usb / "river copy.txt"
    select_member(window, Path(os.path.realpath(copy)))
    qtbot.waitUntil(lambda: "Cannot compare" in window.diff_view.message(), timeout=10_000)
    assert (
        f"its folder {os.path.realpath(usb)} is not there (a drive unplugged, or a share not "
        "mounted?)" in window.diff_view.message()
    )
    # The group's files say which of them are in such a folder: an icon and a tooltip by the
    # folder, the other file as before.
    from PySide6.QtCore import Qt

    from desktop_dedup.gui.models.members import COL_FOLDER

    model = window.members_model
    row = model.row_of_doc(
        next(m.doc_id for m in model.group.members if m.path == os.path.realpath(copy))
    )
    other = 1 - row
    folder_cell, other_cell = model.index(row, COL_FOLDER), model.index(other, COL_FOLDER)
    assert model.data(folder_cell, Qt.ItemDataRole.DecorationRole) is not None
    assert "could not read" in model.data(folder_cell, Qt.ItemDataRole.ToolTipRole)
    assert model.data(other_cell, Qt.ItemDataRole.DecorationRole) is None
    # The folder list shows which folder the scan could not read, and why, in its tooltip.
    items = {window.folder_panel._path(it): it for it in _items(window.folder_panel.list)}
    away, here = items[os.path.realpath(usb)], items[os.path.realpath(laptop)]
    assert away.text().endswith("(not read at the last scan)"), away.text()
    assert "folder not found" in away.toolTip() and "kept" in away.toolTip()
    assert not away.icon().isNull() and here.icon().isNull()
    assert here.text() == os.path.realpath(laptop)
    # back again: the next scan reads it, and the list says nothing more
    (tmp_path / "usb-unplugged").rename(usb)
    window.start_scan()
    qtbot.waitUntil(lambda: window.last_scan_summary.files_kept == 0, timeout=60_000)
    settle(window)

    def usb_text():
        items = {window.folder_panel._path(it): it for it in _items(window.folder_panel.list)}
        return items[os.path.realpath(usb)].text()

    qtbot.waitUntil(lambda: usb_text() == os.path.realpath(usb), timeout=10_000)


def test_the_files_kept_from_a_retired_drive_are_forgotten_from_the_problems_list(
    window, service, tmp_path, qtbot, scripted_dialogs
):
    """README: the Problems list says how many files the scan kept of each folder it could not
    read, and *Forget kept files…* lets them go, after a confirmation, leaving the files on
    disk alone; a file's own problem cannot be forgotten this way."""
    from gui_helpers import settle

    laptop, usb = _scanned_with_a_drive_unplugged(
        window, service, tmp_path, qtbot, broken=b"%PDF-1.4 not really"
    )
    settle(window)
    qtbot.waitUntil(lambda: window.groups_model.rowCount() == 1, timeout=10_000)
    assert window.problems_button.text() == "2 problems"
    window.show_problems()
    settle(window)  # read on the reader thread
    dialog = window.open_dialogs["problems"]
    rows = dialog.model.rows()
    usb_path, broken = os.path.realpath(usb), os.path.realpath(laptop / "broken.pdf")
    assert sorted((r[0], r[2]) for r in rows) == [(broken, ""), (usb_path, "2 files")]
    by_path = {r[0]: i for i, r in enumerate(rows)}
    assert "select it and choose Forget kept files" in dialog.intro.text()
    assert not dialog.forget_button.isEnabled()  # nothing selected
    dialog.view.selectRow(by_path[broken])
    assert not dialog.forget_button.isEnabled()  # a file's problem: nothing kept
    dialog.view.selectRow(by_path[usb_path])
    assert dialog.forget_button.isEnabled()
    scripted_dialogs.confirm_answers.append(False)  # Cancel changes nothing
    qtbot.mouseClick(dialog.forget_button, Qt.MouseButton.LeftButton)
    settle(window)
    assert scripted_dialogs.calls[-1] == (
        "confirm",
        "Forget kept files",
        f"Forget the 2 files kept from {usb_path}?",
    )
    assert window.groups_model.rowCount() == 1 and len(dialog.model.rows()) == 2
    scripted_dialogs.confirm_answers.append(True)
    qtbot.mouseClick(dialog.forget_button, Qt.MouseButton.LeftButton)
    settle(window)
    qtbot.waitUntil(lambda: window.groups_model.rowCount() == 0, timeout=10_000)
    assert [(r[0], r[2]) for r in dialog.model.rows()] == [(broken, "")]
    # the scan's message ("2 files … kept as last scanned") gives way to what was done
    assert window.statusBar().currentMessage() == (
        "Forgot 2 files: they left the results (the files were not touched)."
    )
    assert dialog.intro.text() == "These files were skipped. Everything else was scanned normally."
    assert not dialog.forget_button.isEnabled()
    qtbot.waitUntil(lambda: window.problems_button.text() == "1 problem", timeout=10_000)
    assert service.kept_folders() == []
    assert sorted(p.name for p in (tmp_path / "usb-unplugged").iterdir()) == [
        "jiangnan.txt",
        "river copy.txt",
    ]
    items = {window.folder_panel._path(it): it for it in _items(window.folder_panel.list)}
    assert items[usb_path].text() == usb_path  # no longer "not read at the last scan"
    # the last problem gone, the list says so (the drive's folder back, empty: nothing kept)
    (tmp_path / "laptop" / "broken.pdf").unlink()
    usb.mkdir()
    window.last_scan_summary = None
    window.start_scan()
    qtbot.waitUntil(lambda: window.last_scan_summary is not None, timeout=60_000)
    assert window.last_scan_summary.problems == []
    dialog.refresh()
    settle(window)
    assert (dialog.model.rows(), dialog.intro.text()) == ([], "No problems: every file was read.")


def test_the_removal_confirmation_counts_no_file_of_a_folder_that_is_not_there(
    window, service, tmp_path, qtbot, scripted_dialogs
):
    """README: the last confirmation counts only the files that will go. A file whose folder is
    not there (a drive unplugged), or whose only copy to keep is there, stays: it is not
    counted, and when nothing else is marked nothing is asked."""
    import docgen
    from gui_helpers import settle

    laptop, usb = tmp_path / "laptop", tmp_path / "usb"
    kept_here = docgen.write_txt(laptop / "river.txt", docgen.SAMPLE_EN)
    docgen.write_txt(usb / "river copy.txt", docgen.SAMPLE_EN)
    docgen.write_txt(laptop / "jiangnan.txt", docgen.SAMPLE_ZH)
    going = docgen.write_txt(laptop / "jiangnan copy.txt", docgen.SAMPLE_ZH)
    service.add_folder(laptop)
    service.add_folder(usb)
    service.scan(None, workers=1)
    ids = {Path(d.path).name: d.doc_id for g in service.groups() for d in g.members}
    usb.rename(tmp_path / "usb-unplugged")
    # the copy on the drive, and the laptop's copy whose only other copy is on the drive
    service.set_marked([ids["river copy.txt"]], True)
    settle(window)
    window.trash_marked()
    settle(window)
    assert scripted_dialogs.kinds() == ["info"], scripted_dialogs.calls
    assert "not there" in scripted_dialogs.calls[0][2]
    service.set_marked([ids["river copy.txt"]], False)
    service.set_marked([ids["river.txt"], ids["jiangnan copy.txt"]], True)
    plan = service.marked_for_removal()
    assert plan.going(True) == (1, going.stat().st_size)
    settle(window)
    window.trash_marked()  # answered "no": nothing goes
    settle(window)
    kind, _title, text = scripted_dialogs.calls[-1]
    assert kind == "confirm" and text.startswith("Move 1 file ("), text
    assert kept_here.exists() and going.exists()


def _items(widget):
    return [widget.item(i) for i in range(widget.count())]


def test_the_windows_counts_are_counted(qtbot, window, service, tmp_path):
    """ "1 of 1 file", "1 document", "would form 1 group": no count of one reads as many."""
    import docgen

    panel = ProgressPanel()
    qtbot.addWidget(panel)
    panel.start("Scanning…")
    panel.update_event(ProgressEvent("reading", 1, 1))
    assert panel.count_label.text() == "1 of 1 file"
    panel.update_event(ProgressEvent("listing", 1))
    assert panel.count_label.text() == "1 file"
    panel.update_event(ProgressEvent("listing", 2))
    assert panel.count_label.text() == "2 files"
    docgen.write_txt(tmp_path / "docs" / "river.txt", docgen.SAMPLE_EN)
    window.folder_panel.add_folders([str(tmp_path / "docs")])
    window.ops.wait_idle()
    with qtbot.waitSignal(window.scanFinished, timeout=60_000):
        window.act_scan.trigger()
    qtbot.waitUntil(lambda: "1 document  ·" in window.status_label.text(), timeout=15_000)
    dialog = SettingsDialog(service)
    qtbot.addWidget(dialog)
    dialog._show_count(dialog.similarity.value(), 1)
    assert dialog.group_count.text().endswith("would form 1 group.")


def test_the_folder_list_says_when_a_folder_inside_one_was_not_read(qtbot, tmp_path):
    """A folder inside a listed one that the last scan could not read (its permissions
    changed, here; a share not mounted there): its files are kept, and the listed folder's row
    says so, with which folder and why in its tooltip, as it does for a listed folder."""
    import subprocess
    import sys

    import docgen
    from unprivileged import unprivileged

    home = tmp_path / "home"
    locked = home / "projects" / "locked"
    docgen.write_txt(home / "river.txt", docgen.SAMPLE_EN)
    docgen.write_txt(locked / "river copy.txt", docgen.SAMPLE_EN)
    db = tmp_path / "index.sqlite"
    scan = [sys.executable, "-m", "desktop_dedup", "scan", "--db", str(db), "--workers", "1"]
    first = subprocess.run(unprivileged([*scan, str(home)]), capture_output=True, timeout=300)
    assert first.returncode == 0, first.stderr
    service = DedupService(db)
    panel = FolderPanel(service)
    qtbot.addWidget(panel)
    panel.refresh()
    (item,) = _items(panel.list)
    assert (item.text(), item.icon().isNull()) == (os.path.realpath(home), True)
    locked.chmod(0)
    try:
        again = subprocess.run(unprivileged(scan), capture_output=True, timeout=300)
    finally:
        locked.chmod(0o755)
    assert again.returncode == 0, again.stderr
    panel.refresh()
    (item,) = _items(panel.list)
    assert item.text() == f"{os.path.realpath(home)}  (a folder inside not read at the last scan)"
    assert not item.icon().isNull()
    assert (
        f"The last scan could not read {os.path.realpath(locked)}: permission denied (folder)."
        in item.toolTip()
    )
    service.close()
