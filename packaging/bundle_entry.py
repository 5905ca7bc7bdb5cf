"""Entry point of the PyInstaller bundle: one program, two faces.

With arguments it is the command line (``desktop-dedup scan PATH ...``); without, it opens the
desktop app, as a person double-clicking it expects. ``freeze_support`` lets a frozen build
start worker processes on platforms that spawn them (Windows, macOS).

``DESKTOP_DEDUP_SELFTEST=1`` makes it print a JSON report of what the bundle can actually load
(Qt platform plugins, SVG icons, translations, jieba's dictionary, PDFium, the tables the build
made) and exit: the quick check after building on a new platform, and what
tests/test_packaging.py runs headless.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import sys


def self_test() -> dict[str, object]:
    """Exercise each bundled component once and report what worked."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QCoreApplication, QLibraryInfo
    from PySide6.QtGui import QImageReader
    from PySide6.QtWidgets import QApplication

    from desktop_dedup import __version__, i18n, resources

    app = QApplication.instance() or QApplication(sys.argv[:1])
    report: dict[str, object] = {"version": __version__, "platform": app.platformName()}
    report["plugins_path"] = QLibraryInfo.path(QLibraryInfo.LibraryPath.PluginsPath)
    report["image_formats"] = sorted(
        bytes(f).decode() for f in QImageReader.supportedImageFormats()
    )
    report["resource_root"] = str(resources.resource_root())
    report["app_icon_sizes"] = sorted(s.width() for s in resources.app_icon().availableSizes())
    report["svg_icon_renders"] = not resources.icon("scan").pixmap(32, 32).isNull()
    report["language"] = i18n.install_translator(app, "zh_CN")
    report["translated"] = QCoreApplication.translate("AboutDialog", "Log file:")
    report["qt_translated"] = QCoreApplication.translate("QPlatformTheme", "Cancel")

    import jieba

    dict_path = os.path.join(os.path.dirname(jieba.__file__), "dict.txt")
    idf_path = os.path.join(os.path.dirname(jieba.__file__), "analyse", "idf.txt")
    report["jieba_dict"] = os.path.isfile(dict_path) and os.path.isfile(idf_path)
    report["jieba_cut"] = list(jieba.cut("重复文档检测"))
    try:
        import rjieba

        report["rjieba_cut"] = list(rjieba.cut("重复文档检测"))
    except ImportError as exc:  # reported, not fatal: the core falls back to jieba
        report["rjieba_cut"] = f"unavailable: {exc}"
    import pypdfium2

    report["pdfium"] = str(getattr(pypdfium2, "PDFIUM_INFO", "loaded"))
    from desktop_dedup.core import fingerprint, text

    # The tables the build made, found and made from the jieba and OpenCC the bundle holds.
    report["tables"] = [
        fingerprint._shipped_idf(fingerprint._idf_path()) is not None,
        text._shipped_regional_table() is not None,
    ]
    report["main_window"] = _open_main_window()
    return report


def _open_main_window() -> str:
    """Build and show the real main window on a throw-away database; "ok" or the error."""
    import tempfile

    from PySide6.QtWidgets import QApplication

    try:
        from desktop_dedup.core.service import DedupService
        from desktop_dedup.gui.main_window import MainWindow

        with tempfile.TemporaryDirectory() as tmp:
            service = DedupService(os.path.join(tmp, "selftest.sqlite3"))
            window = MainWindow(service)
            window.show()
            QApplication.processEvents()
            shown = window.isVisible() and not window.grab().isNull()
            window.close()
            window.deleteLater()
            QApplication.processEvents()
            service.close()
        return "ok" if shown else "not shown"
    except Exception as exc:  # reported, so one run shows every broken part at once
        return f"{type(exc).__name__}: {exc}"


def main() -> int:
    multiprocessing.freeze_support()
    if os.environ.get("DESKTOP_DEDUP_SELFTEST"):
        sys.stdout.write(json.dumps(self_test(), ensure_ascii=False, indent=2) + "\n")
        return 0
    if len(sys.argv) > 1:
        from desktop_dedup.cli import main as cli_main

        return cli_main()
    from desktop_dedup.gui.app import main as gui_main

    return gui_main()


if __name__ == "__main__":
    sys.exit(main())
