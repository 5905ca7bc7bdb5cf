"""Per-file worker functions that record what the scan's worker processes do, for tests that
must see inside them (a monkeypatch in the test process does not reach a worker). They import
this module by name (tests/support is on their sys.path).

What is recorded goes to ``reader-calls.log`` / ``extract-calls.log`` in the nearest folder
above the file that holds one (the test creates it outside the scanned tree).
"""

from __future__ import annotations

import os

from desktop_dedup.core import fingerprint, pipeline, rows


def _record(path: str, log_name: str) -> None:
    folder = os.path.dirname(path)
    while True:
        log = os.path.join(folder, log_name)
        if os.path.exists(log):
            with open(log, "a", encoding="utf-8") as f:
                f.write(path + "\n")
            return
        parent = os.path.dirname(folder)
        if parent == folder:
            return
        folder = parent


def read_and_record(entry):
    """Every file a worker is given."""
    _record(entry.path, "reader-calls.log")
    return pipeline.analyse_file(entry)


def read_and_record_extractions(entry):
    """Every file whose text a worker extracts (not the ones whose fingerprint is reused)."""
    original = pipeline.extract_text

    def extract(path, ext=None):
        _record(os.fspath(path), "extract-calls.log")
        return original(path, ext)

    pipeline.extract_text = extract
    try:
        return pipeline.analyse_file(entry)
    finally:
        pipeline.extract_text = original


def read_as_next_version(entry):
    """Read as a release with the next fingerprint version would (its rows, and the rows of
    the files it reuses or cannot read, all carry it)."""
    pipeline.FINGERPRINT_VERSION = rows.FINGERPRINT_VERSION = fingerprint.FINGERPRINT_VERSION + 1
    return pipeline.analyse_file(entry)
