"""Latent false pairs: labelled negatives that verify at or above the threshold.

Not a benchmark with a target but a look at precision that the scores cannot give. A group
holds only documents that are all pairwise the same, built closest pairs first, so a pair of
different documents that verifies as the same may still never share a group: each joined a
closer family first. The corpus scores then count no false pair, but a collection where that
family is missing (another folder, another corpus made the same way) groups the two. Found
in the twenty-sixth session: public2's Chinese md5sum and sha224sum pages (labelled two
documents) verify at 0.86 and were kept apart only because md5sum's page joins sha1sum's first.

This scans the labelled corpora (by default the two public ones), verifies every candidate
pair the grouping proposes, and lists the pairs of different source texts (neither positive
nor gray in the corpus's truth.json) that verify at or above the threshold; beside it, the
same count with the template rule off (``verified_similarity(veto=False)``), what that rule
keeps apart. Run: ``.venv/bin/python -m tests.bench.latent_pairs``
"""

from __future__ import annotations

import json
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

from desktop_dedup.core import grouping
from desktop_dedup.core import sketch as sketch_mod
from desktop_dedup.core.service import DedupService
from tests.bench.bench_small_files import CORPUS


def labels(corpora: list[Path]) -> tuple[dict[str, str], set[tuple[str, str]]]:
    """Each document's source text (by absolute path) and the pairs that are not negatives
    (positive or gray), each pair sorted; documents of two corpora are never compared."""
    source: dict[str, str] = {}
    not_negative: set[tuple[str, str]] = set()
    for root in corpora:
        truth = json.loads((root / "truth.json").read_text(encoding="utf-8"))
        docs = root / "docs"
        for path, text in truth["files"].items():
            source[str(docs / path)] = f"{root.name}:{text}"
        for a, b in [*truth["positive"], *truth.get("gray", [])]:
            pair = sorted((str(docs / a), str(docs / b)))
            not_negative.add((pair[0], pair[1]))
    return source, not_negative


def run(corpora: list[Path], index: Path) -> dict[str, Any]:
    """Scan ``corpora`` into ``index`` and verify the grouping's candidate pairs; the latent
    false pairs, with and without the template rule."""
    source, not_negative = labels(corpora)
    seen: dict[str, Any] = {}
    verify = grouping._verify_pairs

    def capture(pairs, sketch, raw, threshold, common, helper):  # type: ignore[no-untyped-def]
        shares = verify(pairs, sketch, raw, threshold, common, None)
        unvetoed = [
            sketch_mod.verified_similarity(sketch(a), sketch(b), threshold, common, veto=False)
            for a, b in pairs
        ]
        seen.update(pairs=pairs, shares=shares, unvetoed=unvetoed, raw=raw, threshold=threshold)
        return shares

    with DedupService(index) as svc:
        svc.scan([root / "docs" for root in corpora])
        rows = svc.store.grouping_rows(None)
        grouping._verify_pairs = capture
        try:
            svc.regroup()  # a full regroup, as the scan's own: every candidate pair verified
        finally:
            grouping._verify_pairs = verify
    # a verified pair is of two text classes, each given by its representative's sketch: its
    # documents are those with that document's text
    by_sketch: dict[bytes, list[Any]] = defaultdict(list)
    by_text: dict[str, list[str]] = defaultdict(list)
    for r in rows:
        by_sketch[bytes(r.sketch or b"")].append(r)
        by_text[r.text_hash or r.content_hash].append(r.path)

    def documents(c: int) -> list[str]:
        reps = by_sketch[bytes(seen["raw"][c])]
        return sorted({p for r in reps for p in by_text[r.text_hash or r.content_hash]})

    threshold = seen["threshold"]
    latent, without_rule = [], 0
    for (a, b), share, unvetoed in zip(
        seen["pairs"], seen["shares"], seen["unvetoed"], strict=True
    ):
        if max(share, unvetoed) < threshold:
            continue
        for x in documents(a):
            for y in documents(b):
                sx, sy = source.get(x), source.get(y)
                if sx is None or sy is None or sx.split(":")[0] != sy.split(":")[0]:
                    continue  # unlabelled, or two corpora
                pair = (x, y) if x < y else (y, x)
                if sx == sy or pair in not_negative:
                    continue
                without_rule += 1
                if share >= threshold:
                    latent.append((share, sx, sy, x, y))
    return {
        "candidates": len(seen["pairs"]),
        "latent": sorted(latent, reverse=True),
        "without_rule": without_rule,
        "threshold": threshold,
    }


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    corpora = [Path(a) for a in args] or [CORPUS / "public", CORPUS / "public2"]
    with tempfile.TemporaryDirectory(prefix="latent_") as tmp:
        r = run(corpora, Path(tmp) / "index.sqlite")
    print(
        f"latent false pairs in {', '.join(c.name for c in corpora)}: {len(r['latent'])} pairs "
        f"of different source texts verify at or above {r['threshold']:.2f} "
        f"({r['candidates']:,} candidate pairs verified); with the template rule off: "
        f"{r['without_rule']}"
    )
    for share, sx, sy, x, y in r["latent"]:
        print(f"  {share:.3f}  {sx} | {sy}  ({Path(x).name}, {Path(y).name})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
