"""Service calls off the GUI thread: read operations, and mutations on one writer, in order.

After Anki's ``QueryOp``/``CollectionOp``. A call that can take longer than about 50 ms on a
large database (a regroup, a page of groups with a filter, the settings preview, a diff, a
report, planning a removal, a bulk marking rule) is an *op*: ``fn(service)`` runs on a worker
thread against that thread's OWN :class:`DedupService` (a service owns a SQLAlchemy engine and
sessions never cross threads; SQLite WAL lets the writer write while readers read), and its
result or error comes back to the GUI thread as a queued signal, where ``on_done``/``on_error``
run.

* **Reads** run on one reader thread in submission order. A read with a ``key`` is superseded
  by a later read with the same key: if it has not started it is skipped, if it has, its result
  is dropped (a settings preview of 80 % is not shown after 85 % was asked).
* **Mutations** run on one writer thread, in order. The :class:`Changes` every service mutator
  announces (``service.add_change_listener``) are collected while the op runs and emitted on
  :attr:`OpRunner.changed` (the change hub) after it ends, before ``on_done``; models and panels
  refresh themselves from that signal.
* **Busy state**: :attr:`OpRunner.busyChanged` while anything runs (the window shows it in the
  status bar; writes also set the busy cursor). A running op stays referenced in ``_running``
  until its result has been delivered.
"""

from __future__ import annotations

import gc
import itertools
import logging
import queue
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QEventLoop, QObject, Qt, Signal, Slot

from desktop_dedup.core.changes import Changes
from desktop_dedup.core.errors import DedupError

# an error naming a file whose name is not UTF-8 keeps its bytes as escapes: a Qt string drops them
from desktop_dedup.core.pathrules import shown
from desktop_dedup.core.store.engine import is_database_url

log = logging.getLogger(__name__)

ServiceFn = Callable[[Any], Any]


@dataclass
class Op:
    """One submitted operation (kept by the runner until its outcome is delivered)."""

    id: int
    kind: str  # "read" | "write"
    fn: ServiceFn
    on_done: Callable[[Any], None] | None
    on_error: Callable[[str, str], None] | None
    key: str | None
    generation: int
    label: str
    result: Any = None
    error: tuple[str, str] | None = None
    changes: Changes = field(default_factory=Changes)
    skipped: bool = False
    seconds: float = 0.0


class _Bridge(QObject):
    """Lives in the GUI thread; a worker emits ``delivered`` and the slot runs there."""

    delivered = Signal(object)


class _Worker(threading.Thread):
    """One thread, one service, one queue of ops run in order."""

    def __init__(
        self,
        name: str,
        db_path: Any,
        factory: Callable[[Any], Any] | None,
        deliver: Callable[[Op], None],
        is_current: Callable[[Op], bool],
    ):
        super().__init__(name=f"desktop_dedup-{name}", daemon=True)
        self._db_path = db_path
        self._factory = factory
        self._deliver = deliver
        self._is_current = is_current
        self.queue: queue.Queue[Op | None] = queue.Queue()
        self._service: Any = None
        self._collected: Changes = Changes()

    def _collect(self, changes: Changes) -> None:
        self._collected = self._collected | changes

    def _make_service(self) -> Any:
        if self._factory is not None:
            service = self._factory(self._db_path)
        else:
            from desktop_dedup.core.service import DedupService

            service = DedupService(self._db_path)
        service.add_change_listener(self._collect)
        return service

    def run(self) -> None:
        # Not reniced (unlike a scan's thread, which spends its time waiting for reader
        # processes): this thread holds the GIL while it computes, and a low-priority thread
        # preempted by other programs while holding it kept the GUI thread waiting for it
        # (priority inversion; stalls of 100-400 ms measured on a loaded machine).
        try:
            while True:
                op = self.queue.get()
                if op is None:
                    return
                if not self._is_current(op):
                    op.skipped = True
                    self._deliver(op)
                    continue
                self._collected = Changes()
                started = time.perf_counter()
                try:
                    if self._service is None:
                        self._service = self._make_service()
                    op.result = op.fn(self._service)
                except DedupError as exc:  # a refusal with its reason (a file gone): expected
                    log.info("%s: %s", op.label, exc)
                    op.error = (shown(str(exc)), "")
                except Exception as exc:  # reported on the GUI thread, never kills the app
                    log.exception("%s failed", op.label or "operation")
                    op.error = (shown(str(exc)) or type(exc).__name__, traceback.format_exc())
                op.changes = self._collected
                op.seconds = time.perf_counter() - started
                self._deliver(op)
        finally:
            if self._service is not None:
                try:
                    self._service.close()
                except Exception:
                    log.exception("closing a worker's service failed")


class OpRunner(QObject):
    """Runs ops for one database; one per window. ``changed`` is the change hub."""

    #: Changes a mutation made (core.changes.Changes), on the GUI thread.
    changed = Signal(object)
    #: True while any op is queued or running, False when all are done.
    busyChanged = Signal(bool)
    #: An op without its own ``on_error`` failed: (message, traceback).
    failed = Signal(str, str)

    def __init__(
        self,
        db_path: str | Path,
        *,
        service_factory: Callable[[Any], Any] | None = None,
        parent: QObject | None = None,
    ):
        super().__init__(parent)
        self.db_path = db_path if is_database_url(db_path) else Path(db_path)
        self._factory = service_factory
        self._ids = itertools.count(1)
        self._generations: dict[str, int] = {}
        self._gen_lock = threading.Lock()
        self._running: dict[int, Op] = {}
        self._bridge = _Bridge(self)
        self._bridge.delivered.connect(self._on_delivered, Qt.ConnectionType.QueuedConnection)
        self._reader: _Worker | None = None
        self._writer: _Worker | None = None
        self._closed = False
        self._frozen = False  # automatic garbage collection held off while ops run
        self._gc_was_enabled = True
        self.last_seconds: dict[str, float] = {}  # label -> the last op's duration (benchmark)

    # -- state ---------------------------------------------------------------------------------
    @property
    def busy(self) -> bool:
        return bool(self._running)

    @property
    def writing(self) -> bool:
        """A mutation is queued or running (the window holds back scans and removals)."""
        return any(op.kind == "write" for op in self._running.values())

    def pending(self, key: str) -> bool:
        return any(op.key == key for op in self._running.values())

    # -- submitting ----------------------------------------------------------------------------
    def read(
        self,
        fn: ServiceFn,
        on_done: Callable[[Any], None] | None = None,
        *,
        key: str | None = None,
        on_error: Callable[[str, str], None] | None = None,
        label: str = "",
    ) -> Op | None:
        """Run ``fn(service)`` on the reader thread; ``on_done(result)`` on the GUI thread."""
        return self._submit("read", fn, on_done, on_error, key, label)

    def write(
        self,
        fn: ServiceFn,
        on_done: Callable[[Any], None] | None = None,
        *,
        on_error: Callable[[str, str], None] | None = None,
        label: str = "",
    ) -> Op | None:
        """Run the mutation ``fn(service)`` on the writer thread, after those before it."""
        return self._submit("write", fn, on_done, on_error, None, label)

    def _submit(self, kind, fn, on_done, on_error, key, label) -> Op | None:
        if self._closed:
            return None
        generation = 0
        if key is not None:
            with self._gen_lock:
                generation = self._generations.get(key, 0) + 1
                self._generations[key] = generation
        op = Op(next(self._ids), kind, fn, on_done, on_error, key, generation, label or kind)
        was_busy = self.busy
        self._running[op.id] = op
        if kind == "write" and not any(
            o.kind == "write" for o in self._running.values() if o is not op
        ):
            QCoreApplication.instance() and _set_busy_cursor(True)
        self._worker(kind).queue.put(op)
        if not was_busy:
            # A collection walks every tracked object holding the GIL: a regroup allocates
            # millions, and one full collection on the worker kept the GUI thread waiting for
            # half a second (measured). While ops run, automatic collection is off (what they
            # allocate is freed by reference counting when they end); it is back when idle.
            if not self._frozen:
                self._gc_was_enabled = gc.isenabled()
                gc.disable()
                self._frozen = True
            self.busyChanged.emit(True)
        return op

    def _worker(self, kind: str) -> _Worker:
        attr = "_reader" if kind == "read" else "_writer"
        worker = getattr(self, attr)
        if worker is None:
            worker = _Worker(
                kind, self.db_path, self._factory, self._bridge.delivered.emit, self._is_current
            )
            setattr(self, attr, worker)
            worker.start()
        return worker

    def _is_current(self, op: Op) -> bool:
        if op.key is None:
            return True
        with self._gen_lock:
            return self._generations.get(op.key) == op.generation

    # -- delivering (GUI thread) ---------------------------------------------------------------
    @Slot(object)
    def _on_delivered(self, op: Op) -> None:
        self._running.pop(op.id, None)
        if op.kind == "write" and not self.writing:
            _set_busy_cursor(False)
        self.last_seconds[op.label] = op.seconds
        try:
            if op.changes:
                self.changed.emit(op.changes)
            if op.skipped or not self._is_current(op) or self._closed:
                pass
            elif op.error is not None:
                if op.on_error is not None:
                    op.on_error(*op.error)
                else:
                    self.failed.emit(*op.error)
            elif op.on_done is not None:
                op.on_done(op.result)
        finally:
            if not self.busy:
                self._restore_gc()
                self.busyChanged.emit(False)

    # -- waiting and closing -------------------------------------------------------------------
    def wait_idle(self, timeout_ms: int = 60_000) -> bool:
        """Process events until every op has been delivered (tests, closing); True if idle."""
        deadline = time.monotonic() + timeout_ms / 1000
        app = QCoreApplication.instance()
        while self.busy and time.monotonic() < deadline:
            app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 20)
            time.sleep(0.002)
        return not self.busy

    def shutdown(self, timeout_s: float = 30.0) -> None:
        """Finish what was submitted (a mutation is never cut short), then stop the threads."""
        self._closed = True
        for worker in (self._reader, self._writer):
            if worker is not None:
                worker.queue.put(None)
        for worker in (self._reader, self._writer):
            if worker is not None:
                worker.join(timeout_s)
        self._reader = self._writer = None
        self._restore_gc()
        _set_busy_cursor(False)

    def _restore_gc(self) -> None:
        if self._frozen:
            # What the ops allocated is still in the youngest generation (a million objects
            # after a regroup of 200,000 documents, most freed soon by reference counting), and
            # the first young collection would walk all of it on this thread: 0.4 s measured.
            # Promote it to the oldest generation without a walk instead (freeze, then unfreeze,
            # moves every tracked object there); the next full collection, which Python runs
            # only when the old generation has grown by a quarter, sees what is left of it.
            gc.freeze()
            gc.unfreeze()
            if self._gc_was_enabled:
                gc.enable()
            self._frozen = False


_cursor_set = False


def _set_busy_cursor(on: bool) -> None:
    """The busy cursor (arrow with a wait sign: the window still works) while mutations run."""
    global _cursor_set
    from PySide6.QtWidgets import QApplication

    if QApplication.instance() is None or on == _cursor_set:
        return
    _cursor_set = on
    if on:
        QApplication.setOverrideCursor(Qt.CursorShape.BusyCursor)
    else:
        QApplication.restoreOverrideCursor()
