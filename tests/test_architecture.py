"""The core never imports Qt; the CLI works without it (ARCHITECTURE.md)."""

from __future__ import annotations

import subprocess
import sys


def test_core_service_and_cli_do_not_import_qt():
    code = (
        "import sys\n"
        "import desktop_dedup.core.service, desktop_dedup.cli\n"
        "import desktop_dedup.core.pipeline, desktop_dedup.core.report, desktop_dedup.core.diff\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6'))\n"
        "print(bad)\n"
        "sys.exit(1 if bad else 0)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_gui_and_cli_do_not_import_each_other():
    code = (
        "import sys\n"
        "import desktop_dedup.cli\n"
        "assert 'desktop_dedup.gui' not in sys.modules, 'cli imported gui at import time'\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_numpy_starts_no_blas_threads_in_our_processes():
    """numpy's OpenBLAS started a spinning thread per core at import, a tenth of a CPU second
    of every scan's start-up taken from the other process starting beside it; nothing here
    uses BLAS. A user's own OPENBLAS_NUM_THREADS is kept."""
    import os

    code = (
        "import os\n"
        "import desktop_dedup.core.service\n"
        "print(os.environ['OPENBLAS_NUM_THREADS'], len(os.listdir('/proc/self/task')))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    mine = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert mine.returncode == 0, mine.stderr
    assert mine.stdout.split() == ["1", "1"]  # one thread: numpy's only
    users = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**env, "OPENBLAS_NUM_THREADS": "3"},
    )
    assert users.stdout.split()[0] == "3"


def test_a_scan_on_an_index_file_loads_no_server_dialect_orm_nor_reader_in_its_process(tmp_path):
    """SQLAlchemy's PostgreSQL dialect took 20 ms of every command's start-up, the part of a
    scan that runs on one core, the plain-text reader's encoding detector 12 ms, the ORM with
    the schema mapped as its classes 0.2-0.4 s, and the readers' own modules (pipeline,
    fingerprint, text, extract) a tenth of a second: an index file needs only SQLite's dialect
    and SQLAlchemy Core (store/schema.py), and the readers load in the fork server."""
    code = (
        "import sys\n"
        "from desktop_dedup.core.service import DedupService\n"
        f"with DedupService({str(tmp_path / 'index.sqlite')!r}) as s:\n"
        f"    s.add_folder({str(tmp_path)!r}); s.scan()\n"
        "libraries = ('psycopg', 'chardet', 'pypdfium2', 'lxml', 'selectolax', 'rjieba')\n"
        "readers = ('pipeline', 'fingerprint', 'text', 'extract')\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in libraries\n"
        "             or 'postgresql' in m or m.startswith('sqlalchemy.orm')\n"
        "             or m.split('.')[:3] in [['desktop_dedup', 'core', r] for r in readers]))\n"
    )
    (tmp_path / "a.txt").write_text("床前明月光，疑是地上霜。举头望明月，低头思故乡。", "utf-8")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


def test_a_scans_grouping_does_not_load_numpy_ma(tmp_path):
    """np.unique of a plain call (and np.union1d) loads numpy.ma on first use: 16 ms of the
    scan's last step, grouping, which runs on one core after the readers are done. Documents
    too short for a simhash and documents that share one make grouping join the two lists."""
    code = (
        "import sys\n"
        "from desktop_dedup.core.service import DedupService\n"
        f"with DedupService({str(tmp_path / 'index.sqlite')!r}) as s:\n"
        f"    s.add_folder({str(tmp_path)!r}); s.scan()\n"
        "    print(len(s.groups()), 'numpy.ma' in sys.modules)\n"
    )
    note = "Milk, eggs and bread for Sunday."
    for i, text in enumerate([note, note + " Also tea.", "Call the plumber on Monday."]):
        (tmp_path / f"note{i}.txt").write_text(text, "utf-8")
    poem = "床前明月光，疑是地上霜。举头望明月，低头思故乡。" * 8
    (tmp_path / "poem.txt").write_text(poem, "utf-8")
    (tmp_path / "poem.md").write_text(poem + "\n", "utf-8")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["2", "False"]  # the notes, the poems
