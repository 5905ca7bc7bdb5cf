"""Grouping items made of texts, as a scan would store them: each text fingerprinted, its own
content, its own priority in the order given."""

from __future__ import annotations

from collections.abc import Iterable

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
