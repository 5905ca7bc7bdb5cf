"""Icons and resource lookup: every icon the GUI may ask for exists, renders, and is current."""

from __future__ import annotations

import importlib.util
import os
import xml.etree.ElementTree as ET
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
from PySide6.QtCore import QSize
from PySide6.QtGui import QImage
from PySide6.QtSvg import QSvgRenderer

from desktop_dedup import resources

REPO = Path(__file__).resolve().parent.parent


def _load_render_icons():
    """packaging/ is not a package (its name would shadow PyPA's `packaging`): load by path."""
    spec = importlib.util.spec_from_file_location(
        "render_icons", REPO / "packaging" / "render_icons.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _opaque_fraction(image: QImage) -> float:
    """Share of pixels with visible alpha, sampled on a grid (fast enough for 512 px)."""
    step = max(1, image.width() // 64)
    seen = opaque = 0
    for y in range(0, image.height(), step):
        for x in range(0, image.width(), step):
            seen += 1
            opaque += image.pixelColor(x, y).alpha() > 16
    return opaque / seen


def test_source_checkout_uses_top_level_resources() -> None:
    root = resources.resource_root()
    assert root.is_dir()
    # Either the repository's resources/ (checkout) or the copy inside the installed package.
    assert root in (REPO / "resources", Path(resources.__file__).parent / "_resources")
    assert resources.resource_path("icons") == root / "icons"


@pytest.mark.parametrize("bad", ["../pyproject.toml", "/etc/passwd", "icons/../../x"])
def test_resource_path_refuses_escaping(bad: str) -> None:
    with pytest.raises(ValueError):
        resources.resource_path(bad)


def test_every_ui_icon_exists_is_valid_svg_and_loads(qapp) -> None:
    available = set(resources.available_icons())
    assert set(resources.ICON_NAMES) <= available, set(resources.ICON_NAMES) - available
    for name in resources.ICON_NAMES:
        path = resources.resource_path(f"icons/{name}.svg")
        ET.parse(path)  # well-formed XML
        assert QSvgRenderer(str(path)).isValid(), name
        qicon = resources.icon(name)
        assert not qicon.isNull(), name
        pixmap = qicon.pixmap(32, 32)
        assert not pixmap.isNull(), name
        assert _opaque_fraction(pixmap.toImage()) > 0.02, f"{name} renders blank"


def test_unknown_icon_is_empty_and_logged(qapp, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level("WARNING", logger="desktop_dedup.resources"):
        assert resources.icon("no-such-icon").isNull()
    assert "no-such-icon" in caplog.text


def test_app_icon_has_every_desktop_size(qapp) -> None:
    app_icon = resources.app_icon()
    assert not app_icon.isNull()
    sizes = {s.width() for s in app_icon.availableSizes()}
    assert set(resources.APP_ICON_SIZES) <= sizes
    for size in resources.APP_ICON_SIZES:
        png = resources.resource_path(f"icons/app/{resources.APP_ICON_NAME}-{size}.png")
        image = QImage(str(png))
        assert image.size() == QSize(size, size), png
        assert image.hasAlphaChannel()
        # A real drawing: substantially covered, and the corners stay transparent.
        assert 0.3 < _opaque_fraction(image) < 0.95, png
        assert image.pixelColor(0, 0).alpha() == 0


def test_committed_pngs_match_the_svg(qapp, tmp_path: Path) -> None:
    """Re-render from the SVG: a PNG left stale after editing the SVG fails here."""
    render_icons = _load_render_icons()
    written = render_icons.render_app_icon(tmp_path)
    assert [p.name for p in written] == [
        f"{resources.APP_ICON_NAME}-{s}.png" for s in resources.APP_ICON_SIZES
    ]
    for fresh_path in written:
        committed = QImage(str(resources.resource_path(f"icons/app/{fresh_path.name}")))
        fresh = QImage(str(fresh_path))
        assert committed.size() == fresh.size()
        step = max(1, fresh.width() // 48)
        total = count = 0
        for y in range(0, fresh.height(), step):
            for x in range(0, fresh.width(), step):
                a, b = committed.pixelColor(x, y), fresh.pixelColor(x, y)
                total += abs(a.red() - b.red()) + abs(a.green() - b.green())
                total += abs(a.blue() - b.blue()) + abs(a.alpha() - b.alpha())
                count += 4
        assert total / count < 4.0, f"{fresh_path.name} differs from its SVG: re-run render_icons"


def _mean_ink_lightness(image: QImage) -> float:
    values = [
        image.pixelColor(x, y).lightness()
        for y in range(image.height())
        for x in range(image.width())
        if image.pixelColor(x, y).alpha() > 200
    ]
    assert values, "icon rendered nothing opaque"
    return sum(values) / len(values)


def test_icons_stay_legible_on_a_dark_palette(qapp) -> None:
    from PySide6.QtGui import QColor, QPalette

    light_palette = qapp.palette()
    light = _mean_ink_lightness(resources.icon("trash").pixmap(32, 32).toImage())
    dark_palette = QPalette(light_palette)
    dark_palette.setColor(QPalette.ColorRole.Window, QColor("#202124"))
    dark_palette.setColor(QPalette.ColorRole.WindowText, QColor("#e8eaed"))
    qapp.setPalette(dark_palette)
    try:
        on_dark = resources.icon("trash")
        assert not on_dark.isNull()
        dark = _mean_ink_lightness(on_dark.pixmap(32, 32).toImage())
        # Coloured accents (the gold star) are kept; the grey ink turns light.
        star = resources.icon("reference").pixmap(32, 32).toImage()
        assert _mean_ink_lightness(star) > 100
    finally:
        qapp.setPalette(light_palette)
    assert light < 110 < dark, (light, dark)
    assert _mean_ink_lightness(resources.icon("trash").pixmap(32, 32).toImage()) == light
