"""The scan engine: reads files in worker processes, each file under a time and a memory budget.

Why a pool of our own and not ``concurrent.futures.ProcessPoolExecutor``: an executor cannot
kill one stuck worker (a parser looping on a hostile file holds it forever, and shutting the
pool down waits for it), and one dead worker breaks every task in flight. Here each worker
process reads the files it is sent one at a time, in order, over its own pipe, and answers each
as it is read, so the engine always knows which file a worker is on:

* a file that takes longer than the time budget gets its worker killed (SIGKILL) and replaced,
  and becomes a problem "took longer than 30 s to read";
* every worker runs under an address-space limit (RLIMIT_AS): a reader that would need more
  than the memory budget fails its allocation, and the file becomes a problem "needs more than
  512 MB to read"; the worker is replaced, since a failed allocation may leave a library in a
  bad state;
* a worker that dies on a file (a native parser crashing) is replaced and the file tried once
  more; dying twice makes it a problem "the reader crashed on this file";
* cancel (GUI) or Ctrl-C (CLI) is noticed within a tenth of a second and kills every worker;
* a file read with OCR (``core/ocr.py``: seconds per page) reports each page it starts; the
  page gets a time budget of its own, and the whole file at most ``Budget.ocr_file_seconds``;
* a PDF says how many pages it has before it reads them, and a long text (a novel saved as one
  file) how many pages of text it has before it is fingerprinted; either gets PAGE_SECONDS a
  page when that is more than the budget, up to PAGES_MAX_SECONDS (``Budget.for_pages``).

Workers are forked by a fork server (``multiprocessing`` "forkserver") that has already
imported the readers and loaded the segmenter and IDF table once: starting a worker costs a
fork, not a Python start-up (~0.5-1 s each with "spawn"). The fork server is a fresh,
single-threaded process, so this is safe from a GUI worker thread, where a plain fork is not.
It is started at the beginning of a scan (``core/forkserver.py``; the CLI starts it before it
loads anything else) and warms up while the folders are listed. Platforms without a fork server
use "spawn".
"""

from __future__ import annotations

import logging
import math
import multiprocessing
import multiprocessing.connection
import os
import queue
import select
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import islice
from typing import Any

from desktop_dedup.core import ocr as ocr_mod
from desktop_dedup.core.errors import DedupError, HelperGone
from desktop_dedup.core.forkserver import context as _context
from desktop_dedup.core.forkserver import safe_path
from desktop_dedup.core.forkserver import started as fork_server_started
from desktop_dedup.core.models import FileEntry
from desktop_dedup.core.progress import CancelToken
from desktop_dedup.core.rows import problem_row

log = logging.getLogger(__name__)

#: The longest one file may hold a worker, and the most memory reading it may take.
DEFAULT_SECONDS = 30.0
DEFAULT_MEMORY_MB = 512
DEFAULT_OCR_FILE_SECONDS = 15 * 60.0
#: A PDF announces its pages before it reads them (a long text its pages of text:
#: _common.CHARS_PER_PAGE), and gets this much a page when that is more than the budget, up to
#: PAGES_MAX_SECONDS (or the budget, if more): a book is not a stuck reader. PDFium took 12-14
#: ms a page of Chinese in a font the file names without embedding it (3,000 pages: 41 s,
#: skipped at 30 s), 1-3 ms a page of the corpora's PDFs; a fingerprint about 4 ms a page.
PAGE_SECONDS = 0.1
PAGES_MAX_SECONDS = 5 * 60.0
#: Environment overrides (seconds / megabytes), e.g. for tests of the CLI.
ENV_SECONDS = "DESKTOP_DEDUP_READ_SECONDS"
ENV_MEMORY_MB = "DESKTOP_DEDUP_READ_MEMORY_MB"

#: How often the engine looks at the cancel token while workers are busy.
_POLL_S = 0.05
#: A file whose worker died this many times is recorded as a problem.
_MAX_CRASHES = 2
#: A worker that cannot start this many times in a row, before any started: give up.
_MAX_START_FAILURES = 3
#: Files sent to a worker in one message, and their size at most (a larger file goes alone).
#: Each message wakes the process it goes to, and on a virtual machine a wake-up costs a core
#: 60-100 µs: a message per file cost the scanning process 0.11 CPU seconds of the public
#: corpora's 1,415 files (7 KB on average), a message per batch 0.03.
BATCH_FILES = 8
BATCH_BYTES = 128 * 1024

CRASHED = "the reader crashed on this file; skipped"


@dataclass(frozen=True)
class Budget:
    """What one file may cost a worker."""

    seconds: float = DEFAULT_SECONDS
    memory_mb: int = DEFAULT_MEMORY_MB
    #: A file read with OCR gets ``seconds`` per page, and this much in all: what it read so
    #: far stays in the OCR cache, so the next scan goes on from there.
    ocr_file_seconds: float = DEFAULT_OCR_FILE_SECONDS

    @classmethod
    def from_env(cls) -> Budget:
        def number(name: str, default: float) -> float:
            raw = os.environ.get(name, "").strip()
            try:
                value = float(raw) if raw else default
            except ValueError:
                log.warning("ignoring %s=%r: not a number", name, raw)
                return default
            return value if value > 0 else default

        return cls(
            seconds=number(ENV_SECONDS, DEFAULT_SECONDS),
            memory_mb=int(number(ENV_MEMORY_MB, DEFAULT_MEMORY_MB)),
        )

    def for_pages(self, pages: int) -> float:
        """The time a file of ``pages`` pages gets (PAGE_SECONDS)."""
        return max(self.seconds, min(pages * PAGE_SECONDS, PAGES_MAX_SECONDS))

    def time_reason(self, pages: int = 0) -> str:
        allowed = self.for_pages(pages)
        if allowed > self.seconds:
            return f"took longer than {allowed:g} s to read its {pages:,} pages; skipped"
        return f"took longer than {self.seconds:g} s to read; skipped"

    def ocr_time_reason(self, page: int, pages: int, whole_file: bool) -> str:
        kept = "the pages read so far are kept for the next scan"
        if whole_file:
            limit = self.ocr_file_seconds
            shown = f"{limit / 60:g} min" if limit >= 60 else f"{limit:g} s"
            return f"OCR took longer than {shown} in all; skipped ({kept})"
        return (
            f"OCR took longer than {self.seconds:g} s on page {page} of {pages}; skipped ({kept})"
        )


@contextmanager
def _main_script_hidden() -> Iterator[None]:
    """multiprocessing makes every child it starts import the main script again when the
    program was started by path (a console script: the GUI's imports Qt, the CLI's SQLAlchemy),
    0.3-0.5 s per worker for nothing a worker uses, and Python 3.11's fork server cannot
    preload it (its ``main_path`` key never matches). Workers only run functions of importable
    modules, so the script's path is hidden while a worker starts. (A program started with
    ``python -m`` is not re-imported anyway.)"""
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    if main is None or path is None or getattr(main, "__spec__", None) is not None:
        yield
        return
    del main.__file__
    try:
        yield
    finally:
        main.__file__ = path


def _worker_main(
    conn: multiprocessing.connection.Connection,
    analyse: Callable[[FileEntry], dict[str, Any]] | None,
    reusable: frozenset[str],
    memory_mb: int,
    parent: int,
    ocr: ocr_mod.OcrOptions | None = None,
) -> None:
    """One worker: reads the files of each message (a list), one at a time, and sends each
    one's row as it is read, until told to stop (None) or the pipe closes. ``analyse`` None:
    the readers' own (pipeline.analyse_file)."""
    # Ctrl-C in a terminal reaches the whole process group: the engine decides what stops.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # The readers: loaded by the fork server already, here only, never in the scanning process.
    from desktop_dedup.core import pipeline

    pipeline.init_worker(reusable, parent, memory_mb)
    analyse = analyse or pipeline.analyse_file
    if ocr is not None:  # each OCR page is announced: the engine shows it and times it
        ocr_mod.configure(ocr, report=lambda page, pages: conn.send(("page", page, pages)))
    # and a PDF's pages, before they are read: a long one gets time for them (Budget.for_pages)
    from desktop_dedup.core.extract._common import listen_for_pages

    listen_for_pages(lambda pages: conn.send(("pages", pages)))
    conn.send("ready")
    while True:
        try:
            batch = conn.recv()
        except (EOFError, OSError):
            return
        if batch is None:
            return
        for task in batch:
            try:
                row = analyse(task)
            except MemoryError:  # over the budget outside the reader's own handling
                row = problem_row(task, pipeline.memory_reason())
                row["retire"] = True
            except Exception as exc:  # a bug must cost this file, not the worker
                log.exception("unexpected failure on %s", task.path)
                row = problem_row(task, f"unexpected error: {type(exc).__name__}: {exc}")
            conn.send(row)
            if row.get("retire"):  # ran out of its memory budget: start afresh (the files
                return  # after this one go back to the engine's queue)


def _start_process(
    ctx: Any, target: Callable[..., None], args: tuple[Any, ...], name: str
) -> tuple[Any, multiprocessing.connection.Connection]:
    """A process of ours (a reader or a helper) running ``target(conn, *args)``, started as
    every one is: the main script hidden and the working directory off its module path; and
    this process's end of the pipe to it. Raises OSError when it cannot start."""
    parent_conn, child_conn = ctx.Pipe(duplex=True)
    proc = ctx.Process(target=target, args=(child_conn, *args), name=name, daemon=True)
    try:
        with _main_script_hidden(), safe_path():
            proc.start()
    except OSError:
        parent_conn.close()
        raise
    finally:
        child_conn.close()
    return proc, parent_conn


class _Worker:
    def __init__(self, proc: Any, conn: multiprocessing.connection.Connection):
        self.proc = proc
        self.conn = conn
        self.ready = False
        # The files sent to it and not answered yet, in the order it reads them: the first is
        # the one it reads now. The next batch is sent before it is done with this one, so
        # that it never waits for this process between two small files (under load the
        # scanning process is not always scheduled at once).
        self.sent: deque[FileEntry] = deque()
        self.started = 0.0  # when it started the file (or its current OCR page)
        self.file_started = 0.0
        self.page: tuple[int, int] | None = None  # (page, pages) of the file's OCR
        self.pages = 0  # the pages the file it reads announced (a PDF's), 0 if none

    @property
    def entry(self) -> FileEntry | None:
        """The file it reads now."""
        return self.sent[0] if self.sent else None

    def kill(self) -> None:
        try:
            if self.proc.is_alive():
                self.proc.kill()
        except (OSError, ValueError):
            pass
        self.conn.close()

    def reap(self) -> None:
        try:
            self.proc.join(timeout=1.0)
            self.proc.close()
        except (OSError, ValueError):  # still running after a kill: the OS reaps it
            pass


class ReaderPool:
    """Worker processes reading files, each under :class:`Budget` (see the module doc)."""

    def __init__(
        self,
        n_workers: int,
        reusable: frozenset[str],
        budget: Budget,
        analyse: Callable[[FileEntry], dict[str, Any]] | None = None,
        ocr: ocr_mod.OcrOptions | None = None,
        on_page: Callable[[FileEntry, int, int], None] | None = None,
        prepare: Callable[[FileEntry], FileEntry] | None = None,
    ):
        self.n_workers = max(1, n_workers)
        self.prepare = prepare  # what an entry carries to its reader, decided as it is sent
        self.ocr = ocr
        self.on_page = on_page
        self.reusable = reusable
        self.budget = budget
        self.analyse = analyse
        self._ctx = _context()
        self._workers: list[_Worker] = []
        self._started_any = False
        self._start_failures = 0
        self._poller: Any = None  # select.poll of the workers' pipes and sentinels (_wait)
        self._polled: tuple[int, ...] = ()
        self._readable: set[int] | None = None

    # --- workers ---------------------------------------------------------------------------

    def _spawn(self) -> _Worker:
        args = (self.analyse, self.reusable, self.budget.memory_mb, os.getpid(), self.ocr)
        try:
            proc, conn = _start_process(self._ctx, _worker_main, args, "desktop-dedup-reader")
        except OSError as exc:
            raise DedupError(f"cannot start a reader process: {exc}") from exc
        worker = _Worker(proc, conn)
        self._workers.append(worker)
        return worker

    def _replace(self, worker: _Worker) -> None:
        worker.kill()
        self._workers.remove(worker)
        worker.reap()

    def close(self) -> None:
        """Stop every worker at once: idle ones and busy ones alike are killed (a worker only
        reads; nothing it does needs finishing)."""
        for worker in self._workers:
            worker.kill()
        for worker in self._workers:
            worker.reap()
        self._workers.clear()

    # --- the loop --------------------------------------------------------------------------

    def run(
        self,
        entries: Iterable[FileEntry],
        handle: Callable[[FileEntry, dict[str, Any]], None],
        cancel: CancelToken,
    ) -> None:
        """Read every entry; ``handle(entry, row)`` gets each documents row as it comes, in
        this thread. Raises ScanCancelled (after killing every worker) when ``cancel`` is set."""
        queue: deque[FileEntry] = deque(entries)
        if not queue:
            return
        crashes: dict[str, int] = {}
        wanted = min(self.n_workers, len(queue))
        try:
            while queue or any(w.entry is not None for w in self._workers):
                cancel.raise_if_cancelled()
                while len(self._workers) < min(wanted, len(queue) + self._busy()):
                    self._spawn()
                for worker in self._workers:
                    if worker.ready and queue:
                        self._send_batch(worker, queue)
                self._wait(self._poll_timeout())
                cancel.raise_if_cancelled()
                self._collect(queue, crashes, handle)
        finally:
            self.close()

    def _send_batch(self, worker: _Worker, queue: deque[FileEntry]) -> None:
        """Send ``worker`` its next files, in one message: when it is idle, or when what it
        holds behind the file it reads now is at most a batch (the next batch goes ahead) and
        there are files enough for every worker. A batch holds at most BATCH_FILES files and
        BATCH_BYTES (a large file goes alone), and fewer as the queue runs out (a share of what
        is left), so that the workers end together: none holds the last files while another
        is idle."""
        if worker.sent and (
            len(queue) < len(self._workers)
            or len(worker.sent) > BATCH_FILES
            or sum(e.size for e in islice(worker.sent, 1, None)) > BATCH_BYTES
        ):
            return
        most = min(BATCH_FILES, max(1, len(queue) // (2 * len(self._workers))))
        batch = [queue.popleft()]
        size = batch[0].size
        while queue and len(batch) < most and size + queue[0].size <= BATCH_BYTES:
            size += queue[0].size
            batch.append(queue.popleft())
        batch = [self._prepared(e) for e in batch]
        try:
            worker.conn.send(batch)
        except (OSError, ValueError):  # died: its sentinel says so below
            queue.extendleft(reversed(batch))
            return
        if not worker.sent:
            worker.started = worker.file_started = time.monotonic()
            worker.page, worker.pages = None, 0
        worker.sent.extend(batch)

    def _prepared(self, entry: FileEntry) -> FileEntry:
        return entry if self.prepare is None else self.prepare(entry)

    @staticmethod
    def _requeue_rest(worker: _Worker, queue: deque[FileEntry]) -> None:
        """The files sent to ``worker`` after the one it reads now, back at the front of the
        queue in their order: it will not read them (it is being replaced)."""
        for _ in range(len(worker.sent) - 1):
            queue.appendleft(worker.sent.pop())

    def _busy(self) -> int:
        return sum(1 for w in self._workers if w.sent)

    def _poll_timeout(self) -> float:
        now = time.monotonic()
        timeout = _POLL_S
        for w in self._workers:
            if w.entry is not None:
                timeout = min(timeout, max(0.0, w.started + self.budget.seconds - now))
        return timeout

    def _wait(self, timeout: float) -> None:
        """Until a worker sends something or ends, or ``timeout`` seconds pass; records which
        pipes have something to read (None: ask each pipe)."""
        self._readable = None
        if not hasattr(select, "poll"):  # Windows: wait() waits on the handles
            handles: list[Any] = []
            for w in self._workers:
                handles.append(w.conn)
                handles.append(w.proc.sentinel)
            multiprocessing.connection.wait(handles, timeout)
            return
        # One poll object for as long as the workers stay the same: connection.wait() builds a
        # selector and registers every handle anew on each call, twice per file read, which
        # cost the scanning process more than reading the results.
        fds = tuple(fd for w in self._workers for fd in (w.conn.fileno(), w.proc.sentinel))
        if self._poller is None or fds != self._polled:
            self._poller = select.poll()
            for fd in fds:
                self._poller.register(fd, select.POLLIN)
            self._polled = fds
        self._readable = {fd for fd, _ in self._poller.poll(math.ceil(timeout * 1000))}

    def _collect(
        self,
        queue: deque[FileEntry],
        crashes: dict[str, int],
        handle: Callable[[FileEntry, dict[str, Any]], None],
    ) -> None:
        now = time.monotonic()
        for worker in list(self._workers):
            message: Any = None
            dead = False
            try:
                if (
                    worker.conn.fileno() in self._readable
                    if self._readable is not None
                    else worker.conn.poll()
                ):
                    message = worker.conn.recv()
            except (EOFError, OSError):
                dead = True
            if message == "ready":
                worker.ready = True
                self._started_any = True
                self._start_failures = 0
                continue
            if isinstance(message, tuple) and message[0] == "pages" and worker.entry is not None:
                worker.pages = max(worker.pages, message[1])  # a PDF's, then its text's
                continue
            if isinstance(message, tuple) and message[0] == "page" and worker.entry is not None:
                worker.page = (message[1], message[2])
                worker.started = now  # this OCR page's own time budget starts
                if self.on_page is not None:
                    self.on_page(worker.entry, message[1], message[2])
                continue
            if isinstance(message, dict):
                retire = message.pop("retire", False)
                if retire:  # it ends without reading the files sent after this one
                    self._requeue_rest(worker, queue)
                entry = worker.sent.popleft()
                worker.started = worker.file_started = time.monotonic()
                worker.page, worker.pages = None, 0
                handle(entry, message)
                if retire:
                    self._replace(worker)
                continue
            # Asking a process for its exit code waits on its sentinel through a new selector:
            # only when the poll saw the sentinel (it ended), or when there was no poll.
            ended = self._readable is None or worker.proc.sentinel in self._readable
            if dead or (ended and worker.proc.exitcode is not None):
                self._on_death(worker, queue, crashes, handle)
            elif worker.entry is not None and (
                now - worker.started >= (limit := self._time_for(worker))
                or (
                    worker.page is not None
                    and now - worker.file_started >= self.budget.ocr_file_seconds
                )
            ):
                entry, page = worker.entry, worker.page
                log.warning("reading %s took longer than %g s", entry.path, limit)
                self._requeue_rest(worker, queue)
                self._replace(worker)
                if page is None:
                    reason = self.budget.time_reason(worker.pages)
                else:
                    whole = now - worker.started < self.budget.seconds
                    reason = self.budget.ocr_time_reason(page[0], page[1], whole)
                handle(entry, problem_row(entry, reason))

    def _time_for(self, worker: _Worker) -> float:
        """How long the file (or the OCR page) ``worker`` reads may take."""
        return self.budget.seconds if worker.page else self.budget.for_pages(worker.pages)

    def _on_death(
        self,
        worker: _Worker,
        queue: deque[FileEntry],
        crashes: dict[str, int],
        handle: Callable[[FileEntry, dict[str, Any]], None],
    ) -> None:
        entry = worker.entry
        self._requeue_rest(worker, queue)  # not their fault: it never started them
        worker.proc.join(timeout=0.5)
        exitcode = worker.proc.exitcode
        self._replace(worker)
        if not worker.ready:
            self._start_failures += 1
            if not self._started_any and self._start_failures >= _MAX_START_FAILURES:
                raise DedupError(
                    f"reader processes cannot start here (exit code {exitcode}); see the log"
                )
            return
        if entry is None:
            return
        crashes[entry.path] = crashes.get(entry.path, 0) + 1
        if crashes[entry.path] >= _MAX_CRASHES:
            log.error("worker process died on %s (exit code %s)", entry.path, exitcode)
            handle(entry, problem_row(entry, CRASHED))
        else:  # maybe not this file's fault (the system's OOM killer): once more
            queue.appendleft(entry)


def read_files(
    entries: list[FileEntry],
    handle: Callable[[FileEntry, dict[str, Any]], None],
    cancel: CancelToken,
    *,
    reusable: frozenset[str],
    n_workers: int,
    budget: Budget,
    analyse: Callable[[FileEntry], dict[str, Any]] | None = None,
    ocr: ocr_mod.OcrOptions | None = None,
    on_page: Callable[[FileEntry, int, int], None] | None = None,
    prepare: Callable[[FileEntry], FileEntry] | None = None,
) -> None:
    """Read ``entries`` in worker processes (see the module doc); always in workers, even for
    one file, so that every file has the same limits. ``analyse``: what a worker runs per file
    (None: the readers, pipeline.analyse_file; tests give others); ``ocr``: how the workers OCR
    scanned PDF pages; ``on_page(entry, page, pages)``: a worker started OCR page ``page`` of
    ``pages``; ``prepare(entry)``: the entry as sent to a worker (it may say which copies were
    read)."""
    ReaderPool(n_workers, reusable, budget, analyse, ocr, on_page, prepare).run(
        entries, handle, cancel
    )


def _helper_main(
    conn: multiprocessing.connection.Connection, function: Callable[..., Any], parent: int
) -> None:
    """A helper's process: answers each message (the arguments of ``function``) in order,
    until told to stop (None) or the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the helped process's to handle
    from desktop_dedup.core import pipeline

    pipeline._exit_with_parent(parent)
    while True:
        try:
            args = conn.recv()
        except (EOFError, OSError):
            return
        if args is None:
            return
        try:
            answer: Any = ("ok", function(*args))
        except Exception as exc:
            log.exception("a helper process failed")
            answer = ("failed", f"{type(exc).__name__}: {exc}")
        conn.send(answer)


class Helper:
    """One process beside this one that runs a function on the arguments it is sent, for
    pure CPU work split in pieces (grouping's verification of candidate pairs). Calls never
    wait: a thread of this process sends them (the first may carry megabytes, which the pipe
    takes only as fast as the new process reads them); their answers come back in order."""

    def __init__(self, proc: Any, conn: multiprocessing.connection.Connection) -> None:
        self._proc, self._conn = proc, conn
        self._outbox: queue.SimpleQueue[tuple[Any, ...] | None] = queue.SimpleQueue()
        self._send_failed: str | None = None
        self._sender = threading.Thread(target=self._send_all, name="helper-sender", daemon=True)
        self._sender.start()

    def _send_all(self) -> None:
        while True:
            args = self._outbox.get()
            try:
                self._conn.send(args)
            except (OSError, ValueError) as exc:  # it ended: the next answer says so
                self._send_failed = str(exc)
                return
            if args is None:
                return

    def call(self, *args: Any) -> None:
        if self._send_failed is not None:
            raise HelperGone(self._send_failed)
        self._outbox.put(args)

    def _answer(self) -> Any:
        try:
            status, value = self._conn.recv()
        except (EOFError, OSError) as exc:
            raise HelperGone("the helper process ended") from exc
        if status != "ok":
            raise HelperGone(value)
        return value

    def ready_answers(self) -> list[Any]:
        """The answers that have come back, without waiting."""
        out = []
        try:
            while self._conn.poll():
                out.append(self._answer())
        except (OSError, ValueError) as exc:
            raise HelperGone(str(exc)) from exc
        return out

    def next_answer(self) -> Any:
        """The next answer, waiting for it."""
        return self._answer()

    def close(self) -> None:
        self._outbox.put(None)  # the helper's process ends once it reads this
        self._proc.join(timeout=1.0)
        if self._proc.exitcode is None:  # still working on a call nobody waits for
            self._proc.kill()
            self._proc.join(timeout=1.0)
        self._sender.join(timeout=1.0)  # its pipe's reader is gone: it cannot block now
        self._conn.close()


@contextmanager
def helper_process(function: Callable[..., Any]) -> Iterator[Helper | None]:
    """A :class:`Helper` running ``function`` (a top-level function: it is sent by name),
    forked by the fork server as a reader is, so it starts in milliseconds with numpy and the
    readers' modules loaded; None where there is no fork server (a new interpreter would cost
    more than the work it takes over), where no scan has started it yet (starting it would
    cost the same), or where the process cannot start."""
    ctx = _context()
    if ctx.get_start_method() != "forkserver" or not fork_server_started():
        yield None
        return
    try:
        proc, conn = _start_process(
            ctx, _helper_main, (function, os.getpid()), "desktop-dedup-helper"
        )
    except OSError:
        log.warning("could not start a helper process", exc_info=True)
        yield None
        return
    helper = Helper(proc, conn)
    try:
        yield helper
    finally:
        helper.close()
