"""The About dialog: what this program is, its licence, and where it keeps its files.

Besides the usual version and licence, it tells a user exactly which log file to attach to a
bug report and where their database lives, with buttons to open the log folder and to copy
all of it as plain text (the first thing a maintainer asks for).
"""

from __future__ import annotations

import platform
import sys
from pathlib import Path

from PySide6 import __version__ as pyside_version
from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QDesktopServices, QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop_dedup import __version__
from desktop_dedup.core.store.engine import display_name, is_database_url
from desktop_dedup.logs import log_file_path
from desktop_dedup.paths import data_dir, default_db_path
from desktop_dedup.resources import app_icon, icon

DISPLAY_NAME = "Desktop Dedup"
LICENSE_ID = "GPL-3.0-or-later"
LICENSE_URL = "https://www.gnu.org/licenses/gpl-3.0.html"


class AboutDialog(QDialog):
    """Version, licence and file locations, with 'open log folder' and 'copy details'."""

    def __init__(self, parent: QWidget | None = None, db_path: Path | str | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("aboutDialog")
        self.setWindowTitle(self.tr("About Desktop Dedup"))
        self.setWindowIcon(app_icon())

        # A shared index's URL is shown without its password (the details get copied around).
        self.db_path = (
            display_name(db_path)
            if is_database_url(db_path)
            else Path(db_path)
            if db_path is not None
            else default_db_path()
        )
        self.data_dir = data_dir()
        self.log_file = log_file_path()

        logo = QLabel()
        logo.setPixmap(app_icon().pixmap(96, 96))
        logo.setAlignment(Qt.AlignmentFlag.AlignTop)
        logo.setAccessibleName(self.tr("Application icon"))

        title = QLabel(f"<h2>{DISPLAY_NAME} {__version__}</h2>")
        title.setObjectName("aboutTitle")
        blurb = QLabel(
            self.tr(
                "Finds exact and near-duplicate documents in Chinese and English, shows them "
                "side by side, and moves extra copies to the trash safely."
            )
        )
        blurb.setWordWrap(True)
        link = f'<a href="{LICENSE_URL}">GNU General Public License v3.0 or later</a>'
        licence = QLabel(
            self.tr("Licensed under the {license} ({id}).").format(license=link, id=LICENSE_ID)
        )
        licence.setObjectName("aboutLicense")
        licence.setOpenExternalLinks(True)
        licence.setWordWrap(True)

        self.version_label = self._selectable(__version__, "aboutVersion")
        self.data_label = self._selectable(str(self.data_dir), "aboutDataDir")
        self.db_label = self._selectable(str(self.db_path), "aboutDbPath")
        self.log_label = self._selectable(str(self.log_file), "aboutLogFile")
        runtime = f"Python {platform.python_version()}, PySide6 {pyside_version}, {sys.platform}"
        self.runtime_label = self._selectable(runtime, "aboutRuntime")

        form = QFormLayout()
        form.addRow(self.tr("Version:"), self.version_label)
        form.addRow(self.tr("Data folder:"), self.data_label)
        form.addRow(self.tr("Database:"), self.db_label)
        form.addRow(self.tr("Log file:"), self.log_label)
        form.addRow(self.tr("Runtime:"), self.runtime_label)

        hint = QLabel(self.tr("When reporting a problem, please attach the log file."))
        hint.setWordWrap(True)

        self.open_logs_button = QPushButton(icon("open"), self.tr("Open &Log Folder"))
        self.open_logs_button.setObjectName("aboutOpenLogs")
        self.open_logs_button.clicked.connect(self.open_log_folder)
        self.copy_button = QPushButton(icon("copy"), self.tr("&Copy Details"))
        self.copy_button.setObjectName("aboutCopy")
        self.copy_button.clicked.connect(self.copy_details)

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.addButton(self.open_logs_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(self.copy_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)

        text = QVBoxLayout()
        for widget in (title, blurb, licence):
            text.addWidget(widget)
        text.addLayout(form)
        text.addWidget(hint)
        top = QHBoxLayout()
        top.addWidget(logo)
        top.addLayout(text, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(buttons)
        self.setMinimumWidth(520)

    def _selectable(self, text: str, name: str) -> QLabel:
        label = QLabel(text)
        label.setObjectName(name)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        label.setWordWrap(True)
        return label

    def details_text(self) -> str:
        """Plain-text summary for bug reports (labels in English so maintainers can read it)."""
        return "\n".join(
            [
                f"{DISPLAY_NAME} {__version__} ({LICENSE_ID})",
                f"Runtime: {self.runtime_label.text()}",
                f"Data folder: {self.data_dir}",
                f"Database: {self.db_path}",
                f"Log file: {self.log_file}",
            ]
        )

    def copy_details(self) -> None:
        QGuiApplication.clipboard().setText(self.details_text())

    def open_log_folder(self) -> bool:
        """Show the log folder in the file manager; returns whether the desktop accepted it."""
        return QDesktopServices.openUrl(QUrl.fromLocalFile(str(self.log_file.parent)))


def show_about(parent: QWidget | None, db_path: Path | str | None = None) -> AboutDialog:
    """Open the About dialog window-modally (non-blocking) and return it.

    ``db_path`` is the database the window has open; the default database when omitted.
    """
    dialog = AboutDialog(parent, db_path)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.open()
    return dialog
