"""Application logging: one rotating file in the user's log directory (no Qt).

A user who hits a problem should be able to attach one small file to a bug report, so the GUI
and the CLI both call :func:`setup_logging` at start-up; the file rotates (1 MiB x 5 by default)
so it never grows without bound. The function is idempotent: calling it again (a second window,
a test, the CLI after the GUI) adjusts the level instead of stacking duplicate handlers.
"""

from __future__ import annotations

import logging
import logging.handlers
import sys
from pathlib import Path

from desktop_dedup import __version__
from desktop_dedup.paths import log_dir

LOG_FILENAME = "desktop_dedup.log"
DEFAULT_MAX_BYTES = 1024 * 1024
DEFAULT_BACKUP_COUNT = 5
_FORMAT = "%(asctime)s %(levelname)-7s [%(threadName)s] %(name)s: %(message)s"

# Marker attribute so we recognise our own handlers on the root logger.
_MARK = "_desktop_dedup_handler"


def log_file_path() -> Path:
    """Where the current log file is (or will be) written; shown in the About dialog."""
    return log_dir() / LOG_FILENAME


def _own_handlers(root: logging.Logger, kind: str) -> list[logging.Handler]:
    return [h for h in root.handlers if getattr(h, _MARK, None) == kind]


def setup_logging(
    level: int = logging.INFO,
    *,
    console: bool = False,
    max_bytes: int = DEFAULT_MAX_BYTES,
    backup_count: int = DEFAULT_BACKUP_COUNT,
) -> Path:
    """Send log records to a rotating file (and optionally stderr); return the file's path.

    Installed on the root logger so records from libraries (SQLAlchemy, pypdfium2, Qt
    message handlers forwarded by the GUI) land in the same file. If the log directory moved
    since the last call (``DESKTOP_DEDUP_HOME`` changed, as tests do), the file handler is
    replaced; otherwise it is kept and only the levels change.
    """
    path = log_file_path()
    root = logging.getLogger()
    formatter = logging.Formatter(_FORMAT)

    existing = _own_handlers(root, "file")
    keep: logging.handlers.RotatingFileHandler | None = None
    for handler in existing:
        same_file = (
            isinstance(handler, logging.handlers.RotatingFileHandler)
            and Path(handler.baseFilename) == path.resolve()
        )
        same_rotation = same_file and (
            handler.maxBytes == max_bytes and handler.backupCount == backup_count
        )
        if same_rotation and keep is None:
            keep = handler
        else:
            root.removeHandler(handler)
            handler.close()
    if keep is None:
        keep = logging.handlers.RotatingFileHandler(
            path,
            maxBytes=max_bytes,
            backupCount=backup_count,
            encoding="utf-8",
            delay=False,
            # a file name that is not UTF-8 (lone surrogates) is logged as escapes, not lost
            # with its whole record ("--- Logging error ---")
            errors="backslashreplace",
        )
        setattr(keep, _MARK, "file")
        keep.setFormatter(formatter)
        root.addHandler(keep)
        first_time = True
    else:
        first_time = False
    keep.setLevel(level)

    consoles = _own_handlers(root, "console")
    if console and not consoles:
        stream = logging.StreamHandler(sys.stderr)
        setattr(stream, _MARK, "console")
        stream.setFormatter(formatter)
        stream.setLevel(level)
        root.addHandler(stream)
    elif console:
        for handler in consoles:
            handler.setLevel(level)
    else:
        for handler in consoles:
            root.removeHandler(handler)

    # The root level gates everything; never raise it above what a handler asks for.
    if root.level == logging.NOTSET or root.level > level:
        root.setLevel(level)
    logging.captureWarnings(True)
    if first_time:
        logging.getLogger(__name__).info(
            "desktop_dedup %s on Python %s (%s); log file %s",
            __version__,
            sys.version.split()[0],
            sys.platform,
            path,
        )
    return path
