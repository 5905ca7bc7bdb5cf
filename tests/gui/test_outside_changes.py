"""Issue 8 item 4: a second program or window on the same index is noticed. The window watches
the index's change counter; a commit it did not make itself (here a real CLI scan in another
process, and a second service marking a file) makes it say so and show the new state, with no
click. Its own work does not."""

from __future__ import annotations

import subprocess
import sys

import docgen
from gui_helpers import scan, settle

from desktop_dedup.core.service import DedupService


def test_a_scan_by_another_process_is_noticed_and_shown(qtbot, window, service, tmp_path):
    root = tmp_path / "docs"
    docgen.write_txt(root / "a.txt", docgen.SAMPLE_EN)
    docgen.write_txt(root / "b.txt", docgen.SAMPLE_EN)
    window.folder_panel.add_folders([str(root)])
    scan(qtbot, window)
    assert window.groups_model.total == 1
    noticed: list[bool] = []
    window.outsideChanged.connect(lambda: noticed.append(True))
    qtbot.wait(2 * 2000 + 500)  # two checks: the window's own scan is not someone else's
    assert noticed == []

    docgen.write_txt(root / "zh1.txt", docgen.SAMPLE_ZH)
    docgen.write_txt(root / "zh2.txt", docgen.SAMPLE_ZH)
    out = subprocess.run(
        [sys.executable, "-m", "desktop_dedup", "scan", str(root), "--db", str(service.db_path),
         "--quiet"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    with qtbot.waitSignal(window.outsideChanged, timeout=15_000):
        pass
    settle(window)
    assert window.groups_model.total == 2  # the other program's new group is on screen
    assert "another program" in window.statusBar().currentMessage()


def test_marks_made_in_another_window_show_here(qtbot, window, service, tmp_path):
    root = tmp_path / "docs"
    docgen.write_txt(root / "a.txt", docgen.SAMPLE_EN)
    docgen.write_txt(root / "b.txt", docgen.SAMPLE_EN)
    window.folder_panel.add_folders([str(root)])
    scan(qtbot, window)
    qtbot.wait(2500)  # the counter is taken as it is after the window's own scan
    with DedupService(service.db_path) as other:  # a second window's service
        (group,) = other.groups()
        copy = next(m for m in group.members if not m.is_reference)
        other.set_marked([copy.doc_id], True)
    with qtbot.waitSignal(window.outsideChanged, timeout=15_000):
        pass
    settle(window)
    assert window.marked == {copy.doc_id}
    qtbot.waitUntil(lambda: "1 marked" in window.status_label.text(), timeout=15_000)
    assert window.members_model.group is not None
