"""Imported once by the fork server that forks scan workers (see core/workers.py): every
reader library, the segmenter's dictionary and the IDF table are loaded here, once, and each
forked worker starts with them already in memory (shared copy-on-write)."""

from desktop_dedup.core import (
    pipeline,
    workers,  # noqa: F401 - the module a worker's process runs
)

pipeline.warm_up()
