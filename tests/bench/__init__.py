"""Benchmarks: each ``bench_*.py`` module has a ``main()`` that prints its figures.

They run in a profile of their own (``DESKTOP_DEDUP_HOME``, unless the caller set one), removed
at exit: the scans they time write logs and the IDF table's cache, which belong to no user."""

import atexit
import os
import shutil
import tempfile
from pathlib import Path

if not os.environ.get("DESKTOP_DEDUP_HOME"):
    _profile = tempfile.mkdtemp(prefix="desktop-dedup-bench-")
    os.environ["DESKTOP_DEDUP_HOME"] = _profile
    atexit.register(shutil.rmtree, _profile, True)


def download_cache(name: str) -> Path:
    """Where a benchmark keeps what it downloaded from a package registry (``name``: its own
    folder), kept between runs: ``$XDG_CACHE_HOME/desktop_dedup_bench/NAME``, else
    ``~/.cache/...``."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "desktop_dedup_bench" / name
