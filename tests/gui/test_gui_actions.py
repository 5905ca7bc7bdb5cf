"""Review and removal actions through the main window: move with name conflicts, whole-group
warning, open/reveal/copy, swap sides, ignore whitespace, settings, language, About, app main.
"""

from __future__ import annotations

import docgen
import pytest
from gui_helpers import filter_to, scan, select_member, settle
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication
from test_gui_diff_view import all_highlighted

from desktop_dedup.gui.main_window import MainWindow


@pytest.fixture
def copies(tmp_path):
    """Three identical copies of a report plus a pair that differs only in punctuation."""
    root = tmp_path / "docs"
    text = docgen.SAMPLE_EN
    paths = [docgen.write_txt(root / sub / "report.txt", text) for sub in ("a", "b", "c")]
    punct_a = docgen.write_txt(root / "punct" / "note.txt", docgen.SAMPLE_ZH)
    punct_b = docgen.write_txt(
        root / "punct" / "note-copy.txt", docgen.SAMPLE_ZH.replace("，", "；", 3)
    )
    return root, paths, (punct_a, punct_b)


def test_move_marked_to_folder_renames_on_conflict(
    qtbot, window, copies, scripted_dialogs, tmp_path
):
    root, paths, _ = copies
    target = tmp_path / "moved"
    target.mkdir()
    (target / "report.txt").write_text("already here", encoding="utf-8")
    window.folder_panel.add_folders([str(root)])
    settle(window)
    scan(qtbot, window)
    filter_to(qtbot, window, "report.txt")
    window.act_mark_group.trigger()
    settle(window)
    assert len(window.marked) == 2

    empty = window.show_journal()  # nothing removed yet: the list says so
    assert (empty.model.rows(), empty.intro.text()) == (
        [],
        "No removals yet. The files you move to the trash or to a folder, or replace by hard "
        "links, will be listed here.",
    )
    empty.close()
    scripted_dialogs.folder_answers.append(str(target))
    scripted_dialogs.confirm_answers.append(True)
    with qtbot.waitSignal(window.actionFinished, timeout=120_000) as blocker:
        window.act_move.trigger()
        settle(window)
    results = blocker.args[0]
    assert all(r.ok for r in results)
    names = sorted(p.name for p in target.iterdir())
    assert names == ["report (1).txt", "report (2).txt", "report.txt"]
    assert (target / "report.txt").read_text(encoding="utf-8") == "already here"
    assert sum(p.exists() for p in paths) == 1  # the reference stayed
    assert window.marked == set()
    journal = window.show_journal()
    assert {row[1] for row in journal.model.rows()} == {
        "moved to a folder"
    }  # shown as words, not the code
    assert journal.intro.text() == "Every removal or move the app attempted, newest last."


def test_warns_before_a_whole_group_would_be_removed(
    qtbot,
    window,
    service,
    copies,
    scripted_dialogs,
):
    root, paths, _ = copies
    window.folder_panel.add_folders([str(root)])
    settle(window)
    scan(qtbot, window)
    filter_to(qtbot, window, "report.txt")
    group = window.current_group()
    # Marks persist across regrouping, so a group can end up fully marked (e.g. a marked file
    # became the reference); simulate that through the service.
    service.set_marked([m.doc_id for m in group.members], True)
    window.reload_results()
    settle(window)
    scripted_dialogs.confirm_answers.append(False)
    window.trash_marked()  # plans off the GUI thread, then asks
    settle(window)
    title, text = scripted_dialogs.calls[-1][1:]
    assert title == "Every copy would be removed"
    assert "In 1 group every file is marked" in text
    assert all(p.exists() for p in paths)


def test_open_reveal_copy_and_swap(qtbot, window, copies, scripted_dialogs):
    root, _, (note, note_copy) = copies
    window.folder_panel.add_folders([str(root)])
    settle(window)
    scan(qtbot, window)
    filter_to(qtbot, window, "note-copy")
    select_member(window, note_copy)
    member = window.current_member()
    window.act_open.trigger()
    settle(window)
    window.act_reveal.trigger()
    settle(window)
    window.act_copy_path.trigger()
    settle(window)
    assert scripted_dialogs.opened_urls == [member.path]
    assert scripted_dialogs.revealed == [member.path]
    assert QGuiApplication.clipboard().text() == member.path

    view = window.diff_view
    left_before, right_before = view.documents
    assert all_highlighted(view.right_pane, view.right_pane.colours.word)
    window.act_swap.trigger()
    settle(window)
    assert view.documents == (right_before, left_before)
    assert not view.reference_on_left
    assert view.right_title.full_text().startswith("Reference")

    # Only punctuation differs: with the option on, nothing is a change.
    assert view.result.change_rows
    view.ignore_box.setChecked(True)
    settle(window)
    assert view.result.change_rows == []
    assert view.change_label.text() == "No changes"


def test_settings_dialog_from_menu_regroups(qtbot, window, service, copies):
    root, _, _ = copies
    window.folder_panel.add_folders([str(root)])
    settle(window)
    scan(qtbot, window)
    dialog = window.show_settings()
    dialog.distance.setValue(0)
    dialog.accept()
    settle(window)
    assert service.settings().max_distance == 0
    assert window.groups_model.total == service.group_count()


def test_language_menu_and_about(qtbot, window, scripted_dialogs):
    from desktop_dedup import i18n

    actions = [a for a in window.language_menu.actions() if not a.isSeparator()]
    assert [a.text() for a in actions] == ["Follow the system"] + [
        name for _, name in i18n.available_languages()
    ]
    chinese = next(a for a in actions if a.text() == "简体中文")
    chinese.trigger()
    assert i18n.current_language() == "zh_CN"
    assert scripted_dialogs.kinds() == ["info"]
    english = next(a for a in actions if a.text() == "English")
    english.trigger()
    assert i18n.current_language() == "en"
    assert i18n.stored_language() == "en"
    window.act_language_system.trigger()  # issue 9: back to following the system
    assert i18n.stored_language() == i18n.SYSTEM

    dialog = window.show_about()
    assert dialog is not None and dialog.isVisible()
    dialog.close()


def test_app_start_opens_the_database_given_on_the_command_line(qtbot, tmp_path):
    from desktop_dedup.gui import app as app_module

    db = tmp_path / "main.sqlite3"
    args = app_module.parse_args(["--db", str(db), "-platform", "offscreen"])
    assert app_module.create_application() is QApplication.instance()
    window = app_module.open_main_window(args)
    assert isinstance(window, MainWindow)
    qtbot.addWidget(window)
    try:
        assert window.service.db_path == db.resolve()
        assert db.exists()
        assert window.groups_model.total == 0
    finally:
        window.service.close()


def test_app_start_refuses_a_database_from_a_newer_version(qtbot, tmp_path, scripted_dialogs):
    import sqlite3

    from desktop_dedup.gui import app as app_module

    db = tmp_path / "future.sqlite3"
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA user_version = 9999")
    assert app_module.open_main_window(app_module.parse_args(["--db", str(db)])) == 2
    assert scripted_dialogs.kinds() == ["error"]
