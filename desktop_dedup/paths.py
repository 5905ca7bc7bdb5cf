"""Where desktop_dedup keeps its files on the user's machine (no Qt).

Every place that needs a per-user location asks this module, so the About dialog, the log
setup, the CLI's default database and the GUI all agree, and one environment variable can
move everything (tests, portable installs, bug reproduction on a throw-away profile).

Locations follow each platform's conventions through platformdirs:
Linux ``~/.local/share/desktop_dedup`` (XDG_DATA_HOME honoured), macOS
``~/Library/Application Support/desktop_dedup``, Windows ``%LOCALAPPDATA%\\desktop_dedup``.

``DESKTOP_DEDUP_HOME``, when set, replaces all of them with ``$DESKTOP_DEDUP_HOME/{data,logs,
config,cache}``.

It also says where the files the program ships are (:func:`resource_root`), without Qt, so
that the scan engine finds the tables made at build time as the GUI finds its icons.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

import platformdirs

from desktop_dedup import APP_NAME

HOME_ENV = "DESKTOP_DEDUP_HOME"
DB_FILENAME = "desktop_dedup.sqlite3"

# appauthor=False keeps Windows paths as %LOCALAPPDATA%\desktop_dedup rather than nesting a
# made-up company folder.
_AUTHOR = False


# Where the top-level ``resources/`` of the repository reaches the program (see resources.py):
# inside an installed wheel or the PyInstaller bundle, else beside the package of a checkout.
_PACKAGE_DIR = Path(__file__).resolve().parent
RESOURCE_CANDIDATES: tuple[Path, ...] = (
    _PACKAGE_DIR / "_resources",
    _PACKAGE_DIR.parent / "resources",
)


@cache
def resource_root() -> Path:
    """The directory holding ``icons/``, ``translations/``, ``tables/`` and the app icon.

    Raises FileNotFoundError with the places tried when the install is broken, because a
    silent fallback would only show up later as blank buttons.
    """
    for candidate in RESOURCE_CANDIDATES:
        if (candidate / "icons").is_dir():
            return candidate
    tried = ", ".join(str(c) for c in RESOURCE_CANDIDATES)
    raise FileNotFoundError(f"desktop_dedup resources not found (looked in {tried})")


def _override(sub: str) -> Path | None:
    home = os.environ.get(HOME_ENV)
    if home:
        return Path(home).expanduser() / sub
    return None


def _ensure(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    return path


def data_dir() -> Path:
    """Directory for the database and other per-user data; created if missing."""
    path = _override("data") or Path(platformdirs.user_data_dir(APP_NAME, _AUTHOR))
    return _ensure(path)


def default_db_path() -> Path:
    """The database used when the user names none (CLI ``--db`` default, GUI startup)."""
    return data_dir() / DB_FILENAME


def log_dir() -> Path:
    """Directory for rotating log files, the one a user attaches to a bug report."""
    path = _override("logs") or Path(platformdirs.user_log_dir(APP_NAME, _AUTHOR))
    return _ensure(path)


def cache_dir() -> Path:
    """Directory for files that only save time and can be rebuilt (the IDF table as arrays);
    created if missing."""
    path = _override("cache") or Path(platformdirs.user_cache_dir(APP_NAME, _AUTHOR))
    return _ensure(path)


def config_dir() -> Path:
    """Directory for configuration files that are not QSettings (e.g. exported settings)."""
    path = _override("config") or Path(platformdirs.user_config_dir(APP_NAME, _AUTHOR))
    return _ensure(path)
