"""A good citizen on the desktop (issue 11 items 6 and 7): `make run` without a display says so
and what to do instead of Qt's misleading libxcb message; the launcher, the AppStream metainfo
and the running app agree on one id; folders can be opened with the app; the macOS bundle
carries usage strings for the folders it reads."""

from __future__ import annotations

import configparser
import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PACKAGING = REPO / "packaging"
APP_ID = "io.github.desktop_dedup"


@pytest.mark.skipif(not sys.platform.startswith("linux") or not shutil.which("make"), reason="")
def test_make_run_without_a_display_says_what_to_do(tmp_path: Path):
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM", "MAKEFLAGS", "MFLAGS")
    }
    venv = tmp_path / "venv"
    out = subprocess.run(
        ["make", "-C", str(REPO), "run", f"VENV={venv}"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert out.returncode != 0
    assert "no display" in out.stderr and "xvfb-run" in out.stderr
    assert f"{venv}/bin/desktop-dedup scan" in out.stderr
    assert "libxcb" not in out.stdout + out.stderr
    assert not venv.exists()  # it stopped before setting anything up


def test_launcher_metainfo_and_app_share_one_id():
    desktop = PACKAGING / f"{APP_ID}.desktop"
    parser = configparser.RawConfigParser(interpolation=None)
    parser.optionxform = str
    parser.read(desktop, encoding="utf-8")
    entry = parser["Desktop Entry"]
    assert "inode/directory" in entry["MimeType"].split(";")
    assert entry["Exec"].split()[-1] == "%F"
    root = ET.parse(PACKAGING / f"{APP_ID}.metainfo.xml").getroot()
    assert root.findtext("id") == APP_ID
    assert root.findtext("launchable") == desktop.name
    assert root.find("url[@type='homepage']").text.startswith("https://")
    images = [i.text for i in root.iter("image")]
    assert images and all(i.startswith("https://") for i in images)
    for image in images:  # each screenshot is one the repository has
        assert (REPO / "resources" / "screenshots" / image.rsplit("/", 1)[1]).is_file(), image
    probe = (
        "from desktop_dedup.gui.app import create_application\n"
        "print(create_application(['x']).desktopFileName())\n"
    )
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    name = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=120
    )
    assert name.stdout.strip() == APP_ID, name.stderr


def test_macos_bundle_has_usage_strings():
    plist = json.loads((PACKAGING / "macos_info_plist.json").read_text(encoding="utf-8"))
    for key in (
        "NSDocumentsFolderUsageDescription",
        "NSDesktopFolderUsageDescription",
        "NSDownloadsFolderUsageDescription",
        "NSNetworkVolumesUsageDescription",
        "NSRemovableVolumesUsageDescription",
    ):
        assert len(plist[key]) > 40, key
    assert "macos_info_plist.json" in (PACKAGING / "desktop_dedup.spec").read_text("utf-8")
