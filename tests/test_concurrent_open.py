"""Several processes opening one fresh database at once all succeed (issue 7 case 9: one of two
failed with a raw SQL error in 2 of 20 runs)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

OPEN = (
    "import sys, time\n"
    "from desktop_dedup.core.store import Store\n"
    "start = float(sys.argv[2])\n"
    "while time.time() < start: pass\n"
    "Store(sys.argv[1]).close()\n"
)


def test_processes_opening_a_fresh_database_at_once_all_succeed(tmp_path: Path):
    import time

    for run in range(4):
        db = tmp_path / f"fresh{run}.sqlite"
        start = str(time.time() + 1.5)  # all of them start importing first, then race
        procs = [
            subprocess.Popen(
                [sys.executable, "-c", OPEN, str(db), start],
                stderr=subprocess.PIPE,
                text=True,
            )
            for _ in range(6)
        ]
        errors = [p.communicate(timeout=120)[1] for p in procs]
        assert [p.returncode for p in procs] == [0] * 6, "\n".join(e for e in errors if e)
