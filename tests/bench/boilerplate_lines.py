"""Pairs that share only boilerplate: the rule as built, beside the build without it.

Two different notes under one long disclaimer (a company's mail) verify as the same once the
disclaimer is about four times the note, and the corpus calls documents that only share
boilerplate different. Two documents alone cannot tell that pair from one text saved twice
with a different long title or banner each; the index can count how many of its different
texts hold each line (table ``short_lines``, sketch.BOILERPLATE_MIN_TEXTS,
sketch.COMMON_LINE_FACTOR). The rule (sketch.shares_only_boilerplate), for a grouped pair of
short documents each holding a line the other lacks: the lines both hold that are held by at
least N different texts of the index, and by at least COMMON_LINE_FACTOR times as many as any
line only one of them holds, are boilerplate; what is left of each (its content words outside
those lines, in order), when each has MIN_NEAR_WORDS words or more, must share at least half
of the smaller side's words in order, or the pair is two documents.

For each set, a real scan by the build without the rule (its grouped pairs of short
documents, same and different by the set's truth, and how many of them each of RULES would
refuse with boilerplate held by N texts, N in LEVELS: "half" the rule without the
MIN_NEAR_WORDS floor, "half4" the rule built at N = 10, "own" each side adding more than light
edits of its whole text), then a real scan by the build (the pairs it groups, same and
different). The sets: the public corpora's labels; the short-text sets' and the disclaimer
sets' construction; Debian changelog entries by test_templates' oracle (under half of their
word trigrams different, four fifths or more the same); a mail merge's letters, each to
another person, all different.

Run: ``.venv/bin/python -m tests.bench.boilerplate_lines``
"""

from __future__ import annotations

import contextlib
import itertools
import json
import re
import tempfile
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any
from unittest import mock

import numpy as np

from desktop_dedup.core import sketch as sk
from desktop_dedup.core.service import DedupService
from tests.bench.bench_families import write_letters
from tests.bench.bench_own_corpus import (
    changelog_entries,
    disclaimer_sets,
    owncorpus,
    test_templates,
    write_under_disclaimer,
)
from tests.bench.bench_small_files import CORPUS

LEVELS = (3, 10)  # N: the fewest different texts holding a line for it to be boilerplate
LEFT_MIN_SHARED = sk.BOILERPLATE_LEFT_SHARE  # of the smaller side's words left, in order
Label = Callable[[str, str], str | None]  # two paths -> "same", "different" or None (gray)


def _under_half(left_a: np.ndarray, left_b: np.ndarray, n_a: int, n_b: int) -> bool:
    """What is left of the two shares under half of the smaller side's words, in order."""
    return sk._lcs_length(left_a, left_b) < LEFT_MIN_SHARED * min(len(left_a), len(left_b))


def _each_adds_its_own(left_a: np.ndarray, left_b: np.ndarray, n_a: int, n_b: int) -> bool:
    """Each side's left text holds more words beyond what the two share in order than light
    edits of its whole text allow (sketch._edits_allowed of its ``n_a`` or ``n_b`` content
    words: 5 %, or one), as trimmed_similarity asks of a side that adds text of its own."""
    common = sk._lcs_length(left_a, left_b)
    own_a, own_b = len(left_a) - common, len(left_b) - common
    return own_a > sk._edits_allowed(n_a) and own_b > sk._edits_allowed(n_b)


def _under_half_of_words(left_a: np.ndarray, left_b: np.ndarray, n_a: int, n_b: int) -> bool:
    """:func:`_under_half`, when each side has MIN_NEAR_WORDS words left or more: fewer are a
    name or a date (a form letter's), which the rule leaves to the share of the whole."""
    small = min(len(left_a), len(left_b)) < sk.MIN_NEAR_WORDS
    return not small and _under_half(left_a, left_b, n_a, n_b)


# What is left of the two sides judged two documents: the rules compared
RULES: dict[str, Callable[[np.ndarray, np.ndarray, int, int], bool]] = {
    "half": _under_half,
    "half4": _under_half_of_words,
    "own": _each_adds_its_own,
}


def refused(
    a: sk.TextSketch,
    b: sk.TextSketch,
    counts: Mapping[int, int],
    n: int,
    rule: Callable[[np.ndarray, np.ndarray, int, int], bool] = _under_half,
) -> bool:
    """Whether ``rule`` refuses the pair (module docstring), with boilerplate held by ``n``."""
    ids_a, ids_b = sk.line_ids(a).tolist(), sk.line_ids(b).tolist()
    lines_a, lines_b = set(ids_a) - {0}, set(ids_b) - {0}
    both = lines_a & lines_b
    if not both or not lines_a - lines_b or not lines_b - lines_a:
        return False
    top = max(counts.get(i, 0) for i in lines_a ^ lines_b)
    common = {
        i for i in both if counts.get(i, 0) >= n and counts.get(i, 0) >= sk.COMMON_LINE_FACTOR * top
    }
    if not common:
        return False

    def left(s: sk.TextSketch, ids: list[int]) -> np.ndarray:
        line = np.minimum(s.word_lines.astype(np.int64), len(ids) - 1).tolist()
        return s.words[~np.array([ids[k] in common for k in line], dtype=bool)]

    left_a, left_b = left(a, ids_a), left(b, ids_b)
    if len(left_a) == 0 or len(left_b) == 0:
        return False
    return rule(left_a, left_b, len(a.words), len(b.words))


@contextlib.contextmanager
def _without_the_rule() -> Iterator[None]:
    """The build as it was before the rule: no pair refused for boilerplate, and every family
    taken whole when its bounds allow (the baseline of the same run)."""
    with (
        mock.patch.object(sk, "shares_only_boilerplate", lambda a, b, common: False),
        mock.patch.object(sk, "none_share_only_boilerplate", lambda sks, common: True),
    ):
        yield


def _grouped(folder: Path, db: Path) -> tuple[list[list[str]], dict[str, Any], Any]:
    """A real scan of ``folder`` into a new index at ``db``: its groups' paths, every
    document's sketch, and the store's line counts of them (Store.line_counts)."""
    db.unlink(missing_ok=True)
    with DedupService(db) as service:
        service.add_folder(folder)
        service.scan()
        groups = [[m.path for m in g.members] for g in service.groups()]
        sketches = {r.path: sk.decode(r.sketch) for r in service.store.grouping_rows(None)}
        lines = {i for s in sketches.values() for i in sk.line_ids(s).tolist()} - {0}
        counts = service.store.line_counts(lines)
    return groups, sketches, counts


def _short_pairs(
    groups: list[list[str]], sketches: dict[str, Any], label: Label
) -> Iterator[tuple[str, Any, Any]]:
    """The grouped pairs of two short documents that ``label`` calls same or different."""
    for group in groups:
        for x, y in itertools.combinations(group, 2):
            a, b = sketches[x], sketches[y]
            kind = label(x, y)
            if kind is not None and len(a.words) and len(b.words):
                yield kind, a, b


def measured(
    folder: Path, db: Path, label: Label
) -> tuple[dict[str, int], dict[tuple[str, int], dict[str, int]], dict[str, int]]:
    """Real scans of ``folder`` into a new index at ``db``: the grouped pairs of short
    documents of the build without the rule, same and different by ``label``; by each of
    RULES at each level of LEVELS how many of them it refuses (the lines counted as the
    grouping counts them, Store.line_counts); and the grouped pairs of the build, with how
    many of them the rule built refuses (none, or the build is not the rule measured)."""
    with _without_the_rule():
        groups, sketches, counts = _grouped(folder, db)
    seen = {"same": 0, "different": 0}
    hit = {(r, n): {"same": 0, "different": 0} for r in RULES for n in LEVELS}
    for kind, a, b in _short_pairs(groups, sketches, label):
        seen[kind] += 1
        for r, n in hit:
            hit[r, n][kind] += refused(a, b, counts, n, RULES[r])
    groups, sketches, counts = _grouped(folder, db)
    built = {"same": 0, "different": 0, "refused": 0}
    for kind, a, b in _short_pairs(groups, sketches, label):
        built[kind] += 1
        built["refused"] += refused(a, b, counts, sk.BOILERPLATE_MIN_TEXTS, _under_half_of_words)
    return seen, hit, built


def report(name: str, folder: Path, db: Path, label: Label) -> None:
    seen, hit, built = measured(folder, db, label)
    by_level = "; ".join(f"{r} N={n} {h['same']}/{h['different']}" for (r, n), h in hit.items())
    print(
        f"  {name}: grouped pairs of short documents without the rule {seen['same']} same, "
        f"{seen['different']} different; refused same/different: {by_level}; grouped by the "
        f"build {built['same']} same, {built['different']} different"
    )


def labelled(corpus: Path) -> Label:
    truth = json.loads((corpus / "truth.json").read_text(encoding="utf-8"))
    same = {tuple(sorted(p)) for p in truth["positive"]}
    gray = {tuple(sorted(p)) for p in truth["gray"]}
    docs = corpus / "docs"

    def label(x: str, y: str) -> str | None:
        key = tuple(sorted(str(Path(p).relative_to(docs)) for p in (x, y)))
        return None if key in gray else "same" if key in same else "different"

    return label


def by_truth(truth: owncorpus.Truth) -> Label:
    def label(x: str, y: str) -> str | None:
        a, b = Path(x).name, Path(y).name
        if truth.gray(a, b):
            return None
        return "same" if truth.family[a] == truth.family[b] else "different"

    return label


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="boilerplate-") as tmp:
        run(Path(tmp))


def run(tmp: Path) -> None:
    print(
        "boilerplate lines: grouped pairs of short documents the rules would refuse (half: "
        f"what is left shares under {LEFT_MIN_SHARED:.0%} of the smaller side in order; half4: "
        f"the same when each side has {sk.MIN_NEAR_WORDS} words left or more, the rule built at "
        f"N={sk.BOILERPLATE_MIN_TEXTS}; own: each side adds more than light edits of its own), "
        "and the pairs the build groups"
    )
    for name in ("public", "public2"):
        report(name, CORPUS / name / "docs", tmp / f"{name}.sqlite", labelled(CORPUS / name))
    for label, texts in (
        ("manual-page sentences", owncorpus.short_sentences(150)),
        ("manual-page paragraphs", owncorpus.short_paragraphs(150)),
        ("Simplified Chinese help texts", owncorpus.cjk_notes("zh_CN")[:150]),
        ("Traditional Chinese help texts", owncorpus.cjk_notes("zh_TW")[:150]),
        ("Japanese help texts", owncorpus.cjk_notes("ja")[:150]),
        ("Korean help texts", owncorpus.cjk_notes("ko")[:150]),
    ):
        folder = tmp / re.sub(r"\W+", "_", label)
        truth = owncorpus.build_short(folder, texts, pdf_every=3, footer=True)
        report(f"{label} with their copies", folder, folder.with_suffix(".sqlite"), by_truth(truth))
    for label, texts, language in disclaimer_sets():
        for where in ("below", "above"):
            folder = tmp / f"disclaimer-{label.split()[0]}-{language}-{where}"
            write_under_disclaimer(folder, texts, language, where)
            report(
                f"150 different {label}, a disclaimer {where} each",
                folder,
                folder.with_suffix(".sqlite"),
                lambda x, y: "different",
            )
    entries = changelog_entries()
    if entries:
        folder = tmp / "changelogs"
        folder.mkdir()
        for name, text in entries.items():
            (folder / name).write_text(text, encoding="utf-8")
        grams = {name: test_templates.text_grams(text) for name, text in entries.items()}

        def oracle(x: str, y: str) -> str | None:
            j = test_templates.jaccard(grams[Path(x).name], grams[Path(y).name])
            return "different" if j < 0.5 else "same" if j >= 0.8 else None

        report(f"{len(entries)} Debian changelog entries", folder, tmp / "cl.sqlite", oracle)
    folder = tmp / "letters"
    write_letters(folder, 300, 1)
    report(
        "300 form letters, each to another person",
        folder,
        tmp / "l.sqlite",
        lambda x, y: "different",
    )


if __name__ == "__main__":
    main()
