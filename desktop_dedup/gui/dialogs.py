"""Every message box, file dialog and hand-off to the desktop goes through this one object.

Why: modal dialogs block a test forever, so tests call :func:`install` with a scripted stand-in
(same methods, canned answers) and every widget keeps working unchanged. Widgets must therefore
never call ``QMessageBox``/``QFileDialog`` directly; they call ``dialogs.current().<method>``.
Callers translate their titles and texts; the buttons come from Qt's own translation.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from collections.abc import Sequence
from urllib.parse import quote, unquote_to_bytes

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QDialog, QFileDialog, QMessageBox, QWidget

from desktop_dedup.core import pathrules

log = logging.getLogger(__name__)


def file_url(path: str) -> QUrl:
    """The file:// address of a local ``path``. QUrl.fromLocalFile drops each byte of a name
    that is not UTF-8 (a lone surrogate, as Python holds it), so such a path is given by its
    bytes, percent-encoded, which QUrl keeps and the desktop opens."""
    if not pathrules.has_undecodable(path) or sys.platform == "win32":
        return QUrl.fromLocalFile(path)
    return QUrl.fromEncoded(b"file://" + quote(os.fsencode(path)).encode("ascii"))


def local_path(url: QUrl) -> str:
    """The local path of a file:// address, inverse of :func:`file_url`: a percent-encoded
    byte of a name that is not UTF-8 comes back as Python holds it (QUrl.toLocalFile drops
    it). Windows keeps QUrl's own reading (a drive letter, a share)."""
    if sys.platform == "win32" or not url.isLocalFile():
        return url.toLocalFile()
    return os.fsdecode(unquote_to_bytes(url.path(QUrl.ComponentFormattingOption.FullyEncoded)))


class Dialogs:
    """The real, modal implementation backed by QMessageBox and QFileDialog."""

    def info(self, parent: QWidget | None, title: str, text: str) -> None:
        QMessageBox.information(parent, title, text)

    def warning(self, parent: QWidget | None, title: str, text: str) -> None:
        QMessageBox.warning(parent, title, text)

    def error(self, parent: QWidget | None, title: str, text: str, details: str = "") -> None:
        box = QMessageBox(
            QMessageBox.Icon.Critical, title, text, QMessageBox.StandardButton.Ok, parent
        )
        if details:
            box.setDetailedText(details)
        box.exec()

    def confirm(
        self,
        parent: QWidget | None,
        title: str,
        text: str,
        *,
        ok_text: str = "",
        informative: str = "",
        danger: bool = False,
    ) -> bool:
        """Ask yes/no; the safe answer (Cancel) is the default so Enter never destroys files."""
        box = _question_box(parent, title, text, informative, danger)
        ok = box.addButton(QMessageBox.StandardButton.Ok)
        if ok_text:
            ok.setText(ok_text)
        cancel = box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(cancel)
        box.setEscapeButton(cancel)
        box.exec()
        return box.clickedButton() is ok

    def ask(
        self,
        parent: QWidget | None,
        title: str,
        text: str,
        choices: Sequence[tuple[str, str]],
        *,
        informative: str = "",
        danger: bool = False,
    ) -> str | None:
        """Ask which of ``choices`` (key, button text), or Cancel: the key chosen, None for
        Cancel, which is the default so Enter never destroys files."""
        box = _question_box(parent, title, text, informative, danger)
        buttons = [
            (box.addButton(label, QMessageBox.ButtonRole.AcceptRole), key) for key, label in choices
        ]
        cancel = box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(cancel)
        box.setEscapeButton(cancel)
        box.exec()
        clicked = box.clickedButton()
        return next((key for button, key in buttons if button is clicked), None)

    def choose_folder(self, parent: QWidget | None, title: str, start: str = "") -> str | None:
        path = QFileDialog.getExistingDirectory(parent, title, start)
        return path or None

    def choose_move_folder(
        self, parent: QWidget | None, title: str, start: str = ""
    ) -> tuple[str, bool] | None:
        """The folder to move files to, and whether they keep their folder structure."""
        from desktop_dedup.gui.review_actions import MoveTargetDialog

        dialog = MoveTargetDialog(title, start, parent)
        if dialog.exec() != QDialog.DialogCode.Accepted or not dialog.folder():
            return None
        return dialog.folder(), dialog.keep_structure.isChecked()

    def choose_save_file(
        self, parent: QWidget | None, title: str, start: str, filters: str
    ) -> str | None:
        path, _selected = QFileDialog.getSaveFileName(parent, title, start, filters)
        return path or None

    def start_program(self, argv: list[str]) -> None:
        """Start a desktop program (the external diff tool) without waiting for it; OSError
        when it cannot be started."""
        kwargs: dict = {"stdin": subprocess.DEVNULL, "close_fds": True}
        if sys.platform != "win32":
            kwargs["start_new_session"] = True  # it outlives neither a Ctrl-C nor the app's group
        subprocess.Popen(argv, **kwargs)  # noqa: S603 - an argument list, no shell

    def open_url(self, url: QUrl) -> bool:
        """Hand a file or web address to the desktop (default app, browser)."""
        return QDesktopServices.openUrl(url)

    def reveal_in_file_manager(self, path: str) -> None:
        """Show ``path`` selected in the file manager where the platform allows it.

        Linux: the freedesktop FileManager1 D-Bus interface (Nautilus, Dolphin, Nemo, Thunar...)
        selects the file; without it we fall back to opening the containing folder.
        """
        if sys.platform.startswith("linux") and self._show_items_dbus(path):
            return
        if sys.platform == "darwin":
            subprocess.Popen(["open", "-R", path])
            return
        if sys.platform == "win32":
            subprocess.Popen(["explorer", "/select,", os.path.normpath(path)])
            return
        self.open_url(file_url(os.path.dirname(path)))

    @staticmethod
    def _show_items_dbus(path: str) -> bool:
        try:
            from PySide6.QtDBus import QDBusConnection, QDBusMessage
        except ImportError:  # QtDBus missing from a trimmed bundle
            return False
        bus = QDBusConnection.sessionBus()
        if not bus.isConnected():
            return False
        msg = QDBusMessage.createMethodCall(
            "org.freedesktop.FileManager1",
            "/org/freedesktop/FileManager1",
            "org.freedesktop.FileManager1",
            "ShowItems",
        )
        msg.setArguments(
            [[file_url(path).toString(QUrl.ComponentFormattingOption.FullyEncoded)], ""]
        )
        reply = bus.call(msg)
        ok = reply.type() != QDBusMessage.MessageType.ErrorMessage
        if not ok:
            log.info("FileManager1.ShowItems failed: %s", reply.errorMessage())
        return ok


_current: Dialogs = Dialogs()


def current() -> Dialogs:
    """The dialogs object in use (the real one unless a test installed another)."""
    return _current


def install(dialogs: Dialogs) -> Dialogs:
    """Replace the dialogs object; returns the previous one so a test can restore it."""
    global _current
    previous = _current
    _current = dialogs
    return previous


def _question_box(
    parent: QWidget | None, title: str, text: str, informative: str, danger: bool
) -> QMessageBox:
    """A question's box before its buttons: a warning's icon when the answer destroys files."""
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Warning if danger else QMessageBox.Icon.Question)
    box.setWindowTitle(title)
    box.setText(text)
    if informative:
        box.setInformativeText(informative)
    return box
