"""Build hook: ship the top-level ``resources/`` inside the package as ``desktop_dedup/_resources``.

All metadata lives in pyproject.toml; this file only extends ``build_py`` because setuptools'
package-data can only take files from inside a package directory, while the repository keeps
icons and translations in one top-level ``resources/`` (the single source of truth, also used
by the PyInstaller spec and by source checkouts). Editable installs skip the copy: they read
``resources/`` directly (see desktop_dedup/resources.py).

Translations: the compiled ``.qm`` files are build outputs. If ``packaging/build_resources.sh``
already produced an up-to-date ``.qm`` it is copied; otherwise the hook runs
``pyside6-lrelease`` when it can find one; failing both, the wheel ships English only and the
build log says so.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
RESOURCES = HERE / "resources"
# Screenshots are for the README, not the running program; keep the wheel small.
EXCLUDED_DIRS = {"screenshots"}


def _find_lrelease() -> list[str] | None:
    for name in ("pyside6-lrelease", "lrelease"):
        found = shutil.which(name)
        if found:
            return [found]
    spec = find_spec("PySide6")
    if spec and spec.origin:
        exe = Path(spec.origin).parent / ("lrelease.exe" if sys.platform == "win32" else "lrelease")
        if exe.is_file():
            return [str(exe)]
    return None


def _compile_translations(target: Path, log) -> None:
    """Put a ``.qm`` beside every ``.ts`` in ``target`` (copied from source or compiled)."""
    for ts in sorted((RESOURCES / "translations").glob("*.ts")):
        qm_src = ts.with_suffix(".qm")
        qm_dst = target / "translations" / qm_src.name
        if qm_src.is_file() and qm_src.stat().st_mtime >= ts.stat().st_mtime:
            shutil.copy2(qm_src, qm_dst)
            continue
        lrelease = _find_lrelease()
        if lrelease is None:
            if qm_src.is_file():
                shutil.copy2(qm_src, qm_dst)
                log(f"warning: {qm_src.name} is older than {ts.name} and no lrelease found")
            else:
                log(f"warning: no lrelease found; {ts.name} not compiled (English only)")
            continue
        subprocess.run([*lrelease, "-silent", str(ts), "-qm", str(qm_dst)], check=True)


class BuildPyWithResources(build_py):
    """``build_py`` that also copies ``resources/`` into the built package."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False) or not RESOURCES.is_dir():
            return
        target = Path(self.build_lib) / "desktop_dedup" / "_resources"
        if target.exists():
            shutil.rmtree(target)
        shutil.copytree(
            RESOURCES,
            target,
            ignore=lambda directory, names: [
                n for n in names if n in EXCLUDED_DIRS or n.endswith((".qm", ".ts"))
            ],
        )
        _compile_translations(target, self.announce_warning)

    def announce_warning(self, message: str) -> None:
        self.announce(message, level=3)
        sys.stderr.write(f"desktop_dedup build: {message}\n")


setup(cmdclass={"build_py": BuildPyWithResources})
