"""Issue 9 items 6 and 7 in the app (gui/review_actions.py): restore from the journal (the real
freedesktop trash of the test HOME), move keeping the folder structure, hard links, the external
diff tool, and the scan's filter counts in the status bar."""

from __future__ import annotations

import json
import os
import sys

import docgen
import pytest
from gui_helpers import filter_to, scan, select_member, settle
from PySide6.QtWidgets import QDialogButtonBox

from desktop_dedup.gui.main_window import MainWindow
from desktop_dedup.gui.review_actions import MoveTargetDialog

OLD = (1_500_000_000_000_000_000,) * 2


@pytest.fixture
def copies(tmp_path):
    """Three identical copies of a report in three folders; a/ holds the oldest (reference)."""
    root = tmp_path / "docs"
    paths = [docgen.write_txt(root / sub / "report.txt", docgen.SAMPLE_EN) for sub in "abc"]
    os.utime(paths[0], ns=OLD)
    return root, paths


def _mark_report_group(qtbot, window, root):
    window.folder_panel.add_folders([str(root)])
    scan(qtbot, window)
    filter_to(qtbot, window, "report.txt")
    window.act_mark_group.trigger()
    settle(window)  # marking runs on the writer thread
    assert len(window.marked) == 2


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="freedesktop trash")
def test_restore_from_the_journal_puts_a_trashed_file_back(
    qtbot, service, window_settings, scripted_dialogs, copies
):
    root, paths = copies
    window = MainWindow(service, trash=None, settings=window_settings)  # the real send2trash
    qtbot.addWidget(window)
    window.show()
    _mark_report_group(qtbot, window, root)
    scripted_dialogs.confirm_answers.append(True)
    with qtbot.waitSignal(window.actionFinished, timeout=120_000):
        window.act_trash.trigger()
    assert [p.exists() for p in paths] == [True, False, False]

    window.act_journal.trigger()
    dialog = window.open_dialogs["journal"]
    assert not dialog.restore_button.isEnabled()  # nothing selected yet
    entry = next(e for e in service.journal() if e.path == str(paths[1]))
    dialog.select_entries({entry.id})
    assert dialog.restore_button.isEnabled()
    dialog.restore_button.click()
    qtbot.waitUntil(lambda: paths[1].exists(), timeout=60_000)
    window.tasks.wait(30_000)
    assert paths[1].read_text(encoding="utf-8") == docgen.SAMPLE_EN
    assert not paths[2].exists()  # only the selected one
    qtbot.waitUntil(lambda: any(row[1] != "moved to the trash" for row in dialog.model.rows()))
    dialog.select_entries({entry.id})
    assert not dialog.restore_button.isEnabled()  # restored already
    assert "Restored 1 file" in window.statusBar().currentMessage()
    window.tasks.wait(30_000)


def test_move_dialog_keeps_the_folder_structure_when_asked(
    qtbot, window, copies, scripted_dialogs, tmp_path
):
    root, paths = copies
    target = tmp_path / "moved"
    target.mkdir()
    _mark_report_group(qtbot, window, root)
    scripted_dialogs.folder_answers.append(str(target))
    scripted_dialogs.keep_structure_answers.append(True)
    scripted_dialogs.confirm_answers.append(True)
    with qtbot.waitSignal(window.actionFinished, timeout=120_000) as blocker:
        window.act_move.trigger()
    assert all(r.ok for r in blocker.args[0])
    assert sorted(str(p.relative_to(target)) for p in target.rglob("*.txt")) == [
        os.path.join("b", "report.txt"),
        os.path.join("c", "report.txt"),
    ]
    assert "choose_move_folder" in scripted_dialogs.kinds()


def test_move_target_dialog_widgets(qtbot, tmp_path):
    dialog = MoveTargetDialog("Move the marked files to", str(tmp_path))
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.folder() == str(tmp_path) and not dialog.keep_structure.isChecked()
    dialog.keep_structure.click()
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    assert dialog.result() == dialog.DialogCode.Accepted and dialog.keep_structure.isChecked()


def test_replace_marked_by_hard_links(qtbot, window, copies, scripted_dialogs):
    root, paths = copies
    _mark_report_group(qtbot, window, root)
    scripted_dialogs.confirm_answers.append(True)
    with qtbot.waitSignal(window.actionFinished, timeout=120_000) as blocker:
        window.review_actions.act_hardlink.trigger()
    assert all(r.ok and r.action == "hardlink" for r in blocker.args[0])
    assert os.path.samefile(paths[0], paths[1]) and os.path.samefile(paths[0], paths[2])
    assert all(p.read_text(encoding="utf-8") == docgen.SAMPLE_EN for p in paths)


def test_open_both_in_the_external_diff_tool(qtbot, window, copies, tmp_path):
    root, paths = copies
    window.folder_panel.add_folders([str(root)])
    scan(qtbot, window)
    filter_to(qtbot, window, "report.txt")
    select_member(window, paths[2])
    out = tmp_path / "tool-args.json"
    tool = tmp_path / "tool.py"
    tool.write_text(
        f"import json, sys\nopen({str(out)!r}, 'w').write(json.dumps(sys.argv[1:]))\n",
        encoding="utf-8",
    )
    window.review_actions.set_diff_command(f'"{sys.executable}" "{tool}" --left {{a}} {{b}}')
    window.review_actions.act_external_diff.trigger()
    qtbot.waitUntil(out.exists, timeout=30_000)
    qtbot.waitUntil(lambda: out.read_text(encoding="utf-8").endswith("]"), timeout=10_000)
    assert json.loads(out.read_text(encoding="utf-8")) == ["--left", str(paths[0]), str(paths[2])]
    select_member(window, paths[0])  # the reference against itself: nothing to compare
    assert window.review_actions.open_external_diff() is None


def test_scan_status_says_what_the_filters_passed_over(qtbot, window, tmp_path):
    root = tmp_path / "docs"
    docgen.write_txt(root / "a.txt", docgen.SAMPLE_EN)
    (root / "photo.jpg").write_bytes(b"\xff\xd8\xff\xe0" + bytes(range(256)) * 4)
    (root / "LICENSE").write_text(docgen.SAMPLE_EN, encoding="utf-8")  # read: text
    (root / "notes").write_text("#!/bin/sh\n# " + docgen.SAMPLE_EN, encoding="utf-8")  # a script
    window.folder_panel.add_folders([str(root)])
    summary = scan(qtbot, window)
    assert summary.filtered.by_extension == {"jpg": 1}
    assert (
        "Not scanned: 1 of other types (.jpg 1); 1 script without an extension (#!)."
        in window.statusBar().currentMessage()
    )
    assert window.groups_model.total == 1  # a.txt and LICENSE


def test_the_whole_scan_message_is_in_the_status_bars_tooltip(qtbot, window, tmp_path):
    """The scan's message and what its filters passed over make one long line, which the
    status bar cuts where its counts begin (at 1280 px: "…0 problems. Not scanned: 147 of
    other !380 groups"): hovering the bar shows it whole. Its counts are counted: it said
    "Scanned 1 files", "1 groups"."""
    root = tmp_path / "docs"
    docgen.write_txt(root / "a.txt", docgen.SAMPLE_EN)
    (root / "photo.jpg").write_bytes(b"\xff\xd8\xff\xe0" + bytes(range(256)) * 4)
    window.folder_panel.add_folders([str(root)])
    scan(qtbot, window)
    message = window.statusBar().currentMessage()
    assert message.startswith("Scanned 1 file in ") and "Not scanned: 1 of other types" in message
    assert ": 0 groups, 0 problems." in message  # each count in its own number
    assert window.statusBar().toolTip() == message
    docgen.write_txt(root / "b.txt", docgen.SAMPLE_EN)
    scan(qtbot, window)
    message = window.statusBar().currentMessage()
    assert message.startswith("Scanned 2 files in ") and ": 1 group, 0 problems." in message


def test_hard_links_leave_a_same_text_copy_alone(qtbot, window, scripted_dialogs, tmp_path):
    root = tmp_path / "docs"
    ref = docgen.write_txt(root / "a.txt", docgen.SAMPLE_EN)
    os.utime(ref, ns=OLD)
    same_bytes = docgen.write_txt(root / "b.txt", docgen.SAMPLE_EN)
    same_text = root / "c.txt"
    same_text.write_bytes(docgen.SAMPLE_EN.encode("utf-16"))  # the same text in other bytes
    window.folder_panel.add_folders([str(root)])
    scan(qtbot, window)
    window.act_mark_group.trigger()
    settle(window)  # marking runs on the writer thread
    assert len(window.marked) == 2
    scripted_dialogs.confirm_answers.append(True)
    with qtbot.waitSignal(window.actionFinished, timeout=120_000) as blocker:
        window.review_actions.act_hardlink.trigger()
    assert ("confirm", "Replace by hard links") in [c[:2] for c in scripted_dialogs.calls]
    assert "Replace 1 identical file by hard links" in scripted_dialogs.calls[-1][2]
    assert [(r.path, r.ok) for r in blocker.args[0]] == [(str(same_bytes), True)]
    assert os.path.samefile(ref, same_bytes) and not os.path.samefile(ref, same_text)
    assert same_text.read_bytes() == docgen.SAMPLE_EN.encode("utf-16")


def _moved_away(qtbot, window, scripted_dialogs, root, target):
    """Mark the report's group (all but the reference in a/), move the marked files to
    ``target``, and return the journal entries of the moves by original path."""
    _mark_report_group(qtbot, window, root)
    scripted_dialogs.folder_answers.append(str(target))
    scripted_dialogs.confirm_answers.append(True)
    with qtbot.waitSignal(window.actionFinished, timeout=120_000) as blocker:
        window.act_move.trigger()
    assert all(r.ok for r in blocker.args[0])
    settle(window)
    return {e.path: e for e in window.service.journal() if e.action == "move" and e.ok}


def _restore(qtbot, window, entry_ids):
    window.act_journal.trigger()
    dialog = window.open_dialogs["journal"]
    dialog.select_entries(set(entry_ids))
    assert dialog.restore_button.isEnabled()
    dialog.restore_button.click()


def test_a_restored_file_is_back_in_its_group_without_scanning_by_hand(
    qtbot, window, copies, scripted_dialogs, tmp_path
):
    """Restoring from the journal puts a file back where it was; the results show it again
    as they showed it before it went (a scan of the listed folders, which reads only it)."""
    root, paths = copies
    target = tmp_path / "moved"
    target.mkdir()
    moves = _moved_away(qtbot, window, scripted_dialogs, root, target)
    assert window.service.groups() == []  # the reference alone is no group
    messages: list[str] = []
    window.statusBar().messageChanged.connect(messages.append)
    with qtbot.waitSignal(window.scanFinished, timeout=60_000) as blocker:
        _restore(qtbot, window, [moves[str(paths[1])].id])
    settle(window)
    assert paths[1].exists() and not paths[2].exists()
    assert blocker.args[0].files_seen == 2  # the reference and the file back in its place
    [group] = window.service.groups()
    assert sorted(m.path for m in group.members) == [str(paths[0]), str(paths[1])]
    filter_to(qtbot, window, "report.txt")
    assert sorted(m.path for m in window.members_model.group.members) == [
        str(paths[0]),
        str(paths[1]),
    ]
    assert any("Restored 1 file" in m and "scanning" in m for m in messages)
    assert "Scanned" in window.statusBar().currentMessage()


def test_a_file_restored_outside_the_listed_folders_starts_no_scan(
    qtbot, window, copies, scripted_dialogs, tmp_path
):
    """A file whose folder left the list since it was moved comes back on disk; a scan of
    the list would not see it, so none starts, and the status bar says why it is not shown."""
    root, paths = copies
    target = tmp_path / "moved"
    target.mkdir()
    moves = _moved_away(qtbot, window, scripted_dialogs, root, target)
    scans: list[object] = []
    window.scanFinished.connect(scans.append)
    window.service.remove_folder(str(root))
    other = tmp_path / "other"
    other.mkdir()
    window.service.add_folder(other)
    settle(window)
    _restore(qtbot, window, [moves[str(paths[2])].id])
    qtbot.waitUntil(lambda: "Restored" in window.statusBar().currentMessage(), timeout=60_000)
    settle(window)
    assert paths[2].exists() and not window.tasks.busy and scans == []
    message = window.statusBar().currentMessage()
    assert "Restored 1 file outside the listed folders" in message
