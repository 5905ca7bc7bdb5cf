"""Files derived from installed data that every scan needs and that take a while to derive
(jieba's IDF table as arrays, the words Taiwan and the mainland write differently): made once
per user in ``paths.cache_dir()``, named after what they were made from, so that another
jieba or OpenCC makes a new file instead of reusing a stale one."""

from __future__ import annotations

import contextlib
import logging
import os
import tempfile
from pathlib import Path

import xxhash

log = logging.getLogger(__name__)


def cached_path(kind: str, suffix: str, *sources: Path, extra: str = "") -> Path:
    """Where the cached ``kind`` made from ``sources`` (files, by path, size and mtime) and
    ``extra`` (e.g. a library's version) lives. The user's cache folder, or the system's
    temporary folder when there is none (a read-only profile)."""
    key = []
    for source in sources:
        st = source.stat()
        key.append(f"{source.resolve()}\0{st.st_size}-{st.st_mtime_ns}")
    if extra:
        key.append(extra)
    tag = xxhash.xxh64_hexdigest("\0\0".join(key).encode("utf-8", "surrogatepass"))
    try:
        from desktop_dedup.paths import cache_dir

        folder = cache_dir()
    except (OSError, RuntimeError):
        folder = Path(tempfile.gettempdir())
    return folder / f"{kind}-{tag}{suffix}"


def write_whole(path: Path, data: bytes) -> bool:
    """Write ``data`` to ``path`` whole or not at all (another process may read it at any
    moment); False when it could not be written."""
    try:
        with tempfile.NamedTemporaryFile("wb", dir=path.parent, delete=False) as f:
            f.write(data)
        os.replace(f.name, path)
        return True
    except OSError:
        log.debug("could not cache %s", path, exc_info=True)
        with contextlib.suppress(OSError, NameError):
            os.unlink(f.name)
        return False
