"""Render the application icon's PNG sizes from its SVG source.

Run after editing ``resources/desktop_dedup.svg`` and commit the PNGs it writes:

    .venv/bin/python packaging/render_icons.py [--out DIR] [--sheet FILE]

Why PNGs at all when Qt can draw SVG: desktop environments (freedesktop hicolor theme, the
Windows .ico, the macOS .icns) want fixed bitmap sizes, and a PyInstaller bundle should not
depend on the SVG icon-engine plugin just to show its window icon. The PNGs are committed so
nothing is generated at run time; tests/test_resources.py re-renders and compares to catch a
stale PNG.

``--sheet`` also writes a contact sheet of every UI icon for a quick visual review.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QRectF, Qt  # noqa: E402
from PySide6.QtGui import QColor, QGuiApplication, QImage, QPainter  # noqa: E402
from PySide6.QtSvg import QSvgRenderer  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
RESOURCES = REPO / "resources"
APP_SVG = RESOURCES / "desktop_dedup.svg"
APP_PNG_DIR = RESOURCES / "icons" / "app"
SIZES = (16, 24, 32, 48, 64, 128, 256, 512)


def render_svg(svg: Path, size: int, background: QColor | None = None) -> QImage:
    """Render ``svg`` into a square ARGB image of ``size`` pixels (antialiased)."""
    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise ValueError(f"not a valid SVG: {svg}")
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(background if background is not None else QColor(Qt.GlobalColor.transparent))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    renderer.render(painter, QRectF(0, 0, size, size))
    painter.end()
    return image.convertToFormat(QImage.Format.Format_ARGB32)


def render_app_icon(out_dir: Path = APP_PNG_DIR, svg: Path = APP_SVG) -> list[Path]:
    """Write ``desktop_dedup-<size>.png`` for every size; return the files written."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for size in SIZES:
        target = out_dir / f"{svg.stem}-{size}.png"
        if not render_svg(svg, size).save(str(target), "PNG"):
            raise OSError(f"could not write {target}")
        written.append(target)
    return written


def contact_sheet(target: Path, cell: int = 48) -> Path:
    """All UI icons at ``cell`` pixels on light and dark rows, for looking at them."""
    icons = sorted((RESOURCES / "icons").glob("*.svg"))
    sheet = QImage(cell * len(icons) + 16, cell * 2 + 24, QImage.Format.Format_ARGB32)
    sheet.fill(QColor("#ffffff"))
    painter = QPainter(sheet)
    painter.fillRect(0, cell + 12, sheet.width(), cell + 12, QColor("#2b2b2b"))
    for i, svg in enumerate(icons):
        image = render_svg(svg, cell - 8)
        painter.drawImage(8 + i * cell, 8, image)
        painter.drawImage(8 + i * cell, cell + 16, image)
    painter.end()
    sheet.save(str(target), "PNG")
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=APP_PNG_DIR, help="PNG output directory")
    parser.add_argument("--sheet", type=Path, help="also write a contact sheet of UI icons")
    args = parser.parse_args(argv)
    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])  # noqa: F841
    for path in render_app_icon(args.out):
        sys.stdout.write(f"{path}\n")
    if args.sheet:
        sys.stdout.write(f"{contact_sheet(args.sheet)}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
