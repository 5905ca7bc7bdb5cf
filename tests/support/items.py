"""Grouping items made of texts, as a scan would store them: each text fingerprinted, its own
content, its own priority in the order given; and a count of the pairs a grouping verifies."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from desktop_dedup.core import grouping
from desktop_dedup.core.fingerprint import fingerprint_text
from desktop_dedup.core.grouping import GroupingItem


def grouping_items(texts: Iterable[str]) -> list[GroupingItem]:
    items = []
    for k, text in enumerate(texts):
        fp = fingerprint_text(text)
        items.append(
            GroupingItem(
                doc_id=k,
                content_hash=f"c{k}",
                text_hash=fp.text_hash,
                simhash=fp.simhash,
                sketch=fp.sketch,
                priority=(0, 0, f"{k:06d}"),
            )
        )
    return items


def count_verifications(mp: pytest.MonkeyPatch) -> list:
    """The pairs the grouping verifies one by one (the arguments of each call of
    sketch.verified_similarity it makes), recorded while ``mp`` holds."""
    verified = []
    real = grouping.sketch_mod.verified_similarity
    mp.setattr(
        grouping.sketch_mod,
        "verified_similarity",
        lambda *a, **k: verified.append(a) or real(*a, **k),
    )
    return verified


@contextmanager
def grouping_loads(store: Any) -> Iterator[list[list[int] | None]]:
    """The documents ``store`` is asked for what grouping needs of them while the block runs
    (Store.grouping_rows), one entry per call: their ids, or None for every document (a full
    regroup, which reloads every fingerprint)."""
    loads: list[list[int] | None] = []
    original = store.grouping_rows

    def spy(ids: Iterable[int] | None = None, **kw: Any) -> Any:
        ids = None if ids is None else list(ids)
        loads.append(ids)
        return original(ids, **kw)

    store.grouping_rows = spy
    try:
        yield loads
    finally:
        store.grouping_rows = original
