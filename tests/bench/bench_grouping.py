"""Benchmark: near-pair finding + grouping with verification of 1,000,000 documents with 10,000
planted near-duplicate pairs.

Why: issue 13's target is grouping 1,000,000 with verification in < 3 s and < 1 GB, every
planted pair grouped. Each document carries what the store hands a full regroup: its simhash and
the start of its sketch (header and candidate keys: 16 for the third of the documents short
enough for a noisy simhash; the long others' keys, their first 8 values, are not used in an
index this large, grouping.long_keys_used); full sketches come from a loader, as from the
store, for candidates only. Planted copies are 1..3 bits from their
original and share ~90 % of its shingles; every other document is unrelated. The work runs in
a fresh child process so ``ru_maxrss`` is this benchmark's own peak, not that of whatever ran
before it (``python -m tests.bench`` runs all benchmarks in one process). Figures are medians
of 3 runs; the machine has 2 noisy cores.

Run: ``.venv/bin/python -m tests.bench.bench_grouping``
"""

from __future__ import annotations

import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from desktop_dedup.core.grouping import (
    GroupingItem,
    build_groups,
    find_near_pairs,
    find_near_value_pairs,
    long_keys_used,
)
from desktop_dedup.core.sketch import (  # noqa: I001
    HEADER_BYTES,
    KEYED_MAX_SHINGLES,
    KEYS_PREFIX_BYTES,
    LONG_KEYS_PREFIX_BYTES,
    TextSketch,
)

_NO_WORDS = np.empty(0, dtype=np.uint64)

N = 1_000_000
PLANTED = 10_000
K = 3
RUNS = 3
BASELINE_N = 20_000
MAX_DISTANCE = 10  # the default candidate radius; candidate_radius() narrows it at this size


def make_fingerprints(n: int, planted: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """n-planted random fingerprints plus ``planted`` copies 1..3 bits from a random one."""
    rng = np.random.default_rng(seed)
    base = rng.integers(-(2**63), 2**63, size=n - planted, dtype=np.int64)
    src = rng.choice(n - planted, size=planted, replace=False)
    masks = np.zeros(planted, dtype=np.uint64)
    for r in range(planted):
        for bit in rng.choice(64, size=int(rng.integers(1, 4)), replace=False):
            masks[r] |= np.uint64(1) << np.uint64(int(bit))
    copies = (base[src].view(np.uint64) ^ masks).view(np.int64)
    sims = np.concatenate([base, copies])
    pairs = np.stack([src, np.arange(n - planted, n)], axis=1).astype(np.int64)
    return sims, pairs


def shingles(doc: int, source: int | None) -> int:
    """A third of the documents are short (600 shingles, 16 keys), the others long (5,000
    shingles, 8 keys: sketch.candidate_keys)."""
    return 600 if (source if source is not None else doc) % 3 == 0 else 5000


def sketch_bytes(doc: int, source: int | None) -> bytes:
    """A full sketch: 128 random values (a planted copy: its source's with 8 replaced), its
    size by :func:`shingles`."""
    base = source if source is not None else doc
    values = np.random.default_rng(base).integers(0, 2**63, size=128, dtype=np.int64)
    if source is not None:
        values[np.random.default_rng(doc).choice(128, 8, replace=False)] = np.random.default_rng(
            doc + 10**9
        ).integers(0, 2**63, size=8, dtype=np.int64)
    values = np.sort(values.astype(np.uint64))
    count = shingles(doc, source)
    return TextSketch(values, count, _NO_WORDS, np.zeros(512, dtype=np.uint8)).to_bytes()


def _prefix(raw: bytes, count: int) -> bytes:
    """What the store hands a full regroup: the header and the keys after it; for a long text
    its first values, or the header alone in an index too large for long documents' keys
    (repository.grouping_rows, grouping.long_keys_used)."""
    if count <= KEYED_MAX_SHINGLES:
        return raw[:KEYS_PREFIX_BYTES]
    return raw[: LONG_KEYS_PREFIX_BYTES if long_keys_used(N) else HEADER_BYTES]


def make_items(sims: np.ndarray, sources: dict[int, int]) -> list[GroupingItem]:
    return [
        GroupingItem(
            doc_id=i,
            simhash=s,
            content_hash=f"c{i}",
            text_hash=f"t{i}",
            priority=(i,),
            sketch=_prefix(sketch_bytes(i, sources.get(i)), shingles(i, sources.get(i))),
        )
        for i, s in enumerate(sims.tolist())
    ]


def naive_pairs(sims: np.ndarray, k: int) -> int:
    """Baseline: all-pairs XOR + popcount with numpy, row by row (no index, no dedup)."""
    u = sims.view(np.uint64)
    found = 0
    for i in range(len(u) - 1):
        found += int(np.count_nonzero(np.bitwise_count(u[i + 1 :] ^ u[i]) <= k))
    return found


def child() -> dict:
    sims, planted = make_fingerprints(N, PLANTED, seed=20261122)
    sources = {int(b): int(a) for a, b in planted.tolist()}
    t = time.perf_counter()
    items = make_items(sims, sources)
    items_s = time.perf_counter() - t
    loaded: list[int] = []
    # What the store would read for candidates (an indexed fetch by id): the planted pairs'
    # sketches, made before timing; any other document asked for gets its own.
    stored = {d: sketch_bytes(d, sources.get(d)) for pair in planted.tolist() for d in pair}

    def load(ids: list[int]) -> dict[int, bytes]:
        loaded.append(len(ids))
        return {d: stored.get(d) or sketch_bytes(d, sources.get(d)) for d in ids}

    runs = []
    for _ in range(RUNS):
        t0 = time.perf_counter()
        pairs = find_near_pairs(sims, K)
        t1 = time.perf_counter()
        groups = build_groups(items, 0.75, max_distance=MAX_DISTANCE, load_sketches=load)
        t2 = time.perf_counter()
        runs.append((t1 - t0, t2 - t1, t2 - t0))
    key = pairs[:, 0] * N + pairs[:, 1]
    found = int(np.isin(planted[:, 0] * N + planted[:, 1], key).sum())
    group_of = {}
    for gi, g in enumerate(groups):
        for m in g.members:
            group_of[m.doc_id] = gi
    grouped = sum(
        1 for a, b in planted.tolist() if a in group_of and group_of.get(a) == group_of.get(b)
    )
    # the subset holds 100 planted pairs, so both methods have something to find
    keep = np.r_[planted[:100].ravel(), np.arange(BASELINE_N - 200)]
    sub = sims[np.unique(keep)]
    t = time.perf_counter()
    naive_found = naive_pairs(sub, K)
    naive_s = time.perf_counter() - t
    t = time.perf_counter()
    ours_sub = len(find_near_pairs(sub, K))
    ours_sub_s = time.perf_counter() - t
    sweep = {}
    rng = np.random.default_rng(7)
    sweep_vals = np.unique(rng.integers(-(2**63), 2**63, size=BASELINE_N, dtype=np.int64))
    for k in range(0, 13):
        t = time.perf_counter()
        find_near_value_pairs(sweep_vals, k)
        sweep[k] = time.perf_counter() - t
    return {
        "items_s": items_s,
        "runs": runs,
        "pairs": len(pairs),
        "groups": len(groups),
        "found": found,
        "grouped": grouped,
        "naive_s": naive_s,
        "naive_found": naive_found,
        "ours_sub": ours_sub,
        "ours_sub_s": ours_sub_s,
        "sweep": sweep,
        "maxrss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
        "sketches_loaded": loaded[-1] if loaded else 0,
    }


def main() -> list[str]:
    """Prints the figures; returns the targets missed (the bench runner's exit status)."""
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.run(
        [sys.executable, "-m", "tests.bench.bench_grouping", "--child"],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    )
    r = json.loads(proc.stdout.strip().splitlines()[-1])
    near_s = statistics.median(x[0] for x in r["runs"])
    group_s = statistics.median(x[1] for x in r["runs"])
    extrapolated = r["naive_s"] * (N / BASELINE_N) ** 2
    print(f"grouping: {N:,} fingerprints, {PLANTED:,} planted pairs at distance 1..3, k={K}")
    print(f"  building {N:,} GroupingItem objects (input, not timed): {r['items_s']:.2f} s")
    print(f"  find_near_pairs  median of {RUNS}: {near_s:.2f} s ({r['pairs']:,} pairs)")
    print(
        f"  build_groups (candidates from simhash radius {MAX_DISTANCE} and sketch keys, "
        f"verified at 75 %) median of {RUNS}: {group_s:.2f} s ({r['groups']:,} groups, "
        f"{r['sketches_loaded']:,} sketches loaded) (target < 3 s)"
    )
    print(f"  planted pairs found: {r['found']:,} of {PLANTED:,}; in one group: {r['grouped']:,}")
    print(
        f"  peak memory (ru_maxrss, fresh process, inputs included): "
        f"{r['maxrss_kb'] / 1024:.0f} MB (target < 1 GB)"
    )
    print(
        f"  baseline: naive numpy all-pairs on {BASELINE_N:,}: {r['naive_s']:.2f} s "
        f"({r['naive_found']} pairs; ours {r['ours_sub_s'] * 1000:.0f} ms, {r['ours_sub']} pairs), "
        f"extrapolated to {N:,}: {extrapolated:,.0f} s"
    )
    print(f"  ratio (baseline extrapolated / our find_near_pairs): {extrapolated / near_s:,.0f}x")
    sweep = ", ".join(f"k={k}: {s * 1000:.0f} ms" for k, s in r["sweep"].items())
    print(f"  find_near_value_pairs on {BASELINE_N:,} random values: {sweep}")
    misses = []
    if group_s >= 3.0:
        misses.append(f"grouping with verification {group_s:.2f} s >= 3 s")
    if r["maxrss_kb"] / 1024 >= 1024:
        misses.append(f"peak memory {r['maxrss_kb'] / 1024:.0f} MB >= 1 GB")
    if r["grouped"] < PLANTED:
        misses.append(f"{PLANTED - r['grouped']} planted pairs not grouped")
    return misses


if __name__ == "__main__":
    if "--child" in sys.argv:
        print(json.dumps(child()))
    else:
        main()
