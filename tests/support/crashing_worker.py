"""A per-file worker function that really kills its process, for testing pool recovery.

Spawned worker processes import this module by name (tests/ is on their sys.path), so it must
stay a plain top-level function.
"""

from __future__ import annotations

import os
import signal

from desktop_dedup.core import pipeline


def analyse_or_crash(entry):
    if os.path.basename(entry.path).startswith("crash"):
        os.kill(os.getpid(), signal.SIGSEGV)  # what a parser bug in native code does
    return pipeline.analyse_file(entry)


def always_crash(entry):
    os.kill(os.getpid(), signal.SIGSEGV)


def report_collector(entry):
    """The state of the reader's collector, as the file's problem (the scan records it)."""
    import gc

    from desktop_dedup.core.rows import problem_row

    on, aside = gc.isenabled(), gc.get_freeze_count() > 0
    return problem_row(entry, f"collector on: {on}, loaded modules set aside: {aside}")
