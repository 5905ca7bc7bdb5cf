"""Progress reporting and cancellation for long work.

Long work is a plain function that takes a :class:`ProgressSink` and a :class:`CancelToken`,
checks the token once per file and never starts threads of its own (it may use a process pool for
CPU-bound work, which it shuts down before returning). The CLI passes a terminal progress bar; the
GUI passes a sink that forwards to Qt signals from a worker thread.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Protocol

from desktop_dedup.core.errors import ScanCancelled


class Stage:
    LISTING = "listing"
    READING = "reading"
    FINGERPRINTING = "fingerprinting"
    GROUPING = "grouping"
    REMOVING = "removing"
    DONE = "done"


@dataclass(frozen=True, slots=True)
class ProgressEvent:
    stage: str
    done: int = 0
    total: int | None = None  # None while unknown (e.g. still listing)
    current: str = ""  # the file being worked on, if any
    bytes_done: int = 0
    # A file read with OCR (seconds per page): the page it is on, of its pages needing OCR.
    ocr_page: int = 0
    ocr_pages: int = 0
    # Of the files being read (``total``), how many are unchanged and read again only because
    # this version reads or fingerprints files differently (after an update).
    again: int = 0


class ProgressSink(Protocol):
    def __call__(self, event: ProgressEvent) -> None: ...


def null_progress(event: ProgressEvent) -> None:
    """A sink that ignores everything."""


class CancelToken:
    """Thread-safe flag that long work polls; ``cancel()`` may be called from any thread."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def cancel(self) -> None:
        self._event.set()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()

    def raise_if_cancelled(self) -> None:
        if self._event.is_set():
            raise ScanCancelled("cancelled")
