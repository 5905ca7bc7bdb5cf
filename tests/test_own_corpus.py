"""Matching on a labelled corpus of our own (tests/owncorpus.py): manual pages in thirteen
languages and scripts, with their variants, through a real scan.

Floors sit under what the full corpus measured (tests/bench/bench_own_corpus.py, README): a
false group is the worse error, so precision must stay at 0.995; recall at 0.95 (complete
linkage leaves a heavily edited copy out of a family when it is below the threshold with one
other member)."""

from __future__ import annotations

import collections
from pathlib import Path

import owncorpus

from desktop_dedup.core.service import DedupService


def test_other_languages_and_their_templates_are_matched_as_people_would(tmp_path):
    files = owncorpus.sources(pages=3)
    assert len({f.parent.name for f in files}) == 13
    truth = owncorpus.build(tmp_path / "docs", files)
    with DedupService(tmp_path / "index.sqlite") as service:
        service.add_folder(tmp_path / "docs")
        service.scan()
        groups = [[Path(m.path).name for m in g.members] for g in service.groups()]
    precision, recall, missed, false = owncorpus.score(groups, truth)
    print(f"own corpus, {len(truth.family)} files: precision {precision:.3f}, recall {recall:.3f}")
    assert precision >= 0.995, [(truth.family[a], truth.family[b]) for a, b in false[:5]]
    assert recall >= 0.95, collections.Counter(truth.family[a] for a, _ in missed).most_common(5)
    # every language is found, the scripts jieba does not segment included
    found_languages = {truth.family[name].split("/")[0] for g in groups for name in g}
    assert found_languages >= {"ru", "uk", "ko", "ja", "de", "fr", "pl", "tr"}
