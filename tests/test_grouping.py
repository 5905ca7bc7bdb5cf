"""Near-pair finding must equal brute force exactly; groups must be cliques with the right kind,
reference and distances, respect ignored pairs, and stay linear on one shared fingerprint."""

from __future__ import annotations

import itertools
import logging
import random
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from desktop_dedup.core.grouping import (
    MASK64,
    BuiltGroup,
    GroupingItem,
    build_groups,
    find_near_pairs,
    find_near_value_pairs,
    hamming,
    split_blocks,
)
from desktop_dedup.core.models import GroupKind

INT64 = st.integers(min_value=-(2**63), max_value=2**63 - 1)


def signed(u: int) -> int:
    u &= MASK64
    return u - (1 << 64) if u >= 1 << 63 else u


def flip(value: int, bits) -> int:
    for b in bits:
        value ^= 1 << int(b)
    return signed(value)


def popcount_py(x: int) -> int:
    return bin(x & MASK64).count("1")


def brute_py(values, k):
    """Oracle: every pair by plain Python."""
    out = set()
    for i, j in itertools.combinations(range(len(values)), 2):
        d = popcount_py(values[i] ^ values[j])
        if d <= k:
            out.add((i, j, d))
    return out


def brute_np(values: np.ndarray, k: int) -> set[tuple[int, int, int]]:
    """Oracle for larger inputs: the full XOR matrix, upper triangle."""
    u = values.astype(np.int64).view(np.uint64)
    d = np.bitwise_count(u[:, None] ^ u[None, :]).astype(np.int64)
    i, j = np.nonzero(np.triu(d <= k, 1))
    return set(zip(i.tolist(), j.tolist(), d[i, j].tolist(), strict=True))


def as_set(pairs: np.ndarray) -> set[tuple[int, int, int]]:
    assert pairs.ndim == 2 and pairs.shape[1] == 3 and pairs.dtype == np.int64
    rows = [tuple(r) for r in pairs.tolist()]
    assert len(rows) == len(set(rows)), "a pair was reported twice"
    assert all(i < j for i, j, _ in rows)
    return set(rows)


def clustered(rng: random.Random, n: int, centres: int, max_flips: int) -> list[int]:
    cs = [rng.getrandbits(64) for _ in range(centres)]
    return [
        flip(rng.choice(cs), rng.sample(range(64), rng.randint(0, max_flips))) for _ in range(n)
    ]


# ------------------------------------------------------------------------------------------------
# basics
# ------------------------------------------------------------------------------------------------


def test_hamming_uses_the_unsigned_64_bit_view():
    assert hamming(0, 0) == 0
    assert hamming(-1, 0) == 64
    assert hamming(-(2**63), 0) == 1
    assert hamming(signed(0xFFFF_0000_0000_0000), 0xFFFF << 48) == 0
    rng = random.Random(3)
    for _ in range(200):
        a, b = signed(rng.getrandbits(64)), signed(rng.getrandbits(64))
        assert hamming(a, b) == popcount_py(a ^ b) == hamming(b, a)


def test_split_blocks_top_first_and_recombines():
    assert split_blocks(0x0123_4567_89AB_CDEF) == (0x0123, 0x4567, 0x89AB, 0xCDEF)
    assert split_blocks(-1) == (0xFFFF,) * 4
    rng = random.Random(4)
    for _ in range(200):
        s = signed(rng.getrandbits(64))
        b0, b1, b2, b3 = split_blocks(s)
        assert all(0 <= b <= 0xFFFF for b in (b0, b1, b2, b3))
        assert (b0 << 48 | b1 << 32 | b2 << 16 | b3) == s & MASK64
    with pytest.raises(ValueError):
        split_blocks(1 << 64)


def test_pigeonhole_guarantee_of_four_blocks_for_k3():
    rng = random.Random(5)
    for _ in range(300):
        a = signed(rng.getrandbits(64))
        b = flip(a, rng.sample(range(64), rng.randint(0, 3)))
        assert any(x == y for x, y in zip(split_blocks(a), split_blocks(b), strict=True))


def test_bad_distance_rejected():
    with pytest.raises(ValueError):
        find_near_pairs(np.array([1, 2], dtype=np.int64), -1)
    with pytest.raises(ValueError):
        build_groups([], -1)


# ------------------------------------------------------------------------------------------------
# pair finding == brute force
# ------------------------------------------------------------------------------------------------


@st.composite
def fingerprint_sets(draw):
    k = draw(st.integers(0, 8))
    centres = draw(st.lists(INT64, min_size=1, max_size=6))
    n = draw(st.integers(0, 60))
    values = []
    for _ in range(n):
        if draw(st.booleans()):
            values.append(draw(INT64))
        else:
            c = draw(st.sampled_from(centres))
            bits = draw(st.lists(st.integers(0, 63), max_size=k + 2, unique=True))
            values.append(flip(c, bits))
    return values, k


@settings(max_examples=300, deadline=None)
@given(fingerprint_sets())
def test_find_near_pairs_equals_brute_force_hypothesis(case):
    values, k = case
    got = as_set(find_near_pairs(np.array(values, dtype=np.int64), k))
    assert got == brute_py(values, k)


@pytest.mark.parametrize("k", range(0, 9))
def test_find_near_pairs_equals_brute_force_seeded(k):
    rng = random.Random(1000 + k)
    random_vals = np.array([signed(rng.getrandbits(64)) for _ in range(1200)], dtype=np.int64)
    # planted close pairs so random data has answers too
    random_vals[600:700] = [flip(int(v), rng.sample(range(64), k)) for v in random_vals[:100]]
    cl = np.array(clustered(rng, 2000, 25, k + 2), dtype=np.int64)
    for values in (random_vals, cl):
        expected = brute_np(values, k)
        got = as_set(find_near_pairs(values, k))
        assert got == expected
        assert len(expected) > 0 or k == 0


@pytest.mark.parametrize("k", [0, 1, 3, 5, 8, 12])
def test_find_near_value_pairs_on_unique_values(k):
    rng = random.Random(77 + k)
    values = np.unique(np.array(clustered(rng, 1500, 30, k + 2), dtype=np.int64))
    got = as_set(find_near_value_pairs(values, k))
    expected = brute_np(values, k)
    assert got == expected
    assert all(d > 0 for _, _, d in got)


def test_both_strategies_are_exercised_and_exact(caplog):
    """Sparse random data takes the block tables, a tight cluster at k=8 the brute force."""
    rng = random.Random(9)
    sparse = np.unique(np.array([signed(rng.getrandbits(64)) for _ in range(2000)]))
    sparse = np.unique(np.r_[sparse, [flip(int(v), [1, 40]) for v in sparse[:50]]])
    tight = np.unique(np.array(clustered(rng, 2000, 3, 10), dtype=np.int64))
    with caplog.at_level(logging.DEBUG, logger="desktop_dedup.core.grouping"):
        caplog.clear()
        assert as_set(find_near_value_pairs(sparse, 2)) == brute_np(sparse, 2)
        assert "blocks" in caplog.text
        caplog.clear()
        assert as_set(find_near_value_pairs(tight, 8)) == brute_np(tight, 8)
        assert "brute force" in caplog.text


def test_find_near_pairs_expands_equal_values_and_accepts_unsigned():
    a = signed(0xDEAD_BEEF_0000_0001)
    values = [a, a, flip(a, [5]), a, 12345]
    got = as_set(find_near_pairs(np.array(values, dtype=np.int64), 1))
    assert got == brute_py(values, 1)
    assert (0, 1, 0) in got and (0, 2, 1) in got and (1, 3, 0) in got
    unsigned = np.array([v & MASK64 for v in values], dtype=np.uint64)
    assert as_set(find_near_pairs(unsigned, 1)) == got
    assert find_near_pairs(np.array([], dtype=np.int64), 3).shape == (0, 3)
    assert find_near_pairs(np.array([7], dtype=np.int64), 3).shape == (0, 3)


def test_many_equal_values_do_not_compare_quadratically():
    values = np.full(3000, 42, dtype=np.int64)
    start = time.perf_counter()
    pairs = find_near_pairs(values, 3)
    assert len(pairs) == 3000 * 2999 // 2
    assert time.perf_counter() - start < 5.0
    assert set(pairs[:, 2].tolist()) == {0}


# ------------------------------------------------------------------------------------------------
# grouping
# ------------------------------------------------------------------------------------------------


def item(doc_id, simhash, content=None, text=None, prio=None):
    return GroupingItem(
        doc_id=doc_id,
        simhash=simhash,
        content_hash=content if content is not None else f"c{doc_id}",
        text_hash=text if text is not None else f"t{doc_id}",
        priority=prio if prio is not None else (doc_id,),
    )


def class_keys(items) -> dict[int, str]:
    """Oracle for text classes: a document's class is the text hash of the first document with
    its bytes (same bytes -> same text), so same-content documents always share a class."""
    first: dict[str, str] = {}
    return {it.doc_id: first.setdefault(it.content_hash, it.text_hash) for it in items}


def class_values(items, keys) -> dict[str, set[int]]:
    vals: dict[str, set[int]] = {}
    for it in items:
        if it.simhash is not None:
            vals.setdefault(keys[it.doc_id], set()).add(it.simhash & MASK64)
    return vals


def class_distance(a: str, b: str, vals) -> int | None:
    """Minimum Hamming distance over pairs of the two classes' simhashes, by brute force."""
    if a == b:
        return 0
    if a not in vals or b not in vals:
        return None
    return min(popcount_py(x ^ y) for x in vals[a] for y in vals[b])


def is_ignored(x: GroupingItem, y: GroupingItem, ignored) -> bool:
    if callable(ignored):
        return bool(
            ignored(x.content_hash, y.content_hash) or ignored(y.content_hash, x.content_hash)
        )
    return (x.content_hash, y.content_hash) in ignored or (
        y.content_hash,
        x.content_hash,
    ) in ignored


def check_groups(items, groups: list[BuiltGroup], k, ignored=frozenset()):
    """Every invariant of the grouping rules that can be checked from the output alone."""
    by_id = {it.doc_id: it for it in items}
    keys = class_keys(items)
    vals = class_values(items, keys)

    def dist(a: int, b: int) -> int | None:
        return class_distance(keys[a], keys[b], vals)

    seen = set()
    prios = []
    for g in groups:
        ids = [d for d, _ in g.members]
        assert len(ids) >= 2
        assert not seen & set(ids), "a document is in two groups"
        seen |= set(ids)
        ref = by_id[g.reference]
        assert ids[0] == g.reference and g.members[0][1] == 0
        assert ref.priority == min(by_id[d].priority for d in ids)
        prios.append(ref.priority)
        for a, b in itertools.combinations(ids, 2):
            d = dist(a, b)
            assert d is not None and d <= k, f"chaining: {a} and {b} are not related"
            assert not is_ignored(by_id[a], by_id[b], ignored)
        for d, dd in g.members[1:]:
            assert dd == dist(d, g.reference)
        if len({by_id[d].content_hash for d in ids}) == 1:
            assert g.kind == GroupKind.IDENTICAL
        elif len({keys[d] for d in ids}) == 1:
            assert g.kind == GroupKind.SAME_TEXT
        else:
            assert g.kind == GroupKind.NEAR
    assert prios == sorted(prios)
    # greedy maximality: no two documents left out of every group are related
    left = [it for it in items if it.doc_id not in seen]
    for x, y in itertools.combinations(left, 2):
        d = dist(x.doc_id, y.doc_id)
        if d is not None and d <= k:
            assert is_ignored(x, y, ignored), "related leftovers"


def reference_groups(items, k, ignored=frozenset()) -> list[BuiltGroup]:
    """Brute-force statement of the module's rules: O(n^2) greedy cliques over class distances."""
    keys = class_keys(items)
    vals = class_values(items, keys)
    order = sorted(range(len(items)), key=lambda d: items[d].priority)
    rank = {d: r for r, d in enumerate(order)}

    def dist(a: int, b: int) -> int | None:
        return class_distance(keys[items[a].doc_id], keys[items[b].doc_id], vals)

    def rel(a: int, b: int) -> bool:
        d = dist(a, b)
        return d is not None and d <= k and not is_ignored(items[a], items[b], ignored)

    assigned: set[int] = set()
    groups = []
    for s in order:
        if s in assigned:
            continue
        cands = []
        for j in order:
            if j == s or j in assigned:
                continue
            d = dist(s, j)
            if d is None or d > k:
                continue
            if items[j].content_hash == items[s].content_hash:
                kind_rank = 0
            elif keys[items[j].doc_id] == keys[items[s].doc_id]:
                kind_rank = 1
            else:
                kind_rank = 2
            cands.append((d, kind_rank, rank[j], j))
        cands.sort()
        members = [s]
        for _, _, _, j in cands:
            if all(rel(j, m) for m in members):
                members.append(j)
        if len(members) < 2:
            continue
        assigned |= set(members)
        if len({items[m].content_hash for m in members}) == 1:
            kind = GroupKind.IDENTICAL
        elif len({keys[items[m].doc_id] for m in members}) == 1:
            kind = GroupKind.SAME_TEXT
        else:
            kind = GroupKind.NEAR
        rest = sorted((dist(m, s), rank[m], items[m].doc_id) for m in members[1:])
        ref = items[s].doc_id
        groups.append(BuiltGroup(kind, ref, [(ref, 0)] + [(d, dd) for dd, _, d in rest]))
    return groups


def test_no_chaining_three_documents():
    a = signed(0x1234_5678_9ABC_DEF0)
    b = flip(a, [0, 1, 2])
    c = flip(b, [10, 11, 12])
    assert hamming(a, b) == 3 and hamming(b, c) == 3 and hamming(a, c) == 6
    for prios in itertools.permutations(range(3)):
        items = [item(i, s, prio=(p,)) for i, s, p in zip(range(3), (a, b, c), prios, strict=True)]
        groups = build_groups(items, 3)
        assert len(groups) == 1
        ids = {d for d, _ in groups[0].members}
        assert len(ids) == 2 and ids != {0, 2}
        check_groups(items, groups, 3)


@pytest.mark.parametrize("k", [0, 2, 3, 5, 8])
def test_random_clustered_groups_are_cliques(k):
    rng = random.Random(500 + k)
    sims = clustered(rng, 1500, 60, k + 3)
    items = []
    for i, s in enumerate(sims):
        r = rng.random()
        if r < 0.1 and items:  # byte copy of an earlier document
            src = rng.choice(items)
            items.append(item(i, src.simhash, src.content_hash, src.text_hash, (rng.random(),)))
        elif r < 0.2 and items:  # same text, other format
            src = rng.choice(items)
            items.append(item(i, src.simhash, None, src.text_hash, (rng.random(),)))
        elif r < 0.25:  # too short to fingerprint
            items.append(item(i, None, None, f"short{rng.randint(0, 20)}", (rng.random(),)))
        else:
            items.append(item(i, s, prio=(rng.random(), i)))
    ignored = set()
    for _ in range(40):
        x, y = rng.sample(items, 2)
        ignored.add((x.content_hash, y.content_hash))
    for ign in (frozenset(), ignored):
        groups = build_groups(items, k, ign)
        assert groups
        check_groups(items, groups, k, ign)
        assert groups == build_groups(list(items), k, ign), "not deterministic"


def test_twenty_thousand_equal_fingerprints_is_one_fast_group():
    items = [item(i, 987654321, prio=(20000 - i,)) for i in range(20000)]
    start = time.perf_counter()
    groups = build_groups(items, 3)
    elapsed = time.perf_counter() - start
    assert len(groups) == 1
    g = groups[0]
    assert g.kind == GroupKind.NEAR
    assert g.reference == 19999
    assert len(g.members) == 20000 and {d for _, d in g.members} == {0}
    assert elapsed < 2.0, f"took {elapsed:.2f} s: quadratic?"
    # identical copies of one file: the same shape, kind identical
    same = [item(i, 5, "c", "t", (i,)) for i in range(20000)]
    start = time.perf_counter()
    groups = build_groups(same, 3)
    assert time.perf_counter() - start < 2.0
    assert [(x.kind, x.reference, len(x.members)) for x in groups] == [
        (GroupKind.IDENTICAL, 0, 20000)
    ]


def test_kinds_reference_and_distances():
    base = signed(0xABCD_0123_4567_89EF)
    near1 = flip(base, [3])
    near2 = flip(base, [3, 30])
    other = signed(0x1357_9BDF_2468_ACE0)
    assert hamming(other, base) > 6
    items = [
        # identical trio (same bytes), best priority is doc 12
        item(10, base, "A", "TA", (5,)),
        item(11, base, "A", "TA", (3,)),
        item(12, base, "A", "TA", (1,)),
        # same text in two formats, far from everything else
        item(20, signed(0x0F0F_0F0F_0F0F_0F0F), "B1", "TB", (2,)),
        item(21, signed(0x0F0F_0F0F_0F0F_0F0F), "B2", "TB", (4,)),
        # short documents: matched only by text
        item(30, None, "S1", "TS", (7,)),
        item(31, None, "S2", "TS", (6,)),
        item(32, None, "S3", "TX", (0,)),
        # near documents of a separate base
        item(40, other, "N1", "TN1", (8,)),
        item(41, flip(other, [1, 2]), "N2", "TN2", (9,)),
    ]
    groups = build_groups(items, 3)
    check_groups(items, groups, 3)
    got = {g.reference: (g.kind, g.members) for g in groups}
    assert got[12] == (GroupKind.IDENTICAL, [(12, 0), (11, 0), (10, 0)])
    assert got[20] == (GroupKind.SAME_TEXT, [(20, 0), (21, 0)])
    assert got[31] == (GroupKind.SAME_TEXT, [(31, 0), (30, 0)])
    assert got[40] == (GroupKind.NEAR, [(40, 0), (41, 2)])
    assert [g.reference for g in groups] == [12, 20, 31, 40]
    # a near copy joins the identical trio; the group becomes "near", distances to the reference
    items2 = items[:3] + [item(50, near1, "D", "TD", (9,)), item(51, near2, "E", "TE", (10,))]
    (g,) = build_groups(items2, 3)
    assert g.kind == GroupKind.NEAR and g.reference == 12
    assert g.members == [(12, 0), (11, 0), (10, 0), (50, 1), (51, 2)]
    assert build_groups(items2, 0) == [
        BuiltGroup(GroupKind.IDENTICAL, 12, [(12, 0), (11, 0), (10, 0)])
    ]
    # unsigned simhash input means the same as the signed one
    unsigned = [
        GroupingItem(
            it.doc_id,
            None if it.simhash is None else it.simhash & MASK64,
            it.content_hash,
            it.text_hash,
            it.priority,
        )
        for it in items2
    ]
    assert build_groups(unsigned, 3) == build_groups(items2, 3)


def test_short_document_never_matches_by_fingerprint():
    items = [item(1, None, "a", "ta"), item(2, 0, "b", "tb"), item(3, 0, "c", "tc")]
    (g,) = build_groups(items, 3)
    assert {d for d, _ in g.members} == {2, 3}


def test_ignored_pairs_set_and_callable():
    base = signed(0x5555_AAAA_5555_AAAA)
    items = [
        item(1, base, "h1", "t1", (1,)),
        item(2, flip(base, [0]), "h2", "t2", (2,)),
        item(3, flip(base, [9]), "h3", "t3", (3,)),
    ]
    assert [len(g.members) for g in build_groups(items, 3)] == [3]
    # pair order in the set does not matter
    for ign in ({("h1", "h2")}, {("h2", "h1")}):
        groups = build_groups(items, 3, ign)
        check_groups(items, groups, 3, ign)
        assert [{d for d, _ in g.members} for g in groups] == [{1, 3}]
    # ignoring a whole group = ignoring all its pairs
    whole = {("h1", "h2"), ("h1", "h3"), ("h3", "h2")}
    assert build_groups(items, 3, whole) == []
    calls = []

    def predicate(a: str, b: str) -> bool:
        calls.append((a, b))
        return (a, b) == ("h3", "h1")

    groups = build_groups(items, 3, predicate)
    assert [{d for d, _ in g.members} for g in groups] == [
        {1, 2},
    ]
    assert calls
    # same-text documents with an ignored pair of contents stay apart too
    texts = [
        item(1, None, "x1", "T", (1,)),
        item(2, None, "x2", "T", (2,)),
        item(3, None, "x3", "T", (3,)),
    ]
    groups = build_groups(texts, 3, {("x1", "x2")})
    assert [g.members for g in groups] == [[(1, 0), (3, 0)]]


def test_empty_and_single():
    assert build_groups([], 3) == []
    assert build_groups([item(1, 5)], 3) == []
    assert build_groups([item(1, 5), item(2, -5)], 3) == []


def test_text_class_carries_every_member_fingerprint():
    """Same text with differing simhashes: the class is one node holding all of them; same bytes
    count as the same text even under another text hash."""
    a = signed(0x7777_0000_1111_2222)
    items = [
        item(1, flip(a, [0, 1, 2, 3, 4, 5]), "p", "T", (2,)),
        item(2, a, "q", "T", (1,)),
        item(3, flip(a, [40]), "r", "U", (3,)),
        item(4, flip(a, [50, 51, 52, 53, 54]), "q", "V", (4,)),  # same bytes as 2, other text
    ]
    (g,) = build_groups(items, 3)
    assert g.kind == GroupKind.NEAR and g.reference == 2
    assert g.members == [(2, 0), (1, 0), (4, 0), (3, 1)]  # by (distance, priority)
    check_groups(items, [g], 3)


@pytest.mark.parametrize("b_bits", [[10, 11], [0, 10]])
def test_near_copy_of_one_format_joins_the_whole_text_class(b_bits):
    """A_txt and A_pdf hold the same text but fingerprints 4 bits apart; B is 2 bits from the
    PDF and > k from the TXT. Class distance is the minimum over pairs, so B joins A's group."""
    s1 = signed(0x0123_4567_89AB_CDEF)
    s2 = flip(s1, [0, 1, 2, 3])
    b = flip(s2, b_bits)
    assert hamming(s1, s2) == 4 and hamming(b, s2) == 2 and hamming(b, s1) > 3
    items = [
        item(1, s1, "A.txt", "TA", (1,)),
        item(2, s2, "A.pdf", "TA", (2,)),
        item(3, b, "B.txt", "TB", (3,)),
    ]
    groups = build_groups(items, 3)
    assert groups == [BuiltGroup(GroupKind.NEAR, 1, [(1, 0), (2, 0), (3, 2)])]
    check_groups(items, groups, 3)
    # B as the reference: both formats of A are 2 bits from it (A's class distance)
    items_b = [*items[:2], item(3, b, "B.txt", "TB", (0,))]
    assert build_groups(items_b, 3) == [BuiltGroup(GroupKind.NEAR, 3, [(3, 0), (1, 2), (2, 2)])]
    # the class distance still honours k and ignored pairs
    assert build_groups(items, 1) == [BuiltGroup(GroupKind.SAME_TEXT, 1, [(1, 0), (2, 0)])]
    assert build_groups(items, 3, {("B.txt", "A.txt")}) == [
        BuiltGroup(GroupKind.SAME_TEXT, 1, [(1, 0), (2, 0)])
    ]


def test_no_chaining_through_two_fingerprints_of_one_class():
    """Class A holds a1 and a2 (6 bits apart); B is near a1 only, C near a2 only, and B, C are
    10 bits apart. A~B and A~C by class distance, so only the class minimum could chain B to C:
    they must never share a group, whatever the priorities."""
    a1 = signed(0x5A5A_0F0F_3C3C_9999)
    a2 = flip(a1, range(6))
    b = flip(a1, [20, 21])
    c = flip(a2, [30, 31])
    assert hamming(b, c) == 10 and hamming(b, a2) > 3 and hamming(c, a1) > 3
    base = [
        (1, a1, "A1", "TA"),
        (2, a2, "A2", "TA"),
        (3, b, "B", "TB"),
        (4, c, "C", "TC"),
    ]
    for prios in itertools.permutations(range(4)):
        items = [item(d, s, ch, th, (p,)) for (d, s, ch, th), p in zip(base, prios, strict=True)]
        groups = build_groups(items, 3)
        check_groups(items, groups, 3)
        assert groups == reference_groups(items, 3)
        (g,) = groups
        ids = {d for d, _ in g.members}
        assert {1, 2} <= ids and len(ids & {3, 4}) == 1
        assert g.kind == GroupKind.NEAR and {d for _, d in g.members[1:]} <= {0, 2}


@st.composite
def grouping_inputs(draw):
    """Small documents with shared bytes, shared text in differing fingerprints, short texts,
    tied priorities and ignored pairs (as a set or a predicate)."""
    k = draw(st.integers(0, 6))
    centres = draw(st.lists(INT64, min_size=1, max_size=3))
    n = draw(st.integers(0, 12))
    items = []
    for i in range(n):
        content = f"c{draw(st.integers(0, max(1, n // 2)))}"
        text = f"t{draw(st.integers(0, 4))}"
        if draw(st.integers(0, 9)) == 0:
            sim = None
        else:
            bits = draw(st.lists(st.integers(0, 63), max_size=k + 3, unique=True))
            sim = flip(draw(st.sampled_from(centres)), bits)
        items.append(item(i, sim, content, text, (draw(st.integers(0, 5)),)))
    contents = sorted({it.content_hash for it in items})
    ignored = set()
    if len(contents) >= 2:
        pairs = list(itertools.combinations(contents, 2))
        ignored = set(draw(st.lists(st.sampled_from(pairs), max_size=3)))
    if draw(st.booleans()):
        frozen = frozenset(ignored)
        ignored = lambda a, b: (a, b) in frozen  # noqa: E731 - one-way predicate on purpose
    return items, k, ignored


@settings(max_examples=400, deadline=None)
@given(grouping_inputs())
def test_groups_equal_brute_force_reference_hypothesis(case):
    """Every group is a clique under the class-minimum distance, and the whole output (members,
    order, kinds, distances) equals the brute-force statement of the rules."""
    items, k, ignored = case
    groups = build_groups(items, k, ignored)
    check_groups(items, groups, k, ignored)
    assert groups == reference_groups(items, k, ignored)


def test_many_classes_sharing_one_value_stay_linear():
    """20,000 texts, each also stored in a second format with its own fingerprint and all
    sharing one common fingerprint: every class signature differs, yet one group is O(n)."""
    common = signed(0x0BAD_F00D_0BAD_F00D)
    rng = random.Random(11)
    items = []
    for t in range(10000):
        items.append(item(2 * t, common, f"x{t}", f"T{t}", (2 * t,)))
        items.append(item(2 * t + 1, signed(rng.getrandbits(64)), f"y{t}", f"T{t}", (2 * t + 1,)))
    start = time.perf_counter()
    groups = build_groups(items, 3)
    elapsed = time.perf_counter() - start
    assert [(g.kind, g.reference, len(g.members)) for g in groups] == [(GroupKind.NEAR, 0, 20000)]
    assert {d for _, d in groups[0].members} == {0}
    assert elapsed < 3.0, f"took {elapsed:.2f} s: quadratic?"
