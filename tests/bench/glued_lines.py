"""Notes alone and the same notes as mails above or below a disclaimer many texts hold: the
build, beside the build without sketch.left_out_boilerplate_similarity, same run.

A note of 8-60 words and the note with a company's disclaimer of 50 words (70 Chinese
characters) glued to it share a third of their word pairs or less: the disclaimer is most of
the mail, and no edge line a trim may leave out (fingerprint.EDGE_MAX_LINE_TOKENS). The index
tells the disclaimer by how many different texts hold its line (sketch.BOILERPLATE_MIN_TEXTS,
sketch.COMMON_LINE_FACTOR): a short document that is another with such lines glued to it is
compared without them. For each of owncorpus's sets of different notes (bench_own_corpus's
disclaimer_sets), every note as a mail with the disclaimer below (or above) it, and forty of
them alone too: how many of the forty pairs (note alone, its mail) a real scan groups, and
how many pairs of two different notes it groups, by both builds.

Then the same note sent from two companies: each of the 150 notes above (or below) one
disclaimer, and forty of them above (or below) another company's too, so that each copy
holds a line the other lacks: the pairs of one note's two mails found, and pairs of different
notes grouped, by the view that leaves out the lines of one side only (as the fifty-ninth
session built it: patched in here) and by the build, which leaves out each side's own.

Run: ``.venv/bin/python -m tests.bench.glued_lines``
"""

from __future__ import annotations

import itertools
import tempfile
from collections.abc import Callable
from contextlib import nullcontext
from pathlib import Path
from unittest import mock

from desktop_dedup.core import sketch as sk
from tests.bench.bench_own_corpus import (
    disclaimer_sets,
    owncorpus,
    scanned_groups,
    write_under_disclaimer,
)

ALONE = 40  # the notes also saved alone, or under the other disclaimer


def _scan(folder: Path) -> tuple[int, int]:
    """The pairs (note alone, its mail) a scan of ``folder`` groups, and the pairs of two
    different notes."""
    found = different = 0
    for group in scanned_groups(folder, folder.with_suffix(".sqlite")):
        for x, y in itertools.combinations(sorted(group), 2):
            if x[1:] != y[1:]:
                different += 1
            elif x[0] == "a" and y[0] == "n":
                found += 1
    return found, different


def _report(
    tmp: Path,
    heading: str,
    alone: Callable[[str, str, str], str],
    before: Callable[..., float],
    disclaimer: str,
) -> None:
    """For each set of notes (disclaimer_sets) and each place of the disclaimer, the notes as
    mails under it and the first ALONE of them also as ``alone(text, language, where)`` makes
    them, scanned with the view patched to ``before`` and with the build's: what _scan finds,
    a line each under ``heading``."""
    print(heading)
    name = disclaimer.split()[-1]
    for label, texts, language in disclaimer_sets():
        for where in ("below", "above"):
            figures = []
            for build in ("before", "after"):
                folder = tmp / f"{name}-{build}-{language}-{label.split()[0]}-{where}"
                write_under_disclaimer(folder, texts, language, where)
                for i, text in enumerate(texts[:ALONE]):
                    body = alone(text, language, where)
                    (folder / f"a{i:03d}.txt").write_text(body + "\n", "utf-8")
                patched = build == "before"
                with (
                    mock.patch.object(sk, "left_out_boilerplate_similarity", before)
                    if (patched)
                    else nullcontext()
                ):
                    figures.append(_scan(folder))
            (f0, d0), (f1, d1) = figures
            print(
                f"  {len(texts)} {label}, {disclaimer} {where}: found {f0} -> {f1} of {ALONE}; "
                f"different notes grouped {d0} -> {d1}"
            )


def run(tmp: Path) -> None:
    _report(
        tmp,
        f"glued lines: {ALONE} notes alone and as mails with a disclaimer, among more such "
        "mails; pairs found (note alone, its mail) and pairs of different notes grouped, "
        "without the view -> with it",
        lambda text, language, where: text,
        lambda *a, **k: 0.0,
        "the disclaimer",
    )


def _one_side_only(a: sk.TextSketch, b: sk.TextSketch, *args: object, **kw: object) -> float:
    """The view as the fifty-ninth session built it: one side must keep every line."""
    if sk._foreign_lines(a, b, b.line_id_set) and sk._foreign_lines(b, a, a.line_id_set):
        return 0.0
    return VIEW(a, b, *args, **kw)


VIEW = sk.left_out_boilerplate_similarity


def _under_the_other(text: str, language: str, where: str) -> str:
    parts = [text, owncorpus.OTHER_DISCLAIMER[language]]
    return "\n\n".join(parts if where == "below" else parts[::-1])


def run_two(tmp: Path) -> None:
    _report(
        tmp,
        f"two disclaimers: 150 notes as mails with one, {ALONE} of them also with another; "
        "pairs of one note's two mails found and pairs of different notes grouped, one side "
        "left out -> each side",
        _under_the_other,
        _one_side_only,
        "the disclaimers",
    )


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="glued-") as tmp:
        run(Path(tmp))
        run_two(Path(tmp))


if __name__ == "__main__":
    main()
