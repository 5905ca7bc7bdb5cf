"""Benchmark: a first scan of a mail merge's letters, end to end, and the grouping of them with
and without families (grouping._certified_family, grouping._split_family), same run.

Why: a folder of letters made from one template (each its own name and address) is a family
whose every pair is a candidate: complete linkage verified each pair, and 2,000 letters took a
scan 117 s and 750 MB, 5,000 would have taken about 12 minutes. A sender's two letters (a
renewal and a reminder, 77 % the same text) to the same people are one family of candidates
but two groups: 1,000 took 26 s. README quotes what this prints.

* ``desktop-dedup scan`` of n letters of one template, and of n letters of two, into a fresh
  database: wall time and the peak memory of the scan's process;
* the baseline, same run: the grouping of the 1,000-letter indexes again, with families and
  with every pair verified one by one (``FAMILY_MIN_CLASSES`` past any family), each in a
  process of its own, with the groups each made compared;
* copies of a long page, each with six names of its own in it (a contract for each client):
  their sketches are samples, so they are verified pair by pair. A scan of 1,000 copies of
  the first 1,700 words of the GPL, and their grouping again with each pair's check for
  swapped words made word by word (as the build before did) and as it is now (one test of
  every salient word's Bloom bits at once, none for two documents that repeat the same words
  as often, counts side by side for two that repeat the same words), with the groups each
  made compared.

Medians of 3 runs; the machine has 2 noisy cores.
Run: ``.venv/bin/python -m tests.bench.bench_families``
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
RUNS = 3
SIZES = (1_000, 2_000, 5_000)
BASELINE_SIZE = 1_000

FIRST = (
    "James Mary Robert Patricia John Jennifer Michael Linda David Elizabeth William Barbara "
    "Richard Susan Joseph Jessica Thomas Sarah Charles Karen Daniel Lisa Matthew Nancy Anthony "
    "Betty Mark Sandra"
).split()
LAST = (
    "Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez Lopez "
    "Gonzalez Wilson Anderson Thomas Taylor Moore Jackson Martin Lee Perez Thompson White Harris"
).split()
STREETS = "Pine Oak Maple Cedar Elm Spruce Birch Walnut Willow Ash Chestnut Poplar".split()
OPENING = (
    "Thank you for your continued membership of the Riverside Community Library. We are writing to "
)
RENEWAL = (
    "let you know that your annual membership will renew next month. Members enjoy unlimited "
    "loans, access to our digital collection, free entry to author evenings and the children's "
    "reading club, and discounts at the library cafe. If your contact details have changed, "
    "please let us know at the front desk or by replying to this letter. "
)
REMINDER = (
    "remind you that some of the items you borrowed are now overdue. Please return them as "
    "soon as you can, or renew them online or at the front desk. Members enjoy unlimited "
    "loans, access to our digital collection, free entry to author evenings and the children's "
    "reading club, and discounts at the library cafe. "
)
CLOSING = (
    "We look forward to seeing you at the library again soon, and we hope you enjoy the new "
    "reading room on the first floor."
)


def write_letters(folder: Path, n: int, kinds: int, seed: int = 7) -> None:
    """``n`` letters, of one template (``kinds`` 1) or of two taking turns (2)."""
    folder.mkdir(parents=True)
    rnd = random.Random(seed)
    for i in range(n):
        name = f"{rnd.choice(FIRST)} {rnd.choice(LAST)}"
        body = OPENING + (REMINDER if kinds == 2 and i % 2 == 0 else RENEWAL) + CLOSING
        address = f"{rnd.randint(1, 400)} {rnd.choice(STREETS)} Street, Riverside"
        (folder / f"letter{i:05d}.txt").write_text(
            f"Dear {name},\n\n{body}\n\nYour membership address: {address}.\n\n"
            "With best wishes,\nThe Riverside Community Library team\n",
            encoding="utf-8",
        )


# Runs a command and prints its wall time and its process tree's peak memory (ru_maxrss of the
# children of a process that ran nothing else).
_MEASURED = """
import json, resource, subprocess, sys, time
t = time.perf_counter()
subprocess.run(sys.argv[1:], check=True, capture_output=True)
wall = time.perf_counter() - t
print(json.dumps([wall, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024]))
"""

# Groups an index again, in this process, with families or with every pair verified.
_REGROUP = """
import json, resource, sys, time
from pathlib import Path
from desktop_dedup.core import grouping
from desktop_dedup.core.service import DedupService
if sys.argv[2] == "pairwise":
    grouping.FAMILY_MIN_CLASSES = 10**9
if sys.argv[2] == "word-by-word":  # each salient word looked up alone, no profile compared
    from desktop_dedup.core import sketch
    sketch.TextSketch.lacks_salient_of = lambda self, other: any(
        self.lacks_one_of((m,)) for m in other.salient_masks
    )
    sketch.TextSketch.salient_profile = property(lambda self: id(self))
    sketch.TextSketch.salient_by_word = property(lambda self: (id(self), (), ()))
built = []
real = grouping.build_groups
def kept(*a, **k):
    out = real(*a, **k)
    built.append(sorted(sorted(m.doc_id for m in g.members) for g in out))
    return out
grouping.build_groups = kept
with DedupService(Path(sys.argv[1])) as svc:
    t = time.perf_counter()
    svc.regroup()
    wall = time.perf_counter() - t
print(json.dumps([wall, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, built[-1]]))
"""


LONG_PAGE = Path("/usr/share/common-licenses/GPL-3")  # Debian's and Ubuntu's base files
LONG_WORDS = 1_700
LONG_COPIES = 1_000


def write_copies(folder: Path, n: int, seed: int = 7) -> None:
    """``n`` copies of the first LONG_WORDS words of LONG_PAGE, six words of each replaced by
    a name of its own."""
    folder.mkdir(parents=True)
    words = LONG_PAGE.read_text(encoding="utf-8").split()[:LONG_WORDS]
    rnd = random.Random(seed)
    for i in range(n):
        copy = list(words)
        for _ in range(6):
            copy[rnd.randrange(len(copy))] = f"{rnd.choice(FIRST)} {rnd.choice(LAST)}"
        (folder / f"copy{i:05d}.txt").write_text(" ".join(copy), encoding="utf-8")


def _answer(script: str, args: list[str], env: dict[str, str]) -> list:
    """What ``script`` printed last as JSON, run as a new Python process with ``args``."""
    out = subprocess.run(
        [sys.executable, "-c", script, *args],
        check=True,
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env,
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def measured(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    wall, peak = _answer(_MEASURED, cmd, env)
    return wall, peak


def regrouped(db: Path, how: str, env: dict[str, str]) -> tuple[float, float, list]:
    wall, peak, groups = _answer(_REGROUP, [str(db), how], env)
    return wall, peak, groups


def main() -> list[str]:
    misses: list[str] = []
    with tempfile.TemporaryDirectory(prefix="bench_families_") as tmp:
        root = Path(tmp)
        env = {**os.environ, "DESKTOP_DEDUP_HOME": str(root / "profile")}
        print("families: a first scan of n form letters (one template, or two taking turns)")
        for kinds in (1, 2):
            for n in SIZES:
                folder = root / f"letters{kinds}-{n}"
                write_letters(folder, n, kinds)
                runs = []
                for run in range(RUNS):
                    db = root / f"l{kinds}-{n}-{run}.sqlite"
                    cmd = [sys.executable, "-m", "desktop_dedup", "scan", str(folder)]
                    runs.append(measured([*cmd, "--db", str(db), "--quiet"], env))
                wall = statistics.median(r[0] for r in runs)
                peak = statistics.median(r[1] for r in runs)
                print(
                    f"  {n:>5,} letters, {kinds} template(s): {wall:.2f} s, {peak:.0f} MB "
                    f"(runs {', '.join(f'{r[0]:.2f}' for r in runs)} s)"
                )
        print(f"baseline, same run: grouping the {BASELINE_SIZE:,}-letter indexes again")
        for kinds in (1, 2):
            db = root / f"l{kinds}-{BASELINE_SIZE}-0.sqlite"
            fam = regrouped(db, "families", env)
            pair = regrouped(db, "pairwise", env)
            same = fam[2] == pair[2]
            print(
                f"  {kinds} template(s): with families {fam[0]:.2f} s, {fam[1]:.0f} MB; "
                f"every pair verified {pair[0]:.2f} s, {pair[1]:.0f} MB "
                f"({pair[0] / fam[0]:.0f}x); the same groups: {same} ({len(fam[2])} groups)"
            )
            if not same:
                misses.append(f"{kinds} template(s): other groups than every pair verified")
        if LONG_PAGE.exists():
            folder = root / "copies"
            write_copies(folder, LONG_COPIES)
            db = root / "copies.sqlite"
            cmd = [sys.executable, "-m", "desktop_dedup", "scan", str(folder), "--db", str(db)]
            wall, peak = measured([*cmd, "--quiet"], env)
            print(
                f"copies of a long page ({LONG_WORDS:,} words, six names each): a scan of "
                f"{LONG_COPIES:,} {wall:.2f} s, {peak:.0f} MB; grouping them again:"
            )
            now = [regrouped(db, "families", env) for _ in range(RUNS)]
            before = [regrouped(db, "word-by-word", env) for _ in range(RUNS)]
            n_wall = statistics.median(r[0] for r in now)
            b_wall = statistics.median(r[0] for r in before)
            same = all(r[2] == now[0][2] for r in now + before)
            print(
                f"  now {n_wall:.2f} s; swaps checked word by word (as the build before) "
                f"{b_wall:.2f} s ({b_wall / n_wall:.1f}x); the same groups: {same} "
                f"({len(now[0][2])} groups)"
            )
            if not same:
                misses.append("copies of a long page: other groups than word by word")
        else:
            print(f"copies of a long page: skipped ({LONG_PAGE} is not on this machine)")
    return misses


if __name__ == "__main__":
    sys.exit(1 if main() else 0)
