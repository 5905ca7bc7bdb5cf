"""Benchmark: what each hostile file of issue 7 costs the worker that reads it, beside the limits.

Why: issue 7 found readers that hung (1,000,000 nested divs: killed after 590 s; a 2 MB line of
"**a " in Markdown: hours) or blew up memory (a DOCX whose member declares 10 KB and inflates to
1 GiB: 2.27 GB; a 250 MB document.xml: 4.77 GB; ten 45 MB EPUB chapters: 2.08 GB; a 50 MB
single-line text: 1.99 GB). The target: any single hostile file < 512 MB of peak memory per
worker and < 30 s holding it. Each file here (tests/hostile.py) is read by the real scan engine
(core/workers.py: one worker, the default budgets) and the worker reports, for that file alone,
its peak resident memory (VmHWM) above what it held before the file, and the time the file held
it; a file whose worker was killed shows the budget it hit. The machine has 2 shared cores:
times are noisy. Returns the targets missed.
Run: ``.venv/bin/python -m tests.bench.bench_hostile``
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(TESTS))

import hostile  # noqa: E402

from desktop_dedup.core import forkserver, pipeline, workers  # noqa: E402
from desktop_dedup.core.models import FileEntry  # noqa: E402
from desktop_dedup.core.progress import CancelToken  # noqa: E402

LIMIT_MB, LIMIT_S = 512, 30.0
MB = 1024 * 1024


def _status(field: str) -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    return 0


def _reset_peak() -> None:
    try:  # Linux >= 4.0: writing 5 resets VmHWM to the current RSS
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass


def measured(entry: FileEntry) -> dict:
    """Runs in the worker: analyse one file, and say what it cost."""
    _reset_peak()
    before = _status("VmRSS")
    started = time.perf_counter()
    try:
        row = pipeline.analyse_file(entry)
    finally:
        took = time.perf_counter() - started
    row["bench"] = (took, _status("VmHWM") - before, before)
    return row


CASES = [
    ("1,000,000 nested divs (11 MB HTML)", "nested.html", hostile.write_nested_html),
    ('2 MB Markdown line of "**a "', "bold.md", lambda p: hostile.write_markdown_line(p)),
    ('2 MB Markdown line of "[a]("', "links.md", lambda p: hostile.write_markdown_line(p, "[a](")),
    ("DOCX, member declares 10 KB, inflates to 1 GiB", "bomb.docx", hostile.write_docx_bomb),
    ("DOCX with a 250 MB document.xml", "body.docx", hostile.write_docx_huge_body),
    ("EPUB of ten 45 MB chapters", "chapters.epub", hostile.write_epub_huge_chapters),
    ("50 MB single-line text", "line.txt", hostile.write_long_line),
]


def main() -> list[str]:
    budget = workers.Budget()
    print(
        f"hostile files, one worker each, budgets {budget.seconds:g} s and "
        f"{budget.memory_mb} MB (target: < {LIMIT_MB} MB peak, < {LIMIT_S:g} s per file)"
    )
    print(f"  load average before: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    misses = []
    forkserver.prestart()
    with tempfile.TemporaryDirectory(prefix="bench_hostile_") as tmp:
        for label, name, write in CASES:
            path = write(Path(tmp) / name)
            st = path.stat()
            entry = FileEntry(path=str(path), size=st.st_size, mtime_ns=st.st_mtime_ns,
                              ext=path.suffix.lstrip("."))  # fmt: skip
            got: dict = {}
            started = time.perf_counter()
            workers.read_files(
                [entry],
                lambda e, row, got=got: got.update(row),
                CancelToken(),
                reusable=frozenset(),
                n_workers=1,
                budget=budget,
                analyse=measured,
            )
            wall = time.perf_counter() - started
            took, peak, idle = got.get("bench", (wall, 0, 0))
            outcome = (
                got.get("error") or f"read ({got.get('status')}, {got.get('token_count')} tokens)"
            )
            print(
                f"  {label:48} {took:6.2f} s  peak +{peak / MB:6.1f} MB "
                f"(idle worker {idle / MB:.0f} MB)  -> {outcome}"
            )
            if peak >= LIMIT_MB * MB:
                misses.append(f"{label}: {peak / MB:.0f} MB")
            if took >= LIMIT_S:
                misses.append(f"{label}: {took:.0f} s")
            path.unlink()
    return misses


if __name__ == "__main__":
    sys.exit(1 if main() else 0)
