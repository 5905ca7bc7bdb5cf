"""Same topic is not the same document: the five seed articles all explain simhash, in Chinese.

Squared term frequency concentrates a fingerprint on a document's repeated words, which is what
keeps edited copies close; this checks the other side on real prose: different articles on one
subject, and different parts of one article, must stay far apart (no group at k = 3).
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from desktop_dedup.core.fingerprint import fingerprint_text
from desktop_dedup.core.grouping import hamming

SEEDS = Path(__file__).resolve().parents[1].parent / "shared" / "seeds"


@pytest.mark.skipif(not SEEDS.is_dir(), reason="../shared/seeds is not beside the repo")
def test_articles_on_one_topic_and_parts_of_one_article_are_not_near_duplicates():
    texts = {}
    for path in sorted(SEEDS.glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        texts[path.stem] = text
        half = len(text) // 2
        texts[path.stem + "/first-half"] = text[:half]
        texts[path.stem + "/second-half"] = text[half:]
    assert len(texts) >= 15
    fps = {name: fingerprint_text(text).simhash for name, text in texts.items()}
    distances = {
        (a, b): hamming(fps[a], fps[b])
        for a, b in itertools.combinations(texts, 2)
        if fps[a] is not None and fps[b] is not None
    }
    # Parts of one article, or two articles on the same subject, share vocabulary, not text.
    halves = {pair: d for pair, d in distances.items() if "/" in pair[0] and "/" in pair[1]}
    assert min(halves.values()) > 6, sorted(halves.items(), key=lambda kv: kv[1])[:3]
    different_articles = {
        (a, b): d for (a, b), d in distances.items() if a.split("/")[0] != b.split("/")[0]
    }
    assert min(different_articles.values()) > 6
