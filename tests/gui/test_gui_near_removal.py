"""Removing near duplicates from the app needs an explicit choice (issue 7, case 3): marked
near copies, which hold text the kept copy does not, stay unless the user includes them."""

from __future__ import annotations

import os
import shutil

import docgen
from gui_helpers import scan, settle

OLD = (1_500_000_000_000_000_000,) * 2


def _a_group_marked(qtbot, window, tmp_path):
    """A group of a reference ``a``, its near copy ``b`` (words edited) and its identical
    copy ``c``, scanned in the app, every copy but the reference marked."""
    root = tmp_path / "docs"
    a = docgen.write_txt(root / "a.txt", docgen.SAMPLE_EN)
    os.utime(a, ns=OLD)  # the reference
    words = docgen.SAMPLE_EN.split(" ")
    for i in range(10, len(words), 40):
        words[i] = "edited"
    b = docgen.write_txt(root / "b.txt", " ".join(words))
    c = root / "c.txt"
    shutil.copyfile(a, c)
    window.folder_panel.add_folders([str(root)])
    settle(window)
    scan(qtbot, window)
    window.groups_view.setCurrentIndex(window.groups_model.index(0, 0))
    qtbot.waitUntil(lambda: window.members_model.group is not None)
    window.act_mark_group.trigger()
    settle(window)
    return a, b, c


def test_near_duplicates_are_removed_only_when_included(
    qtbot, window, service, scripted_dialogs, trash_dir, tmp_path
):
    a, b, c = _a_group_marked(qtbot, window, tmp_path)
    assert len(service.marked_ids()) == 2

    scripted_dialogs.choice_answers.append("keep")  # keep the near copy
    scripted_dialogs.confirm_answers.append(True)  # trash
    with qtbot.waitSignal(window.actionFinished, timeout=120_000) as blocker:
        window.act_trash.trigger()
        settle(window)
    (question,) = [call for call in scripted_dialogs.calls if call[0] == "ask"]
    assert "near duplicates" in question[2]
    (asked,) = [call for call in scripted_dialogs.calls if call[0] == "confirm"]
    # what the confirmation counts is what goes: the copy, not the near copy kept
    assert "Move 1 file (" in asked[2], asked
    results = {r.path: r for r in blocker.args[0]}
    assert results[os.path.realpath(c)].ok and not c.exists()
    assert not results[os.path.realpath(b)].ok and b.exists() and a.exists()

    window.groups_view.setCurrentIndex(window.groups_model.index(0, 0))
    qtbot.waitUntil(lambda: window.members_model.group is not None)
    window.act_mark_group.trigger()
    settle(window)
    scripted_dialogs.choice_answers.append("near")  # include it this time
    scripted_dialogs.confirm_answers.append(True)
    with qtbot.waitSignal(window.actionFinished, timeout=120_000) as blocker:
        window.act_trash.trigger()
        settle(window)
    assert [r.ok for r in blocker.args[0]] == [True]
    assert not b.exists() and a.exists()


def test_cancel_at_the_near_duplicates_question_moves_nothing(
    qtbot, window, service, scripted_dialogs, trash_dir, tmp_path
):
    """The question whether marked near duplicates go too had two buttons, "Remove near
    duplicates too" and "Cancel", where Cancel meant "go on without them": the next box asked
    to move every marked file, the near duplicates counted in ("Move 2 files"). Cancel now
    cancels; keeping them is a choice of its own, and then nothing is asked when nothing else
    is marked."""
    a, b, c = _a_group_marked(qtbot, window, tmp_path)
    marked = service.marked_ids()
    assert len(marked) == 2

    scripted_dialogs.choice_answers.append(None)  # Cancel
    window.act_trash.trigger()
    settle(window)
    assert scripted_dialogs.kinds()[-1] == "ask"  # nothing asked after it
    assert b.exists() and c.exists() and service.marked_ids() == marked
    assert not [j for j in service.journal() if j.ok]
    target = tmp_path / "target"
    target.mkdir()
    scripted_dialogs.folder_answers.append(str(target))  # Move to folder: the same question
    scripted_dialogs.choice_answers.append(None)
    window.act_move.trigger()
    settle(window)
    assert scripted_dialogs.kinds()[-2:] == ["choose_move_folder", "ask"]
    assert b.exists() and c.exists() and not any(target.iterdir())

    near = {m.doc_id for m in service.groups()[0].members if m.path == str(b.resolve())}
    window.set_marks(near, service.groups())
    settle(window)
    scripted_dialogs.choice_answers.append("keep")  # the one marked file kept: nothing to do
    window.act_trash.trigger()
    settle(window)
    assert scripted_dialogs.kinds()[-2:] == ["ask", "info"], scripted_dialogs.calls[-2:]
    assert b.exists() and not [j for j in service.journal() if j.ok]


def test_a_file_close_to_a_group_is_trashed_from_the_app_as_a_near_copy_of_its_closest(
    qtbot, window, service, scripted_dialogs, trash_dir, tmp_path
):
    """Ticked in the list of files close to the group, it goes to the trash like a marked
    near duplicate: only when included, with the file it is closest to kept; the journal has
    it, and the group is left as it was."""
    from support.close_family import write_close_family

    paths = write_close_family(tmp_path / "docs")
    window.folder_panel.add_folders([str(tmp_path / "docs")])
    settle(window)
    scan(qtbot, window)
    window.groups_view.setCurrentIndex(window.groups_model.index(0, 0))
    qtbot.waitUntil(lambda: window.members_model.group is not None)
    model = window.close_model
    assert model.rowCount() == 1
    model.toggle(0)
    settle(window)
    assert len(service.marked_ids()) == 1

    scripted_dialogs.choice_answers.append("keep")  # near copies left: nothing else marked
    window.act_trash.trigger()
    settle(window)
    (question,) = [call for call in scripted_dialogs.calls if call[0] == "ask"]
    assert "near duplicates" in question[2]
    assert scripted_dialogs.kinds()[-1] == "info" and paths["edited-b"].exists()

    scripted_dialogs.choice_answers.append("near")  # included this time
    scripted_dialogs.confirm_answers.append(True)
    with qtbot.waitSignal(window.actionFinished, timeout=120_000) as blocker:
        window.act_trash.trigger()
        settle(window)
    assert [r.ok for r in blocker.args[0]] == [True]
    assert not paths["edited-b"].exists()
    assert paths["original"].exists() and paths["edited-a"].exists()
    assert [j.path for j in service.journal() if j.ok] == [str(paths["edited-b"].resolve())]
    (group,) = service.groups()
    assert len(group.members) == 2 and group.close == []
