"""The fork server that scan workers are forked from (see core/workers.py), startable from a
module that imports nothing heavy: ``desktop-dedup scan`` starts it first thing, so that the
server loads the readers, the segmenter and the IDF table (about 0.45 s) on one core while the
command loads the store and the grouping (about 0.5 s) on the other, instead of after them."""

from __future__ import annotations

import logging
import multiprocessing
import multiprocessing.context

log = logging.getLogger(__name__)

PRELOAD = ["desktop_dedup.core._worker_preload"]


def context() -> multiprocessing.context.BaseContext:
    """The multiprocessing context scan workers start in: the fork server where there is one,
    else "spawn"."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(PRELOAD)  # only takes effect before the server starts
        return ctx
    return multiprocessing.get_context("spawn")


def prestart() -> None:
    """Start the fork server now, so that it loads the readers while the caller does other
    work; a no-op where there is none or it already runs."""
    ctx = context()
    if ctx.get_start_method() == "forkserver":
        from multiprocessing import forkserver

        try:
            forkserver.ensure_running()
        except OSError:  # the engine falls back to errors at start time
            log.debug("could not start the fork server", exc_info=True)
