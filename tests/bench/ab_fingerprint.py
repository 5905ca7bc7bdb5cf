"""The fingerprint of another revision against the working tree's, text by text in one process.

Why: on the development machine the same fingerprinting of half the public corpora took
2.08-3.17 s over twelve runs in ten minutes, so a change of a few percent cannot be told from
the noise by timing two builds one after the other, and instruction counts (callgrind) are not
time either: counting a document's tokens by id took 6 % off the fingerprint's instructions
and 0-2 % off its time. Here each text is fingerprinted by both versions one after the other
(the order alternating from text to text), so both see the same moment of the machine, and
their totals compare to about a percent. It also says on how many texts the two fingerprints
differ: a change meant to be faster must give the same fingerprints (else it bumps
rows.FINGERPRINT_VERSION).

Only ``core/fingerprint.py`` and ``core/sketch.py`` (the sketch the fingerprint makes) are
taken from the other revision, the revision's fingerprint made with the revision's sketch; the
other modules it imports (text, the tables) are the working tree's, so the revision must be
recent enough to run with them. A first pass runs in a new process (each reader's situation:
its token tables and line memory fill as it reads), a second over the same texts after it.

Run: ``.venv/bin/python -m tests.bench.ab_fingerprint [REV] [RUNS]`` (default HEAD, 3 runs,
each in a new process; medians).
"""

from __future__ import annotations

import importlib.util
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from tests.bench.bench_small_files import FOLDERS  # the same texts as the small-files bench

REPO = Path(__file__).resolve().parents[2]


def corpus_texts() -> list[str]:
    """The extracted text of every file of both public corpora, in path order."""
    from desktop_dedup.core.extract import extract_text

    files = [p for f in FOLDERS for p in sorted(f.rglob("*")) if p.is_file()]
    return [extract_text(str(p), p.suffix[1:].lower()).text for p in files]


# What is taken from the other revision, in the order they are loaded: each module loaded
# after another sees the revision's copy of it where it imports it.
SWAPPED = ("sketch", "fingerprint")


def module_at(rev: str | None, folder: Path):
    """``core/fingerprint.py`` as it is at ``rev`` (None: in the working tree), loaded as a
    module of its own, with ``core/sketch.py`` as it is there (SWAPPED)."""
    loaded: dict[str, Any] = {}
    for name in SWAPPED:
        relative = f"desktop_dedup/core/{name}.py"
        if rev is None:
            source = (REPO / relative).read_bytes()
        else:
            source = subprocess.run(
                ["git", "show", f"{rev}:{relative}"], cwd=REPO, capture_output=True, check=True
            ).stdout
        path = folder / f"{name}_at_rev.py"
        path.write_bytes(source)
        spec = importlib.util.spec_from_file_location(f"{name}_at_rev", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # dataclasses look their module up by name
        # while it loads, the modules loaded before it are the revision's where it imports them
        real = {f"desktop_dedup.core.{n}": sys.modules[f"desktop_dedup.core.{n}"] for n in loaded}
        sys.modules.update({f"desktop_dedup.core.{n}": m for n, m in loaded.items()})
        try:
            spec.loader.exec_module(module)
        finally:
            sys.modules.update(real)
        loaded[name] = module
    return loaded[SWAPPED[-1]]


def run(rev: str | None, texts: list[str]) -> dict[str, float | int]:
    """Fingerprint ``texts`` with ``rev``'s module and the working tree's, interleaved: two
    passes (the first in this process's new tables), seconds each, and how many texts got
    different fingerprints."""
    from desktop_dedup.core import fingerprint as ours
    from desktop_dedup.core import pipeline

    pipeline.warm_up()
    with tempfile.TemporaryDirectory(prefix="ab_fingerprint_") as tmp:
        theirs = module_at(rev, Path(tmp))
        theirs.fingerprint_text("预热：這是一段繁體中文，and some English words.")
        out: dict[str, float | int] = {"texts": len(texts), "differ": 0}
        for name in ("first", "second"):
            spent = {"rev": 0.0, "tree": 0.0}
            for i, text in enumerate(texts):
                pair = [("rev", theirs), ("tree", ours)]
                got = {}
                for key, module in pair if i % 2 else pair[::-1]:
                    start = time.perf_counter()
                    got[key] = module.fingerprint_text(text)
                    spent[key] += time.perf_counter() - start
                if name == "first":
                    # field by field: each module has a Fingerprint class of its own
                    fields = ours.Fingerprint.__slots__
                    rev_fp, tree_fp = (
                        tuple(getattr(got[k], f) for f in fields) for k in ("rev", "tree")
                    )
                    out["differ"] += rev_fp != tree_fp
            out[f"{name}_rev"], out[f"{name}_tree"] = spent["rev"], spent["tree"]
    return out


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    rev = args[0] if args else "HEAD"
    runs = int(args[1]) if len(args) > 1 else 3
    results = []
    for _ in range(runs):  # each in a new process: the first pass is a reader's first reading
        done = subprocess.run(
            [sys.executable, "-m", "tests.bench.ab_fingerprint", "--one", rev],
            cwd=REPO,
            capture_output=True,
            text=True,
            check=True,
        )
        results.append(json.loads(done.stdout.strip().splitlines()[-1]))
    first = results[0]
    print(f"fingerprint of {rev} against the working tree, {first['texts']:,} texts, {runs} runs")
    for name in ("first", "second"):
        rev_s = statistics.median(r[f"{name}_rev"] for r in results)
        tree_s = statistics.median(r[f"{name}_tree"] for r in results)
        change = 100 * (tree_s / rev_s - 1)
        print(f"  {name} pass: {rev} {rev_s:.3f} s, working tree {tree_s:.3f} s ({change:+.1f} %)")
    differ = max(r["differ"] for r in results)
    print(f"  texts whose fingerprints differ: {differ}")
    return 1 if differ else 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--one"]:
        print(json.dumps(run(sys.argv[2], corpus_texts())))
        sys.exit(0)
    sys.exit(main())
