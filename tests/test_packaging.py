"""Packaging: the wheel (`pip install .`) and the PyInstaller bundle really work.

- The wheel carries both entry points and every resource (icons, app PNGs, compiled zh_CN
  translation), and an installed copy finds them without the source tree.
- The one-folder bundle builds on Linux, runs headless (``--version``, a self-test of Qt
  plugins, icons, translations, jieba and PDFium), and a CLI scan from the bundle produces the
  same duplicate groups as the installed package.

Building the bundle takes about a minute on two cores (see the report in the test output);
``pytest -m "not slow"`` leaves it out. It needs the ``packaging`` extra (PyInstaller).
"""

from __future__ import annotations

import configparser
import json
import os
import shutil
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import pytest

from desktop_dedup import __version__
from desktop_dedup.resources import APP_ICON_SIZES, ICON_NAMES

REPO = Path(__file__).resolve().parent.parent
VENV = Path(sys.executable).parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
import docgen  # noqa: E402

RESOURCES_IN_WHEEL = "desktop_dedup/_resources/"
SHIPPED_TABLES = ("idf.bin", "idf.key", "regional-words.txt", "regional-words.key")


def _env(tmp: Path, **extra: str) -> dict[str, str]:
    """A clean environment: private app home, headless Qt, no stray PYTHONPATH."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env.update(
        DESKTOP_DEDUP_HOME=str(tmp / "home"),
        QT_QPA_PLATFORM="offscreen",
        HOME=str(tmp / "userhome"),
        XDG_RUNTIME_DIR=str(tmp),
    )
    env.update(extra)
    return env


def _run(cmd: list[str], env: dict[str, str], cwd: Path, timeout: float = 300):
    result = subprocess.run(
        cmd, env=env, cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False
    )
    assert result.returncode == 0, (
        f"{cmd} exited {result.returncode}\nstdout:\n{result.stdout}\nstderr:\n{result.stderr}"
    )
    return result


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`pip wheel .` as a user's `pip install .` builds it, with the build backend of
    [build-system] taken from this environment (the dev extra holds it) instead of fetched: no
    network during tests. ``--no-index`` makes any attempt to fetch fail the test."""
    subprocess.run([str(REPO / "packaging" / "build_resources.sh"), str(VENV)], check=True)
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index"]
        + ["-q", "-w", str(out), str(REPO)],
        check=True,
        cwd=out,
    )
    (built,) = out.glob("desktop_dedup-*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel installed (non-editable) into its own directory, dependencies from the venv."""
    target = tmp_path_factory.mktemp("site")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--no-deps",
            "--no-index",
            "-q",
            "--target",
            str(target),
            str(wheel),
        ],
        check=True,
    )
    return target


def test_wheel_has_both_entry_points(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as zf:
        (name,) = [n for n in zf.namelist() if n.endswith(".dist-info/entry_points.txt")]
        text = zf.read(name).decode()
    sections: dict[str, dict[str, str]] = {}
    current = ""
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("["):
            current = line.strip("[]")
        elif "=" in line:
            key, value = (part.strip() for part in line.split("=", 1))
            sections.setdefault(current, {})[key] = value
    assert sections["console_scripts"]["desktop-dedup"] == "desktop_dedup.cli:main"
    assert sections["gui_scripts"]["desktop-dedup-gui"] == "desktop_dedup.gui.app:main"


def test_wheel_contains_the_resources(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
    expected = {f"{RESOURCES_IN_WHEEL}icons/{n}.svg" for n in ICON_NAMES}
    expected |= {f"{RESOURCES_IN_WHEEL}icons/app/desktop_dedup-{s}.png" for s in APP_ICON_SIZES}
    expected |= {
        f"{RESOURCES_IN_WHEEL}desktop_dedup.svg",
        f"{RESOURCES_IN_WHEEL}translations/desktop_dedup_zh_CN.qm",
    }
    # The tables the setup made (a new profile copies them instead of deriving them).
    expected |= {f"{RESOURCES_IN_WHEEL}tables/{n}" for n in SHIPPED_TABLES}
    assert expected <= names, sorted(expected - names)
    # Sources and README material stay out of the installed program.
    assert not [n for n in names if n.endswith(".ts") or "/screenshots/" in n]
    # The desktop_dedup package itself, with the GUI and the core.
    assert "desktop_dedup/gui/about.py" in names and "desktop_dedup/core/models.py" in names


def test_installed_package_finds_its_own_resources(installed: Path, tmp_path: Path) -> None:
    """Run from outside the checkout: resources must come from the installed package."""
    probe = (
        "import json, desktop_dedup\n"
        "from PySide6.QtCore import QCoreApplication\n"
        "from PySide6.QtWidgets import QApplication\n"
        "app = QApplication([])\n"
        "from desktop_dedup import i18n, resources\n"
        "from desktop_dedup.core import fingerprint as fp, text\n"
        "print(json.dumps({'file': desktop_dedup.__file__,\n"
        "  'root': str(resources.resource_root()),\n"
        "  'sizes': sorted(s.width() for s in resources.app_icon().availableSizes()),\n"
        "  'icon': not resources.icon('trash').isNull(),\n"
        "  'lang': i18n.install_translator(app, 'zh_CN'),\n"
        "  'text': QCoreApplication.translate('AboutDialog', 'Log file:'),\n"
        # the tables the build made, made from the jieba and OpenCC installed beside it
        "  'tables': [fp._shipped_idf(fp._idf_path()) is not None,\n"
        "             text._shipped_regional_table() is not None]}))\n"
    )
    result = _run(
        [sys.executable, "-c", probe], _env(tmp_path, PYTHONPATH=str(installed)), tmp_path
    )
    info = json.loads(result.stdout.strip().splitlines()[-1])
    assert Path(info["file"]).parent == installed / "desktop_dedup"
    assert Path(info["root"]) == installed / "desktop_dedup" / "_resources"
    assert info["sizes"] == sorted(APP_ICON_SIZES)
    assert info["icon"] is True
    assert info["lang"] == "zh_CN" and info["text"] != "Log file:"
    assert info["tables"] == [True, True]


def test_installed_console_script_runs(installed: Path, tmp_path: Path) -> None:
    scripts = installed / "bin"
    assert (scripts / "desktop-dedup").is_file() and (scripts / "desktop-dedup-gui").is_file()
    result = _run(
        [str(scripts / "desktop-dedup"), "--version"],
        _env(tmp_path, PYTHONPATH=str(installed)),
        tmp_path,
    )
    assert __version__ in result.stdout + result.stderr


# ------------------------------------------------------------------ Linux desktop files

DESKTOP_FILE = REPO / "packaging" / "io.github.desktop_dedup.desktop"
METAINFO = REPO / "packaging" / "io.github.desktop_dedup.metainfo.xml"


def _desktop_entry(path: Path) -> dict[str, str]:
    parser = configparser.RawConfigParser(strict=True, interpolation=None)
    parser.optionxform = str  # keys are case-sensitive in desktop files
    parser.read(path, encoding="utf-8")
    return dict(parser["Desktop Entry"])


def test_desktop_file_launches_the_gui_script() -> None:
    entry = _desktop_entry(DESKTOP_FILE)
    assert entry["Type"] == "Application"
    assert entry["Exec"] == "desktop-dedup-gui %F"  # the gui-script pip installs; folders
    assert entry["Icon"] == "desktop-dedup" and entry["Terminal"] == "false"
    assert entry["Name[zh_CN]"] and entry["Comment[zh_CN]"]
    assert entry["Categories"].endswith(";")
    validator = shutil.which("desktop-file-validate")
    if validator:
        _run([validator, str(DESKTOP_FILE)], dict(os.environ), REPO)


def test_metainfo_is_valid_appstream() -> None:
    root = ET.parse(METAINFO).getroot()
    assert root.get("type") == "desktop-application"
    assert root.findtext("id") == METAINFO.name.removesuffix(".metainfo.xml")
    assert root.findtext("project_license") == "GPL-3.0-or-later"
    assert root.findtext("launchable") == DESKTOP_FILE.name
    assert {b.text for b in root.iter("binary")} == {"desktop-dedup", "desktop-dedup-gui"}
    versions = [r.get("version") for r in root.iter("release")]
    assert versions and versions[0] == __version__, "add a <release> for the new version"
    validator = shutil.which("appstreamcli")
    if validator:
        _run([validator, "validate", "--no-net", str(METAINFO)], dict(os.environ), REPO)


def test_install_desktop_files_into_a_prefix(tmp_path: Path) -> None:
    script = REPO / "packaging" / "install_desktop_files.sh"
    _run([str(script), str(tmp_path), "/opt/desktop-dedup/desktop-dedup"], _env(tmp_path), REPO)
    share = tmp_path / "share"
    entry = _desktop_entry(share / "applications" / DESKTOP_FILE.name)
    assert entry["Exec"] == "/opt/desktop-dedup/desktop-dedup %F"
    assert entry["TryExec"] == "/opt/desktop-dedup/desktop-dedup"
    for size in APP_ICON_SIZES:
        assert (share / f"icons/hicolor/{size}x{size}/apps/desktop-dedup.png").is_file()
    assert (share / "icons/hicolor/scalable/apps/desktop-dedup.svg").is_file()
    assert (share / "metainfo" / METAINFO.name).is_file()


# --------------------------------------------------------------------------- the bundle


def _make_corpus(folder: Path) -> None:
    """Chinese and English documents with identical, same-text and near-duplicate copies."""
    en_edit = docgen.SAMPLE_EN.replace("forty years", "fifty years")
    zh_edit = docgen.SAMPLE_ZH.replace("三十年", "二十年")
    docgen.write_txt(folder / "en" / "river.txt", docgen.SAMPLE_EN)
    docgen.write_txt(folder / "en" / "copy" / "river (copy).txt", docgen.SAMPLE_EN)
    docgen.write_docx(folder / "en" / "river-edited.docx", en_edit)
    docgen.write_pdf(folder / "en" / "river.pdf", docgen.SAMPLE_EN)
    docgen.write_txt(folder / "zh" / "江南.txt", docgen.SAMPLE_ZH)
    docgen.write_html(folder / "zh" / "江南-修订.html", zh_edit)
    docgen.write_md(folder / "zh" / "江南.md", docgen.SAMPLE_ZH)
    # The readers of issue 10 (real files made by LibreOffice and calibre): a reader missing
    # from the bundle would leave its file out of the groups.
    formats = Path(__file__).parent / "data" / "formats"
    copies = {"zh.doc": "zh/江南.doc", "zh.et": "zh/江南.et", "zh.dps": "zh/江南.dps"}
    copies |= {"en.mobi": "en/river.mobi", "en.xlsx": "en/river.xlsx", "en.eml": "en/river.eml"}
    for name, target in copies.items():
        shutil.copy(formats / name, folder / target)
    docgen.write_txt(
        folder / "other.txt",
        "A completely different note about invoices, taxes and quarterly accounts. " * 20,
    )
    # Legacy encodings: the encoding detector's models must be in the bundle too.
    (folder / "zh" / "江南-gbk.txt").write_bytes(docgen.SAMPLE_ZH.encode("gbk"))
    russian = (Path(__file__).parent / "data" / "languages" / "ru" / "chsh.txt").read_text("utf-8")
    docgen.write_txt(folder / "ru" / "chsh.txt", russian)
    (folder / "ru" / "chsh-cp1251.txt").write_bytes(russian.encode("cp1251"))


def _groups(cli: list[str], corpus: Path, db: Path, env: dict[str, str], cwd: Path):
    _run([*cli, "scan", str(corpus), "--db", str(db)], env, cwd)
    report = _run([*cli, "report", "--db", str(db), "--format", "json"], env, cwd)
    data = json.loads(report.stdout)
    return {frozenset(m["path"] for m in g["members"]) for g in data["groups"]}


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # make setup installs the packaging extra: a missing PyInstaller is a broken setup, not a skip
    import PyInstaller  # noqa: F401

    base = tmp_path_factory.mktemp("bundle")
    started = time.perf_counter()
    subprocess.run(
        [
            str(REPO / "packaging" / "build_bundle.sh"),
            str(VENV),
            str(base / "dist"),
            str(base / "work"),
        ],
        check=True,
        capture_output=True,
    )
    seconds = time.perf_counter() - started
    exe = base / "dist" / "desktop-dedup" / "desktop-dedup"
    assert exe.is_file() and os.access(exe, os.X_OK)
    files = [f for f in exe.parent.rglob("*") if f.is_file() and not f.is_symlink()]
    size_mb = sum(f.stat().st_size for f in files) / 2**20
    sys.stderr.write(f"\n[bundle] built in {seconds:.0f} s, {size_mb:.0f} MB\n")
    shutil.rmtree(base / "work", ignore_errors=True)
    return exe


@pytest.mark.slow
def test_bundle_contains_what_it_needs(bundle: Path) -> None:
    internal = bundle.parent / "_internal"
    assert (internal / "jieba" / "dict.txt").is_file()
    assert (internal / "jieba" / "analyse" / "idf.txt").is_file()
    assert list(internal.rglob("libpdfium*")) or list(internal.rglob("pdfium.dll"))
    plugins = next(internal.rglob("plugins/platforms")).parent
    for plugin in (
        "platforms/libqoffscreen.so",
        "platforms/libqxcb.so",
        "imageformats/libqsvg.so",
        "iconengines/libqsvgicon.so",
    ):
        assert (plugins / plugin).is_file(), plugin
    assert next(internal.rglob("qtbase_zh_CN.qm"))
    res = internal / "desktop_dedup" / "_resources"
    assert (res / "translations" / "desktop_dedup_zh_CN.qm").is_file()
    assert {p.stem for p in (res / "icons").glob("*.svg")} >= set(ICON_NAMES)
    assert {p.name for p in (res / "tables").iterdir()} == set(SHIPPED_TABLES)


@pytest.mark.slow
def test_bundle_self_test_headless(bundle: Path, tmp_path: Path) -> None:
    result = _run([str(bundle)], _env(tmp_path, DESKTOP_DEDUP_SELFTEST="1"), tmp_path)
    report = json.loads(result.stdout)
    assert report["version"] == __version__
    assert report["platform"] == "offscreen"
    assert Path(report["resource_root"]).is_relative_to(bundle.parent)
    assert Path(report["plugins_path"]).is_relative_to(bundle.parent)
    assert "svg" in report["image_formats"]
    assert report["app_icon_sizes"] == sorted(APP_ICON_SIZES)
    assert report["svg_icon_renders"] is True
    assert report["language"] == "zh_CN" and report["translated"] != "Log file:"
    assert report["qt_translated"] == "取消"
    assert report["jieba_dict"] is True and report["jieba_cut"] == ["重复", "文档", "检测"]
    assert report["main_window"] == "ok"
    assert report["tables"] == [True, True]


@pytest.mark.slow
def test_bundle_version(bundle: Path, tmp_path: Path) -> None:
    result = _run([str(bundle), "--version"], _env(tmp_path), tmp_path)
    assert __version__ in result.stdout + result.stderr


@pytest.mark.slow
def test_bundle_scan_matches_installed_package(bundle: Path, tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    _make_corpus(corpus)
    env = _env(tmp_path)
    installed_cli = [str(VENV / "bin" / "desktop-dedup")]
    expected = _groups(installed_cli, corpus, tmp_path / "installed.sqlite3", env, tmp_path)
    got = _groups([str(bundle)], corpus, tmp_path / "bundle.sqlite3", env, tmp_path)
    # The corpus has an English and a Chinese family of copies: both must be found.
    assert len(expected) >= 2, expected
    members = set().union(*expected)
    assert str((corpus / "en" / "copy" / "river (copy).txt").resolve()) in members
    assert str((corpus / "zh" / "江南.txt").resolve()) in members
    assert str((corpus / "zh" / "江南-gbk.txt").resolve()) in members
    assert str((corpus / "ru" / "chsh-cp1251.txt").resolve()) in members
    assert got == expected
