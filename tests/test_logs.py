"""Logging to the user's log directory with rotation, and the About dialog that points to it."""

from __future__ import annotations

import logging
import os
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest

from desktop_dedup import __version__, logs, paths


def _our_handlers() -> list[logging.Handler]:
    return [h for h in logging.getLogger().handlers if getattr(h, logs._MARK, None)]


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private DESKTOP_DEDUP_HOME; removes our handlers afterwards so nothing leaks."""
    monkeypatch.setenv(paths.HOME_ENV, str(tmp_path / "home"))
    root = logging.getLogger()
    level = root.level
    yield tmp_path / "home"
    for handler in _our_handlers():
        root.removeHandler(handler)
        handler.close()
    root.setLevel(level)


def _flush() -> None:
    for handler in _our_handlers():
        handler.flush()


def test_paths_follow_the_override_and_exist(home: Path) -> None:
    assert paths.data_dir() == home / "data" and paths.data_dir().is_dir()
    assert paths.log_dir() == home / "logs" and paths.log_dir().is_dir()
    assert paths.config_dir() == home / "config" and paths.config_dir().is_dir()
    assert paths.cache_dir() == home / "cache" and paths.cache_dir().is_dir()
    assert paths.default_db_path().parent == paths.data_dir()


def test_paths_use_platform_dirs_without_override(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(paths.HOME_ENV, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg-config"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg-state"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))
    if os.name == "posix" and not hasattr(os, "startfile"):
        assert paths.cache_dir() == tmp_path / "xdg-cache" / "desktop_dedup"
        assert paths.data_dir() == tmp_path / "xdg-data" / "desktop_dedup"
        assert paths.config_dir() == tmp_path / "xdg-config" / "desktop_dedup"
        assert paths.log_dir().is_relative_to(tmp_path / "xdg-state")


def test_records_reach_the_file(home: Path) -> None:
    path = logs.setup_logging(logging.INFO)
    assert path == home / "logs" / logs.LOG_FILENAME
    logging.getLogger("desktop_dedup.test").info("scan started: 文档 %d", 42)
    logging.getLogger("desktop_dedup.test").debug("too detailed")
    _flush()
    text = path.read_text(encoding="utf-8")
    assert "scan started: 文档 42" in text
    assert "too detailed" not in text
    assert __version__ in text  # the start-up line names the version for bug reports


def test_a_file_name_that_is_not_utf8_is_logged_as_escapes(
    home: Path, capsys: pytest.CaptureFixture
) -> None:
    """A record naming a file whose name is not UTF-8 (lone surrogates) reaches the file, the
    byte as an escape; before, the whole record was lost to "--- Logging error ---"."""
    path = logs.setup_logging(logging.INFO)
    name = os.fsdecode(b"/docs/\xd7\xca.txt")
    logging.getLogger("desktop_dedup.test").info("skipped %s: unreadable", name)
    _flush()
    assert "skipped /docs/\\udcd7\\udcca.txt: unreadable" in path.read_text(encoding="utf-8")
    assert "Logging error" not in capsys.readouterr().err


def test_setup_is_idempotent(home: Path) -> None:
    first = logs.setup_logging()
    second = logs.setup_logging(logging.DEBUG)
    assert first == second
    assert len([h for h in _our_handlers() if getattr(h, logs._MARK) == "file"]) == 1
    logging.getLogger("desktop_dedup.test").debug("once only")
    _flush()
    assert first.read_text(encoding="utf-8").count("once only") == 1


def test_console_handler_added_and_removed(home: Path, capsys: pytest.CaptureFixture) -> None:
    logs.setup_logging(console=True)
    logs.setup_logging(console=True)
    consoles = [h for h in _our_handlers() if getattr(h, logs._MARK) == "console"]
    assert len(consoles) == 1
    logs.setup_logging(console=False)
    assert not [h for h in _our_handlers() if getattr(h, logs._MARK) == "console"]


def test_log_rotates_and_keeps_a_bounded_number_of_files(home: Path) -> None:
    max_bytes, backups = 2_000, 3
    path = logs.setup_logging(max_bytes=max_bytes, backup_count=backups)
    log = logging.getLogger("desktop_dedup.test")
    for i in range(400):
        log.info("line %04d %s", i, "x" * 60)
    _flush()
    files = sorted(p.name for p in path.parent.iterdir())
    expected = [path.name] + [f"{path.name}.{i}" for i in range(1, backups + 1)]
    assert files == sorted(expected)
    for name in files:
        assert (path.parent / name).stat().st_size <= max_bytes
    # The newest record is in the live file, older ones were rotated away, none duplicated.
    assert "line 0399" in path.read_text(encoding="utf-8")
    assert "line 0000" not in "".join((path.parent / n).read_text("utf-8") for n in files)


def test_changing_the_log_dir_moves_the_handler(home: Path, tmp_path: Path, monkeypatch) -> None:
    first = logs.setup_logging()
    monkeypatch.setenv(paths.HOME_ENV, str(tmp_path / "elsewhere"))
    second = logs.setup_logging()
    assert second != first and second.parent == tmp_path / "elsewhere" / "logs"
    assert len([h for h in _our_handlers() if getattr(h, logs._MARK) == "file"]) == 1
    logging.getLogger("desktop_dedup.test").warning("after the move")
    _flush()
    assert "after the move" in second.read_text(encoding="utf-8")
    assert "after the move" not in first.read_text(encoding="utf-8")


def test_about_dialog_shows_version_license_and_locations(qtbot, home: Path) -> None:
    from PySide6.QtWidgets import QApplication, QLabel

    from desktop_dedup.gui.about import LICENSE_ID, AboutDialog, show_about

    db = home / "custom.sqlite3"
    dialog = show_about(None, db)
    qtbot.addWidget(dialog)
    qtbot.waitExposed(dialog)
    texts = " ".join(label.text() for label in dialog.findChildren(QLabel))
    assert __version__ in texts
    assert LICENSE_ID in texts
    assert str(paths.data_dir()) in texts
    assert str(db) in texts
    assert str(logs.log_file_path()) in texts
    assert not dialog.windowIcon().isNull()

    dialog.copy_button.click()
    copied = QApplication.clipboard().text()
    assert str(logs.log_file_path()) in copied and str(db) in copied

    default = AboutDialog(None)
    qtbot.addWidget(default)
    assert default.db_label.text() == str(paths.default_db_path())


def test_the_app_log_rotates_at_one_mib_and_keeps_five_old_files(home: Path) -> None:
    """README: "Logs rotate at 1 MiB × 5 files" with the settings the app starts with."""
    path = logs.setup_logging()
    log = logging.getLogger("desktop_dedup.test")
    line = "x" * 1000
    for i in range(7 * 1100):  # about 7.7 MB: enough to fill every file and drop the oldest
        log.info("line %05d %s", i, line)
    _flush()
    files = sorted(p.name for p in path.parent.iterdir())
    assert files == sorted([path.name] + [f"{path.name}.{i}" for i in range(1, 6)])
    sizes = [(path.parent / name).stat().st_size for name in files]
    assert max(sizes) <= 1024 * 1024
    assert min(s for s, n in zip(sizes, files, strict=True) if n != path.name) > 1000 * 1000
