"""Benchmark for core.diff: 1 MB Chinese and English texts vs. an edited copy (2 % of words).

Run: ``.venv/bin/python tests/bench/bench_diff.py``. Prints the median of 5 runs per language and
the speed-up over a naive baseline (difflib.SequenceMatcher over the whole token lists), measured
on a 100 KB slice in the same run and extrapolated linearly to 1 MB -- which flatters the baseline,
since SequenceMatcher is superlinear.

``zh-Hant``: the Chinese text against its edited copy converted to Traditional (OpenCC's s2tw),
beside the same diff without the script fold (look-alike characters only, as before it), whose
every converted character is a change.
"""

from __future__ import annotations

import difflib
import random
import statistics
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

import jieba
import opencc

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from desktop_dedup.core import diff as diff_mod  # noqa: E402
from desktop_dedup.core.diff import diff_texts, tokenize_for_diff  # noqa: E402
from desktop_dedup.core.text import fold_compat  # noqa: E402

TARGET_BYTES = 1_000_000
EDIT_SHARE = 0.02

_SYLLABLES = (
    "ba be bi bo bu ca ce ci co cu da de di do du fa fe fi fo ga ge go la le li lo lu ma me mi mo "
    "mu na ne ni no nu pa pe pi po ra re ri ro ru sa se si so su ta te ti to tu va ve vi vo "
    "ar er in on an en or ur st th ch sh ng"
).split()


def vocabulary(lang: str, rng: random.Random) -> tuple[list[str], list[float]]:
    """A Zipf-weighted vocabulary: real jieba dictionary words for zh, pseudo-words for en."""
    if lang == "zh":
        dict_path = Path(jieba.__file__).with_name("dict.txt")
        entries = []
        for line in dict_path.read_text(encoding="utf-8").splitlines():
            word, freq, *_ = line.split(" ")
            if all("\u4e00" <= ch <= "\u9fff" for ch in word):
                entries.append((int(freq), word))
        entries.sort(reverse=True)
        words = [w for _, w in entries[:20_000]]
    else:
        words = sorted(
            {"".join(rng.choices(_SYLLABLES, k=rng.randint(1, 4))) for _ in range(30_000)}
        )
        rng.shuffle(words)
        words = words[:20_000]
    weights = [1.0 / (rank + 1) for rank in range(len(words))]
    return words, weights


def make_text(lang: str, rng: random.Random) -> str:
    """Paragraph-per-line prose of about TARGET_BYTES UTF-8 bytes."""
    vocab, weights = vocabulary(lang, rng)
    lines: list[str] = []
    size = 0
    while size < TARGET_BYTES:
        if lang == "en":
            sentences = []
            for _ in range(rng.randint(2, 6)):
                words = rng.choices(vocab, weights, k=rng.randint(6, 18))
                sentences.append(" ".join(words).capitalize() + rng.choice(".!?"))
            line = " ".join(sentences)
        else:
            sentences = []
            for _ in range(rng.randint(2, 6)):
                words = rng.choices(vocab, weights, k=rng.randint(5, 15))
                sentences.append("".join(words) + rng.choice("。！？"))
            line = "".join(sentences)
        lines.append(line + "\n")
        size += len(line.encode("utf-8")) + 1
        if rng.random() < 0.2:
            lines.append("\n")
            size += 1
    return "".join(lines)


def edit_text(text: str, rng: random.Random, lang: str) -> str:
    """Replace EDIT_SHARE of the words with other words."""
    tokens = tokenize_for_diff(text)
    vocab, _weights = vocabulary(lang, rng)
    word_positions = [k for k, tok in enumerate(tokens) if tok.strip() and tok[0].isalnum()]
    for k in rng.sample(word_positions, int(len(word_positions) * EDIT_SHARE)):
        tokens[k] = rng.choice(vocab)
    return "".join(tokens)


def median_seconds(
    func: Callable[[], object], runs: int = 5, clock: Callable[[], float] = time.perf_counter
) -> float:
    times = []
    for _ in range(runs):
        start = clock()
        func()
        times.append(clock() - start)
    return statistics.median(times)


def naive(a: str, b: str) -> float:
    # autojunk=False: with the default autojunk every word above 1 % frequency ("the", "的") is
    # junk and the word diff is wrong, so the fair baseline is the correct-but-slow setting.
    return difflib.SequenceMatcher(
        None, tokenize_for_diff(a), tokenize_for_diff(b), autojunk=False
    ).ratio()


def _without_script_fold(a: str, b: str) -> tuple[float, int]:
    """The diff as it was before the script fold: look-alike characters folded alone."""
    saved = diff_mod.fold_in_place, diff_mod.has_traditional
    diff_mod.fold_in_place, diff_mod.has_traditional = fold_compat, lambda _text: False
    try:
        changes = len(diff_texts(a, b).change_rows)
        return median_seconds(lambda: diff_texts(a, b), runs=3), changes
    finally:
        diff_mod.fold_in_place, diff_mod.has_traditional = saved


def main() -> list[str]:
    """Prints the figures; returns the targets missed (1 MB diffed in under a second)."""
    misses = []
    rng = random.Random(20261122)
    tokenize_for_diff("预热分词词典")  # load the jieba dictionary outside the timings
    for lang in ("zh", "en", "zh-Hant"):
        if lang == "zh-Hant":
            a = make_text("zh", rng)
            b = opencc.OpenCC("s2tw").convert(edit_text(a, rng, "zh"))
        else:
            a = make_text(lang, rng)
            b = edit_text(a, rng, lang)
        result = diff_texts(a, b)
        ours = median_seconds(lambda a=a, b=b: diff_texts(a, b))
        # CPU time too: on a shared machine wall time also measures the neighbours.
        ours_cpu = median_seconds(lambda a=a, b=b: diff_texts(a, b), clock=time.process_time)
        ours_ignore = median_seconds(
            lambda a=a, b=b: diff_texts(a, b, ignore_whitespace_punct=True)
        )
        cut = len(a) * 100_000 // len(a.encode("utf-8"))
        slice_a, slice_b = a[:cut], b[:cut]
        naive_slice = median_seconds(lambda x=slice_a, y=slice_b: naive(x, y), runs=1)
        naive_1mb = naive_slice * len(a) / cut
        print(
            f"{lang}: {len(a.encode('utf-8')) / 1e6:.2f} MB, {len(a.splitlines())} lines, "
            f"{result.a_words} words, {len(result.change_rows)} changes, "
            f"similarity {result.similarity:.3f}"
        )
        print(
            f"  diff_texts median of 5: {ours:.3f} s wall, {ours_cpu:.3f} s CPU "
            f"(ignore ws/punct: {ours_ignore:.3f} s wall)"
        )
        print(
            f"  naive difflib on whole token lists: {naive_slice:.3f} s per 100 KB -> "
            f"~{naive_1mb:.1f} s per 1 MB (linear extrapolation); speed-up x{naive_1mb / ours:.0f}"
        )
        if lang == "zh-Hant":
            unfolded = _without_script_fold(a, b)
            print(
                f"  without the script fold, same run: {unfolded[0]:.3f} s wall, "
                f"{unfolded[1]} changes"
            )
        if ours_cpu >= 1.0:
            misses.append(f"{lang}: diff of 1 MB took {ours_cpu:.2f} CPU s >= 1 s")
    misses += relaid(rng)
    return misses


def laid_out(text: str, lang: str) -> tuple[str, str]:
    """``text`` as `man` prints a page (each paragraph under a heading, indented and wrapped,
    two blank lines after it) and as a copy keeps it (heading and paragraph on one line, one
    blank line after): a re-wrapped copy, the same words."""
    printed, copy = [], []
    for k, para in enumerate(p for p in text.splitlines() if p.strip()):
        if lang == "en":
            lines = textwrap.wrap(para, 70)
        else:
            lines = [para[i : i + 35] for i in range(0, len(para), 35)]
        printed += [f"SECTION {k}", *("       " + line for line in lines), "", ""]
        copy += [" ".join([f"SECTION {k}", *lines]), ""]
    return "\n".join(printed), "\n".join(copy)


def relaid(rng: random.Random) -> list[str]:
    """A 1 MB text against its copy laid out otherwise: no change, beside the diff with its
    blank lines taken as equal lines (the rule before the thirty-third session), same run."""
    misses = []
    for lang in ("zh", "en"):
        a, b = laid_out(make_text(lang, rng), lang)
        result = diff_texts(a, b)
        ours = median_seconds(lambda a=a, b=b: diff_texts(a, b), runs=3)
        saved = diff_mod._blank_lines_joined
        diff_mod._blank_lines_joined = lambda opcodes, _keys: opcodes
        try:
            before = diff_texts(a, b)
            before_s = median_seconds(lambda a=a, b=b: diff_texts(a, b), runs=3)
        finally:
            diff_mod._blank_lines_joined = saved
        print(
            f"{lang} re-laid: {len(a.encode('utf-8')) / 1e6:.2f} MB, {len(a.splitlines())} "
            f"against {len(b.splitlines())} lines: {len(result.change_rows)} changes, similarity "
            f"{result.similarity:.3f}, {ours:.3f} s wall; blank lines as equal lines, same run: "
            f"{len(before.change_rows)} changes, {before.similarity:.3f}, {before_s:.3f} s"
        )
        if result.change_rows or result.similarity < 1.0:
            misses.append(f"{lang}: a re-laid copy shows {len(result.change_rows)} changes")
    return misses


if __name__ == "__main__":
    raise SystemExit(1 if main() else 0)
