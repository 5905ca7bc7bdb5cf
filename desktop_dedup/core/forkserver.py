"""The fork server that scan workers are forked from (see core/workers.py), startable from a
module that imports nothing heavy: ``desktop-dedup scan`` starts it first thing, so that the
server loads the readers, the segmenter and the IDF table (about 0.45 s) on one core while the
command loads the store and the grouping (about 0.5 s) on the other, instead of after them."""

from __future__ import annotations

import logging
import multiprocessing
import multiprocessing.context
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager

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


def prestart() -> None:
    """Start the fork server now, so that it loads the readers while the caller does other
    work; a no-op where there is none or it already runs."""
    ctx = context()
    if ctx.get_start_method() == "forkserver":
        from multiprocessing import forkserver

        try:
            with safe_path():
                forkserver.ensure_running()
        except OSError:  # the engine falls back to errors at start time
            log.debug("could not start the fork server", exc_info=True)
        else:
            global _started
            _started = True


# Whether prestart started the fork server in this process (a scan did): only then is a
# process forked in milliseconds, with the readers' modules loaded. Before any scan (the app
# regrouping at another threshold as it opens), starting the server would cost more than a
# helper process saves.
_started = False


def started() -> bool:
    """Whether this process's fork server was started by :func:`prestart` (a scan)."""
    return _started
