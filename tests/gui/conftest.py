"""GUI test fixtures: offscreen Qt, isolated settings/data dirs, scripted dialogs."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import sys
from pathlib import Path

import pytest

# tests/docgen.py (real documents of every format) lives one level up.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gui_helpers import make_test_trash  # noqa: E402
from PySide6.QtCore import QSettings  # noqa: E402

from desktop_dedup.core.service import DedupService  # noqa: E402
from desktop_dedup.gui import dialogs  # noqa: E402
from desktop_dedup.gui.main_window import MainWindow  # noqa: E402


class ScriptedDialogs(dialogs.Dialogs):
    """Stands in for every modal dialog: records each call and answers from queues.

    An unexpected question answers "no"/"cancel", which is the safe choice and makes the
    test fail on its own assertions rather than hang on a modal box.
    """

    def __init__(self) -> None:
        self.calls: list[tuple[str, str, str]] = []
        self.confirm_answers: list[bool] = []
        self.choice_answers: list[str | None] = []  # a choice's key; None: Cancel
        self.folder_answers: list[str | None] = []
        self.save_answers: list[str | None] = []
        self.keep_structure_answers: list[bool] = []
        self.opened_urls: list[str] = []
        self.opened_encoded: list[bytes] = []  # the addresses as the desktop gets them
        self.revealed: list[str] = []

    def _record(self, kind: str, title: str, text: str) -> None:
        self.calls.append((kind, title, text))

    def kinds(self) -> list[str]:
        return [c[0] for c in self.calls]

    def info(self, parent, title, text):
        self._record("info", title, text)

    def warning(self, parent, title, text):
        self._record("warning", title, text)

    def error(self, parent, title, text, details=""):
        self._record("error", title, f"{text}\n{details}")

    def confirm(self, parent, title, text, *, ok_text="", informative="", danger=False):
        self._record("confirm", title, text)
        return self.confirm_answers.pop(0) if self.confirm_answers else False

    def ask(self, parent, title, text, choices, *, informative="", danger=False):
        self._record("ask", title, text)
        keys = [key for key, _label in choices]
        answer = self.choice_answers.pop(0) if self.choice_answers else None
        assert answer is None or answer in keys, (answer, keys)
        return answer

    def choose_folder(self, parent, title, start=""):
        self._record("choose_folder", title, "")
        return self.folder_answers.pop(0) if self.folder_answers else None

    def choose_move_folder(self, parent, title, start=""):
        """The move dialog: a folder from ``folder_answers``, "keep the folder structure" from
        ``keep_structure_answers`` (unchecked when empty)."""
        self._record("choose_move_folder", title, "")
        folder = self.folder_answers.pop(0) if self.folder_answers else None
        keep = self.keep_structure_answers.pop(0) if self.keep_structure_answers else False
        return (folder, keep) if folder else None

    def choose_save_file(self, parent, title, start, filters):
        self._record("choose_save_file", title, filters)
        return self.save_answers.pop(0) if self.save_answers else None

    def open_url(self, url):
        self.opened_urls.append(url.toLocalFile() or url.toString())
        self.opened_encoded.append(bytes(url.toEncoded()))
        return True

    def reveal_in_file_manager(self, path):
        self.revealed.append(path)


@pytest.fixture(scope="session", autouse=True)
def _isolated_qsettings(tmp_path_factory):
    """QSettings (window layout, language) must never touch the developer's real profile."""
    root = tmp_path_factory.mktemp("qsettings")
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(root))
    return root


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path, monkeypatch):
    monkeypatch.setenv("DESKTOP_DEDUP_HOME", str(tmp_path / "home"))


@pytest.fixture
def scripted_dialogs():
    scripted = ScriptedDialogs()
    previous = dialogs.install(scripted)
    yield scripted
    dialogs.install(previous)


@pytest.fixture
def window_settings(tmp_path):
    return QSettings(str(tmp_path / "window.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def service(tmp_path):
    svc = DedupService(tmp_path / "db.sqlite3")
    yield svc
    svc.close()


@pytest.fixture
def trash_dir(tmp_path):
    return tmp_path / "test-trash"


@pytest.fixture
def window(qtbot, service, window_settings, scripted_dialogs, trash_dir):
    win = MainWindow(service, trash=make_test_trash(trash_dir), settings=window_settings)
    qtbot.addWidget(win)
    win.show()
    assert win.ops.wait_idle(60_000)  # the first page, group and diff are read off-thread
    yield win
    win.tasks.wait(30_000)
