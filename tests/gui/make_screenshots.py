"""Regenerate resources/screenshots/*.png from a real run of the app (not a test).

Run under a real X server so fonts render as users see them:
    xvfb-run -s "-screen 0 1920x1080x24" .venv/bin/python tests/gui/make_screenshots.py
It writes a folder of Chinese and English documents (with near-duplicates), scans it with the
real service, opens the main window on it and saves the window and the diff view as PNGs; then
the window at 1280x800 and 1920x1080, in English and Chinese, light and dark
(``window-<lang>-<size>-<theme>.png``), to check that the layout fits both.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "gui"))
sys.path.insert(0, str(ROOT))

import docgen  # noqa: E402

OUT = ROOT / "resources" / "screenshots"

ZH_EXTRA = (
    "数字化转型正在改变传统出版业的工作方式。编辑部开始使用协作平台管理稿件，"
    "作者可以在线查看修改意见，排版和校对的周期明显缩短。\n"
    "与此同时，版权保护和内容审核也面临新的挑战，需要技术与制度共同完善。"
)


def write_library(root: Path) -> None:
    zh = docgen.SAMPLE_ZH
    en = docgen.SAMPLE_EN
    docgen.write_txt(root / "文稿" / "江南春天.txt", zh)
    docgen.write_docx(root / "备份" / "江南春天.docx", zh)
    docgen.write_html(
        root / "网页存档" / "江南春天-修订.html",
        zh.replace("城市", "乡村", 1).replace("清晨", "傍晚", 1),
    )
    docgen.write_txt(root / "文稿" / "出版业转型.txt", ZH_EXTRA * 3)
    docgen.write_md(
        root / "草稿" / "出版业转型-草稿.md", (ZH_EXTRA * 3).replace("明显缩短", "大大缩短", 1)
    )
    docgen.write_txt(root / "reports" / "annual-letter.txt", en)
    docgen.write_pdf(root / "archive" / "annual-letter.pdf", en)
    words = en.split(" ")
    for i in (12, 57, 140):
        if i < len(words):
            words[i] = words[i].upper() if i != 57 else "remarkably"
    docgen.write_txt(root / "drafts" / "annual-letter-v2.txt", " ".join(words))
    for name in ("a", "b", "c"):
        docgen.write_txt(
            root / "backup" / name / "meeting-notes.txt", "Meeting notes\n" + en.split("\n\n")[0]
        )
    docgen.write_txt(root / "notes" / "garden.txt", "Tomatoes, compost and rain barrels. " * 40)


def dark_palette():
    from PySide6.QtGui import QColor, QPalette

    palette = QPalette()
    for role, colour in (
        (QPalette.ColorRole.Window, "#2d2d2d"),
        (QPalette.ColorRole.WindowText, "#e6e6e6"),
        (QPalette.ColorRole.Base, "#1e1e1e"),
        (QPalette.ColorRole.AlternateBase, "#262626"),
        (QPalette.ColorRole.Text, "#e6e6e6"),
        (QPalette.ColorRole.Button, "#353535"),
        (QPalette.ColorRole.ButtonText, "#e6e6e6"),
        (QPalette.ColorRole.Highlight, "#3d6fb4"),
        (QPalette.ColorRole.HighlightedText, "#ffffff"),
        (QPalette.ColorRole.ToolTipBase, "#2d2d2d"),
        (QPalette.ColorRole.ToolTipText, "#e6e6e6"),
        (QPalette.ColorRole.PlaceholderText, "#9a9a9a"),
    ):
        palette.setColor(role, QColor(colour))
    return palette


def settle(app, rounds: int = 20) -> None:
    for _ in range(rounds):
        app.processEvents()
        time.sleep(0.01)


def show_near_group(window) -> None:
    # Show the Chinese near-duplicate group, the edited copy against the reference.
    for row in range(window.groups_model.rowCount()):
        summary = window.groups_model.summary(row)
        if "江南" in summary.reference_path and summary.kind == "near":
            window.select_group_row(row)
            break
    window.ops.wait_idle()  # the group's diff is computed off the GUI thread
    group = window.members_model.group
    if group is not None:
        edited = next((i for i, m in enumerate(group.members) if "修订" in m.path), None)
        if edited is not None:
            window.members_view.setCurrentIndex(window.members_model.index(edited, 0))
            window.ops.wait_idle()
    if len(window.marked) == 0 and group is not None:
        window.set_marks({m.doc_id for m in group.members if "备份" in m.path}, [group])
        window.ops.wait_idle()


def variants(app, service, tmp: Path) -> None:
    """The window at both sizes, both languages, both themes."""
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from desktop_dedup.gui.main_window import MainWindow
    from desktop_dedup.i18n import install_translator

    light = QApplication.palette()
    for lang in ("en", "zh_CN"):
        install_translator(app, lang)
        for theme in ("light", "dark"):
            app.setPalette(dark_palette() if theme == "dark" else light)
            for width, height in ((1280, 800), (1920, 1080)):
                ini = tmp / f"w-{lang}-{theme}-{width}.ini"
                window = MainWindow(
                    service, settings=QSettings(str(ini), QSettings.Format.IniFormat)
                )
                window.resize(width, height)
                window.show()
                window.ops.wait_idle()
                show_near_group(window)
                settle(app)
                name = f"window-{lang}-{width}x{height}-{theme}.png"
                window.grab().save(str(OUT / name))
                print(OUT / name)
                window.close()
                window.deleteLater()
                settle(app, 5)
    app.setPalette(light)
    install_translator(app, "en")


def main() -> int:
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from desktop_dedup.core.service import DedupService
    from desktop_dedup.gui.app import create_application
    from desktop_dedup.gui.main_window import MainWindow

    tmp = Path(tempfile.mkdtemp(prefix="dd-shots-"))
    os.environ.setdefault("DESKTOP_DEDUP_HOME", str(tmp / "home"))
    library = tmp / "Documents"
    write_library(library)
    app = create_application([sys.argv[0]])
    service = DedupService(tmp / "db.sqlite3")
    service.add_folder(library)
    service.scan()
    window = MainWindow(service, settings=QSettings(str(tmp / "w.ini"), QSettings.Format.IniFormat))
    window.resize(1560, 940)
    window.show()
    window.ops.wait_idle()  # the first page and the first group are read off the GUI thread
    for _ in range(20):
        app.processEvents()
        time.sleep(0.01)
    # Show the Chinese near-duplicate group, the edited copy against the reference.
    for row in range(window.groups_model.rowCount()):
        summary = window.groups_model.summary(row)
        if "江南" in summary.reference_path and summary.kind == "near":
            window.select_group_row(row)
            break
    window.ops.wait_idle()  # the group's diff is computed off the GUI thread
    group = window.members_model.group
    if group is not None:
        edited = next((i for i, m in enumerate(group.members) if "修订" in m.path), None)
        if edited is not None:
            window.members_view.setCurrentIndex(window.members_model.index(edited, 0))
            window.ops.wait_idle()
    if len(window.marked) == 0 and group is not None:
        window.set_marks({m.doc_id for m in group.members if "备份" in m.path}, [group])
        window.ops.wait_idle()
    for _ in range(20):
        app.processEvents()
    OUT.mkdir(parents=True, exist_ok=True)
    window.grab().save(str(OUT / "main-window.png"))
    # The diff on its own, given most of the window's width.
    window.main_splitter.setSizes([360, 1200])
    for _ in range(10):
        app.processEvents()
        time.sleep(0.01)
    window.diff_view.grab().save(str(OUT / "diff-view.png"))
    print(OUT / "main-window.png")
    print(OUT / "diff-view.png")
    window.close()
    if "--variants" in sys.argv:
        variants(app, service, tmp)
    service.close()
    QApplication.instance().processEvents()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
