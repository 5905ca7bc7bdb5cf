"""A per-file worker function that changes a file on disk just before it is extracted (after
it was listed and hashed), for tests of files that change during a scan. Runs in the scan's
worker processes, which import this module by name (tests/support is on their sys.path)."""

from __future__ import annotations

import os
from pathlib import Path

from desktop_dedup.core import pipeline


def _grow(path: Path) -> None:
    with open(path, "a", encoding="utf-8") as f:
        f.write("\n新加的一段文字，在扫描的同时写入。\n")


#: file name -> what happens to it between hashing and extraction
HOOKS = {"gone.txt": Path.unlink, "moving.txt": _grow}


def analyse_with_fault(entry):
    original = pipeline.extract_text

    def extract(path, ext=None):
        hook = HOOKS.get(os.path.basename(path))
        if hook is not None:
            hook(Path(path))
        return original(path, ext)

    pipeline.extract_text = extract
    try:
        return pipeline.analyse_file(entry)
    finally:
        pipeline.extract_text = original
