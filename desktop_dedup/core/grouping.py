"""Near-duplicate pairs and duplicate groups from 64-bit simhashes, with no chaining.

Why this module exists: the store hands us one fingerprint per document (a signed 64-bit
simhash, a content hash of the bytes and a hash of the normalised text); the user wants *groups*
they can review, each with one reference copy to keep. Turning pairs into groups naively (union
find) chains: A~B and B~C would put A and C together although they may share little text. This
module builds groups that are cliques instead.

Grouping rules
--------------
* **Text classes.** Documents with equal normalised-text hashes (any format) form one *text
  class*; documents with equal content hashes always share a class, because bytes determine text
  (the text hash of the first such document wins if a stale index disagrees). A class carries
  the *set* of its members' distinct simhashes: same text legitimately fingerprints slightly
  differently, because the simhash sees line structure and punctuation that "same text" ignores
  (public corpus: 14 of 100 same-text pairs differ, one by more than 3 bits). Collapsing a class
  to one value would reject a near copy that is close to the PDF's fingerprint but not the TXT's.
* **Same words.** Text classes whose sketches are the same bytes (the same words in the same
  order, other numbers: monthly invoices of one template, a form's filled-in copies) stand as
  one for candidates and verification (:func:`_same_words`): every verification gives them
  the same answer, and each is verified the same as the others (1.0). Each still keeps its
  own text class for the kind, so such a group is ``near``. 3,000 such invoices were 4.5
  million candidate pairs, each verified: a scan of 58 s and 1.9 GB.
* **Relations.** Two documents are *identical* when their content hashes are equal, *same text*
  when they are in one text class, and *near* when the distance between their classes is at
  most ``k`` bits (``k = max_distance``, 0..12; default 3). The distance between two classes is
  the *minimum* Hamming distance over pairs of their simhashes (0 within one class, and 0 when
  they share a value). Documents too short to fingerprint (``simhash is None``) add no value to
  their class; a class without any value is only matched as identical / same text.
* **No chaining.** Every member of a group is related (identical, same text or near) to *every*
  other member, i.e. every pair of text classes in a group is within ``k`` by the class
  distance. If A~B and B~C but not A~C, A and C are never in one group, even when B's class
  reaches A and C through different members' simhashes.
* **Greedy, deterministic cliques** (after dupeGuru's ``get_groups``): documents are processed in
  reference-priority order; the best document not yet in a group seeds a new group; its
  unassigned neighbours are tried in order of (class distance to the seed, identical before same
  text before near, priority) and each joins if it is related to every current member. A seed
  that gathers nobody stays alone and is not reported.
* **Kind** is the weakest relation among the members: ``identical`` if all content hashes are
  equal, else ``same_text`` if all members are in one text class, else ``near``.
* **Reference** is the member with the smallest ``priority`` (the seed). Each member's distance
  is measured to the reference: 0 for identical / same text, otherwise the class distance between
  its text class and the reference's. Members are listed reference first, then by (distance,
  priority).
* **Ignored pairs** are keyed by content hashes, unordered. Two documents whose content hashes
  form an ignored pair are treated as unrelated, so they never share a group; ignoring a whole
  group means ignoring all of its pairs.
* Groups of one document are not groups. Groups are returned in order of their reference's
  priority.

Pair finding (``find_near_value_pairs``)
----------------------------------------
Exact, each pair once, on unique values. Pigeonhole: if two 64-bit values differ in at most ``k``
bits, then split into ``k + 1`` contiguous blocks at least one block is equal. For each block we
sort by the block, pair values inside each run of equal blocks, keep those within ``k`` bits and
drop a pair if an *earlier* block is also equal (so it is reported exactly once). For ``k <= 3``
this is at least as selective as the store's four 16-bit blocks. The number of candidates is
counted exactly before any pair is made; when checking them would cost more than a chunked,
vectorised brute force (XOR + ``np.bitwise_count`` over all pairs, numpy >= 2; a byte table on
numpy 1.x), the brute force is used instead. A block candidate costs about 9 brute-force pair
checks (measured). Measured on this 2-core machine (tests/bench/bench_grouping.py, medians):
1,000,000 random values at k=3 take 0.5-0.9 s with blocks; on 20,000 random values blocks win up
to k=8 (k=8: ~0.1 s) and k >= 9 falls back to the brute force, ~2 ns per pair (20,000 values:
~0.5 s; 100,000 values: ~10 s), because random 64-bit fingerprints offer no cheap exact filter at
such distances.

Pair finding runs once on the unique simhash values of all documents; value pairs are then
mapped to class pairs keeping the minimum distance. Classes with the same value set are interned
as one *signature*, distances between signatures are cached, and a group tracks the values all
its signatures share, so 20,000 documents with one fingerprint (or 20,000 classes that all hold
one common value) cost O(n) in ``build_groups`` (``find_near_pairs`` must still list their
n*(n-1)/2 pairs, by contract).
"""

from __future__ import annotations

import itertools
import logging
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from operator import attrgetter, itemgetter
from typing import Any, Protocol

import numpy as np

from desktop_dedup.core import sketch as sketch_mod
from desktop_dedup.core.errors import HelperGone
from desktop_dedup.core.models import (
    DEFAULT_CANDIDATE_DISTANCE,
    MAX_SUPPORTED_DISTANCE,
    GroupKind,
    check_similarity,
)
from desktop_dedup.core.release import collection_paused

log = logging.getLogger(__name__)

MASK64 = (1 << 64) - 1
_SIGN = 1 << 63

# Candidate pairs handled per numpy step. Each pair costs ~40 bytes of temporaries, so this
# bounds transient memory to roughly 100 MB whatever the input size.
_CHUNK_PAIRS = 1 << 21

# A candidate pair from the block tables costs about this many brute-force pair comparisons
# (index expansion and gathers are extra work). Measured with tests/bench/bench_grouping.py.
_BLOCK_PAIR_COST = 9.0

_EMPTY_PAIRS = np.empty((0, 3), dtype=np.int64)
_NO_WORDS = np.zeros(0, dtype=np.uint64)

# Expected candidate comparisons the exact radius search may make (see candidate_radius): about
# a third of a second of vectorised work on this 2-core machine (measured: 5.5e7 took 0.9 s).
_CANDIDATE_BUDGET = 2e7

# What a stored grouping holds beyond its groups: 2, the documents close to each group
# (CloseDocument). Part of the grouping key (service.py), so an index grouped before is
# grouped again in full at its next scan.
GROUPS_VERSION = 2

# A key held by more documents than this is a common phrase, not evidence: it proposes nothing.
MAX_KEY_POSTINGS = 100
MIN_SHARED_KEYS = 2

# Verification of the candidate pairs (build_groups) is shared with a helper process when there
# are at least this many: one pair costs 40-100 us, and starting the helper (a fork of the warm
# fork server), sending it the sketches and decoding them there costs some 30-50 ms.
PARALLEL_MIN_PAIRS = 2000
# Pairs per piece of work: the helper takes pieces from the front and this process from the
# back until they meet, so neither waits for the other whatever the pairs cost.
_VERIFY_PIECE = 256
# ... and not when the sketches it would be sent are more than this (bytes): a copy of them in
# a second process would cost more memory than the time it saves is worth.
_HELPER_MAX_BYTES = 256 << 20


class Helper(Protocol):
    """A second process running one function (workers.Helper): calls are sent without
    waiting, answers come back in their order; HelperGone when it ended or failed."""

    def call(self, *args: Any) -> None: ...
    def ready_answers(self) -> list[Any]: ...
    def next_answer(self) -> Any: ...


# Where grouping may run some of its verification: a context manager that yields a helper
# running the function it is given (or None: no such process here), as workers.helper_process.
HelperFactory = Callable[[Callable[..., Any]], AbstractContextManager[Helper | None]]


def hamming(a: int, b: int) -> int:
    """Number of differing bits between two 64-bit fingerprints (signed or unsigned view)."""
    return ((a ^ b) & MASK64).bit_count()


def split_blocks(simhash: int) -> tuple[int, int, int, int]:
    """Four 16-bit blocks of the unsigned 64-bit view, top bits first.

    The store indexes these four columns; two fingerprints within 3 bits share at least one.
    """
    if not -_SIGN <= simhash <= MASK64:
        raise ValueError(f"simhash {simhash} is not a 64-bit value")
    u = simhash & MASK64
    return (u >> 48) & 0xFFFF, (u >> 32) & 0xFFFF, (u >> 16) & 0xFFFF, u & 0xFFFF


# --------------------------------------------------------------------------------------------
# popcount
# --------------------------------------------------------------------------------------------

if hasattr(np, "bitwise_count"):  # numpy >= 2.0

    def _popcount(x: np.ndarray) -> np.ndarray:
        return np.bitwise_count(x)

else:  # pragma: no cover - exercised only with numpy 1.x
    _BYTE_POP = np.array([bin(i).count("1") for i in range(256)], dtype=np.uint8)

    def _popcount(x: np.ndarray) -> np.ndarray:
        b = np.ascontiguousarray(x, dtype=np.uint64).view(np.uint8).reshape(*x.shape, 8)
        return _BYTE_POP[b].sum(axis=-1, dtype=np.uint8)


# --------------------------------------------------------------------------------------------
# pair finding
# --------------------------------------------------------------------------------------------


def _check_distance(max_distance: int) -> int:
    k = int(max_distance)
    if k < 0 or k > 64:
        raise ValueError(f"max_distance must be in 0..64 (supported: 0..{MAX_SUPPORTED_DISTANCE})")
    return k


def _as_uint64(values: np.ndarray) -> np.ndarray:
    arr = np.asarray(values)
    if arr.dtype == np.uint64:
        return np.ascontiguousarray(arr.ravel())
    return np.ascontiguousarray(arr.astype(np.int64, copy=False).ravel()).view(np.uint64)


def _block_layout(k: int) -> list[tuple[int, int]]:
    """(shift, mask) of ``k + 1`` contiguous blocks covering 64 bits, top block first."""
    m = k + 1
    base, extra = divmod(64, m)
    layout = []
    shift = 64
    for i in range(m):
        width = base + 1 if i < extra else base
        shift -= width
        layout.append((shift, (1 << width) - 1))
    return layout


def _block_keys(u: np.ndarray, shift: int, mask: int) -> np.ndarray:
    """One block of every value, in the narrowest dtype so the stable sort can use radix."""
    keys = (u >> np.uint64(shift)) & np.uint64(mask)
    width = mask.bit_length()
    if width <= 8:
        return keys.astype(np.uint8)
    if width <= 16:
        return keys.astype(np.uint16)
    if width <= 32:
        return keys.astype(np.uint32)
    return keys


def _run_ends(sorted_keys: np.ndarray) -> np.ndarray:
    """For each position of a sorted array, the end (exclusive) of its run of equal keys."""
    n = len(sorted_keys)
    starts = np.flatnonzero(np.r_[True, sorted_keys[1:] != sorted_keys[:-1]])
    ends = np.r_[starts[1:], n]
    return np.repeat(ends, ends - starts)


def _pairs_in_runs(run_end: np.ndarray, chunk: int = _CHUNK_PAIRS) -> Iterator[tuple]:
    """Yield (a, b) position arrays for every a < b inside one run, in bounded chunks."""
    n = len(run_end)
    cnt = run_end - np.arange(n, dtype=np.int64) - 1
    pos = np.flatnonzero(cnt > 0)
    if len(pos) == 0:
        return
    cnt = cnt[pos]
    csum = np.cumsum(cnt)
    total = int(csum[-1])
    cuts = np.searchsorted(csum, np.arange(chunk, total, chunk), side="left") + 1
    # (a plain np.unique would also load numpy.ma, 6 ms of a scan's grouping, to ask whether
    # the array is masked)
    bounds = sketch_mod.sorted_unique(np.concatenate(([0], cuts, [len(pos)])))
    for lo, hi in zip(bounds[:-1], bounds[1:], strict=True):
        c = cnt[lo:hi]
        p = pos[lo:hi]
        local_total = int(c.sum())
        a = np.repeat(p, c)
        first = np.cumsum(c) - c
        b = a + 1 + (np.arange(local_total, dtype=np.int64) - np.repeat(first, c))
        yield a, b


def _brute_force(u: np.ndarray, k: int) -> np.ndarray:
    """Exact all-pairs XOR + popcount, chunked by rows so memory stays bounded."""
    n = len(u)
    out = []
    rows = max(1, _CHUNK_PAIRS // max(n, 1))
    for i0 in range(0, n - 1, rows):
        i1 = min(n - 1, i0 + rows)
        d = _popcount(u[i0:i1, None] ^ u[None, i0 + 1 :])
        r, c = np.nonzero(d <= k)
        i = r + i0
        j = c + i0 + 1
        keep = j > i
        i, j = i[keep], j[keep]
        out.append(np.stack([i, j, d[r[keep], c[keep]].astype(np.int64)], axis=1))
    return np.concatenate(out) if out else _EMPTY_PAIRS


def _block_search(
    u: np.ndarray, k: int, layout: list[tuple[int, int]], orders: list[np.ndarray]
) -> np.ndarray:
    out = []
    kk = np.uint8(k)
    for bi, (shift, mask) in enumerate(layout):
        order = orders[bi]
        sv = u[order]
        keys = _block_keys(sv, shift, mask)
        earlier = [np.uint64(m << s) for s, m in layout[:bi]]
        for a, b in _pairs_in_runs(_run_ends(keys)):
            x = sv[a] ^ sv[b]
            d = _popcount(x)
            sel = np.flatnonzero(d <= kk)
            if len(sel) == 0:
                continue
            x = x[sel]
            keep = np.ones(len(sel), dtype=bool)
            for em in earlier:  # reported already by an earlier equal block
                keep &= (x & em) != 0
            sel = sel[keep]
            ia = order[a[sel]]
            ib = order[b[sel]]
            out.append(
                np.stack([np.minimum(ia, ib), np.maximum(ia, ib), d[sel].astype(np.int64)], axis=1)
            )
    return np.concatenate(out) if out else _EMPTY_PAIRS


def _sort_pairs(pairs: np.ndarray) -> np.ndarray:
    if len(pairs) == 0:
        return _EMPTY_PAIRS.copy()
    return pairs[np.lexsort((pairs[:, 1], pairs[:, 0]))]


def find_near_value_pairs(unique_simhashes: np.ndarray, max_distance: int) -> np.ndarray:
    """Pairs of distinct values within ``max_distance`` bits, exactly once, exact.

    ``unique_simhashes`` must hold distinct values (int64 or uint64). Returns an ``(m, 3)`` int64
    array of ``(i, j, distance)`` with ``i < j`` indexing the input and ``0 < distance <= k``,
    sorted by ``(i, j)``. Chooses k+1 pigeonhole blocks or a chunked brute force by counting
    the candidates each would examine (see the module docstring).
    """
    k = _check_distance(max_distance)
    u = _as_uint64(unique_simhashes)
    n = len(u)
    if n < 2 or k == 0:  # distinct values are at least one bit apart
        return _EMPTY_PAIRS.copy()
    all_pairs = n * (n - 1) // 2
    if k >= 32:
        return _sort_pairs(_brute_force(u, k))
    layout = _block_layout(k)
    orders = []
    candidates = 0
    for shift, mask in layout:
        keys = _block_keys(u, shift, mask)
        order = np.argsort(keys, kind="stable")  # radix sort for 8/16-bit keys
        sk = keys[order]
        starts = np.flatnonzero(np.r_[True, sk[1:] != sk[:-1]])
        runs = np.diff(np.r_[starts, n])
        candidates += int((runs * (runs - 1) // 2).sum())
        orders.append(order)
        if candidates * _BLOCK_PAIR_COST > all_pairs:
            break
    if candidates * _BLOCK_PAIR_COST > all_pairs:
        log.debug("near pairs: brute force over %d values (k=%d)", n, k)
        return _sort_pairs(_brute_force(u, k))
    log.debug("near pairs: %d blocks, %d candidates for %d values", len(layout), candidates, n)
    return _sort_pairs(_block_search(u, k, layout, orders))


def find_near_pairs(simhashes: np.ndarray, max_distance: int) -> np.ndarray:
    """All index pairs ``(i, j, distance)``, ``i < j``, within ``max_distance`` bits, each once.

    Equal values are paired at distance 0. Values are deduplicated first so equal fingerprints
    cost no comparisons, but the output itself holds n*(n-1)/2 rows for a value shared by n
    items; grouping therefore uses :func:`find_near_value_pairs` directly. Sorted by (i, j).
    """
    k = _check_distance(max_distance)
    s = np.asarray(simhashes)
    s = s.view(np.int64) if s.dtype == np.uint64 else s.astype(np.int64, copy=False)
    s = s.ravel()
    if len(s) < 2:
        return _EMPTY_PAIRS.copy()
    uniq, inv, cnt = np.unique(s, return_inverse=True, return_counts=True)
    inv = inv.ravel()
    order = np.argsort(inv, kind="stable")  # items grouped by value, ascending index inside
    ends = np.cumsum(cnt)
    starts = ends - cnt
    parts = []
    # equal values: every pair inside a run
    for a, b in _pairs_in_runs(np.repeat(ends, cnt)):
        ia, ib = order[a], order[b]
        parts.append(np.stack([ia, ib, np.zeros(len(a), dtype=np.int64)], axis=1))
    vp = find_near_value_pairs(uniq, k)
    if len(vp):
        c1 = cnt[vp[:, 0]]
        c2 = cnt[vp[:, 1]]
        per = c1 * c2
        r = np.repeat(np.arange(len(vp)), per)
        local = np.arange(int(per.sum()), dtype=np.int64) - np.repeat(np.cumsum(per) - per, per)
        ia = order[starts[vp[r, 0]] + local // c2[r]]
        ib = order[starts[vp[r, 1]] + local % c2[r]]
        parts.append(np.stack([np.minimum(ia, ib), np.maximum(ia, ib), vp[r, 2]], axis=1))
    if not parts:
        return _EMPTY_PAIRS.copy()
    return _sort_pairs(np.concatenate(parts).astype(np.int64, copy=False))


# --------------------------------------------------------------------------------------------
# grouping
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GroupingItem:
    """One document as grouping sees it; ``priority``: smaller sorts first = better reference."""

    doc_id: int
    simhash: int | None  # None: too short for a meaningful simhash
    content_hash: str
    text_hash: str
    priority: tuple[Any, ...]
    sketch: bytes = b""  # sketch.TextSketch of the body's word shingles, serialised


@dataclass(frozen=True, slots=True)
class GroupMember:
    doc_id: int
    distance: int  # simhash bits to the reference; -1 when one of them has no simhash
    similarity: float  # verified share of common text with the reference, 0..1


@dataclass(frozen=True, slots=True)
class CloseDocument:
    """A document in no group that is verified the same as a member of this group, but not as
    every member, so the rule against chaining keeps it out (see :func:`build_groups`)."""

    doc_id: int
    member: int  # the doc id of the member it is closest to
    similarity: float  # its verified share of common text with that member, 0..1


@dataclass(frozen=True, slots=True)
class BuiltGroup:
    """A clique of documents that are all pairwise the same; reference first."""

    kind: str  # a GroupKind value
    reference: int
    members: list[GroupMember]
    # documents close to this group that could not join it, closest first
    close: list[CloseDocument] = field(default_factory=list)


IgnoredPairs = Callable[[str, str], bool] | set[tuple[str, str]] | frozenset[tuple[str, str]]


class _Ignore:
    """Answers "may content hash c join a group holding content hashes G?" cheaply."""

    def __init__(
        self, ignored: IgnoredPairs, content_ids: dict[str, int], names: dict[int, str]
    ) -> None:
        self._fn: Callable[[str, str], bool] | None = None
        self._partners: dict[int, set[int]] = {}
        self._names = names
        self._cache: dict[tuple[int, int], bool] = {}
        if callable(ignored):
            self._fn = ignored
            return
        for pair in ignored:
            a, b = pair
            ia, ib = content_ids.get(a), content_ids.get(b)
            if ia is None or ib is None:
                continue
            self._partners.setdefault(ia, set()).add(ib)
            self._partners.setdefault(ib, set()).add(ia)

    @property
    def active(self) -> bool:
        return self._fn is not None or bool(self._partners)

    def blocks(self, c: int, group_contents: set[int]) -> bool:
        if self._fn is None:
            p = self._partners.get(c)
            return bool(p) and not p.isdisjoint(group_contents)
        for g in group_contents:
            if g == c:
                continue
            key = (c, g) if c <= g else (g, c)
            hit = self._cache.get(key)
            if hit is None:
                a, b = self._names[key[0]], self._names[key[1]]
                hit = bool(self._fn(a, b) or self._fn(b, a))
                self._cache[key] = hit
            if hit:
                return True
        return False


def _class_ids(keys: list[str]) -> np.ndarray:
    """For each key, the index of the first key equal to it: equal strings, equal ids.

    Keys are told apart by their 64-bit hashes, sorted (several times faster than a
    million-entry dict); only the keys whose hash another key shares (byte copies, most of
    them) are grouped, and compared as strings, so that a hash collision splits the class
    instead of calling different files identical. Every key distinct (most of an index) costs
    one sort of the hashes: grouping a million documents spent 0.4 s here with np.unique's
    inverse of both lists, hashes and text hashes, and 0.1 s more finding each class's first."""
    n = len(keys)
    h = np.fromiter(map(hash, keys), dtype=np.int64, count=n).view(np.uint64)
    ids = np.arange(n, dtype=np.int64)
    held = np.sort(h)
    twice = sketch_mod.sorted_unique(held[1:][held[1:] == held[:-1]])
    del held
    if len(twice) == 0:
        return ids
    maybe, found = _among(h, twice)
    shared = maybe[found]  # in order of index
    shared = shared[np.argsort(h[shared], kind="stable")]  # by hash, each run in index order
    by_hash = h[shared]
    starts = np.flatnonzero(np.r_[True, by_hash[1:] != by_hash[:-1]])
    sizes = np.diff(np.r_[starts, len(shared)])
    ids[shared] = np.repeat(shared[starts], sizes)
    # the keys of a run are one string, but where two strings' hashes collide
    split: dict[tuple[int, str], int] = {}
    for d, f in zip(shared.tolist(), ids[shared].tolist(), strict=True):
        if d != f and keys[d] != keys[f]:
            ids[d] = split.setdefault((f, keys[d]), d)
    return ids


def _simhash_array(items: Sequence[GroupingItem]) -> tuple[np.ndarray, np.ndarray]:
    raw = [it.simhash for it in items]
    if None in raw:
        has = np.array([s is not None for s in raw], dtype=bool)
        raw = [0 if s is None else s for s in raw]
    else:
        has = np.ones(len(raw), dtype=bool)
    try:
        sim = np.array(raw, dtype=np.int64)
    except OverflowError:  # unsigned view given: fold into the signed one
        sim = np.array([s - (1 << 64) if s >= _SIGN else s for s in raw], dtype=np.int64)
    return has, sim


def _same_words(
    items: Sequence[GroupingItem],
    tid: np.ndarray,
    classes: np.ndarray,
    sim: np.ndarray,
    has: np.ndarray,
    load_sketches: Callable[[list[int]], dict[int, bytes]] | None,
    threshold: float,
    ignored: IgnoredPairs,
) -> np.ndarray:
    """The text class of each document (``tid``), with those of ``classes`` whose sketches are
    the same bytes made one (each given the smallest of their ids): a sketch is all that
    verification reads of a document, so such classes get the same answer from every
    comparison, and each is verified the same as the other, which is checked once for the set
    (a text of no words has an empty sketch and is the same as nothing). ``tid`` itself when
    none are.

    ``classes``: those that may share a sketch with another (a simhash value held by two
    classes or more; a short text without a simhash, proposed through its keys). One document
    of each stands for it, told apart first by a hash of the start of its sketch (what
    ``items`` carry when ``load_sketches`` is given) and its simhash; only those whose hashes
    meet are read whole.

    Classes holding two contents the user ignored as a pair (``ignored``, as build_groups
    takes it) are not made one: one of the two would be dropped from the group at the end,
    and left alone, where as a class of its own it finds the documents it is the same as."""
    docs_of = np.flatnonzero(np.isin(tid, classes))
    _, first = np.unique(tid[docs_of], return_index=True)  # each class's first document
    reps = docs_of[first]
    # the starts' hashes and the simhash, in C: only documents whose hashes meet are read
    # whole (300,000 short notes: 0.45 s when each was looked at in Python); the whole
    # sketches decide, so a collision of two hashes costs a read, not a merge
    starts = map(attrgetter("sketch"), map(items.__getitem__, reps.tolist()))
    key = np.fromiter(map(hash, starts), dtype=np.int64, count=len(reps)) ^ sim[reps]
    _, where, count = np.unique(key, return_inverse=True, return_counts=True)
    meeting = reps[count[where.ravel()] > 1].tolist()
    if not meeting:
        return tid
    if load_sketches is None:
        whole = {d: items[d].sketch for d in meeting}
    else:
        loaded = load_sketches([items[d].doc_id for d in meeting])
        whole = {d: loaded.get(items[d].doc_id, b"") for d in meeting}
    by_sketch: dict[tuple[int | None, bytes], list[int]] = {}
    for d in meeting:
        by_sketch.setdefault((int(sim[d]) if has[d] else None, whole[d]), []).append(d)
    into: dict[int, int] = {}
    sets = [docs for docs in by_sketch.values() if len(docs) > 1]
    contents: dict[int, set[str]] = {}  # each class's content hashes, where ignoring asks
    if ignored and sets:
        wanted = {int(tid[d]) for docs in sets for d in docs}
        for d in docs_of.tolist():
            if int(tid[d]) in wanted:
                contents.setdefault(int(tid[d]), set()).add(items[d].content_hash)
    for docs in sets:
        sk = sketch_mod.decode(whole[docs[0]])
        if sketch_mod.verified_similarity(sk, sk, threshold) < threshold:
            continue  # no words: the same as nothing, itself included
        if ignored and _holds_ignored_pair(
            set().union(*(contents[int(tid[d])] for d in docs)), ignored
        ):
            continue
        keep = min(int(tid[d]) for d in docs)
        into.update({int(tid[d]): keep for d in docs})
    if not into:
        return tid
    remap = np.arange(int(tid.max()) + 1, dtype=tid.dtype)
    remap[list(into)] = list(into.values())
    return remap[tid]


def _holds_ignored_pair(contents: set[str], ignored: IgnoredPairs) -> bool:
    """Whether two of ``contents`` (content hashes) are a pair the user ignored."""
    if callable(ignored):
        return any(ignored(a, b) or ignored(b, a) for a, b in itertools.combinations(contents, 2))
    return any(a != b and a in contents and b in contents for a, b in ignored)


def _key_record(width: int) -> np.dtype:
    """A sketch's header and the ``width`` bytes of candidate keys after it, as a record."""
    return np.dtype(
        [
            ("fmt", "u1"),
            ("count", "<u4"),
            ("n_values", "<u2"),
            ("n_salient", "<u2"),
            ("n_keys", "u1"),
            ("flags", "<u2"),
            ("keys", "<u8", (width - sketch_mod.HEADER_BYTES) // 8),
        ]
    )


# A short or medium document's keys (up to twice CANDIDATE_KEYS, stored after the header), and
# a long one's (its first values, sketch.candidate_keys): each read with the record of its
# width, so a million long documents do not cost the width of the short ones' keys.
_KEY_RECORD = _key_record(sketch_mod.KEYS_PREFIX_BYTES)
_LONG_KEY_RECORD = _key_record(sketch_mod.LONG_KEYS_PREFIX_BYTES)


def _records(raw: list[bytes], record: np.dtype) -> np.ndarray:
    width = record.itemsize
    if set(map(len, raw)) == {width}:  # what the store hands a full regroup
        buf = b"".join(raw)
    else:  # whole or short sketches: cut or padded
        buf = b"".join(r[:width].ljust(width, b"\0") for r in raw)
    return np.frombuffer(buf, dtype=record)


# An edge key (sketch.edge_keys) proposes pairs only while at most this many classes hold it,
# as an edge key or a candidate key: a note's lines are held by its few copies, a signature by
# every mail of its sender (50 mails of each of 18 senders: 19,677 pairs to verify instead of
# 657, had edge keys proposed as candidate keys do); fewer than the texts of the index that
# make a line boilerplate (sketch.BOILERPLATE_MIN_TEXTS).
EDGE_KEY_POSTINGS = sketch_mod.BOILERPLATE_MIN_TEXTS - 1


def _edge_key_codes(
    keys: np.ndarray, key_cls: np.ndarray, key_edge: np.ndarray, m: int
) -> list[np.ndarray]:
    """The pairs of classes, as codes (a * m + b, a < b), that share a key which one of them
    holds as an edge key and at most EDGE_KEY_POSTINGS classes hold in all, one code for each
    such key (``keys``, ``key_cls``: _candidate_keys' flat arrays, of the keys held twice or
    more; ``key_edge``: which are edge keys)."""
    mine = sketch_mod.in_sorted(keys, sketch_mod.sorted_unique(keys[key_edge]))
    k, c, e = keys[mine], key_cls[mine], key_edge[mine]
    order = np.lexsort((e, c, k))  # a class that holds a key both ways: as a candidate key
    k, c, e = k[order], c[order], e[order]
    fresh = np.r_[True, (k[1:] != k[:-1]) | (c[1:] != c[:-1])]
    k, c, e = k[fresh], c[fresh], e[fresh]
    run_end = _run_ends(k)
    starts = np.flatnonzero(np.r_[True, k[1:] != k[:-1]])
    size = np.repeat(np.diff(np.r_[starts, len(k)]), np.diff(np.r_[starts, len(k)]))
    run_end = np.where(size <= EDGE_KEY_POSTINGS, run_end, np.arange(len(k)) + 1)
    codes = []
    for ia, ib in _pairs_in_runs(run_end):
        either = e[ia] | e[ib]  # two candidate keys: the candidate keys' rule
        a, b = c[ia[either]], c[ib[either]]
        codes.append(np.minimum(a, b) * m + np.maximum(a, b))
    return codes


# Keys looked up a piece at a time among those held twice (build_groups): bounded temporaries.
_KEY_PIECE = 1 << 20

# Long documents are keyed too (sketch.candidate_keys) in an index of up to this many documents.
# A million long documents' keys are eight million (key, class) pairs more to sort: grouping a
# million took 1,220 MB instead of 900 (bench_grouping), and 1,034 MB once the keys were sorted
# as a copy and their classes held in 32 bits: past its 1 GB, and about 30 % longer. Memory
# grows with the keys, so half a million keeps well inside; an index larger than that is a
# team's, where the candidate radius narrows too (candidate_radius: 3 bits at a million) and a
# long document is proposed by its simhash alone, as the seeds' method does.
LONG_KEYS_MAX_DOCUMENTS = 500_000


def long_keys_used(n_documents: int) -> bool:
    """Whether an index of ``n_documents`` proposes long documents through their keys."""
    return n_documents <= LONG_KEYS_MAX_DOCUMENTS


def _candidate_keys(
    items: Sequence[GroupingItem], cls: np.ndarray, m: int, long_keys: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every document's candidate keys as flat (key, class) arrays, each class's number of
    candidate keys, and which of the keys are edge keys (sketch.edge_keys): read from the
    bytes (sketch.raw_candidate_keys) in one numpy pass for each width; a long document's
    only with ``long_keys`` (and when its bytes hold them: the store hands the header alone
    otherwise)."""
    at, fmt = sketch_mod.N_KEYS_OFFSET, sketch_mod.SKETCH_FORMAT
    long_width = sketch_mod.LONG_KEYS_PREFIX_BYTES if long_keys else 1 << 62
    stored: list[int] = []  # keys after the header (a short or medium document)
    unstored: list[int] = []  # none: a long document's are its first values
    for i, r in enumerate(it.sketch for it in items):
        if len(r) > at and r[0] == fmt:
            if r[at]:
                stored.append(i)
            elif len(r) >= long_width:
                unstored.append(i)
    n_keys = np.zeros(m, dtype=np.int64)
    keys, key_cls, edge = [], [], []
    for keyed, record in ((unstored, _LONG_KEY_RECORD), (stored, _KEY_RECORD)):
        if not keyed:
            continue
        rec = _records([items[i].sketch for i in keyed], record)
        n = sketch_mod.key_count(rec["count"], rec["n_values"], rec["n_keys"]).astype(np.int64)
        n = np.minimum(n, rec["keys"].shape[1])
        n_edge = sketch_mod.edge_key_slots(rec["flags"]).astype(np.int64)
        cls_of = cls[np.array(keyed, dtype=np.int64)]
        np.maximum.at(n_keys, cls_of, n - n_edge)
        at = np.arange(rec["keys"].shape[1])[None, :]
        valid = at < n[:, None]
        keys.append(rec["keys"][valid])
        # classes as 32 bits (there are fewer than 2n): a million documents' keys are ten
        # million, and every byte of a key's record counts where grouping a million must fit
        # in 1 GB
        key_cls.append(np.broadcast_to(cls_of.astype(np.int32)[:, None], valid.shape)[valid])
        edge.append((at >= (n - n_edge)[:, None])[valid])
        del rec, valid, at
    if not keys:
        empty = np.empty(0, dtype=np.uint64), np.empty(0, dtype=np.int32)
        return *empty, n_keys, np.zeros(0, dtype=bool)
    if len(keys) == 1:
        return keys[0], key_cls[0], n_keys, edge[0]
    return np.concatenate(keys), np.concatenate(key_cls), n_keys, np.concatenate(edge)


def _among(values: np.ndarray, held: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Which of ``values`` (64-bit hashes: candidate keys) are in ``held`` (sorted, distinct),
    as (places among ``values`` that may be, which of those are). A table of their low bits
    (a sixteenth full at most, up to 16 MB) rules out most values with one look each, and
    only the rest are looked up among ``held``: a binary search of each of a million
    documents' five million keys took 0.5 s of grouping them, the table 0.06 s."""
    bits = min(max(int(len(held) * 16).bit_length(), 16), 24)
    low = np.uint64((1 << bits) - 1)
    table = np.zeros(1 << bits, dtype=bool)
    table[(held & low).astype(np.intp)] = True
    maybe = np.flatnonzero(table[(values & low).astype(np.intp)])
    del table
    found = values[maybe]
    where = np.minimum(np.searchsorted(held, found), len(held) - 1)
    return maybe, held[where] == found


def _held_twice(values: np.ndarray, places: np.ndarray) -> np.ndarray:
    """The ``places`` of the values (candidate keys, or their low bits) that two or more of
    ``values`` hold, in order."""
    held = np.sort(values)
    twice = sketch_mod.sorted_unique(held[1:][held[1:] == held[:-1]])
    del held
    found = []
    if len(twice):
        for at in range(0, len(values), _KEY_PIECE):
            maybe, piece = _among(values[at : at + _KEY_PIECE], twice)
            found.append(places[at + maybe[piece]])
    return np.concatenate(found) if found else np.zeros(0, dtype=np.int64)


class _NeedsIndex(Exception):
    """A helper's comparison asked how many texts of the index hold some lines: only the
    process that has the index can say, so that pair is verified there."""


def _no_index(line_ids: list[int]) -> dict[int, int]:
    raise _NeedsIndex


# A helper process's decoded sketches, by class, for the one grouping it serves (its process
# serves one build_groups call, then ends).
_HELPER_RAW: dict[int, bytes] = {}
_HELPER_SKETCHES: dict[int, sketch_mod.TextSketch] = {}


def _verify_piece(
    pairs: list[tuple[int, int]], raw: dict[int, bytes] | None, threshold: float
) -> list[float | None]:
    """In a helper process: the verified share of each pair (None where the comparison needs
    the index's line counts). ``raw``, with the first piece: the sketches of every class."""
    if raw:
        _HELPER_RAW.update(raw)

    def sketch(c: int) -> sketch_mod.TextSketch:
        # decoded when first compared: the helper compares the pairs of some of the pieces
        sk = _HELPER_SKETCHES.get(c)
        if sk is None:
            sk = _HELPER_SKETCHES[c] = sketch_mod.decode(_HELPER_RAW[c])
        return sk

    out: list[float | None] = []
    for a, b in pairs:
        try:
            out.append(sketch_mod.verified_similarity(sketch(a), sketch(b), threshold, _no_index))
        except _NeedsIndex:
            out.append(None)
    return out


def _verify_pairs(
    pairs: list[tuple[int, int]],
    sketch: Callable[[int], sketch_mod.TextSketch],
    raw_sketches: list[bytes],
    threshold: float,
    common: sketch_mod.LineCounts,
    helper: HelperFactory | None,
) -> list[float]:
    """The verified share of common text of each candidate pair (of classes), in order; on
    two processes when ``helper`` lends one and there are enough pairs. The pairs are cut in
    pieces: the helper is sent them from the first on, two ahead of its answers, and this
    process takes them from the last, until the two meet."""

    def here(piece: list[tuple[int, int]]) -> list[float]:
        return [
            sketch_mod.verified_similarity(sketch(a), sketch(b), threshold, common)
            for a, b in piece
        ]

    if helper is None or len(pairs) < PARALLEL_MIN_PAIRS:
        return here(pairs)
    raw = {c: raw_sketches[c] for c in sorted({c for pair in pairs for c in pair})}
    if sum(map(len, raw.values())) > _HELPER_MAX_BYTES:
        return here(pairs)
    pieces = [pairs[i : i + _VERIFY_PIECE] for i in range(0, len(pairs), _VERIFY_PIECE)]
    done: list[list[float] | None] = [None] * len(pieces)

    def answered(i: int, answers: list[float | None]) -> None:
        # the pairs whose comparison asked the index are verified here, where it is
        done[i] = [
            here([pair])[0] if share is None else share
            for pair, share in zip(pieces[i], answers, strict=True)
        ]

    with helper(_verify_piece) as process:
        if process is None:
            return here(pairs)
        front, back = 0, len(pieces)  # the helper's next piece; this process's pieces: back..
        sent: deque[int] = deque()
        try:
            while True:
                while len(sent) < 2 and front < back:
                    process.call(pieces[front], raw if front == 0 else None, threshold)
                    sent.append(front)
                    front += 1
                for answers in process.ready_answers():
                    answered(sent.popleft(), answers)
                if front < back:
                    back -= 1
                    done[back] = here(pieces[back])
                elif sent:
                    answers = process.next_answer()  # before its piece leaves ``sent``
                    answered(sent.popleft(), answers)
                else:
                    break
        except HelperGone as exc:  # what it had is verified here
            log.warning("a helper process failed verifying candidate pairs: %s", exc)
            for i in sent:
                done[i] = here(pieces[i])
            for i in range(front, back):
                done[i] = here(pieces[i])
    return [share for piece in done for share in piece]  # type: ignore[union-attr]


# The most lines a question to the index names besides those a comparison asks about (about
# 5 microseconds each, against half a millisecond a question): a full regroup of a large index
# that decoded many short documents before its first question must not ask about all of them.
_BATCH_LINES = 512


class _CommonLines:
    """How many different texts hold each of some lines of short documents (sketch.line_ids,
    LineCounts): asked of the index when it can tell, and kept; else counted among the texts
    that are someone's candidate, the first time a comparison asks (most groupings never do).

    The index is asked in batches: with the lines a comparison asks about, the lines of the
    documents decoded since the last question (``decoded``: the sketches decoded so far, in
    order, a list that grows), the latest first, up to _BATCH_LINES: their comparisons are
    likely to ask next. One question costs about half a millisecond however few lines it
    names; asked one pair at a time, the public corpora's regroup asked 185 times (68 so)."""

    def __init__(
        self,
        sketches: Callable[[], list[sketch_mod.TextSketch]],
        line_counts: Callable[[list[int]], dict[int, int]] | None,
        decoded: list[sketch_mod.TextSketch] | None = None,
    ) -> None:
        self._sketches, self._line_counts = sketches, line_counts
        self._decoded = decoded if decoded is not None else []
        self._batched = 0  # how many of them had their lines asked about
        self._known: dict[int, int] = {}
        self._asked: set[int] = set()

    def __call__(self, line_ids: list[int]) -> dict[int, int]:
        new = [i for i in line_ids if i not in self._asked]
        if new:
            if self._line_counts is not None:
                fresh = set(new)
                room = _BATCH_LINES  # the latest documents first
                for sk in reversed(self._decoded[self._batched :]):
                    if room <= 0:
                        break
                    more = sk.line_id_set - self._asked - fresh
                    fresh |= more
                    room -= len(more)
                self._batched = len(self._decoded)
                fresh -= self._asked
                self._known.update(self._line_counts(sorted(fresh)))
                self._asked.update(fresh)
            elif not self._asked:  # the first question: every line of these texts, counted
                for sk in self._sketches():
                    for line_id in sk.line_id_set:
                        self._known[line_id] = self._known.get(line_id, 0) + 1
            self._asked.update(new)
        return {i: self._known[i] for i in line_ids if i in self._known}


# A connected part of the candidate pairs of at least this many text classes is first looked
# at as a family (_certified_family): below it, verifying its pairs one by one costs little.
FAMILY_MIN_CLASSES = 8
# How far above the threshold's Jaccard index a bound must be, for the rounding of the shares
_BOUND_MARGIN = 1e-9


def _value_pair_classes(
    vp: np.ndarray, c_of: np.ndarray, starts: np.ndarray, per_value: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Every pair of classes of each pair of simhash values (``vp``: rows of value a, value b,
    distance), one class holding a, the other b (by_value's ``c_of``, ``starts``,
    ``per_value``): all at once, without a loop over the value pairs."""
    if len(vp) == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    va, vb = vp[:, 0], vp[:, 1]
    p, q = per_value[va], per_value[vb]
    sizes = p * q
    row = np.repeat(np.arange(len(vp)), sizes)
    at = np.arange(int(sizes.sum())) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    return c_of[starts[va][row] + at // q[row]], c_of[starts[vb][row] + at % q[row]]


def _components(pa: np.ndarray, pb: np.ndarray, m: int) -> np.ndarray:
    """The lowest of the ``m`` nodes each node is connected to by the pairs (``pa[i]``,
    ``pb[i]``): each node hooked to the lowest of a pair, then every label followed to its
    root, until no pair joins two parts."""
    label = np.arange(m, dtype=np.int32 if m < 2**31 else np.int64)
    a, b = pa, pb
    while len(a):
        la, lb = label[a], label[b]
        apart = la != lb
        if not apart.any():
            break
        a, b, la, lb = a[apart], b[apart], la[apart], lb[apart]
        np.minimum.at(label, np.maximum(la, lb), np.minimum(la, lb))
        while True:
            up = label[label]
            if np.array_equal(up, label):
                break
            label = up
    return label


def _families(pa: np.ndarray, pb: np.ndarray, m: int) -> tuple[list[list[int]], np.ndarray]:
    """The classes (of ``m``) of each connected part of the candidate pairs (``pa[i]``,
    ``pb[i]``) that has at least FAMILY_MIN_CLASSES of them, each part in order, and the
    label of each class's part (_components: its lowest class)."""
    label = _components(pa, pb, m)
    sizes = np.bincount(label, minlength=m)
    big = np.flatnonzero(sizes >= FAMILY_MIN_CLASSES)
    if len(big) == 0:
        return [], label
    inside = np.flatnonzero(sizes[label] >= FAMILY_MIN_CLASSES)
    by_part = inside[np.argsort(label[inside], kind="stable")]
    cuts = np.cumsum(sizes[big])[:-1]
    return [part.tolist() for part in np.split(by_part, cuts)], label


def _certified_family(
    family: list[int],
    sketch: Callable[[int], sketch_mod.TextSketch],
    threshold: float,
    common: sketch_mod.LineCounts,
    ign: _Ignore,
    class_contents: list[set[int]],
) -> tuple[dict[tuple[int, int], float], float] | None:
    """The verified share of each class of ``family`` (a connected part of the candidate pairs,
    in order) with its first, when every pair of the family is provably the same without
    verifying it, and the least share any pair of it has at most; None when that cannot be
    shown (then its pairs are verified one by one).

    A mail merge's letters, a form's filled-in copies and other families of many documents
    that are all alike were all each other's candidates, and complete linkage verified every
    pair: 2,000 letters made two million verifications (a scan of 117 s and 750 MB). When
    every pair of a family passes, complete linkage makes it one group whatever the order of
    its merges (every merge inside it succeeds, and no candidate pair leaves it), so only the
    pairs with the reference, whose shares the group shows, need verifying. That every pair
    passes is shown when:

    * each sketch holds every word pair of its body, so the share of common text of two
      bodies is exact: ``D = 2 J / (1 + J)`` for the Jaccard index ``J`` of their word pairs,
      the least a verification answers unless it vetoes the pair;
    * ``1 - J`` is a distance (it obeys the triangle inequality), so two members ``x`` and
      ``z`` have ``J(x, z) >= J(x, r) + J(z, r) - 1`` for the first member ``r``: when the two
      lowest of the members' ``J`` with ``r`` add up to the threshold's ``J`` plus one, every
      pair of the family reaches the threshold;
    * all hold the same repeated words the same number of times (their salient words and
      counts), so no pair can be vetoed as a swap of names (sketch.substituted: a word
      repeated in one that the other lacks, or holds far less often);
    * no pair of its documents is one the user ignored;
    * no pair of its short documents can be two texts under one boilerplate of the index
      (sketch.none_share_only_boilerplate: a disclaimer, and each its own note).
    """
    if len(family) < 2:
        return None
    sketches = [sketch(c) for c in family]
    first = sketches[0]
    profile = (first.salient.tobytes(), first.counts.tobytes())
    for s in sketches:
        if len(s.body) == 0 or len(s.body) != s.shingle_count:
            return None
        if (s.salient.tobytes(), s.counts.tobytes()) != profile:
            return None
    jaccard = []
    for s in sketches[1:]:
        both = int(np.count_nonzero(sketch_mod.in_sorted(s.body, first.body)))
        jaccard.append(both / (len(s.body) + len(first.body) - both))
    lowest = sorted(jaccard)[:2]
    needed = threshold / (2.0 - threshold) + _BOUND_MARGIN
    least = sum(lowest) - 1.0 if len(lowest) == 2 else lowest[0]  # of any pair's Jaccard
    if lowest[0] < needed or least < needed:
        return None
    if ign.active:
        seen: set[int] = set()
        for c in family:
            for content in sorted(class_contents[c]):
                if ign.blocks(content, seen):
                    return None
                seen.add(content)
    if not sketch_mod.none_share_only_boilerplate(sketches, common):
        return None
    shares = {}
    for c, s in zip(family[1:], sketches[1:], strict=True):
        share = sketch_mod.verified_similarity(first, s, threshold, common)
        if share < threshold:  # not for a sound bound; verified one by one if ever
            return None
        shares[(family[0], c)] = share
    return shares, 2.0 * least / (1.0 + least) - _BOUND_MARGIN


# Rows of a family compared at a time by _share_bounds and _pairs_across (each step holds a
# few arrays of this many rows by the family's size)
_PARTS_STEP = 256


def _shared_counts(rows: list[np.ndarray], n: int) -> tuple[np.ndarray, np.ndarray]:
    """The distinct values of ``rows`` (one sorted array of distinct values per document, ``n``
    documents) that two documents or more hold, as columns: each document's row of 0 and 1 in
    them (a float32 matrix, so that a product of two counts their common values exactly), and
    the sorted values."""
    held = np.sort(np.concatenate(rows) if rows else np.zeros(0, np.uint64))
    shared = sketch_mod.sorted_unique(held[1:][held[1:] == held[:-1]])
    return _in_columns(rows, shared, n), shared


def _in_columns(rows: list[np.ndarray], columns: np.ndarray, n: int) -> np.ndarray:
    """Each of ``rows`` as 0 and 1 in ``columns`` (sorted distinct values), as _shared_counts."""
    out = np.zeros((n, len(columns)), dtype=np.float32)
    for i, row in enumerate(rows):
        if len(row) and len(columns):
            at = np.minimum(np.searchsorted(columns, row), len(columns) - 1)
            out[i, at[columns[at] == row]] = 1.0
    return out


def _share_bounds(
    sks: list[sketch_mod.TextSketch], threshold: float, common: sketch_mod.LineCounts
) -> np.ndarray:
    """For every pair of the complete sketches ``sks``, a bound of the share of common text
    their verification can answer with the index's ``common`` (float32, rounded up: never
    below the share).

    Every view a verification takes of a pair (sketch.verified_similarity: the bodies, the
    whole texts, the cores, one side's or both sides' edge lines left out, the words in
    order) is a share of the word pairs or of the words two texts hold in common, and cannot
    exceed what their sketches hold in common, counted here for every pair at once (products
    of 0-1 matrices): the bodies', the whole texts', the cores' (with the bodies'), the words'
    with their repeats. A view that leaves edge lines out keeps at least the lines inside (the
    values tagged ``INTERIOR``), one that leaves out boilerplate lines at least the words
    between the runs of such lines at the text's top and bottom (sketch.least_kept_words: a
    disclaimer too long to be an edge line may be one); the words in order count only between
    texts whose words differ by light edits (as many in common as sketch._fewest_common asks),
    or, when boilerplate may be left out, whose kept words are as many as they share."""
    n = len(sks)
    values, columns = _shared_counts([s.values for s in sks], n)
    body = _in_columns([s.body for s in sks], columns, n)
    cores = [s.core if len(s.core) else s.body for s in sks]  # no core: its views are the body's
    core = _in_columns(cores, columns, n)
    words, _ = _shared_counts([s.word_keys if len(s.words) else _NO_WORDS for s in sks], n)
    n_values = np.array([len(s.values) for s in sks], dtype=np.float64)
    n_body = np.array([len(s.body) for s in sks], dtype=np.float64)
    n_core = np.array([len(c) for c in cores], dtype=np.float64)
    inner = np.array(
        [
            np.count_nonzero(s.tags & sketch_mod.INTERIOR) if len(s.tags) else len(s.values)
            for s in sks
        ],
        dtype=np.float64,
    )
    n_words = np.array([len(s.words) for s in sks], dtype=np.float64)
    # what a view leaving boilerplate out keeps: word pairs (in ``inner``) and words
    kept_words = n_words.copy()
    short = [k for k, s in enumerate(sks) if len(s.words)]
    if len(short) > 1:
        always = frozenset.intersection(*(sks[k].line_id_set for k in short))
        counts = common(sorted(frozenset().union(*(sks[k].line_id_set for k in short))))
        for k in short:
            kept = sketch_mod.least_kept_words(sks[k], counts, always)
            if len(kept) < n_words[k]:
                kept_words[k] = len(kept)
                pairs = len(sketch_mod.sorted_unique(sketch_mod._neighbours(kept)))
                inner[k] = min(inner[k], pairs)
    left_out = kept_words < n_words
    fewest = np.array(
        [
            max(1, sketch_mod._fewest_common(len(s.words), sketch_mod._edits_allowed(len(s.words))))
            for s in sks
        ],
        dtype=np.float64,
    )
    any_core = any(len(s.core) for s in sks)
    out = np.empty((n, n), dtype=np.float32)
    for at in range(0, n, _PARTS_STEP):
        r = slice(at, min(at + _PARTS_STEP, n))
        sv = (values[r] @ values.T).astype(np.float64)
        sb = (body[r] @ body.T).astype(np.float64)
        bound = 2 * sb / (n_body[r, None] + n_body)
        np.maximum(bound, 2 * sv / (n_values[r, None] + n_values), out=bound)
        if any_core:
            for x, y, nx, ny in (
                (body, core, n_body, n_core),
                (core, body, n_core, n_body),
                (core, core, n_core, n_core),
            ):
                sx = (x[r] @ y.T).astype(np.float64)
                np.maximum(bound, 2 * sx / (nx[r, None] + ny), out=bound)
        left_r = np.maximum(sv, inner[r, None])
        left_c = np.maximum(sv, inner)
        np.maximum(bound, 2 * sv / np.maximum(left_r + n_body, 1.0), out=bound)
        np.maximum(bound, 2 * sv / np.maximum(left_c + n_body[r, None], 1.0), out=bound)
        np.maximum(bound, 2 * sv / np.maximum(left_r + left_c, 1.0), out=bound)
        sw = (words[r] @ words.T).astype(np.float64)
        light = (n_words[r, None] > 0) & (n_words > 0) & (sw >= np.minimum(fewest[r, None], fewest))
        word_bound = 2 * sw / np.maximum(sw + np.minimum(n_words[r, None], n_words), 1.0)
        np.maximum(bound, np.where(light, word_bound, 0.0), out=bound)
        if left_out.any():  # kept words: as many as the two share, at the least
            fewest_kept = np.minimum(kept_words[r, None], kept_words)
            kept_bound = 2 * sw / np.maximum(sw + fewest_kept, 1.0)
            maybe = (left_out[r, None] | left_out) & (n_words[r, None] > 0) & (n_words > 0)
            np.maximum(bound, np.where(maybe, kept_bound, 0.0), out=bound)
        block = bound.astype(np.float32)
        out[r] = np.where(block < bound, np.nextafter(block, np.float32(np.inf)), block)
    return out


# How many classes a family split by _split_family has at least: a smaller one's pairs cost
# less to verify than its bounds (1,000 families of ten notes, each with two words of its own:
# 7.3 s with every family's bounds, 6.6 s without) - and at most: its bounds are a square of
# them (4 bytes each: 100 MB at 5,000).
SPLIT_MIN_CLASSES = 32
_SPLIT_MAX_CLASSES = 6000
# The levels a family is cut at (_split_family): the threshold, and then a quarter, a half and
# three quarters of the way from it to 1
_SPLIT_LEVELS = (0.0, 0.25, 0.5, 0.75)


def _pairs_across(
    bounds: np.ndarray, label: np.ndarray, floor: float
) -> tuple[float, tuple[np.ndarray, np.ndarray] | tuple[()]]:
    """Of the pairs of two parts (``label``) whose ``bounds`` reach ``floor``: the highest
    bound, and how many such pairs each two parts have (their labels as ``a * n + b``, a < b,
    with the counts), or () when there is none. A block of rows at a time."""
    n = len(label)
    most = 0.0
    codes: list[np.ndarray] = []
    counts: list[np.ndarray] = []
    cols = np.arange(n)
    for at in range(0, n, _PARTS_STEP):
        rows = np.arange(at, min(at + _PARTS_STEP, n))
        block = bounds[at : at + len(rows)]
        hit = (block >= floor) & (label[rows, None] != label) & (cols > rows[:, None])
        ra, cb = np.nonzero(hit)
        if len(ra) == 0:
            continue
        most = max(most, float(block[ra, cb].max()))
        la, lb = label[ra + at], label[cb]
        code, count = np.unique(np.minimum(la, lb) * n + np.maximum(la, lb), return_counts=True)
        codes.append(code)
        counts.append(count)
    if not codes:
        return most, ()
    code, where = np.unique(np.concatenate(codes), return_inverse=True)
    return most, (code, np.bincount(where.ravel(), weights=np.concatenate(counts)))


def _split_family(
    family: list[int],
    pairs: Callable[[list[int]], tuple[np.ndarray, np.ndarray]],
    sketch: Callable[[int], sketch_mod.TextSketch],
    threshold: float,
    common: sketch_mod.LineCounts,
    ign: _Ignore,
    class_contents: list[set[int]],
) -> tuple[list[list[int]], dict[tuple[int, int], float]] | None:
    """A family that is not one group (two letters of one library, a renewal and a reminder,
    each sent to hundreds) as the groups verifying its pairs one by one would make: its
    parts of two classes or more, each in order, and the verified share of each class of a
    part with the part's first; None when that cannot be shown (then its pairs are verified
    one by one).

    The family is cut where the bounds of its candidate pairs' shares (_share_bounds; ``pairs``
    gives them, as places in ``family``) fall below a level (the threshold, then higher ones), into
    the connected parts of the candidate pairs above it. The groups are those parts when

    * each part of two classes or more is one group by itself (_certified_family: every pair
      of it provably the same);
    * every pair of it is more alike (its share at least what _certified_family shows) than
      any pair across two parts can be (its bound), so complete linkage, closest pairs first,
      makes every part whole before it looks at a pair across two;
    * and any two parts with a pair across them that may be the same also have one that cannot
      (a bound below the threshold), so that they never merge.
    """
    n = len(family)
    if not SPLIT_MIN_CLASSES <= n <= _SPLIT_MAX_CLASSES:
        return None
    sks = [sketch(c) for c in family]
    if any(len(s.body) == 0 or len(s.body) != s.shingle_count for s in sks):
        return None
    bounds = _share_bounds(sks, threshold, common)
    floor = threshold - _BOUND_MARGIN
    fam = np.array(family, dtype=np.int64)
    ca, cb = pairs(family)
    for step in _SPLIT_LEVELS:
        level = threshold + (1.0 - threshold) * step - _BOUND_MARGIN
        above = bounds[ca, cb] >= level
        label = _components(ca[above], cb[above], n)
        order = np.argsort(label, kind="stable")
        parts = np.split(order, np.flatnonzero(np.diff(label[order])) + 1)
        if len(parts) == 1:
            continue
        # pairs across two parts that may be the same: never as alike as a pair inside one,
        # and two parts with such a pair also have one that is certainly not
        most, across = _pairs_across(bounds, label, floor)
        if len(across):
            codes, held = across
            sizes = np.bincount(label, minlength=n)
            if np.any(held >= sizes[codes // n] * sizes[codes % n]):
                continue
        shares: dict[tuple[int, int], float] = {}
        groups: list[list[int]] = []
        for part in parts:
            if len(part) < 2:
                continue
            members = fam[np.sort(part)].tolist()
            found = _certified_family(members, sketch, threshold, common, ign, class_contents)
            if found is None or found[1] <= most:
                break
            shares.update(found[0])
            groups.append(members)
        else:
            shares.update(
                _lone_shares(parts, label, ca, cb, bounds, fam, sketch, threshold, common)
            )
            return groups, shares
    return None


def _lone_shares(
    parts: list[np.ndarray],
    label: np.ndarray,
    ca: np.ndarray,
    cb: np.ndarray,
    bounds: np.ndarray,
    fam: np.ndarray,
    sketch: Callable[[int], sketch_mod.TextSketch],
    threshold: float,
    common: sketch_mod.LineCounts,
) -> dict[tuple[int, int], float]:
    """The candidate pairs of a split family's classes left alone (a part of one class) with
    the classes of its groups that verify the same: what verifying its pairs one by one would
    have found of them, for the documents close to a group (_close_documents). Only pairs whose
    bound reaches the threshold are verified; no other can pass."""
    size = np.bincount(label, minlength=len(label))
    if not np.any(size == 1):
        return {}
    lone_a, lone_b = size[label[ca]] == 1, size[label[cb]] == 1
    ask = (lone_a != lone_b) & (bounds[ca, cb] >= threshold - _BOUND_MARGIN)
    out: dict[tuple[int, int], float] = {}
    for a, b in zip(fam[ca[ask]].tolist(), fam[cb[ask]].tolist(), strict=True):
        key = (a, b) if a < b else (b, a)
        share = sketch_mod.verified_similarity(sketch(key[0]), sketch(key[1]), threshold, common)
        if share >= threshold:
            out[key] = share
    return out


def _close_documents(
    edges: dict[tuple[int, int], float],
    group_of_class: dict[int, BuiltGroup],
    member_of_class: dict[int, int],
    class_docs: Sequence[Sequence[int]],
    items: Sequence[GroupingItem],
    cid: np.ndarray,
    ign: _Ignore,
) -> None:
    """Add to each group the documents close to it (:class:`CloseDocument`): a document in no
    group, verified the same as one of the group's members, that is shown with the group of
    its closest match instead of nowhere. It cannot join that group: complete linkage would
    have merged it had it been the same as every member. Each goes with the member it shares
    the most with (ties: the earlier class), unless the two are a pair you ignored."""
    best: dict[int, tuple[float, int]] = {}  # a lone class -> (share, class of its closest)
    for (a, b), share in edges.items():
        in_a, in_b = a in group_of_class, b in group_of_class
        if in_a == in_b:
            continue
        lone, other = (b, a) if in_a else (a, b)
        if len(class_docs[lone]) != 1:  # a class of copies not grouped: split by an ignore
            continue
        if ign.active and ign.blocks(
            int(cid[class_docs[lone][0]]), {int(cid[member_of_class[other]])}
        ):
            continue
        known = best.get(lone)
        if known is None or share > known[0] or (share == known[0] and other < known[1]):
            best[lone] = (share, other)
    for lone, (share, other) in sorted(best.items()):
        doc = items[class_docs[lone][0]].doc_id
        group_of_class[other].close.append(
            CloseDocument(doc, items[member_of_class[other]].doc_id, share)
        )
    for group in {id(g): g for g in group_of_class.values()}.values():
        if len(group.close) > 1:
            group.close.sort(key=lambda c: (-c.similarity, c.doc_id))


def candidate_radius(n_values: int, max_distance: int) -> int:
    """The simhash radius the candidate search uses for ``n_values`` distinct fingerprints.

    ``max_distance`` on a personal archive; smaller on a very large one, where an exact search
    at that radius would compare too many pairs: with ``r + 1`` pigeonhole blocks, random
    fingerprints give about ``n^2 / 2 * (r + 1) * 2^(-64 / (r + 1))`` candidates. Never below 3,
    the seeds' radius, at which the four 16-bit blocks are exact.
    """
    k = _check_distance(max_distance)
    n = float(n_values)
    r = k
    while r > 3:
        blocks = r + 1
        if n * (n - 1) / 2 * blocks * 2.0 ** (-64 / blocks) <= _CANDIDATE_BUDGET:
            break
        r -= 1
    return r


@collection_paused()  # the pairs, families and groups of a million documents
def build_groups(
    items: Sequence[GroupingItem],
    min_similarity: float,
    ignored: IgnoredPairs = frozenset(),
    *,
    max_distance: int = DEFAULT_CANDIDATE_DISTANCE,
    load_sketches: Callable[[list[int]], dict[int, bytes]] | None = None,
    line_counts: Callable[[list[int]], dict[int, int]] | None = None,
    helper: HelperFactory | None = None,
    long_keys: bool | None = None,
) -> list[BuiltGroup]:
    """Duplicate groups following the rules in the module docstring.

    ``min_similarity`` is the verified share of common text two documents need (0..1);
    ``max_distance`` the simhash radius of the candidate search (bits). ``ignored`` is a set of
    content-hash pairs (either order) or a predicate on two content hashes (called with both
    orders).

    ``load_sketches`` (doc ids -> full sketch bytes), when given, is asked once for the sketches
    of the documents that are someone's candidate; the items then need to carry only the start of
    their sketch (``sketch.KEYS_PREFIX_BYTES``), so a million documents cost their keys, not
    their sketches, in memory.

    ``line_counts`` (line ids -> how many different texts of the index hold each,
    ``sketch.line_ids``) is asked for the lines of a pair of short documents when the two-sided
    comparison needs them (each line once); without it, the lines of the documents that are
    someone's candidate are counted among themselves.

    ``helper``, when given, may lend a second process for verifying the candidate pairs (at
    least PARALLEL_MIN_PAIRS of them): the same answers, on two cores.

    ``long_keys``: whether long documents are proposed through their keys too (default: when
    ``items`` are few enough, :func:`long_keys_used`); a regroup of part of an index passes the
    whole index's answer, so it finds what a full regroup finds.
    """
    threshold = check_similarity(min_similarity)
    k = _check_distance(max_distance)
    n = len(items)
    if n < 2:
        return []

    # Text classes: same words in the same order (text hash); same bytes -> same class.
    contents = [it.content_hash for it in items]
    cid = _class_ids(contents)  # the first document with each one's bytes
    tid = _class_ids([it.text_hash for it in items])[cid]
    has, sim = _simhash_array(items)

    # Dense class per document. Everything up to the candidate pairs is vectorised: a million
    # documents cost Python work only where they are related to something. Text classes of
    # the same words (the same sketch) are one class from here on; ``tid`` keeps the text
    # classes for the kind.
    m_all = int(tid.max()) + 1
    hd = np.flatnonzero(has)
    uniq = vinv = np.zeros(0, dtype=np.int64)
    if len(hd):
        uniq, vinv = np.unique(sim[hd], return_inverse=True)
        vinv = vinv.ravel().astype(np.int64)

    def by_value(classes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The classes holding each simhash value: (class of each (value, class) pair, in
        order of value; where each value's run starts; how many classes hold each value)."""
        vc = sketch_mod.sorted_unique(vinv * m_all + classes[hd])
        v_of, c_of = vc // m_all, vc % m_all
        starts = np.searchsorted(v_of, np.arange(len(uniq) + 1))
        return c_of, starts, np.diff(starts)

    cls = tid
    if len(hd):
        c_of, starts, per_value = by_value(cls)
        shared = c_of[np.repeat(per_value > 1, per_value)]  # classes of a value held by two
    else:
        shared = np.zeros(0, dtype=tid.dtype)
    # classes with a document too short for a simhash; np.unique and np.union1d would load
    # numpy.ma, 16 ms of the scan's last, one-core step
    short = sketch_mod.sorted_unique(tid[~has])
    if len(shared) + len(short) > 1:
        either = sketch_mod.sorted_unique(np.concatenate([shared, short]))
        cls = _same_words(items, tid, either, sim, has, load_sketches, threshold, ignored)
        if len(hd) and cls is not tid:
            c_of, starts, per_value = by_value(cls)
    class_size = np.bincount(cls, minlength=m_all)
    # Candidate pairs of (global) classes, as codes a * m_all + b (a < b), in arrays: a family
    # of thousands of alike documents is millions of pairs (16 bytes each here, where a dict
    # of them took over 150)
    cand_codes: list[np.ndarray] = []

    def add_pairs(ca: np.ndarray, cb: np.ndarray) -> None:
        keep = ca != cb
        lo, hi = np.minimum(ca, cb)[keep], np.maximum(ca, cb)[keep]
        cand_codes.append(lo.astype(np.int64) * m_all + hi)

    # 1. the simhash index: values shared by two classes, and values within the radius
    if len(hd):
        for v in np.flatnonzero(per_value > 1).tolist():
            group = c_of[starts[v] : starts[v + 1]]
            ia, ib = np.triu_indices(len(group), 1)
            add_pairs(group[ia], group[ib])
        r = candidate_radius(len(uniq), k)
        if r < k:
            log.info("%d fingerprints: candidate radius %d bits instead of %d", len(uniq), r, k)
        vp = find_near_value_pairs(uniq, r)
        if len(vp):
            single = (per_value[vp[:, 0]] == 1) & (per_value[vp[:, 1]] == 1)
            sv = vp[single]
            add_pairs(c_of[starts[sv[:, 0]]], c_of[starts[sv[:, 1]]])
            multi = vp[~single]
            del vp, sv
            # a piece of value pairs at a time: a family's are millions of class pairs
            made = np.cumsum(per_value[multi[:, 0]] * per_value[multi[:, 1]])
            at = 0
            while at < len(multi):
                end = max(at + 1, int(np.searchsorted(made, made[at] + _CHUNK_PAIRS)))
                add_pairs(*_value_pair_classes(multi[at:end], c_of, starts, per_value))
                at = end

    # 2. every document is also proposed through its sketch's smallest values (a short or
    # medium text's simhash is noisy; a long one's moves when one term is renamed throughout:
    # sketch.candidate_keys), read from the stored bytes; a long one's in an index of up to
    # LONG_KEYS_MAX_DOCUMENTS
    if long_keys is None:
        long_keys = long_keys_used(n)
    keys, key_cls, n_keys, key_edge = _candidate_keys(items, cls, m_all, long_keys)
    codes: list[np.ndarray] = []
    if len(keys):
        # Only keys held by two documents or more make pairs: sorts find them (copies of the
        # keys, not an order of them and the keys in it: 16 bytes a key less, and a million
        # documents hold ten million keys), each key is looked up among those a piece at a
        # time, and the (key, class) order that the runs below need is sorted among them alone
        # (a two-key sort of every key of a million documents cost seconds). The first sort is
        # of the keys' low 32 bits (0.2 s for five million keys, 0.33 s whole): the keys whose
        # low bits are held twice include every key held twice, and a few thousand others,
        # which a sort of those keys alone then leaves out.
        low = keys.astype(np.uint32)  # (the low bits of hashes, as random as the rest)
        maybe = _held_twice(low, np.arange(len(keys)))
        del low
        keep = np.zeros(len(keys), dtype=bool)
        keep[_held_twice(keys[maybe], maybe)] = True
        keys, key_cls, key_edge = keys[keep], key_cls[keep].astype(np.int64), key_edge[keep]
        if key_edge.any():  # a short document's edge keys propose by a rule of their own
            codes = _edge_key_codes(keys, key_cls, key_edge, m_all)
            keys, key_cls = keys[~key_edge], key_cls[~key_edge]
        del key_edge
        order_k = np.lexsort((key_cls, keys))
        keys, key_cls = keys[order_k], key_cls[order_k]
    if len(keys):
        fresh = np.r_[True, (keys[1:] != keys[:-1]) | (key_cls[1:] != key_cls[:-1])]
        keys, key_cls = keys[fresh], key_cls[fresh]
        run_end = _run_ends(keys)
        run_start = np.repeat(
            np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]]),
            np.diff(np.r_[np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]]), len(keys)]),
        )
        common = (run_end - run_start) > MAX_KEY_POSTINGS
        run_end = np.where(common, np.arange(len(keys)) + 1, run_end)  # a common phrase: no pairs
        for ia, ib in _pairs_in_runs(run_end):
            a, b = key_cls[ia], key_cls[ib]
            codes.append(np.minimum(a, b) * m_all + np.maximum(a, b))
    if codes:
        code, shared = np.unique(np.concatenate(codes), return_counts=True)
        a, b = code // m_all, code % m_all
        # One shared key among sixteen is what two unrelated texts with one common phrase
        # have; a pair at the threshold shares many (the keys sample the union of shingles).
        ok = shared >= np.minimum(MIN_SHARED_KEYS, np.minimum(n_keys[a], n_keys[b]))
        add_pairs(a[ok], b[ok])

    # Python work from here on: classes with two documents or a candidate, numbered by their
    # best member's priority; a class's representative (whose sketch stands for it: its
    # members hold the same words) is that member.
    codes = sketch_mod.sorted_unique(np.concatenate(cand_codes or [np.zeros(0, np.int64)]))
    cand_codes.clear()
    related = np.zeros(m_all, dtype=bool)
    related[class_size > 1] = True
    related[codes // m_all] = related[codes % m_all] = True
    rel_docs = np.flatnonzero(related[cls])
    if len(rel_docs) < 2:
        return []
    order = sorted(rel_docs.tolist(), key=lambda d: items[d].priority)
    local: dict[int, int] = {}
    class_docs: list[list[int]] = []
    doc_class: dict[int, int] = {}
    for d in order:
        g = int(cls[d])
        c = local.get(g)
        if c is None:
            c = local[g] = len(class_docs)
            class_docs.append([])
        class_docs[c].append(d)
        doc_class[d] = c
    m = len(class_docs)
    reps = [docs[0] for docs in class_docs]
    local_of = np.full(m_all, -1, dtype=np.int64)
    local_of[list(local)] = list(local.values())
    la = local_of[codes // m_all].astype(np.int32)
    lb = local_of[codes % m_all].astype(np.int32)
    del codes
    pa, pb = np.minimum(la, lb), np.maximum(la, lb)  # candidate pairs of local classes
    del la, lb
    # the classes that are someone's candidate
    candidates = sketch_mod.sorted_unique(np.concatenate([pa, pb])).tolist()
    raw_sketches = [items[d].sketch for d in reps]

    # Verification: the share of common text, from the two sketches (decoded once each, and only
    # for documents that are someone's candidate).
    decoded: dict[int, sketch_mod.TextSketch] = {}
    in_order: list[sketch_mod.TextSketch] = []  # the same, as decoded (_CommonLines)
    if load_sketches is not None:
        full = load_sketches([items[reps[c]].doc_id for c in candidates])
        for c in candidates:
            raw_sketches[c] = full.get(items[reps[c]].doc_id, b"")

    def sketch(c: int) -> sketch_mod.TextSketch:
        sk = decoded.get(c)
        if sk is None:
            sk = decoded[c] = sketch_mod.decode(raw_sketches[c])
            in_order.append(sk)
        return sk

    # how many texts hold each line of the short documents (the two-sided comparison asks)
    common = _CommonLines(lambda: [sketch(c) for c in candidates], line_counts, in_order)

    names = {int(cid[d]): contents[d] for d in order}
    ign = _Ignore(ignored, {v: c for c, v in names.items()}, names)
    class_contents = [{int(cid[d]) for d in docs} for docs in class_docs]

    # Families whose pairs are all provably the same (a mail merge's letters) are verified
    # against their reference alone; every other candidate pair, one by one.
    certified: dict[tuple[int, int], float] = {}
    joined: list[list[int]] = []
    settled = np.zeros(m, dtype=bool)  # in a family grouped without verifying its pairs
    families, label = _families(pa, pb, m)
    # the candidate pairs, and their order by family (made the first time a family asks)
    held: list[np.ndarray] = [pa, pb]

    def pairs_of(family: list[int]) -> tuple[np.ndarray, np.ndarray]:
        """The candidate pairs of ``family``, as places in it (a family's label is its lowest
        class)."""
        if len(held) == 2:
            order = np.argsort(label[held[0]], kind="stable")
            held.extend([order, label[held[0]][order]])
        a, b, order, keys = held
        mine = order[np.searchsorted(keys, family[0]) : np.searchsorted(keys, family[0], "right")]
        places = np.asarray(family)
        return (
            np.searchsorted(places, a[mine]).astype(np.int32),
            np.searchsorted(places, b[mine]).astype(np.int32),
        )

    for family in families:
        found = _certified_family(family, sketch, threshold, common, ign, class_contents)
        if found is not None:
            certified.update(found[0])
            joined.append(family)
            settled[family] = True
            continue
        split = _split_family(family, pairs_of, sketch, threshold, common, ign, class_contents)
        if split is not None:
            parts, shares = split
            certified.update(shares)
            joined.extend(parts)
            settled[family] = True
    held.clear()
    if settled.any():
        # pairs inside a family grouped whole, or split into parts so grouped, need no look
        keep = ~settled[pa]
        pa, pb = pa[keep], pb[keep]
    pairs = list(zip(pa.tolist(), pb.tolist(), strict=True))
    del pa, pb
    shares = _verify_pairs(pairs, sketch, raw_sketches, threshold, common, helper)
    edges = {p: s for p, s in zip(pairs, shares, strict=True) if s >= threshold}
    edges.update(certified)

    # Clusters of classes: complete linkage, closest pairs first. Two clusters merge only when
    # every class of one is verified the same as every class of the other (no chaining), so a
    # document ends up with its closest matches and a family that is pairwise the same stays
    # together. Candidates propose merges; verification decides every pair of a group.
    root = list(range(m))
    members: dict[int, list[int]] = {}
    version = [0] * m  # bumped when a cluster grows, so earlier refusals stop applying
    failed: set[tuple[int, int, int, int]] = set()

    def find(x: int) -> int:
        while root[x] != x:
            root[x] = root[root[x]]
            x = root[x]
        return x

    rejected: set[tuple[int, int]] = set()
    for family in joined:  # each one cluster already: no candidate pair leaves it
        for c in family[1:]:
            root[c] = family[0]
        members[family[0]] = list(family)

    def same(x: int, y: int) -> bool:
        """Verified the same: a candidate pair that passed, or a pair of two clusters about to
        merge that the simhash did not propose (two copies of one text can sit farther apart
        than the radius and still each be close to a third): verified now, from the sketches."""
        key = (x, y) if x < y else (y, x)
        if key in edges:
            return True
        if key in rejected:
            return False
        share = sketch_mod.verified_similarity(sketch(x), sketch(y), threshold, common)
        if share >= threshold:
            edges[key] = share
            return True
        rejected.add(key)
        return False

    # Closest first, ties by pair: sorted by pair, then (stable) by share. The same order as
    # one sort on (-share, pair), without a Python key for each of a family's million pairs.
    by_share = sorted(edges.items())
    by_share.sort(key=itemgetter(1), reverse=True)  # reverse=True keeps ties in their order
    for (a, b), _s in by_share:
        ra, rb = find(a), find(b)
        if ra == rb or (ra, rb, version[ra], version[rb]) in failed:
            continue
        ma, mb = members.get(ra, [ra]), members.get(rb, [rb])
        ok = all(same(x, y) for x in ma for y in mb)
        if ok and ign.active:
            ca = set().union(*(class_contents[x] for x in ma))
            ok = not any(ign.blocks(c, ca) for y in mb for c in class_contents[y])
        if not ok:
            failed.add((ra, rb, version[ra], version[rb]))
            continue
        keep, drop = (ra, rb) if ra < rb else (rb, ra)
        root[drop] = keep
        members[keep] = sorted(ma + mb)
        members.pop(drop, None)
        version[keep] += 1

    clusters = [members.get(c, [c]) for c in range(m) if find(c) == c]
    rank = {d: i for i, d in enumerate(order)}
    ranked: list[tuple[int, BuiltGroup]] = []
    # each grouped class's group, and its member that stands for it (its first by priority)
    group_of_class: dict[int, BuiltGroup] = {}
    member_of_class: dict[int, int] = {}
    for cl in clusters:
        docs = sorted((d for c in cl for d in class_docs[c]), key=lambda d: items[d].priority)
        if ign.active:  # ignored pairs inside one text class split it
            kept: list[int] = []
            seen: set[int] = set()
            for d in docs:
                c = int(cid[d])
                if not ign.blocks(c, seen):
                    kept.append(d)
                    seen.add(c)
            docs = kept
        if len(docs) < 2:
            continue
        ref = docs[0]
        ref_class = doc_class[ref]
        if len({int(cid[d]) for d in docs}) == 1:
            kind = GroupKind.IDENTICAL
        elif len({int(tid[d]) for d in docs}) == 1:
            kind = GroupKind.SAME_TEXT
        else:
            kind = GroupKind.NEAR
        out = [GroupMember(items[ref].doc_id, 0, 1.0)]
        rest = []
        for d in docs[1:]:
            c = doc_class[d]
            if c == ref_class and tid[d] == tid[ref]:
                s, dist = 1.0, 0
            elif c == ref_class:  # the same words (the same sketch), another text
                s = 1.0
                dist = hamming(int(sim[d]), int(sim[ref])) if has[d] and has[ref] else -1
            else:
                s = edges[(ref_class, c) if ref_class < c else (c, ref_class)]
                dist = hamming(int(sim[d]), int(sim[ref])) if has[d] and has[ref] else -1
            rest.append((-s, d, GroupMember(items[d].doc_id, dist, s)))
        rest.sort(key=lambda x: (x[0], items[x[1]].priority))
        out.extend(x[2] for x in rest)
        built = BuiltGroup(kind=kind, reference=items[ref].doc_id, members=out)
        ranked.append((rank[ref], built))
        for d in docs:  # in priority order: a class's first member stands for it
            if doc_class[d] not in group_of_class:
                group_of_class[doc_class[d]] = built
                member_of_class[doc_class[d]] = d
    ranked.sort(key=lambda x: x[0])
    groups = [g for _, g in ranked]
    _close_documents(edges, group_of_class, member_of_class, class_docs, items, cid, ign)
    log.debug("grouping: %d documents, %d classes, %d verified pairs", n, m, len(edges))
    return groups
