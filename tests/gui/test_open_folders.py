""" "Open with Desktop Dedup" on folders (issue 11 item 7): the launcher passes them (%F) and the
app adds them to the folder list and scans; a path that is not a folder is warned about."""

from __future__ import annotations

import os

import docgen

from desktop_dedup.gui.app import open_folders, parse_args


def test_folders_given_to_the_app_are_added_and_scanned(window, service, tmp_path, qtbot):
    root = tmp_path / "收件夹"
    docgen.write_txt(root / "a.txt", docgen.SAMPLE_EN)
    docgen.write_txt(root / "copy" / "a.txt", docgen.SAMPLE_EN)
    assert parse_args(["--db", str(tmp_path / "x.sqlite"), str(root)]).folders == [str(root)]
    open_folders(window, [str(root)])
    window.ops.wait_idle()
    assert [f.path for f in service.folders()] == [os.path.realpath(root)]
    qtbot.waitUntil(lambda: getattr(window, "last_scan_summary", None) is not None, timeout=60_000)
    (group,) = service.groups()
    assert len(group.members) == 2


def test_a_path_that_is_not_a_folder_is_warned_about(window, service, scripted_dialogs, tmp_path):
    open_folders(window, [str(tmp_path / "missing")])
    assert service.folders() == []
    assert any(call[0] == "warning" for call in scripted_dialogs.calls), scripted_dialogs.calls
