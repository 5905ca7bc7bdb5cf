"""Per-file work of a scan: hash, extract, fingerprint. Runs in worker processes.

Everything here is a plain top-level function so a process pool can pickle it. A file's trouble
comes back as a result with ``status == "problem"`` and a reason; nothing is raised.
"""

from __future__ import annotations

import logging
import os
import signal
import sys
import threading
import time
from typing import Any

from desktop_dedup.core.actions import content_hash_file
from desktop_dedup.core.errors import ExtractionError
from desktop_dedup.core.extract import (
    MAX_TEXT_BYTES,
    canonical_format,
    extract_text,
    os_error_reason,
)
from desktop_dedup.core.extract._common import announce_text, too_large
from desktop_dedup.core.fingerprint import fingerprint_text
from desktop_dedup.core.models import DocStatus, FileEntry
from desktop_dedup.core.rows import FINGERPRINT_VERSION, problem_row
from desktop_dedup.core.units import format_size

log = logging.getLogger(__name__)

# Formats whose whole file is text: over the text cap they are refused before being hashed, so a
# 1 GB log named .txt costs a stat, not a full read.
_WHOLE_FILE_TEXT = frozenset({"txt", "md", "rst", "html", "rtf"})

# Content hashes whose current-version fingerprint the index already holds (set per worker by
# init_worker): a moved or copied file is hashed but not extracted again.
_REUSABLE: frozenset[str] = frozenset()
# The memory budget of this worker (MB), set by init_worker; None when reading in-process.
_MEMORY_MB: int | None = None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # exists, owned by someone else
        return True
    return True


def _exit_with_parent(parent: int) -> None:
    """A worker must not outlive the scan that started it (a killed app left ~170 MB workers
    behind). ``parent`` is the pid of the scanning process; the worker's own parent may be a
    fork server between the two (core/workers.py), which exits when the scanning process dies.
    On Linux the kernel signals the worker when its parent dies (PR_SET_PDEATHSIG); everywhere
    a watchdog thread notices, within a second, that it was reparented or that the scanning
    process is gone, and exits. ``parent`` may already be dead when a worker runs this."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):  # no prctl: the watchdog still runs
            pass
    direct = os.getppid()
    if not _alive(parent) or (direct != parent and direct == 1):
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(1.0)
            if os.getppid() != direct or not _alive(parent):
                os._exit(1)

    threading.Thread(target=watch, name="parent-watchdog", daemon=True).start()


def warm_up() -> None:
    """Import every reader and load the segmenter and IDF table (what a worker needs before
    its first file)."""
    from desktop_dedup.core.extract import load_readers

    load_readers()  # every reader library
    from desktop_dedup.core.fingerprint import idf_table
    from desktop_dedup.core.text import segmenter

    segmenter()
    idf_table()
    # One small text through every step loads what each step loads lazily (OpenCC's tables,
    # the pattern of words of other scripts with their marks, for "café"), and one in GB18030
    # the codec of Chinese legacy text. The encoding detector (chardet: 70 ms
    # to load) is left to the first worker that meets a legacy file that is not Chinese.
    fingerprint_text("预热：這是一段繁體中文，and some English words to warm up the café readers.")
    from desktop_dedup.core.extract.plaintext import decode_text_bytes

    decode_text_bytes("预热：一段用国标码写的简体中文。".encode("gb18030"))


def _limit_memory(memory_mb: int) -> None:
    """Cap this process's address space at what it holds now plus ``memory_mb``: what a
    reader allocates beyond that fails (MemoryError) instead of taking the machine's memory.
    Counted from the loaded worker, because the libraries and tables every worker shares are
    not the file's cost."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not on Windows
        return
    try:
        with open("/proc/self/statm") as f:
            size = int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        size = 0
    limit = size + memory_mb * 1024 * 1024
    try:
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (ValueError, OSError):
        log.warning("could not limit reader memory to %d MB", memory_mb)


def init_worker(
    reusable: frozenset[str], parent: int | None = None, memory_mb: int | None = None
) -> None:
    """Per-process set-up; ``parent`` (the scanning process's pid) makes this a worker that
    exits with it; ``memory_mb`` limits what one file may allocate."""
    global _REUSABLE, _MEMORY_MB
    _REUSABLE = reusable
    if parent is not None:
        _exit_with_parent(parent)
    # Load the segmenter and IDF table once per worker, not on its first file (a no-op when
    # the fork server already did).
    warm_up()
    if memory_mb is not None:
        _MEMORY_MB = memory_mb
        _limit_memory(memory_mb)


def memory_reason() -> str:
    if _MEMORY_MB is None:
        return "out of memory while reading this file; skipped"
    return f"needs more than {format_size(_MEMORY_MB * 1024 * 1024)} to read; skipped"


def analyse_file(entry: FileEntry) -> dict[str, Any]:
    """Hash, extract and fingerprint one file; returns a documents row (plus ``reused``)."""
    if entry.size > MAX_TEXT_BYTES and canonical_format(entry.ext) in _WHOLE_FILE_TEXT:
        return problem_row(entry, too_large(entry.size).reason)
    try:
        content_hash = content_hash_file(entry.path)
    except OSError as exc:
        return problem_row(entry, os_error_reason(exc))
    if content_hash in _REUSABLE or content_hash in entry.read_copies:
        row = problem_row(entry, "", content_hash)
        row.update(status="reuse", error=None)
        return row
    try:
        extracted = extract_text(entry.path, entry.ext)
        announce_text(len(extracted.text))  # a long text gets time for its pages
        fp = fingerprint_text(extracted.text)
    except ExtractionError as exc:
        return problem_row(entry, exc.reason, content_hash)
    except MemoryError:
        # Over the worker's budget (RLIMIT_AS): the worker is replaced after this file, in
        # case the failed allocation left a library in a bad state.
        row = problem_row(entry, memory_reason(), content_hash)
        row["retire"] = True
        return row
    except Exception as exc:  # a bug in a parser must not stop the scan
        log.exception("unexpected failure on %s", entry.path)
        return problem_row(entry, f"unexpected error: {type(exc).__name__}: {exc}", content_hash)
    try:
        st = os.stat(entry.path)
    except OSError as exc:
        return problem_row(entry, os_error_reason(exc), content_hash)
    if st.st_size != entry.size or st.st_mtime_ns != entry.mtime_ns:
        return problem_row(entry, "changed during the scan; it will be read again next time")
    return {
        "path": entry.path,
        "size": entry.size,
        "mtime_ns": entry.mtime_ns,
        "content_hash": content_hash,
        # A document without a single word (an empty DOCX, a page of numbers) is not "the same
        # text" as every other empty one: it matches only byte-identical copies.
        "text_hash": fp.text_hash if fp.token_count else None,
        "simhash": fp.simhash,
        "sketch": fp.sketch,
        "lines": fp.lines,  # not a column: Store.upsert_documents indexes them (short_lines)
        "shingles": fp.shingle_count,
        "token_count": fp.token_count,
        "text_chars": len(extracted.text),
        "format": extracted.format,
        "status": (DocStatus.OK if fp.simhash is not None else DocStatus.SHORT).value,
        "error": None,
        "fp_version": FINGERPRINT_VERSION,
    }
