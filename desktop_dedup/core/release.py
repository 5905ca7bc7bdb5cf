"""Freeing large collections without holding up other threads.

Freeing a million objects in one go (a list or dict going out of scope after a regroup of
200,000 documents) is one C call that holds the GIL for about 0.1 s, and the app's GUI thread
waits that long for it. Emptied a slice at a time, the interpreter lets other threads run
between slices.
"""

from __future__ import annotations

import itertools
from typing import Any

SLICE = 4096


def drop_gradually(*collections: Any) -> None:
    """Empty each list or dict in ``collections`` a slice at a time (others are left alone)."""
    for c in collections:
        if isinstance(c, list):
            while c:
                del c[-SLICE:]
        elif isinstance(c, dict):
            while c:
                for key in list(itertools.islice(c, SLICE)):
                    del c[key]
