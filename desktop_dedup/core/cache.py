"""Files derived from installed data that every scan needs and that take a while to derive
(jieba's IDF table as arrays, the words Taiwan and the mainland write differently): made once
per user in ``paths.cache_dir()``, named after what they were made from, so that another
jieba or OpenCC makes a new file instead of reusing a stale one.

The build makes them too (``packaging/make_tables.py``, run by ``build_resources.sh``), into
``resources/tables`` (shipped in the wheel and the bundle, gitignored in a checkout), each with
a *key*: the hash of the bytes it was made from. A new profile copies a shipped table into its
cache when the installed sources hash to the same key, instead of spending most of a second of
its first scan deriving it; any other jieba or OpenCC derives its own, as before.
"""

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


def content_key(*sources: Path, extra: str = "") -> str:
    """The key of a table made from ``sources`` (their bytes, each with its length, in this
    order) and ``extra`` (what else it depends on: a library's version, a format's): 32 hex
    digits. Raises OSError when a source cannot be read."""
    h = xxhash.xxh3_128()
    for source in sources:
        data = source.read_bytes()
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    h.update(extra.encode("utf-8", "surrogatepass"))
    return h.hexdigest()


SHIPPED_FOLDER = "tables"  # under paths.resource_root()


def shipped_table(kind: str, suffix: str, key: str, folder: Path | None = None) -> bytes | None:
    """The ``kind`` table the build made (``resources/tables/<kind><suffix>``, or in
    ``folder``), when it was made from sources with this ``key`` and is whole; else None (none
    shipped, another jieba or OpenCC, a damaged file)."""
    try:
        if folder is None:
            from desktop_dedup.paths import resource_root

            folder = resource_root() / SHIPPED_FOLDER
        made_from, body_hash = (folder / f"{kind}.key").read_text("ascii").split()
        if made_from != key:
            return None
        data = (folder / f"{kind}{suffix}").read_bytes()
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    if xxhash.xxh3_128_hexdigest(data) != body_hash:
        log.warning("the shipped %s table is damaged; making it again", kind)
        return None
    return data


def write_shipped(folder: Path, kind: str, suffix: str, key: str, data: bytes) -> None:
    """Write a table for :func:`shipped_table`: the body first, then its key and hash."""
    folder.mkdir(parents=True, exist_ok=True)
    body = folder / f"{kind}{suffix}"
    stamp = f"{key} {xxhash.xxh3_128_hexdigest(data)}\n".encode("ascii")
    for path, content in ((body, data), (folder / f"{kind}.key", stamp)):
        if not write_whole(path, content):
            raise OSError(f"cannot write {path}")
        path.chmod(0o644)  # shipped: readable by every user of a system-wide install


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
