"""Per-file worker functions that misbehave on purpose, for tests of the scan engine's budgets.

Worker processes import this module by name (tests/support is on their sys.path), so these stay
plain top-level functions. A file whose name starts with "stuck" never finishes (its worker
writes its pid next to it first, so a test can tell when it is stuck and check it was killed);
one whose name starts with "hog" allocates far more memory than any budget in the tests.
"""

from __future__ import annotations

import os
import time

from desktop_dedup.core import pipeline


def hang_or_read(entry):
    name = os.path.basename(entry.path)
    if name.startswith("stuck"):
        pid_file = os.path.join(os.path.dirname(entry.path), f".{name}.pid")
        with open(pid_file + ".tmp", "w") as f:
            f.write(str(os.getpid()))
        os.replace(pid_file + ".tmp", pid_file)
        while True:  # a parser looping forever
            time.sleep(0.05)
    return pipeline.analyse_file(entry)


def read_slowly(entry):
    """Read each file as a slow disk or a large file would: 30 ms more a file, so that a
    display that redraws a few times a second shows files being read."""
    time.sleep(0.03)
    return pipeline.analyse_file(entry)


def hog_or_read(entry):
    if os.path.basename(entry.path).startswith("hog"):
        chunks = []
        for _ in range(64):  # up to 4 GiB, touched so it is real memory
            chunks.append(bytearray(64 * 1024 * 1024))
    return pipeline.analyse_file(entry)


def read_in_half_a_second(entry):
    """Each file takes half a second: a batch of them takes longer than a budget that each
    file keeps (tests/test_reader_batches.py)."""
    time.sleep(0.5)
    return pipeline.analyse_file(entry)
