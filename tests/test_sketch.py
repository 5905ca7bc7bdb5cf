"""The verification sketch: exact on short texts, unbiased within its error on long ones, stored
without loss, and its Bloom filter never calls a present word absent."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from desktop_dedup.core.fingerprint import fingerprint_text
from desktop_dedup.core.sketch import (
    SALIENT_SIZE,
    SKETCH_SIZE,
    TWICE_BITS,
    TextSketch,
    decode,
    make_sketch,
    similarity,
    substituted,
    verified_similarity,
)


def token_hashes(n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.integers(0, 2**63, size=n, dtype=np.int64).astype(np.uint64)


def sketch(tokens: np.ndarray) -> TextSketch:
    values, counts = np.unique(tokens, return_counts=True)
    return make_sketch(tokens, values, counts)


def bigram_dice(a: np.ndarray, b: np.ndarray) -> float:
    x = set(zip(a.tolist(), a[1:].tolist(), strict=False))
    y = set(zip(b.tolist(), b[1:].tolist(), strict=False))
    return 2 * len(x & y) / (len(x) + len(y))


def test_short_texts_are_compared_exactly():
    a = token_hashes(60, 1)
    b = a.copy()
    b[[10, 30]] = token_hashes(2, 2)
    sa, sb = sketch(a), sketch(b)
    assert sa.complete and sb.complete and sa.shingle_count == 59
    got = similarity(sa.values, sa.shingle_count, sb.values, sb.shingle_count)
    assert got == pytest.approx(bigram_dice(a, b))
    assert got == pytest.approx(2 * 55 / 118)  # 4 of 59 bigrams changed on each side


@pytest.mark.parametrize("share", [0.05, 0.15, 0.3])
def test_long_texts_are_estimated_within_the_sketch_error(share):
    """Over 40 random 3,000-word texts with ``share`` of their words replaced, the estimate's
    mean error is below 0.01 and every estimate is within 4 standard errors of the truth."""
    rng = random.Random(int(share * 100))
    errors = []
    for trial in range(40):
        a = token_hashes(3000, trial)
        b = a.copy()
        pos = rng.sample(range(3000), int(3000 * share))
        b[pos] = token_hashes(len(pos), 10_000 + trial)
        sa, sb = sketch(a), sketch(b)
        assert not sa.complete and len(sa.values) == SKETCH_SIZE
        est = similarity(sa.values, sa.shingle_count, sb.values, sb.shingle_count)
        errors.append(est - bigram_dice(a, b))
    j = bigram_dice(a, b) / (2 - bigram_dice(a, b))
    sigma_dice = 2 / (1 + j) ** 2 * (j * (1 - j) / SKETCH_SIZE) ** 0.5
    assert abs(np.mean(errors)) < 0.01
    assert max(abs(e) for e in errors) < 4 * sigma_dice


def test_serialisation_round_trip_and_damaged_bytes():
    s = sketch(token_hashes(500, 3))
    back = TextSketch.from_bytes(s.to_bytes())
    assert np.array_equal(back.values, s.values) and back.shingle_count == 499
    assert np.array_equal(back.salient, s.salient) and np.array_equal(back.vocab, s.vocab)
    assert len(back.twice) * 8 == TWICE_BITS and np.array_equal(back.twice, s.twice)
    often, thrice = token_hashes(10, 8), token_hashes(20, 9)
    mixed = sketch(
        np.concatenate([token_hashes(300, 3), np.repeat(thrice, 3), np.repeat(often, 5)])
    )
    assert len(mixed.salient) == 24 and mixed.counts.tolist() == [5] * 10 + [3] * 14
    assert set(mixed.salient[:10].tolist()) == set(often.tolist())  # most repeated first
    back = TextSketch.from_bytes(mixed.to_bytes())
    assert back.has_counts and np.array_equal(back.counts, mixed.counts)
    assert np.array_equal(back.salient, mixed.salient)
    assert np.array_equal(back.thrice, mixed.thrice) and back.thrice.any()
    # damaged: another format, a header alone, cut short anywhere (a row of a damaged index)
    whole = mixed.to_bytes()
    cut = [whole[:n] for n in (20, 40, len(whole) // 2, len(whole) - 600)]
    for bad in (None, b"", b"\x07" + s.to_bytes()[1:], b"\x01\x00", *cut):
        empty = decode(bad)
        assert empty.shingle_count == 0 and len(empty.values) == 0
        assert similarity(empty.values, 0, s.values, s.shingle_count) == 0.0


def test_bloom_filter_never_calls_a_present_word_absent():
    words = token_hashes(3000, 4)
    s = sketch(words)
    masks = sketch(words[:500]).salient_masks  # none: no word repeats
    assert masks == ()
    repeated = np.repeat(words[:40], 3)
    present = sketch(np.concatenate([words, repeated]))
    assert len(present.salient_masks) == 24
    assert not s.lacks_one_of(present.salient_masks)  # every salient word is in ``words``
    assert not s.lacks_salient_of(present)
    absent = sketch(np.repeat(token_hashes(30, 5), 3))
    assert s.lacks_one_of(absent.salient_masks)
    assert s.lacks_salient_of(absent)
    # one absent word among present ones is enough: the union of their masks is not held
    one_absent = sketch(np.concatenate([repeated, np.repeat(token_hashes(1, 6), 3)]))
    assert s.lacks_salient_of(one_absent) and s.lacks_one_of(one_absent.salient_masks)
    assert s.lacks_salient_of(one_absent) == any(
        s.lacks_one_of((m,)) for m in one_absent.salient_masks
    )


def test_copies_that_repeat_the_same_words_as_often_skip_the_word_by_word_checks(monkeypatch):
    """Copies with names of their own (a contract for each client) repeat the same words as
    often: nothing was swapped, and no word is looked up one by one; a sibling that repeats
    another word is still checked, and still refused."""
    from desktop_dedup.core import sketch as sketch_mod

    text = token_hashes(3000, 11)
    repeated = np.repeat(text[:30], 4)
    a = sketch(np.concatenate([text, repeated, token_hashes(6, 12)]))  # six names of its own
    b = sketch(np.concatenate([text, repeated, token_hashes(6, 13)]))
    assert a.salient_profile == b.salient_profile
    looked_up = []
    real = sketch_mod._named_less
    monkeypatch.setattr(sketch_mod, "_named_less", lambda x, y: looked_up.append(1) or real(x, y))
    assert not substituted(a, b) and not looked_up
    # a sibling: the same text about another word, which it repeats as the first repeats its own
    sibling = sketch(np.concatenate([text, np.repeat(text[:29], 4), np.repeat(text[40:41], 4)]))
    assert sibling.salient_profile != a.salient_profile
    assert substituted(a, sibling)


_POOL = token_hashes(20, 21)  # the words two documents may repeat (at most SALIENT_SIZE)
_FILLER = token_hashes(600, 22)  # text each holds once


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(0, 30), min_size=20, max_size=20),
    st.lists(st.integers(0, 30), min_size=20, max_size=20),
    st.booleans(),
)
def test_pages_naming_each_other_are_told_alike_with_the_same_salient_words_or_not(
    ca, cb, same_words
):
    """The shortcut for two documents with the same salient words (their counts side by
    side) answers as the lookup a word does, whichever words and counts the two hold
    (``same_words``: b repeats SALIENT_MIN_COUNT times or more the words a does, and only
    those)."""
    from desktop_dedup.core import sketch as sketch_mod

    if same_words:
        cb = [max(b, 3) if a >= 3 else min(b, 2) for a, b in zip(ca, cb, strict=True)]
    a = sketch(np.concatenate([_FILLER, np.repeat(_POOL, ca)]))
    b = sketch(np.concatenate([_FILLER, np.repeat(_POOL, cb)]))
    if same_words:
        assert a.salient_by_word[0] == b.salient_by_word[0]
    expected = (
        a.has_counts
        and b.has_counts
        and sketch_mod._named_less(a, b)
        and sketch_mod._named_less(b, a)
    )
    assert sketch_mod._named_less_both_ways(a, b) == expected


def test_pages_with_the_same_salient_words_that_name_each_other_less():
    """Two pages repeating the same words, each naming its own word three times as often as
    the other (27 against 9, 9 against 27): the shortcut finds it, as the lookup a word does."""
    from desktop_dedup.core import sketch as sketch_mod

    a = sketch(np.concatenate([_FILLER, np.repeat(_POOL[:3], [27, 9, 5])]))
    b = sketch(np.concatenate([_FILLER, np.repeat(_POOL[:3], [9, 27, 5])]))
    assert a.salient_by_word[0] == b.salient_by_word[0]
    assert sketch_mod._named_less(a, b) and sketch_mod._named_less(b, a)
    assert sketch_mod._named_less_both_ways(a, b)
    c = sketch(np.concatenate([_FILLER, np.repeat(_POOL[:3], [9, 20, 5])]))  # 20 < 3 * 9
    assert sketch_mod._named_less(a, c) and not sketch_mod._named_less(c, a)
    assert not sketch_mod._named_less_both_ways(a, c)


def test_words_held_twice_or_three_times_are_never_called_held_less():
    """The filters of rare words held at least twice and at least three times: a word the
    document holds twice is never reported as held once at most, one it holds three times
    or more never as held twice at most (either would take a copy for another document); a
    word held once or twice is, unless a filter errs (then the pair is left to its share, as
    without the filters); a sketch made before the filters reports nothing."""
    body = token_hashes(400, 11)
    thrice, twice, once = token_hashes(40, 14), token_hashes(40, 12), token_hashes(40, 13)
    doc = sketch(np.concatenate([body, thrice, thrice, thrice, twice, twice, once]))

    def mask(word):
        return sketch(np.repeat([word], 3)).salient_twice_masks[0]

    held = sketch(np.repeat(twice, 3)).salient_twice_masks
    assert len(held) == 24 and all(doc.at_most(m) != 1 for m in held)
    assert all(doc.at_most(mask(w)) is None for w in thrice)
    assert all(doc.at_most(mask(w)) in (2, None) for w in twice)
    assert sum(doc.at_most(mask(w)) == 2 for w in twice) >= 35  # 1024 bits err rarely
    assert sum(doc.at_most(mask(w)) == 1 for w in once) >= 35
    older = TextSketch(doc.values, doc.shingle_count, doc.salient, doc.vocab)
    assert len(older.twice) == 0 and all(older.at_most(m) is None for m in held)
    assert not older.has_counts and older.at_most(mask(once[0])) is None


def test_substitution_needs_a_repeated_word_swapped_both_ways():
    body = token_hashes(200, 6)
    name_a, name_b = token_hashes(2, 7)
    a, b = body.copy(), body.copy()
    a[[0, 50, 100]] = name_a
    b[[0, 50, 100]] = name_b
    sa, sb = sketch(a), sketch(b)
    assert substituted(sa, sb) and verified_similarity(sa, sb) == 0.0
    # the name added in one only (an insertion, not a swap): no substitution
    c = a.copy()
    c[[20, 70, 120]] = name_b
    assert not substituted(sa, sketch(c))
    assert verified_similarity(sa, sketch(c)) > 0.8
    # one page names the other once or twice (a reference): a swap when as many occurrences
    # of the two names are gone as in a swap both ways (3 + 3), either way round; not with
    # three and three and one left (a copy cut short against an edited copy can do that)
    d = a.copy()
    d[150] = name_b
    assert not substituted(sketch(d), sb) and not substituted(sb, sketch(d))
    d4, b4 = d.copy(), b.copy()
    d4[180], b4[180] = name_a, name_b
    for one, other in ((d4, b), (d, b4), (d4, b4)):  # 4 + 3 - 1, 3 + 4 - 1, 4 + 4 - 1
        assert substituted(sketch(one), sketch(other)) and substituted(sketch(other), sketch(one))
    # named twice: a swap when the other page names itself six times (three for each), not
    # four (a revision may use a word four times where it had it twice)
    d4[170] = name_b
    b6 = b4.copy()
    b6[[20, 40]] = name_b
    assert substituted(sketch(d4), sketch(b6)) and substituted(sketch(b6), sketch(d4))
    assert not substituted(sketch(d4), sketch(b4)) and not substituted(sketch(b4), sketch(d4))
    # named three times: no mere reference, no swap
    d4[160] = name_b
    assert not substituted(sketch(d4), sketch(b6)) and not substituted(sketch(b6), sketch(d4))


def test_pages_that_name_each_other_are_a_swap_when_each_names_itself_far_more():
    """Sibling pages may name each other (SEE ALSO): then neither lacks the other's name, and
    the pair is a swap both ways when each page names its own word at least three times as
    often as the other page does, and three times more: 4 and 1 each way (expand and unexpand),
    or 13 against 4 (whatis in its page and in apropos's). Three against one each way is two
    occurrences gone each way, which two copies of one short text can lose (a cut, an edit)."""
    body = token_hashes(200, 8)
    name_a, name_b = token_hashes(2, 9)

    def page(own, other, n_own, n_other):
        doc = body.copy()
        doc[[10 * (k + 1) for k in range(n_own)]] = own
        doc[[5 + 10 * (k + 1) for k in range(n_other)]] = other
        return sketch(doc)

    for (n1, m1), (n2, m2), swap in (
        ((4, 1), (4, 1), True),  # expand and unexpand
        ((13, 1), (8, 4), True),  # whatis and apropos, in Chinese
        ((6, 2), (6, 2), True),  # three times as often, four more, each way
        ((3, 1), (3, 1), False),  # two gone each way
        ((6, 3), (6, 1), False),  # twice as often one way: a revision's rewording
        ((4, 1), (3, 1), False),  # three gone one way, two the other
    ):
        a, b = page(name_a, name_b, n1, m1), page(name_b, name_a, n2, m2)
        assert substituted(a, b) is swap and substituted(b, a) is swap, (n1, m1, n2, m2)
        assert (verified_similarity(a, b) == 0.0) is swap


def test_a_name_among_many_repeated_words_is_held_at_most_as_often_as_the_least_of_them():
    """A sketch keeps its 24 most repeated rare words: a word left out of a full list is held
    at most as often as the least of them. man-db's English ``apropos`` page names ``whatis``
    four times among 24 words it repeats five times or more; ``whatis``'s page names itself
    16 times and ``apropos`` once: a swap both ways, though ``whatis``'s count in the other
    page is not kept."""
    body = token_hashes(300, 10)
    fillers = token_hashes(24, 11)
    name_a, name_b = token_hashes(2, 12)

    def page(own, n_own, other, n_other, repeats):
        return sketch(
            np.concatenate(
                [body, np.repeat(fillers, repeats), [own] * n_own, [other] * n_other, body[:40]]
            )
        )

    apropos, whatis = page(name_a, 11, name_b, 4, 5), page(name_b, 16, name_a, 1, 5)
    assert len(apropos.salient) == SALIENT_SIZE and int(apropos.counts.min()) == 5
    assert substituted(apropos, whatis) and substituted(whatis, apropos)
    # 14 times: under three times as often as five
    whatis14 = page(name_b, 14, name_a, 1, 5)
    assert not substituted(apropos, whatis14) and not substituted(whatis14, apropos)


def test_same_text_in_traditional_chinese_is_the_same_document():
    import opencc

    from tests.docgen import SAMPLE_ZH

    plain = decode(fingerprint_text(SAMPLE_ZH).sketch)
    for config in ("s2t", "s2tw", "s2hk", "s2twp"):
        traditional = opencc.OpenCC(config).convert(SAMPLE_ZH)
        assert traditional != SAMPLE_ZH
        other = decode(fingerprint_text(traditional).sketch)
        assert verified_similarity(plain, other) >= 0.9, config


def _long_page(own, n_own, other, n_other, fillers, repeats):
    """A page of one long template (a reference page made for each of several types): the
    template's words repeated ``repeats`` times each, its own name ``n_own`` times and its
    sibling's ``n_other`` times."""
    body = token_hashes(300, 20)
    return sketch(
        np.concatenate(
            [body, np.repeat(fillers, repeats), [own] * n_own, [other] * n_other, body[:40]]
        )
    )


def test_pages_that_name_themselves_hundreds_of_times_are_a_swap():
    """Rust's reference pages of `i16` and `i32` are one template of 160,000 characters: each
    names its own type about 1,670 times and the other about 70 times, among 24 words each
    repeated 140 times or more. The counts were kept in a byte: 255 for 1,670, under three
    times the 140 the other page holds at most, and the two were one document (96.8 %). The
    counts are kept whole now; a copy of a page that names itself as often is no swap."""
    fillers = token_hashes(24, 21)
    name_a, name_b = token_hashes(2, 22)
    i16 = _long_page(name_a, 1670, name_b, 70, fillers, 150)
    i32 = _long_page(name_b, 1674, name_a, 75, fillers, 150)
    assert int(i16.counts.max()) == 1670 and int(i32.counts.max()) == 1674
    assert substituted(i16, i32) and substituted(i32, i16)
    assert verified_similarity(i16, i32) == 0.0
    back = TextSketch.from_bytes(i16.to_bytes())
    assert back.counts.tolist() == i16.counts.tolist() and substituted(back, i32)
    # a copy that names itself as often (a few occurrences lost to a cut, or more in a
    # revision that grew) is the same page
    for n in (1500, 1670, 2400):
        copy = _long_page(name_a, n, name_b, 70, fillers, 150)
        assert not substituted(i16, copy) and not substituted(copy, i16)
        assert verified_similarity(i16, copy) > 0.9


def test_a_sketch_with_counts_kept_in_a_byte_meets_a_newer_one_as_before():
    """A sketch stored before the counts were kept whole holds 255 for any count above it (a
    shared index may hold such sketches beside new ones, or a scan cancelled half way): a
    newer copy of the page, which names itself 1,670 times where the older one says 255, is
    still the same page, and two older siblings are left to their share as before."""
    fillers = token_hashes(24, 23)
    name_a, name_b = token_hashes(2, 24)

    def stored_before(s: TextSketch) -> TextSketch:  # as the version before wrote it
        narrow = dataclasses.replace(s, counts=np.minimum(s.counts, 255).astype(np.uint8))
        return TextSketch.from_bytes(narrow.to_bytes())

    new = _long_page(name_a, 1670, name_b, 70, fillers, 300)
    old = stored_before(_long_page(name_a, 1650, name_b, 70, fillers, 300))
    assert old.counts.dtype == np.uint8 and old.counts.tolist() == [255] * SALIENT_SIZE
    assert not substituted(new, old) and not substituted(old, new)
    assert verified_similarity(new, old) > 0.9
    sibling = stored_before(_long_page(name_b, 1670, name_a, 70, fillers, 300))
    assert not substituted(old, sibling) and not substituted(sibling, old)
