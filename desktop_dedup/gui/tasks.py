"""Long service work (scan, trash, move) on a worker thread, progress back as queued signals.

The worker builds its OWN :class:`DedupService` because a service owns a SQLAlchemy engine and
sessions must never cross threads; SQLite WAL lets it write while the GUI thread's service reads.
Progress events arrive far faster than a person can read them (thousands per second on small
files), so they are throttled to about 10 Hz before they cross threads; stage changes and the
final event always go through so the UI never shows a stale stage.
"""

from __future__ import annotations

import gc
import logging
import os
import sys
import threading
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QThread, Signal

# an error naming a file whose name is not UTF-8 keeps its bytes as escapes: a Qt string drops them
from desktop_dedup.core.pathrules import shown
from desktop_dedup.core.progress import CancelToken, ProgressEvent, ProgressSink, Stage
from desktop_dedup.core.store.engine import is_database_url

log = logging.getLogger(__name__)

#: ``job(service, progress, cancel) -> result`` run on the worker thread.
Job = Callable[[Any, ProgressSink, CancelToken], Any]

PROGRESS_INTERVAL_S = 0.1


class ThrottledSink:
    """A progress sink that forwards at most one event per interval (plus stage changes)."""

    def __init__(
        self, emit: Callable[[ProgressEvent], None], interval: float = PROGRESS_INTERVAL_S
    ):
        self._emit = emit
        self._interval = interval
        self._last_time = 0.0
        self._last_stage: str | None = None
        self._pending: ProgressEvent | None = None

    def __call__(self, event: ProgressEvent) -> None:
        now = time.monotonic()
        if (
            event.stage != self._last_stage
            or event.stage == Stage.DONE
            or event.ocr_page  # seconds apart: the next event may be a page's OCR away
            or now - self._last_time >= self._interval
        ):
            self._last_time = now
            self._last_stage = event.stage
            self._pending = None
            self._emit(event)
        else:
            self._pending = event

    def flush(self) -> None:
        """Send the last swallowed event so the final counts are exact."""
        if self._pending is not None:
            self._emit(self._pending)
            self._pending = None


WORKER_NICENESS = 10


def lower_this_thread_priority(increment: int = WORKER_NICENESS) -> None:
    """Make the calling worker thread (and the processes it spawns) yield CPU to the GUI thread.

    A scan keeps every core busy (a process pool plus this thread); on a 2-core machine the
    GUI thread would then wait for the scheduler and the window would stutter. On Linux the
    nice value is per thread and inherited by spawned processes, so raising it here touches
    neither the GUI thread nor other programs. Elsewhere ``PRIO_PROCESS`` would renice the
    whole app, so it is left alone.
    """
    if not sys.platform.startswith("linux"):
        return
    try:
        tid = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, tid, os.getpriority(os.PRIO_PROCESS, tid) + increment)
    except (OSError, AttributeError) as exc:  # not permitted or not supported: run as is
        log.debug("could not lower worker priority: %s", exc)


class ServiceTask(QThread):
    """Runs one job against a fresh service on its own thread.

    Signals are emitted from the worker thread; receivers living in the GUI thread get them
    queued. Exactly one of ``succeeded``/``failed`` is emitted, then QThread's ``finished``.
    The owner must keep a reference until ``finished`` (see :class:`TaskHolder`).
    """

    progressed = Signal(object)  # ProgressEvent
    succeeded = Signal(object)  # whatever the job returned
    failed = Signal(str, str)  # message, traceback text

    def __init__(
        self,
        db_path: str | Path,
        job: Job,
        *,
        name: str = "task",
        service_factory: Callable[[Path], Any] | None = None,
        parent: QObject | None = None,
    ):
        super().__init__(parent)
        # a file, or a shared index's URL (kept whole: the worker thread connects with it)
        self.db_path = db_path if is_database_url(db_path) else Path(db_path)
        self.job = job
        self.task_name = name
        self.cancel_token = CancelToken()
        self.result: Any = None
        self.error: tuple[str, str] | None = None  # (message, traceback) when the job raised
        self._service_factory = service_factory
        self.setObjectName(f"desktop_dedup-{name}")

    def cancel(self) -> None:
        """Ask the job to stop at its next per-file check; safe from any thread."""
        self.cancel_token.cancel()

    def _make_service(self) -> Any:
        if self._service_factory is not None:
            return self._service_factory(self.db_path)
        from desktop_dedup.core.service import DedupService

        return DedupService(self.db_path)

    def run(self) -> None:  # worker thread
        lower_this_thread_priority()
        sink = ThrottledSink(self.progressed.emit)
        service = None
        try:
            service = self._make_service()
            result = self.job(service, sink, self.cancel_token)
            sink.flush()
        except Exception as exc:  # a real fault: report it, never kill the app
            log.exception("%s failed", self.task_name)
            self.error = (shown(str(exc)) or type(exc).__name__, traceback.format_exc())
            self.failed.emit(*self.error)
            return
        finally:
            if service is not None:
                try:
                    service.close()
                except Exception:
                    log.exception("closing the worker's service failed")
        self.result = result
        self.succeeded.emit(result)


class TaskHolder(QObject):
    """Keeps the running task referenced until its thread has finished, one task at a time.

    Dropping the last Python reference to a running QThread destroys it mid-run and crashes
    the process, hence this holder rather than a local variable. ``on_done`` callbacks run
    only once the thread has really ended and ``busy`` is False again, so a handler can start
    the next task or re-enable the UI without racing the old thread.
    """

    busyChanged = Signal(bool)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.task: ServiceTask | None = None
        self._on_done: Callable[[ServiceTask], None] | None = None

    @property
    def busy(self) -> bool:
        return self.task is not None

    def start(
        self, task: ServiceTask, on_done: Callable[[ServiceTask], None] | None = None
    ) -> None:
        if self.task is not None:
            raise RuntimeError("a task is already running")
        self.task = task
        self._on_done = on_done
        task.finished.connect(self._on_finished)
        # A full (generation 2) garbage collection walks every tracked object while holding
        # the GIL; triggered on the worker it froze the GUI thread for ~300 ms (measured). While
        # a task runs, park the objects that already exist in the permanent generation so a
        # collection only walks what the task allocates; they are handed back when it ends.
        gc.freeze()
        self.busyChanged.emit(True)
        task.start()

    def cancel(self) -> None:
        if self.task is not None:
            self.task.cancel()

    def wait(self, ms: int = 10_000) -> bool:
        """Block until the task ends (used on close); True when nothing is left running."""
        if self.task is None:
            return True
        self.task.cancel()
        return self.task.wait(ms)

    def _on_finished(self) -> None:
        task, self.task = self.task, None
        on_done, self._on_done = self._on_done, None
        gc.unfreeze()
        self.busyChanged.emit(False)
        if task is not None:
            try:
                if on_done is not None:
                    on_done(task)
            finally:
                task.deleteLater()
