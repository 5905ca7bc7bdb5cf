"""Finding and loading bundled resources (icons, translations) in every way the app is run.

The top-level ``resources/`` directory of the repository is the single source of truth. It
reaches the user by three routes, and :func:`resource_root` tries them in this order:

1. an installed wheel or the PyInstaller bundle: the build copies ``resources/`` into the
   package as ``desktop_dedup/_resources`` (``setup.py``'s build hook; the spec file puts it
   at the same place inside the bundle, where ``__file__`` of frozen modules points);
2. a source checkout or editable install: ``<repo>/resources`` beside the package.

Nothing is generated at run time: the PNG sizes, the compiled ``.qm`` files and the scan's
tables (``tables/``, see core/cache.py) are produced by ``packaging/`` scripts at build time.
"""

from __future__ import annotations

import logging
from functools import cache
from pathlib import Path

from PySide6.QtCore import QByteArray, QRectF, QSize, Qt
from PySide6.QtGui import QGuiApplication, QIcon, QImage, QPainter, QPalette, QPixmap
from PySide6.QtSvg import QSvgRenderer

# Found without Qt (paths.py): the scan engine reads the tables made at build time there too.
from desktop_dedup.paths import resource_root as resource_root

logger = logging.getLogger(__name__)

APP_ICON_NAME = "desktop_dedup"
APP_ICON_SIZES: tuple[int, ...] = (16, 24, 32, 48, 64, 128, 256, 512)

# The UI icons drawn for the GUI (resources/icons/<name>.svg).
ICON_NAMES: tuple[str, ...] = (
    "folder-add",
    "folder-remove",
    "scan",
    "cancel",
    "trash",
    "export",
    "reference",
    "ignore",
    "next",
    "previous",
    "diff",
    "settings",
    "open",
    "reveal",
    "copy",
    "mark",
    "swap",
    "problems",
    "journal",
    "about",
)

# The neutral stroke colour of the UI icons, and what it becomes on a dark palette.
ICON_INK = "#4b5563"
ICON_INK_ON_DARK = "#d1d5db"
_DARK_ICON_SIZES = (16, 20, 24, 32, 40, 48, 64, 96, 128)


def resource_path(rel: str | Path) -> Path:
    """Absolute path of a resource given relative to ``resources/`` (it may not exist)."""
    rel_path = Path(rel)
    if rel_path.is_absolute() or ".." in rel_path.parts:
        raise ValueError(f"resource paths are relative to resources/: {rel!s}")
    return resource_root() / rel_path


def available_icons() -> list[str]:
    """Names accepted by :func:`icon`, from the files actually shipped."""
    return sorted(p.stem for p in resource_path("icons").glob("*.svg"))


def icon(name: str) -> QIcon:
    """The UI icon ``name`` (see :data:`ICON_NAMES`) as a scalable QIcon.

    The icons are drawn in a neutral grey that reads well on light windows; under a dark
    palette that grey is swapped for a light one so toolbars stay legible. Unknown names log a
    warning and give an empty icon rather than crash a running window; tests check that every
    name in ICON_NAMES exists.
    """
    return _icon(name, _palette_is_dark())


def _palette_is_dark() -> bool:
    app = QGuiApplication.instance()
    if app is None:
        return False
    return QGuiApplication.palette().color(QPalette.ColorRole.Window).lightness() < 128


@cache
def _icon(name: str, dark: bool) -> QIcon:
    path = resource_path(f"icons/{name}.svg")
    if not path.is_file():
        logger.warning("unknown icon %r (no %s)", name, path)
        return QIcon()
    if not dark:
        return QIcon(str(path))
    svg = path.read_bytes().replace(ICON_INK.encode(), ICON_INK_ON_DARK.encode())
    renderer = QSvgRenderer(QByteArray(svg))
    result = QIcon()
    for size in _DARK_ICON_SIZES:
        image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        renderer.render(painter, QRectF(0, 0, size, size))
        painter.end()
        result.addPixmap(QPixmap.fromImage(image))
    return result


@cache
def app_icon() -> QIcon:
    """The application icon with every pre-rendered PNG size plus the SVG source.

    The PNGs let window managers and taskbars pick a crisp bitmap without the SVG icon engine
    plugin; the SVG covers sizes in between on high-DPI screens.
    """
    result = QIcon()
    for size in APP_ICON_SIZES:
        png = resource_path(f"icons/app/{APP_ICON_NAME}-{size}.png")
        if png.is_file():
            result.addFile(str(png), QSize(size, size))
    svg = resource_path(f"{APP_ICON_NAME}.svg")
    if svg.is_file():
        result.addFile(str(svg))
    if result.isNull():
        logger.warning("application icon missing under %s", resource_root())
    return result
