"""Benchmark: adding 1,000 new documents to an index of 1,000,000, matched incrementally
through the SQL indexes, beside a full regroup of the same index in the same run.

Why: issue 13 asks that after a scan that adds n documents those n are looked up through the
block columns (and the key table) and merged into the existing groups, all fingerprints being
reloaded only when matching settings change; target < 1 s for 1,000 new among 1,000,000.

The index is written straight into SQLite (as bench_lookup does): every document a long text
(no candidate keys) with a random simhash and a sketch of 128 values; 5,000 near-duplicate
pairs already grouped. The 1,000 new documents: 500 near copies of stored ones (1..3 bits, 8 of
128 sketch values changed) and 500 unrelated.
Run: ``.venv/bin/python -m tests.bench.bench_incremental [N]``
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from desktop_dedup.core.fingerprint import FINGERPRINT_VERSION  # noqa: E402
from desktop_dedup.core.grouping import split_blocks  # noqa: E402
from desktop_dedup.core.service import DedupService  # noqa: E402
from desktop_dedup.core.sketch import TextSketch  # noqa: E402

_NO_WORDS = np.empty(0, dtype=np.uint64)
_NO_VOCAB = np.empty(0, dtype=np.uint8)

N = 1_000_000
PAIRS = 5_000
NEW = 1_000
TARGET_S = 1.0
_COLUMNS = (
    "path", "size", "mtime_ns", "content_hash", "text_hash", "simhash", "b0", "b1", "b2", "b3",
    "token_count", "text_chars", "format", "status", "error", "fp_version", "sketch",
    "shingles",
)  # fmt: skip


def sketch(values: np.ndarray) -> bytes:
    return TextSketch(np.sort(values), 5000, _NO_WORDS, _NO_VOCAB).to_bytes()


def near(values: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    out = values.copy()
    out[rng.choice(128, 8, replace=False)] = rng.integers(0, 2**63, 8, dtype=np.int64).astype(
        np.uint64
    )
    return out


def flip(simhash: int, rng: np.random.Generator) -> int:
    u = simhash & ((1 << 64) - 1)
    for bit in rng.choice(64, int(rng.integers(1, 4)), replace=False):
        u ^= 1 << int(bit)
    return u - (1 << 64) if u >= 1 << 63 else u


def row(i: int, simhash: int, values: np.ndarray) -> tuple:
    b = split_blocks(simhash)
    return (
        f"/bench/d{i // 1000:04d}/doc{i:07d}.txt", 1000, 1_700_000_000_000_000_000 + i,
        f"{i:032x}", f"{i:032x}", simhash, *b, 100, 1000, "txt", "ok", None,
        FINGERPRINT_VERSION, sketch(values), 5000,
    )  # fmt: skip


def build(db: Path, n: int, rng: np.random.Generator) -> tuple[list[int], list[np.ndarray]]:
    with DedupService(db):
        pass  # creates the schema
    import sqlite3

    sims = rng.integers(-(2**63), 2**63, n, dtype=np.int64).tolist()
    base_values = [rng.integers(0, 2**63, 128, dtype=np.int64).astype(np.uint64) for _ in range(64)]
    con = sqlite3.connect(db)
    sql = f"INSERT INTO documents ({', '.join(_COLUMNS)}) VALUES ({', '.join('?' * len(_COLUMNS))})"
    batch = []
    values_of = []
    for i in range(n):
        if i >= n - PAIRS:  # a near copy of document i - (n - PAIRS)
            src = i - (n - PAIRS)
            sims[i] = flip(sims[src], rng)
            values = near(values_of[src], rng)
        else:
            values = base_values[i % 64] ^ np.uint64(i * 0x9E3779B97F4A7C15 % (1 << 63))
        if i < PAIRS:
            values_of.append(values)
        batch.append(row(i, sims[i], values))
        if len(batch) == 20_000:
            con.executemany(sql, batch)
            con.commit()
            batch = []
    if batch:
        con.executemany(sql, batch)
    con.execute("ANALYZE")
    con.commit()
    con.close()
    return sims, values_of


def main() -> list[str]:
    rng = np.random.default_rng(20261122)
    with tempfile.TemporaryDirectory(prefix="bench_incr_") as tmp:
        db = Path(tmp) / "index.sqlite"
        t = time.perf_counter()
        sims, values_of = build(db, N, rng)
        print(
            f"incremental: {N:,} documents written in {time.perf_counter() - t:.0f} s (not timed)"
        )
        with DedupService(db) as svc:
            t = time.perf_counter()
            groups = svc.regroup()
            full_s = time.perf_counter() - t
            print(f"  full regroup of {N:,} (baseline): {full_s:.2f} s, {groups:,} groups")
            rows = []
            for j in range(NEW):
                i = N + j
                if j % 2 == 0:
                    src = int(rng.integers(PAIRS))
                    sim, values = flip(sims[src], rng), near(values_of[src], rng)
                else:
                    sim = int(rng.integers(-(2**63), 2**63, dtype=np.int64))
                    values = rng.integers(0, 2**63, 128, dtype=np.int64).astype(np.uint64)
                r = dict(zip(_COLUMNS, row(i, sim, values), strict=True))
                for c in ("b0", "b1", "b2", "b3"):
                    r.pop(c)
                rows.append(r)
            svc.store.upsert_documents(rows)
            new_ids = svc.store.ids_by_path(r["path"] for r in rows)
            t = time.perf_counter()
            after = svc.regroup(changed=new_ids)
            incr_s = time.perf_counter() - t
            grouped = len(svc.store.groups_of(new_ids))
        print(
            f"  {NEW:,} new documents merged through the indexes: {incr_s:.2f} s "
            f"(target < {TARGET_S} s; {full_s / incr_s:.0f}x faster than the full regroup); "
            f"{grouped} of the {NEW // 2} near copies grouped, {after:,} groups"
        )
    misses = []
    if incr_s >= TARGET_S:
        misses.append(f"incremental {incr_s:.2f} s >= {TARGET_S} s")
    if grouped < NEW // 2:
        misses.append(f"{NEW // 2 - grouped} near copies not grouped")
    return misses


if __name__ == "__main__":
    if len(sys.argv) > 1:
        N = int(sys.argv[1])
    sys.exit(1 if main() else 0)
