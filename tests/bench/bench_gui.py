"""Benchmark for the desktop app: first screen with 100,000 groups, and a 1 MB diff on screen.

Run: ``QT_QPA_PLATFORM=offscreen .venv/bin/python tests/bench/bench_gui.py`` (or via
``python -m tests.bench``). Builds a database with 100,000 groups (200,000 documents) through
the store's own bulk paths (``upsert_documents`` + ``replace_groups``, the same calls a scan
makes), then measures, median of 5 runs each:

* lazy: open a service on that database, build the main window (which loads the first page of
  groups, the first group's members and its diff) and show it, until events are processed;
* baseline: the same groups model but non-lazy (one page holding every group), measured in the
  same run on the same database.

Also: a 1 MB Chinese text vs an edited copy, diffed and rendered by the diff view.
"""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from PySide6.QtCore import QSettings  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from desktop_dedup.core.grouping import BuiltGroup, GroupMember  # noqa: E402

N_GROUPS = 100_000
RUNS = 5


def build_database(db_path: Path, n_groups: int = N_GROUPS) -> float:
    """200,000 documents in 100,000 two-member groups, written with the store's bulk calls."""
    from desktop_dedup.core.store import Store

    start = time.perf_counter()
    store = Store(db_path)
    rows = []
    base_ns = 1_700_000_000 * 10**9
    for g in range(n_groups):
        for copy in range(2):
            rows.append(
                {
                    "path": f"/library/folder{g % 500:03d}/copy{copy}/document-{g:06d}.txt",
                    "size": 1000 + (g * 37) % 50_000,
                    "mtime_ns": base_ns + g * 1000 + copy,
                    "content_hash": f"{g:016x}{copy:016x}",
                    "text_hash": f"{g:032x}",
                    "simhash": (g * 0x9E3779B97F4A7C15) % (1 << 63),
                    "token_count": 400,
                    "text_chars": 2000,
                    "format": "txt",
                    "status": "ok",
                    "error": None,
                    "fp_version": 1,
                    "last_seen_scan": None,
                }
            )
    store.upsert_documents(rows)
    ids = {path: doc_id for doc_id, path in store.paths_under(["/library"])}
    sizes, paths, groups = {}, {}, []
    for g in range(n_groups):
        members = []
        for copy in range(2):
            row = rows[2 * g + copy]
            doc_id = ids[row["path"]]
            sizes[doc_id] = row["size"]
            paths[doc_id] = row["path"]
            members.append(GroupMember(doc_id, 0, 1.0))
        groups.append(BuiltGroup("same_text", members[0].doc_id, members))
    store.replace_groups(groups, sizes, paths)
    store.close()
    return time.perf_counter() - start


def first_screen_seconds(db_path: Path, settings_path: Path, lazy: bool) -> tuple[float, int]:
    from desktop_dedup.core.service import DedupService
    from desktop_dedup.gui.main_window import MainWindow
    from desktop_dedup.gui.models.groups import PAGE_SIZE

    app = QApplication.instance()
    page_size = PAGE_SIZE if lazy else N_GROUPS * 2
    start = time.perf_counter()
    service = DedupService(db_path)
    settings = QSettings(str(settings_path), QSettings.Format.IniFormat)
    window = MainWindow(service, settings=settings, page_size=page_size)
    window.show()
    app.processEvents()
    elapsed = time.perf_counter() - start
    loaded = window.groups_model.loaded
    window.close()
    window.deleteLater()
    app.processEvents()
    service.close()
    return elapsed, loaded


def diff_seconds() -> float:
    import docgen

    from desktop_dedup.core.diff import diff_texts
    from desktop_dedup.gui.diff_view import DiffView

    text = docgen.SAMPLE_ZH
    a_lines = []
    while sum(len(s.encode()) for s in a_lines) < 1_000_000:
        a_lines.extend(text.splitlines())
    b_lines = list(a_lines)
    for i in range(0, len(b_lines), 37):
        b_lines[i] = b_lines[i].replace("的", "地", 1)
    a, b = "\n".join(a_lines), "\n".join(b_lines)
    view = DiffView()
    view.resize(1400, 900)
    view.show()
    start = time.perf_counter()
    view.show_result(diff_texts(a, b), "a", "b")
    QApplication.instance().processEvents()
    elapsed = time.perf_counter() - start
    view.close()
    return elapsed


def main() -> list[str]:
    """Prints the figures; returns the targets missed (first screen and 1 MB diff < 1 s)."""
    misses = []
    app = QApplication.instance() or QApplication([])
    app.setOrganizationName("desktop_dedup-bench")
    app.setApplicationName("desktop_dedup-bench")
    with tempfile.TemporaryDirectory() as tmp:
        os.environ.setdefault("DESKTOP_DEDUP_HOME", str(Path(tmp) / "home"))
        db_path = Path(tmp) / "bench.sqlite3"
        build = build_database(db_path)
        print(f"bench_gui: built {N_GROUPS:,} groups / {2 * N_GROUPS:,} documents in {build:.1f} s")
        settings_path = Path(tmp) / "window.ini"
        lazy_times, baseline_times = [], []
        lazy_loaded = baseline_loaded = 0
        for _ in range(RUNS):
            t, lazy_loaded = first_screen_seconds(db_path, settings_path, lazy=True)
            lazy_times.append(t)
        for _ in range(RUNS):
            t, baseline_loaded = first_screen_seconds(db_path, settings_path, lazy=False)
            baseline_times.append(t)
        lazy = statistics.median(lazy_times)
        baseline = statistics.median(baseline_times)
        print(
            f"bench_gui: first screen, {N_GROUPS:,} groups: lazy median {lazy * 1000:.0f} ms "
            f"({lazy_loaded} rows loaded), non-lazy baseline median {baseline * 1000:.0f} ms "
            f"({baseline_loaded} rows), baseline/lazy = {baseline / lazy:.1f}x "
            f"(target < 1000 ms: {'OK' if lazy < 1.0 else 'MISSED'})"
        )
        if lazy >= 1.0:
            misses.append(f"first screen {lazy * 1000:.0f} ms >= 1000 ms")
    diffs = [diff_seconds() for _ in range(RUNS)]
    diff_median = statistics.median(diffs)
    print(f"bench_gui: 1 MB Chinese diff computed + rendered: median {diff_median:.3f} s")
    if diff_median >= 1.0:
        misses.append(f"1 MB diff {diff_median:.2f} s >= 1 s")
    return misses


if __name__ == "__main__":
    raise SystemExit(1 if main() else 0)
