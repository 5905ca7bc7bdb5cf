"""The window on files and folders whose names are not UTF-8 (README, Bad input): each byte
that is not UTF-8 is shown as the command line prints it (read in its code page, GBK here, and
marked so; else each such byte as an escape, \\xd7), and everything
done to the file (open, reveal, mark, remove, a folder ticked as a reference or removed from the
list) is done to the file of that name: a Qt string would drop the byte."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from urllib.parse import quote

import docgen
import pytest
from gui_helpers import SCAN_TIMEOUT_MS, scan, select_member, settle
from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QGuiApplication
from test_gui_panels import drop

from desktop_dedup.core import pathrules
from desktop_dedup.core.service import DedupService
from desktop_dedup.gui.models.members import COL_FOLDER, COL_NAME

FOLDER = "资料备份".encode("gbk")
NAME = "江南春天.txt".encode("gbk")
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def names_readable():
    """The reader of names in a code page loaded before the window opens: a window otherwise
    shows their escapes until it has loaded on its own thread (tested apart, below, in a
    process of its own)."""
    pathrules.load_name_reader()


def _write(path: bytes, text: str) -> str:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return os.fsdecode(os.path.realpath(path))


def test_the_window_shows_and_acts_on_names_that_are_not_utf8(
    qtbot, window, service, scripted_dialogs, trash_dir, tmp_path
):
    root = (tmp_path / "docs").resolve()
    folder = os.fsdecode(os.path.join(os.fsencode(root), FOLDER))
    gbk = _write(os.path.join(os.fsencode(folder), NAME), docgen.SAMPLE_ZH)
    utf8 = _write(os.fsencode(root / "文稿" / "江南春天.txt"), docgen.SAMPLE_ZH)
    window.folder_panel.add_folders([str(root)])
    settle(window)
    scan(qtbot, window)
    assert window.groups_model.total == 1
    members = window.members_model
    row = members.row_of_doc(next(m.doc_id for m in members.group.members if m.path == gbk))
    shown_name = "江南春天.txt \u27e8GBK\u27e9"
    assert members.data(members.index(row, COL_NAME)) == shown_name
    assert members.data(members.index(row, COL_FOLDER)) == pathrules.shown(folder)
    # its tooltip gives the name's exact bytes as well, whichever row it is
    tip = members.data(members.index(row, COL_NAME), Qt.ItemDataRole.ToolTipRole)
    assert pathrules.shown(gbk) in tip and pathrules.escaped(gbk) in tip
    assert "\\xbd\\xad" in pathrules.escaped(gbk)

    select_member(window, Path(gbk))
    window.open_current_file()
    assert scripted_dialogs.opened_encoded[-1] == b"file://" + quote(os.fsencode(gbk)).encode()
    window.reveal_current_file()
    assert scripted_dialogs.revealed[-1] == gbk
    window.copy_current_path()
    assert QGuiApplication.clipboard().text() == pathrules.shown(gbk)

    # the folder: listed as shown, ticked as a reference and removed by its name
    window.folder_panel.add_folders([folder])
    settle(window)
    panel = window.folder_panel
    assert panel.folders() == [(str(root), False), (folder, False)]
    assert panel.list.item(1).text() == pathrules.shown(folder)
    panel.list.item(1).setCheckState(Qt.CheckState.Checked)
    settle(window)
    assert [(f.path, f.is_reference) for f in service.folders()] == [
        (str(root), False),
        (folder, True),
    ]
    assert service.groups()[0].reference.path == gbk
    panel.list.item(1).setCheckState(Qt.CheckState.Unchecked)
    settle(window)
    panel.list.setCurrentRow(1)
    panel.remove_selected()
    settle(window)
    assert [f.path for f in service.folders()] == [str(root)]

    # marked and moved to the trash: the file of that name goes, its copy stays
    select_member(window, Path(gbk))
    window.act_toggle_mark.trigger()
    settle(window)
    scripted_dialogs.confirm_answers.append(True)
    with qtbot.waitSignal(window.actionFinished, timeout=SCAN_TIMEOUT_MS) as blocker:
        window.act_trash.trigger()
        settle(window)
    assert [(r.path, r.ok) for r in blocker.args[0]] == [(gbk, True)]
    assert not os.path.exists(gbk) and os.path.exists(utf8)
    assert [os.fsencode(p).endswith(NAME) for p in os.listdir(trash_dir)] == [True]
    journal = window.show_journal()
    assert journal.model.rows()[-1][3] == pathrules.shown(gbk)

    # put back while another file took its name: refused, the message naming it as shown
    _write(os.fsencode(gbk), "another file")
    entry = next(e for e in service.journal() if e.action == "trash")
    assert window.review_actions.restore([entry.id]) is not None
    qtbot.waitUntil(lambda: "warning" in scripted_dialogs.kinds(), timeout=SCAN_TIMEOUT_MS)
    warning = [c for c in scripted_dialogs.calls if c[0] == "warning"][-1]
    assert warning[2].startswith(pathrules.shown(gbk) + ": "), warning


def test_the_progress_panel_names_the_file_as_read_in_its_code_page(qtbot):
    from desktop_dedup.core.progress import ProgressEvent
    from desktop_dedup.gui.progress_panel import ProgressPanel

    panel = ProgressPanel()
    qtbot.addWidget(panel)
    panel.start("Scanning…")
    name = os.fsdecode(b"/docs/" + FOLDER + b"/" + NAME)
    panel.update_event(ProgressEvent("fingerprinting", 1, 2, name, 0))
    assert panel.current_label.toolTip() == pathrules.shown(name)
    assert "/资料备份 \u27e8GBK\u27e9/" in panel.current_label.toolTip()


def test_a_folder_whose_name_is_not_utf8_dropped_on_the_list_is_added(
    qtbot, window, service, tmp_path
):
    """A file manager drops a folder as its address, such a name's bytes percent-encoded
    (%D7%CA); QUrl.toLocalFile would give a name without them, which is no folder."""
    folder = os.path.join(os.fsencode(tmp_path), FOLDER)
    os.makedirs(folder)
    drop(window.folder_panel.list, [QUrl.fromEncoded(b"file://" + quote(folder).encode("ascii"))])
    settle(window)
    assert [f.path for f in service.folders()] == [os.fsdecode(folder)]


def test_an_error_naming_such_a_file_names_it_as_shown(qtbot, window, tmp_path):
    """An error raised off the GUI thread reaches the window as a Qt string: a file whose name is
    not UTF-8 is named in it as the window shows it, not without those bytes."""
    root = (tmp_path / "docs").resolve()
    gbk = _write(os.path.join(os.fsencode(root), FOLDER, NAME), docgen.SAMPLE_ZH)
    _write(os.fsencode(root / "copy.txt"), docgen.SAMPLE_ZH.replace("城市", "乡村", 1))
    window.folder_panel.add_folders([str(root)])
    settle(window)
    scan(qtbot, window)
    os.remove(gbk)  # gone since the scan: comparing it again fails, naming it
    errors: list[str] = []
    window.diff_view.failed.connect(errors.append)
    window.diff_view.ignore_box.setChecked(True)  # the pair on screen, compared again
    qtbot.waitUntil(lambda: bool(errors), timeout=20_000)
    assert pathrules.shown(gbk) in errors[-1], errors
    assert pathrules.shown(gbk) in window.diff_view.message()


WINDOW_CHILD = textwrap.dedent(
    """
    import json, sys, threading, time
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication
    from desktop_dedup.core import fingerprint, pathrules
    from desktop_dedup.core.service import DedupService
    from desktop_dedup.gui.main_window import MainWindow
    from desktop_dedup.gui.models.members import COL_NAME

    loads = []
    load = fingerprint._load_idf

    def spy(*args, **kwargs):
        loads.append(threading.current_thread() is threading.main_thread())
        return load(*args, **kwargs)

    fingerprint._load_idf = spy
    # the reader waits until the window has shown everything with escapes
    gate = threading.Event()
    read = pathrules.load_name_reader
    pathrules.load_name_reader = lambda: (gate.wait(60), read())
    app = QApplication([])
    window = MainWindow(
        DedupService(sys.argv[1]),
        settings=QSettings(sys.argv[2], QSettings.Format.IniFormat),
    )
    window.show()
    members = window.members_model

    def seen():
        names = sorted(
            members.data(members.index(row, COL_NAME)) for row in range(members.rowCount())
        )
        return names, [window.diff_view.left_title.text(), window.diff_view.right_title.text()]

    def settle(done):
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not done():
            app.processEvents()
            time.sleep(0.01)

    settle(lambda: members.rowCount() and not window.ops.busy and "Comparing" not in
           window.diff_view.change_label.text())
    before = seen()
    gate.set()
    settle(lambda: any("\u27e8" in t for t in seen()[1]))
    after = seen()
    print(json.dumps({"loads": loads, "before": before, "after": after}))
    """
)


def test_the_window_reads_names_in_a_code_page_without_waiting_for_it(tmp_path):
    """Reading a name in its code page needs jieba's IDF table and OpenCC (a tenth of a second
    to load): the window loads them on a thread of its own and shows escapes until they are
    there, instead of stalling its first screen (README, responsiveness)."""
    root = tmp_path / "docs"
    _write(os.path.join(os.fsencode(root), FOLDER, NAME), docgen.SAMPLE_ZH)
    _write(os.fsencode(root / "copy.txt"), docgen.SAMPLE_ZH)
    db = tmp_path / "index.sqlite3"
    service = DedupService(db)
    service.scan([root], workers=1)
    service.close()
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(REPO))
    proc = subprocess.run(
        [sys.executable, "-c", WINDOW_CHILD, str(db), str(tmp_path / "window.ini")],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    seen = json.loads(proc.stdout.strip().splitlines()[-1])
    assert seen["loads"] == [False]  # loaded once, and not on the window's thread
    (names, titles) = seen["before"]  # escapes, until the reader is there
    assert not any("\u27e8" in text for text in names + titles), seen
    (names, titles) = seen["after"]  # then the table and the diff's titles read them
    assert "江南春天.txt \u27e8GBK\u27e9" in names
    assert any("\u27e8GBK\u27e9" in title for title in titles), seen  # (elided)


def test_once_the_window_is_closed_its_thread_reads_names_at_once(tmp_path):
    """A window keeps its thread from waiting for the names' reader only while it is open: the
    program goes on (a command, a report) and reads such names at once."""
    child = textwrap.dedent(
        """
        import os, sys
        from PySide6.QtCore import QSettings
        from PySide6.QtWidgets import QApplication
        from desktop_dedup.core import pathrules
        from desktop_dedup.core.service import DedupService
        from desktop_dedup.gui.main_window import MainWindow

        app = QApplication([])
        window = MainWindow(
            DedupService(sys.argv[1]),
            settings=QSettings(sys.argv[2], QSettings.Format.IniFormat),
        )
        window.show()
        app.processEvents()
        window.close()
        print(pathrules.shown(os.fsdecode("/资料备份".encode("gbk"))))
        """
    )
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(REPO))
    proc = subprocess.run(
        [sys.executable, "-c", child, str(tmp_path / "db.sqlite3"), str(tmp_path / "w.ini")],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.splitlines()[-1] == "/资料备份 \u27e8GBK\u27e9"
