"""Removing near duplicates from the app needs an explicit choice (issue 7, case 3): marked
near copies, which hold text the kept copy does not, stay unless the user includes them."""

from __future__ import annotations

import os
import shutil

import docgen
from gui_helpers import scan, settle

OLD = (1_500_000_000_000_000_000,) * 2


def test_near_duplicates_are_removed_only_when_included(
    qtbot, window, service, scripted_dialogs, trash_dir, tmp_path
):
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
    assert len(service.marked_ids()) == 2

    scripted_dialogs.confirm_answers.extend([False, True])  # keep the near copy; trash
    with qtbot.waitSignal(window.actionFinished, timeout=120_000) as blocker:
        window.act_trash.trigger()
        settle(window)
    asked = [call for call in scripted_dialogs.calls if call[0] == "confirm"]
    assert "near duplicates" in asked[0][2]
    results = {r.path: r for r in blocker.args[0]}
    assert results[os.path.realpath(c)].ok and not c.exists()
    assert not results[os.path.realpath(b)].ok and b.exists() and a.exists()

    window.groups_view.setCurrentIndex(window.groups_model.index(0, 0))
    qtbot.waitUntil(lambda: window.members_model.group is not None)
    window.act_mark_group.trigger()
    settle(window)
    scripted_dialogs.confirm_answers.extend([True, True])  # include it this time
    with qtbot.waitSignal(window.actionFinished, timeout=120_000) as blocker:
        window.act_trash.trigger()
        settle(window)
    assert [r.ok for r in blocker.args[0]] == [True]
    assert not b.exists() and a.exists()


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

    scripted_dialogs.confirm_answers.extend([False, True])  # near copies left; trash
    with qtbot.waitSignal(window.actionFinished, timeout=120_000) as blocker:
        window.act_trash.trigger()
        settle(window)
    asked = [call for call in scripted_dialogs.calls if call[0] == "confirm"]
    assert "near duplicates" in asked[0][2]
    assert [r.ok for r in blocker.args[0]] == [False] and paths["edited-b"].exists()

    scripted_dialogs.confirm_answers.extend([True, True])  # included this time
    with qtbot.waitSignal(window.actionFinished, timeout=120_000) as blocker:
        window.act_trash.trigger()
        settle(window)
    assert [r.ok for r in blocker.args[0]] == [True]
    assert not paths["edited-b"].exists()
    assert paths["original"].exists() and paths["edited-a"].exists()
    assert [j.path for j in service.journal() if j.ok] == [str(paths["edited-b"].resolve())]
    (group,) = service.groups()
    assert len(group.members) == 2 and group.close == []
