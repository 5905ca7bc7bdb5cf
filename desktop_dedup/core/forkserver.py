"""The fork server that scan workers are forked from (see core/workers.py), startable from a
module that imports nothing heavy: ``desktop-dedup scan`` starts it first thing, so that the
server loads the readers, the segmenter and the IDF table (about 0.45 s) on one core while the
command loads the store and the grouping (about 0.5 s) on the other, instead of after them.
The command forks it from itself (:func:`prestart` with ``fork``); the app, whose threads make
a fork unsafe, starts it as a new interpreter, as multiprocessing does."""

from __future__ import annotations

import logging
import multiprocessing
import multiprocessing.context
import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

log = logging.getLogger(__name__)
_ENVIRONMENT = threading.Lock()

PRELOAD = ["desktop_dedup.core._worker_preload"]


def context() -> multiprocessing.context.BaseContext:
    """The multiprocessing context scan workers start in: the fork server where there is one,
    else "spawn"."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(PRELOAD)  # only takes effect before the server starts
        return ctx
    return multiprocessing.get_context("spawn")


@contextmanager
def safe_path() -> Iterator[None]:
    """While a reader's process (or the fork server) starts: Python started by multiprocessing
    (``python -c ...``) puts the working directory first on its module path, and Python 3.11's
    fork server never applies the command's own path, so a scan run from a folder holding a
    ``numpy.py``, an ``xxhash.py`` or a ``desktop_dedup`` package imported those instead of its
    own (running code from the folder being scanned, or another version's readers). With
    PYTHONSAFEPATH set, the new interpreter leaves the working directory out; it is set only
    while such a process starts, not for the programs this one runs otherwise."""
    with _ENVIRONMENT:
        before = os.environ.get("PYTHONSAFEPATH")
        os.environ["PYTHONSAFEPATH"] = "1"
        try:
            yield
        finally:
            if before is None:
                del os.environ["PYTHONSAFEPATH"]
            else:
                os.environ["PYTHONSAFEPATH"] = before


def prestart(*, fork: bool = False) -> None:
    """Start the fork server now, so that it loads the readers while the caller does other
    work; a no-op where there is none or it already runs.

    ``fork``: the caller is a program at its very start, with one thread and nothing heavy
    loaded (``desktop-dedup scan`` before it parses its options). The server is then forked
    from it instead of started as a new interpreter (:func:`_fork_server`): it begins loading
    the readers at once, without an interpreter's start-up and multiprocessing's imports of its
    own, and its module path is the command's. Where that cannot be done, it is started as
    usual."""
    global _started
    if _started:  # this process started it: a server that ended meanwhile is started again
        return  # when a reader is (multiprocessing checks then), not here
    ctx = context()
    if ctx.get_start_method() == "forkserver":
        from multiprocessing import forkserver

        try:
            if not (fork and _fork_server()):
                with safe_path():
                    forkserver.ensure_running()
        except OSError:  # the engine falls back to errors at start time
            log.debug("could not start the fork server", exc_info=True)
        else:
            _started = True


# The entry point of the fork server that _fork_server knows (Python 3.11 to 3.13): it takes
# the listening socket's fd, the "alive" pipe's read end and the modules to preload, and its
# client keeps the address, the pipe's write end and the pid in three fields. Python 3.14's
# also takes an authentication key, which its client then asks for: that server, or any other
# than this one, is started as multiprocessing starts it.
_KNOWN_ENTRY = ("listener_fd", "alive_r", "preload", "main_path", "sys_path")


def _known_server(forkserver: Any) -> bool:
    import inspect

    try:
        entry = tuple(inspect.signature(forkserver.main).parameters)
    except (AttributeError, TypeError, ValueError):
        return False
    server = getattr(forkserver, "_forkserver", None)
    fields = ("_lock", "_forkserver_address", "_forkserver_alive_fd", "_forkserver_pid")
    return (
        entry == _KNOWN_ENTRY
        and all(hasattr(server, f) for f in fields)
        and not hasattr(server, "_forkserver_authkey")
    )


def _fork_server() -> bool:
    """Fork the fork server from this process, as ``ForkServer.ensure_running`` would start it
    (the same listening socket and "alive" pipe, the same entry point and preload), and record
    it where multiprocessing looks for its server. False, having done nothing, where this
    Python's fork server is not one it knows (_KNOWN_ENTRY), or this process has other threads
    (a fork copies only the calling thread: a lock another one holds would stay held in the
    server)."""
    if not hasattr(os, "fork") or threading.active_count() != 1:
        return False
    import socket
    from multiprocessing import connection, forkserver, util

    if not _known_server(forkserver):
        return False
    server = forkserver._forkserver
    with server._lock:
        if server._forkserver_pid is not None:  # already running (or started by another way)
            return True
        with socket.socket(socket.AF_UNIX) as listener:
            address = connection.arbitrary_address("AF_UNIX")
            listener.bind(address)
            if not util.is_abstract_socket_namespace(address):
                os.chmod(address, 0o600)
            listener.listen()
            # every client process holds the write end: when all are gone, the server ends
            alive_r, alive_w = os.pipe()
            for stream in (sys.stdout, sys.stderr):  # nothing buffered is written twice
                try:
                    stream.flush()
                except (AttributeError, OSError, ValueError):  # none, or closed
                    pass
            try:
                pid = os.fork()
            except OSError:
                os.close(alive_r)
                os.close(alive_w)
                raise
            if pid == 0:  # the server: it never returns into the command
                code = 1
                try:
                    # Ctrl-C is the command's to handle (the server ignores it once it runs,
                    # and so do the readers): not a traceback of an interrupted preload
                    signal.signal(signal.SIGINT, signal.SIG_IGN)
                    os.close(alive_w)  # else it would hold its own pipe open, and never end
                    forkserver.main(listener.fileno(), alive_r, PRELOAD)
                except SystemExit:  # its clients are gone
                    code = 0
                finally:
                    os._exit(code)
            os.close(alive_r)
        server._preload_modules = list(PRELOAD)
        server._forkserver_address = address
        server._forkserver_alive_fd = alive_w
        server._forkserver_pid = pid
    _without_resource_tracker()
    return True


def _without_resource_tracker() -> None:
    """Give multiprocessing's resource tracker a stand-in: a scan's processes share nothing
    but pipes (no named semaphore, no shared memory block that could outlive them), so there
    is nothing for it to clean up. Started with the first reader, the tracker was a new
    interpreter (0.05-0.06 s of a core), which held the command's standard error open until
    it ended, after the command: a caller reading the output through a pipe (a script, the
    benchmark) waited for it. Its messages go to the null device instead. Left alone where
    this Python's tracker is not one this knows, or one already runs."""
    from multiprocessing import resource_tracker

    tracker = getattr(resource_tracker, "_resource_tracker", None)
    if not all(hasattr(tracker, f) for f in ("_lock", "_fd", "_pid", "_check_alive")):
        return
    with tracker._lock:
        if tracker._fd is None:
            tracker._fd = os.open(os.devnull, os.O_WRONLY | os.O_CLOEXEC)
            tracker._pid = None


def remove_socket_folder() -> None:
    """Remove the folder multiprocessing made in the temporary folder for this process's
    sockets (the fork server's listens there), if it made one. Its exit handler removes it
    when an interpreter exits; a program that ends with ``os._exit`` (cli._exit_now) calls
    this first, once nothing will start another process: each scan from the command line left
    a ``pymp-*`` folder behind. The folder is multiprocessing's own record of it
    (util.get_temp_dir), left alone where this Python keeps none."""
    process = sys.modules.get("multiprocessing.process")
    if process is None:  # no process was ever started: nothing was made
        return
    config = getattr(process.current_process(), "_config", None)
    folder = config.get("tempdir") if isinstance(config, dict) else None
    if isinstance(folder, str) and os.path.basename(folder).startswith("pymp-"):
        import shutil

        shutil.rmtree(folder, ignore_errors=True)


# Whether prestart started the fork server in this process (a scan did): only then is a
# process forked in milliseconds, with the readers' modules loaded. Before any scan (the app
# regrouping at another threshold as it opens), starting the server would cost more than a
# helper process saves.
_started = False


def started() -> bool:
    """Whether this process's fork server was started by :func:`prestart` (a scan)."""
    return _started
