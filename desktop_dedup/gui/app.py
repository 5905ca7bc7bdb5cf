"""Start the desktop app: ``desktop-dedup-gui`` (and ``desktop-dedup`` with no arguments)."""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication

from desktop_dedup import APP_NAME, __version__

log = logging.getLogger(__name__)


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="desktop-dedup-gui", description="Desktop Dedup")
    parser.add_argument(
        "--db",
        default=None,
        help="index file to open, or a postgresql://user@host/dbname URL of a shared index",
    )
    parser.add_argument("--version", action="version", version=f"desktop_dedup {__version__}")
    parser.add_argument(
        "folders",
        nargs="*",
        metavar="FOLDER",
        help='folders to add and scan ("Open with" on folders in a file manager passes them)',
    )
    # Qt's own options (-platform, -style ...) were already consumed by QApplication.
    args, _unknown = parser.parse_known_args(list(argv))
    return args


def create_application(argv: Sequence[str] | None = None) -> QApplication:
    """The QApplication with names (for QSettings), icon, high-DPI policy and translator."""
    existing = QApplication.instance()
    if existing is not None:
        return existing  # type: ignore[return-value]
    QCoreApplication.setOrganizationName(APP_NAME)
    QCoreApplication.setOrganizationDomain("desktop-dedup.invalid")
    QCoreApplication.setApplicationName(APP_NAME)
    QCoreApplication.setApplicationVersion(__version__)
    # Qt 6 scales for high DPI by default; passing fractional factors through keeps 150 %
    # screens crisp instead of rounding to 200 %.
    QGuiApplication.setHighDpiScaleFactorRoundingPolicy(
        Qt.HighDpiScaleFactorRoundingPolicy.PassThrough
    )
    app = QApplication(list(argv) if argv is not None else [sys.argv[0]])
    app.setApplicationDisplayName(QCoreApplication.translate("App", "Desktop Dedup"))
    QGuiApplication.setDesktopFileName("io.github.desktop_dedup")  # the .desktop file's name
    try:
        from desktop_dedup.resources import app_icon

        app.setWindowIcon(app_icon())
    except Exception:
        log.debug("app icon unavailable", exc_info=True)
    try:
        from desktop_dedup.i18n import install_translator

        install_translator(app)
    except Exception:
        log.warning("could not install translations", exc_info=True)
    return app


def open_main_window(args: argparse.Namespace) -> Any:
    """Open the database and build the main window (not shown); an exit code on failure.

    Separate from :func:`main` so tests can check start-up without running ``app.exec()``.
    """
    from desktop_dedup.core.errors import DatabaseTooNewError, DedupError
    from desktop_dedup.core.service import DedupService
    from desktop_dedup.gui import dialogs
    from desktop_dedup.gui.main_window import MainWindow

    try:
        service = DedupService(args.db)
    except DatabaseTooNewError as exc:
        dialogs.current().error(
            None,
            QCoreApplication.translate("App", "Database too new"),
            QCoreApplication.translate(
                "App", "This database was written by a newer version of Desktop Dedup."
            ),
            str(exc),
        )
        return 2
    except DedupError as exc:
        dialogs.current().error(
            None,
            QCoreApplication.translate("App", "Cannot open the database"),
            str(exc),
        )
        return 2
    return MainWindow(service)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the app until its window closes; returns the exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parse_args(argv)
    try:
        from desktop_dedup.logs import setup_logging

        setup_logging()
    except Exception:
        logging.basicConfig(level=logging.INFO)
    app = create_application([sys.argv[0], *argv])
    # Folders from what is left once Qt took its own options (-style fusion ...).
    args.folders = parse_args(app.arguments()[1:]).folders
    window = open_main_window(args)
    if isinstance(window, int):
        return window
    window.show()
    if args.folders:
        open_folders(window, args.folders)
    code = app.exec()
    window.service.close()
    return int(code)


def open_folders(window: Any, folders: Sequence[str]) -> None:
    """Add ``folders`` (from "Open with" in a file manager) to the folder list and scan; a path
    that is not a folder gets the panel's warning and nothing is scanned for it alone."""
    window.folder_panel.add_folders([os.path.abspath(f) for f in folders])
    if any(os.path.isdir(f) for f in folders):
        window.start_scan()


if __name__ == "__main__":
    raise SystemExit(main())
