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
from desktop_dedup.core.extract._common import too_large
from desktop_dedup.core.fingerprint import FINGERPRINT_VERSION, fingerprint_text
from desktop_dedup.core.models import DocStatus, FileEntry

log = logging.getLogger(__name__)

# Formats whose whole file is text: over the text cap they are refused before being hashed, so a
# 1 GB log named .txt costs a stat, not a full read.
_WHOLE_FILE_TEXT = frozenset({"txt", "md", "rst", "html", "rtf"})

# Content hashes whose current-version fingerprint the index already holds (set per worker by
# init_worker): a moved or copied file is hashed but not extracted again.
_REUSABLE: frozenset[str] = frozenset()


def _exit_with_parent(parent: int) -> None:
    """A worker must not outlive the scan that started it (a killed app left ~170 MB workers
    behind): on Linux the kernel signals it when its parent dies (PR_SET_PDEATHSIG); everywhere a
    watchdog thread notices the parent is gone (reparented) within a second and exits.
    ``parent`` is the pid of the process that asked for the worker: it may already be dead by
    the time a slow-starting worker runs this."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):  # no prctl: the watchdog still runs
            pass
    if os.getppid() != parent:  # the parent died before the signal was armed
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(1.0)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="parent-watchdog", daemon=True).start()


def init_worker(reusable: frozenset[str], parent: int | None = None) -> None:
    """Per-process set-up; ``parent`` (the scanning process's pid) makes this a worker that
    exits with it."""
    global _REUSABLE
    _REUSABLE = reusable
    if parent is not None:
        _exit_with_parent(parent)
    # Load the segmenter and IDF table once per worker, not on its first file.
    from desktop_dedup.core.fingerprint import idf_table
    from desktop_dedup.core.text import segmenter

    segmenter()
    idf_table()


def _problem(entry: FileEntry, reason: str, content_hash: str | None = None) -> dict[str, Any]:
    return {
        "path": entry.path,
        "size": entry.size,
        "mtime_ns": entry.mtime_ns,
        "content_hash": content_hash,
        "text_hash": None,
        "simhash": None,
        "sketch": None,
        "shingles": None,
        "token_count": 0,
        "text_chars": 0,
        "format": entry.ext,
        "status": DocStatus.PROBLEM.value,
        "error": reason,
        "fp_version": FINGERPRINT_VERSION,
    }


def analyse_file(entry: FileEntry) -> dict[str, Any]:
    """Hash, extract and fingerprint one file; returns a documents row (plus ``reused``)."""
    if entry.size > MAX_TEXT_BYTES and canonical_format(entry.ext) in _WHOLE_FILE_TEXT:
        return _problem(entry, too_large(entry.size).reason)
    try:
        content_hash = content_hash_file(entry.path)
    except OSError as exc:
        return _problem(entry, os_error_reason(exc))
    if content_hash in _REUSABLE:
        row = _problem(entry, "", content_hash)
        row.update(status="reuse", error=None)
        return row
    try:
        extracted = extract_text(entry.path, entry.ext)
        fp = fingerprint_text(extracted.text)
    except ExtractionError as exc:
        return _problem(entry, exc.reason, content_hash)
    except MemoryError:
        return _problem(entry, "out of memory while reading this file", content_hash)
    except Exception as exc:  # a bug in a parser must not stop the scan
        log.exception("unexpected failure on %s", entry.path)
        return _problem(entry, f"unexpected error: {type(exc).__name__}: {exc}", content_hash)
    try:
        st = os.stat(entry.path)
    except OSError as exc:
        return _problem(entry, os_error_reason(exc), content_hash)
    if st.st_size != entry.size or st.st_mtime_ns != entry.mtime_ns:
        return _problem(entry, "changed during the scan; it will be read again next time")
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
        "shingles": fp.shingle_count,
        "token_count": fp.token_count,
        "text_chars": len(extracted.text),
        "format": extracted.format,
        "status": (DocStatus.OK if fp.simhash is not None else DocStatus.SHORT).value,
        "error": None,
        "fp_version": FINGERPRINT_VERSION,
    }
