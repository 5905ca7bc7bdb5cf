"""Short texts with real variant readings, in Traditional Chinese: the Complete Tang Poems (part
of ``bench_own_corpus``; runnable alone).

Why: the short-text sets elsewhere are help texts and sentences with generated copies. Here the
texts and their variants are real. The Complete Tang Poems (全唐詩) as the chinese-poetry
project transcribed it (npm package ``chinese-poetry``, MIT; 57,607 poems) records many poems
twice: under two poets, or in two volumes, each time with its own variant characters (潔/絜,
鐘鼓/鼓鐘, 劒/劍). Those records are one poem to a reader, revised by copyists over a thousand
years. Every other pair is two poems, and there are a billion and a half of them, all of one
form: lines of five or seven characters, the same imagery (明月, 春風, 何處), lines quoted from
one poem in another. Most texts are 20-60 characters: what a 64-bit simhash cannot tell apart.

Each distinct text is one ``.txt`` file with an opaque name, scanned as a user would (a real
scan into a new index, default settings). The oracle compares the poems' Chinese characters
(difflib's ratio, 2M/T, over the characters alone): 0.94 or more is the same poem (one character
in twenty changed, or fewer), 0.90-0.94 two characters in twenty (past the corpus definition's
"about 5 %", reported apart), 0.5-0.9 gray, under 0.5 two poems. Pairs are found for the oracle
through a line of four characters or more that they share (a line held by more than 60 poems,
a quotation everyone used, is no evidence). A grouped pair under 0.5 is reported with what it
is: most are a couplet recorded alone (句, a fragment a later book quotes) beside the poem that
holds it at one end, which a scan takes for the poem with lines added above or below it.

Four folders:
* the poems' text alone;
* every second file in Simplified characters (OpenCC ``t2s``): one poem in both scripts;
* each with its title and author on top, as a person saves a poem; variant records often differ
  there (another poet, another title), and a series under one long preface (a title that tells
  the poems' story, as 和漁父詞's) makes its poems mostly one text;
* 300 poems of 20-60 characters with the copies a short text gets (``owncorpus.build_short``:
  DOCX, PDF, a word changed, a title, a banner, a footer, rewrapped, Simplified, Big5).

Downloaded once (85 MB) into a cache (``$XDG_CACHE_HOME/desktop_dedup_bench/classical_poems``,
else ``~/.cache/...``), which keeps only the Tang poems (13 MB); skipped when the registry cannot
be reached and nothing is cached. Never committed. MinHash-LSH (bench_own_corpus's) beside.

Run: ``.venv/bin/python -m tests.bench.classical_poems``
"""

from __future__ import annotations

import collections
import difflib
import io
import itertools
import json
import os
import random
import re
import sys
import tarfile
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
for _path in (REPO, REPO / "tests"):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

from tests.bench import download_cache  # noqa: E402

TARBALL = "https://registry.npmjs.org/chinese-poetry/-/chinese-poetry-2.0.1.tgz"
_MEMBER = re.compile(r"package/dist/quantangshi/poet\.tang\.(\d+)\.json$")
_HAN = re.compile("[\u3400-\u9fff\uf900-\ufaff]")
_LINE_END = re.compile(r"[，。！？；：、\s]+")
SAME, NEAR, GRAY = 0.94, 0.90, 0.5
LINE_MIN, LINE_MAX_POEMS = 4, 60
SHORT_SAMPLE, SHORT_SIZE = 300, (20, 60)


def cache_dir() -> Path:
    return download_cache("classical_poems")


def tang_poems() -> list[tuple[str, str, str]]:
    """(title, author, text: its lines as the transcription has them) of every Tang poem, in
    the transcription's order; [] when the registry cannot be reached and nothing is cached."""
    cached = cache_dir() / "tang.json"
    if not cached.exists():
        try:
            with urllib.request.urlopen(TARBALL, timeout=300) as response:
                data = response.read()
        except (urllib.error.URLError, OSError) as e:
            print(f"  classical poems: {TARBALL} not reachable ({e}); skipped")
            return []
        volumes = []
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
            for member in tar:
                match = _MEMBER.match(member.name)
                if match and member.isfile():
                    f = tar.extractfile(member)
                    volumes.append((int(match.group(1)), json.load(f) if f else []))
        poems = [
            (p.get("title", ""), p.get("author", ""), "\n".join(p.get("paragraphs", [])))
            for _, volume in sorted(volumes)
            for p in volume
        ]
        cached.parent.mkdir(parents=True, exist_ok=True)
        cached.write_text(json.dumps(poems, ensure_ascii=False), "utf-8")
    return [tuple(p) for p in json.loads(cached.read_text("utf-8"))]


def characters(text: str) -> str:
    return "".join(_HAN.findall(text))


def ratio(a: str, b: str) -> float:
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()


def distinct(poems: list[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
    """Each text once (its first record), of ten characters or more, none with a character the
    transcription could not read (□)."""
    seen: set[str] = set()
    out = []
    for title, author, text in poems:
        if len(characters(text)) >= 10 and "□" not in text and text not in seen:
            seen.add(text)
            out.append((title, author, text))
    return out


def oracle(poems: list[tuple[str, str, str]]) -> dict[tuple[int, int], float]:
    """The ratio of every pair of poems that share a line of LINE_MIN characters or more (a
    line held by more than LINE_MAX_POEMS poems left out)."""
    holders: dict[str, list[int]] = collections.defaultdict(list)
    for i, (_, _, text) in enumerate(poems):
        for line in set(_LINE_END.split(text)):
            if len(line) >= LINE_MIN:
                holders[line].append(i)
    pairs: set[tuple[int, int]] = set()
    for ids in holders.values():
        if 1 < len(ids) <= LINE_MAX_POEMS:
            pairs.update(itertools.combinations(sorted(ids), 2))
    chars = [characters(t) for _, _, t in poems]
    return {(i, j): ratio(chars[i], chars[j]) for i, j in pairs}


def _fragment(a: str, b: str) -> bool:
    """Whether the shorter of two texts is (nine tenths of it) inside the other, at least
    twice as long: a couplet recorded alone beside its poem."""
    short, long = sorted((a, b), key=len)
    if len(long) < 2 * len(short):
        return False
    blocks = difflib.SequenceMatcher(None, short, long, autojunk=False).get_matching_blocks()
    return sum(b.size for b in blocks) >= 0.9 * len(short)


def score_folder(
    label: str,
    poems: list[tuple[str, str, str]],
    shares: dict[tuple[int, int], float],
    folder: Path,
    with_minhash: bool = False,
    headed: bool = False,
) -> None:
    from tests.bench.bench_own_corpus import minhash_groups, scanned_groups

    started = time.perf_counter()
    groups = scanned_groups(folder, folder.with_suffix(".sqlite"))
    seconds = time.perf_counter() - started
    grouped = {
        pair
        for g in groups
        for pair in itertools.combinations(sorted(int(name[1:6]) for name in g), 2)
    }
    chars = [characters(t) for _, _, t in poems]
    same = {p for p, r in shares.items() if r >= SAME}
    near = {p for p, r in shares.items() if NEAR <= r < SAME}

    def share(p: tuple[int, int]) -> float:
        return shares[p] if p in shares else ratio(chars[p[0]], chars[p[1]])

    false = [p for p in grouped if share(p) < GRAY]
    fragments = sum(_fragment(chars[i], chars[j]) for i, j in false)
    gray = len(grouped) - len(grouped & (same | near)) - len(false)
    titles = sum(1 for i, j in false if os.path.commonprefix([poems[i][0], poems[j][0]]).strip())
    under_one_title = f"; under titles that begin alike: {titles}" if headed else ""
    print(
        f"  classical poems ({label}: {len(poems):,} files, scanned in {seconds:.0f} s): "
        f"the same poem (>= {SAME}) found {len(grouped & same)} of {len(same)}, "
        f"two characters in twenty ({NEAR}-{SAME}) {len(grouped & near)} of {len(near)}; "
        f"grouped pairs of two poems (< {GRAY}) {len(false)} (a couplet beside the poem that "
        f"holds it: {fragments}{under_one_title}), gray {gray}"
    )
    if with_minhash:
        started = time.perf_counter()
        pairs = {tuple(sorted((int(a[1:6]), int(b[1:6])))) for a, b in minhash_groups(folder)}
        mfalse = sum(1 for p in pairs if share(p) < GRAY)
        print(
            f"    MinHash-LSH on the same files ({time.perf_counter() - started:.0f} s): "
            f"{len(pairs & same)} of {len(same)}, {len(pairs & near)} of {len(near)}; "
            f"pairs of two poems {mfalse}"
        )


def write_folder(
    folder: Path, poems: list[tuple[str, str, str]], simplified: bool, headed: bool
) -> None:
    import opencc

    t2s = opencc.OpenCC("t2s")
    folder.mkdir(parents=True)
    for i, (title, author, text) in enumerate(poems):
        body = f"{title}\n{author}\n\n{text}\n" if headed else f"{text}\n"
        if simplified and i % 2:
            body = t2s.convert(body)
        (folder / f"t{i:05d}.txt").write_text(body, "utf-8")


def short_copies_report(tmp: Path, poems: list[tuple[str, str, str]]) -> None:
    import owncorpus

    from tests.bench.bench_own_corpus import minhash_groups, scanned_groups

    lo, hi = SHORT_SIZE
    sized = [p for p in poems if lo <= len(characters(p[2])) <= hi]
    texts = [p[2] for p in random.Random(13).sample(sized, min(SHORT_SAMPLE, len(sized)))]
    folder = tmp / "poems-short"
    truth = owncorpus.build_short(folder, texts, pdf_every=3)
    p, r, missed, false = owncorpus.score(
        scanned_groups(folder, folder.with_suffix(".sqlite")), truth
    )
    mp, mr, _, mfalse = owncorpus.score(minhash_groups(folder), truth)
    kinds = collections.Counter(tuple(sorted((truth.kind[a], truth.kind[b]))) for a, b in missed)
    print(
        f"  classical poems ({len(texts)} poems of {lo}-{hi} characters with a short text's "
        f"copies, {len(truth.family)} files): precision {p:.3f}, recall {r:.3f} ({len(false)} "
        f"false, {len(missed)} missed, most by kinds {kinds.most_common(3)}); MinHash-LSH: "
        f"precision {mp:.3f}, recall {mr:.3f} ({len(mfalse)} false)"
    )


def report(tmp: Path) -> None:
    every = tang_poems()
    if not every:
        return
    poems = distinct(every)
    print(f"  classical poems: {len(every):,} Tang poems, {len(poems):,} distinct texts")
    shares = oracle(poems)
    for label, simplified, headed, minhash in (
        ("the text alone", False, False, True),
        ("every second file in Simplified characters", True, False, False),
        ("title and author on top", False, True, False),
    ):
        folder = tmp / f"poems-{int(simplified)}{int(headed)}"
        write_folder(folder, poems, simplified, headed)
        score_folder(label, poems, shares, folder, with_minhash=minhash, headed=headed)
    short_copies_report(tmp, poems)


if __name__ == "__main__":
    with tempfile.TemporaryDirectory(prefix="bench_poems_") as tmp:
        report(Path(tmp))
