"""Template pages of the machine: its section-1 manual pages as a labelled corpus.

Not a benchmark with a target but a measurement on real documents made from templates, which
the public corpora hold few of. A generated command reference (the Google Cloud CLI installs
16,631 pages, one per command) is one template filled in thousands of times: ``gcloud compute
regions list`` and ``gcloud compute zones list`` share every flag's text and differ in the
resource they list. Each page is a document of its own; two pages whose rendered text is the
same (a link to another page, or a ``.so`` include) are one, and nothing else is: by the
corpus definition, pages that share much template text are at most gray, so a grouped pair
of different pages is what this counts, beside datasketch MinHash-LSH on the same files (as
``bench_small_files`` runs it). ``latent_pairs`` can then be run on the corpus made.

Run: ``.venv/bin/python -m tests.bench.man_pages [PREFIX ...]`` (default: the GA commands
of five gcloud groups, then every page that is not gcloud's); pages are rendered with
``man`` at 80 columns.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from desktop_dedup.core.service import DedupService
from tests.bench.bench_small_files import MINHASH

MAN1 = Path("/usr/share/man/man1")
DEFAULT_SETS = {
    "gcloud, five command groups (GA)": [
        f"gcloud_{g}_" for g in ("compute", "iam", "sql", "pubsub", "storage")
    ],
    "every other page": [],
}


def render(pages: list[Path], docs: Path) -> list[Path]:
    """Each page as ``man`` prints it at 80 columns, one .txt each; a page man cannot render
    (or renders empty) is left out."""
    docs.mkdir(parents=True, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k != "MAN_KEEP_FORMATTING"}
    env["MANWIDTH"] = "80"  # plain text: man drops the overstrikes when not writing to a tty

    def one(page: Path) -> Path | None:
        out = docs / (page.name.removesuffix(".gz") + ".txt")
        done = subprocess.run(
            ["man", "-P", "cat", "-l", str(page)], capture_output=True, env=env, check=False
        )
        if done.returncode != 0 or not done.stdout.strip():
            return None
        out.write_bytes(done.stdout)
        return out

    with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        return [p for p in pool.map(one, pages) if p is not None]


def label(docs: Path) -> dict[str, object]:
    """The corpus's truth.json (as ``../shared/corpus`` has it): each page its own text, and
    pages with byte-identical renders one."""
    files: dict[str, str] = {}
    same: dict[str, list[str]] = defaultdict(list)
    for path in sorted(docs.glob("*.txt")):
        files[path.name] = path.name.removesuffix(".txt")
        same[hashlib.sha256(path.read_bytes()).hexdigest()].append(path.name)
    positive = [list(p) for names in same.values() for p in itertools.combinations(names, 2)]
    return {"files": files, "positive": positive, "gray": []}


def grouped_pairs(docs: Path, index: Path) -> tuple[set[tuple[str, str]], list[list[str]]]:
    """Every pair of files the app puts in one group (names), and the groups."""
    with DedupService(index) as svc:
        svc.scan([docs])
        groups = [sorted(Path(m.path).name for m in g.members) for g in svc.groups()]
    pairs = {p for g in groups for p in itertools.combinations(g, 2)}
    return pairs, groups


def minhash_pairs(docs: Path) -> int:
    """How many pairs datasketch MinHash-LSH reports (char 5-grams, 128 permutations, 0.8)."""
    files = [str(p) for p in sorted(docs.glob("*.txt"))]
    done = subprocess.run(
        [sys.executable, "-c", MINHASH, *files], capture_output=True, text=True, check=True
    )
    return int(done.stdout.split()[-1])


def measure(name: str, pages: list[Path], tmp: Path) -> None:
    docs = tmp / "docs"
    rendered = render(pages, docs)
    truth = label(docs)
    (tmp / "truth.json").write_text(json.dumps(truth), encoding="utf-8")
    positive = {tuple(p) for p in truth["positive"]}  # type: ignore[attr-defined]
    pairs, groups = grouped_pairs(docs, tmp / "index.sqlite")
    false = sorted(pairs - positive)
    found = len(pairs & positive)
    print(
        f"  {name}: {len(rendered):,} pages ({len(positive):,} pairs of identical renders); "
        f"pairs of different pages grouped: {len(false)} (identical renders grouped: "
        f"{found} of {len(positive)}); MinHash-LSH pairs: {minhash_pairs(docs)} "
        f"(of which identical renders at most {len(positive)})"
    )
    for a, b in false[:12]:
        print(f"    {a.removesuffix('.txt')} ~ {b.removesuffix('.txt')}")


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if shutil.which("man") is None or not MAN1.is_dir():
        print("man pages: no man command or no section 1 here, skipped")
        return 0
    every = sorted(p for p in MAN1.iterdir() if p.is_file())
    sets = {f"pages starting {', '.join(args)}": args} if args else DEFAULT_SETS
    print("man pages of this machine, rendered at 80 columns, each page a document of its own:")
    for name, prefixes in sets.items():
        if prefixes:
            pages = [p for p in every if p.name.startswith(tuple(prefixes))]
        else:
            pages = [p for p in every if not p.name.startswith("gcloud")]
        if not pages:
            print(f"  {name}: none here, skipped")
            continue
        with tempfile.TemporaryDirectory(prefix="man_pages_") as tmp:
            measure(name, pages, Path(tmp))
    return 0


if __name__ == "__main__":
    sys.exit(main())
