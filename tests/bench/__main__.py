"""Run every benchmark: ``.venv/bin/python -m tests.bench`` (or name some: ``... grouping diff``).

Each ``tests/bench/bench_*.py`` module's ``main()`` runs in turn; one failing benchmark is
reported and the others still run. A ``main()`` that returns non-zero missed a target; the
exit status is 1 when any benchmark failed or missed a target.
"""

from __future__ import annotations

import importlib
import sys
import time
import traceback
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    wanted = set(sys.argv[1:] if argv is None else argv)
    here = Path(__file__).resolve().parent
    failed = []
    missed = []
    for path in sorted(here.glob("bench_*.py")):
        name = path.stem
        if wanted and name not in wanted and name.removeprefix("bench_") not in wanted:
            continue
        print(f"=== {name}", flush=True)
        start = time.perf_counter()
        try:
            if importlib.import_module(f"{__package__}.{name}").main():
                missed.append(name)
        except Exception:
            traceback.print_exc()
            failed.append(name)
        print(f"=== {name} done in {time.perf_counter() - start:.1f} s\n", flush=True)
    if failed:
        print("failed: " + ", ".join(failed), file=sys.stderr)
    if missed:
        print("missed a target: " + ", ".join(missed), file=sys.stderr)
    return 1 if failed or missed else 0


if __name__ == "__main__":
    sys.exit(main())
