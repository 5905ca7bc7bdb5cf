"""core/release.py: making and freeing large collections."""

from __future__ import annotations

import gc

import pytest

from desktop_dedup.core import grouping
from desktop_dedup.core.release import collection_paused, drop_gradually


def test_the_collector_is_off_in_the_block_and_as_it_was_after():
    assert gc.isenabled()
    with collection_paused():
        assert not gc.isenabled()
        with collection_paused():  # nested: the outer block turns it on again
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(ZeroDivisionError), collection_paused():
        raise ZeroDivisionError
    assert gc.isenabled()
    gc.disable()  # a caller that had it off keeps it off
    try:
        with collection_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_grouping_runs_without_collections_and_leaves_the_collector_on():
    """Grouping a million documents makes millions of objects that live to its end: each
    collection while they accumulated went over all of them (about 0.4 s of the 3)."""
    seen = []

    def collected(phase: str, info: dict) -> None:
        if phase == "start":
            seen.append(info["generation"])

    items = [grouping.GroupingItem(i, i * 7919, f"c{i}", f"t{i}", (i,), b"") for i in range(20_000)]
    gc.collect()  # counts from zero: no collection is due as grouping starts
    gc.callbacks.append(collected)
    try:
        grouping.build_groups(items, 0.75)
    finally:
        gc.callbacks.remove(collected)
    # thousands while it ran before; now only what falls due as the collector is on again
    assert len(seen) <= 2, len(seen)
    assert gc.isenabled()


def test_drop_gradually_empties_lists_and_dicts_and_leaves_the_rest():
    a, b, c = list(range(10_000)), {i: i for i in range(10_000)}, (1, 2)
    drop_gradually(a, b, c)
    assert a == [] and b == {} and c == (1, 2)
