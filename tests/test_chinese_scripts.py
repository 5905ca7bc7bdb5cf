"""Simplified and Traditional copies of one text are the same document (issue 13): pairs made
with OpenCC (s2t, s2tw, s2hk, s2twp in turn) from the labelled corpora's Chinese originals are
found, scanned through the service as files, and never grouped with another text."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from desktop_dedup.core.extract import extract_text
from desktop_dedup.core.service import DedupService

REPO = Path(__file__).resolve().parents[1]
CORPUS = Path(os.environ.get("DESKTOP_DEDUP_CORPUS", REPO.parent / "shared" / "corpus"))
CONFIGS = ("s2t", "s2tw", "s2hk", "s2twp")

pytestmark = pytest.mark.skipif(
    not (CORPUS / "public2" / "truth.json").exists() and not os.environ.get("CI"),
    reason="../shared/corpus is not beside the repo",
)


def chinese_originals(limit: int, max_chars: int | None = None) -> dict[str, str]:
    """text id -> text of the first ``limit`` Chinese originals (man pages and short texts),
    leaving out a text the corpus marks gray against one already taken (bzip2 and bunzip2 are
    one man page under two names); with ``max_chars``, only texts that short."""
    out: dict[str, str] = {}
    for corpus in ("public", "public2"):
        truth = json.loads((CORPUS / corpus / "truth.json").read_text(encoding="utf-8"))
        gray: dict[str, set[str]] = {}
        for a, b in truth["gray"]:
            ta, tb = truth["files"][a], truth["files"][b]
            gray.setdefault(ta, set()).add(tb)
            gray.setdefault(tb, set()).add(ta)
        for path, kind in sorted(truth["kinds"].items()):
            text_id = truth["files"][path]
            if kind != "orig" or text_id in out or text_id.startswith("py-"):
                continue
            if gray.get(text_id, set()) & set(out):
                continue
            text = extract_text(str(CORPUS / corpus / "docs" / path), "txt").text
            if max_chars is not None and len(text) > max_chars:
                continue
            if sum("\u4e00" <= ch <= "\u9fff" for ch in text) >= 20:
                out[text_id] = text
            if len(out) >= limit:
                return out
    return out


def test_traditional_copies_are_found_and_never_mixed(tmp_path):
    import opencc

    texts = chinese_originals(60)
    assert len(texts) >= 50
    converters = tuple((config, opencc.OpenCC(config).convert) for config in CONFIGS)
    found = scan_pairs(tmp_path, texts, converters)
    print(f"{found} of {len(texts)} Simplified/Traditional pairs found")
    assert found == len(texts)  # README: every one (the issue asks for 90 %)


def test_copies_made_by_other_converters_are_found_and_never_mixed(tmp_path):
    """The fold uses OpenCC's tables, so copies made with OpenCC alone would prove little: the
    same texts converted by two converters with tables of their own, zhconv (MediaWiki's
    zh-hant, zh-tw and zh-hk) and hanziconv, are each found with their original too."""
    import zhconv
    from hanziconv import HanziConv

    converters = (
        ("zh-tw", lambda t: zhconv.convert(t, "zh-tw")),
        ("hanziconv", HanziConv.toTraditional),
        ("zh-hk", lambda t: zhconv.convert(t, "zh-hk")),
        ("zh-hant", lambda t: zhconv.convert(t, "zh-hant")),
    )
    texts = chinese_originals(40)
    assert len(texts) >= 40
    found = scan_pairs(tmp_path, texts, converters)
    print(f"{found} of {len(texts)} pairs made by other converters found")
    assert found == len(texts)  # README: every one


def test_short_texts_in_the_other_script_are_found_and_never_mixed(tmp_path):
    """Notes, rules and sayings of 40 to 700 characters: a copy in the other script, however
    converted, is still the same document (a few words of difference matter most here)."""
    import opencc
    import zhconv
    from hanziconv import HanziConv

    converters = (
        ("s2twp", opencc.OpenCC("s2twp").convert),
        ("zh-tw", lambda t: zhconv.convert(t, "zh-tw")),
        ("hanziconv", HanziConv.toTraditional),
        ("s2hk", opencc.OpenCC("s2hk").convert),
    )
    texts = chinese_originals(60, max_chars=700)
    assert len(texts) >= 60
    found = scan_pairs(tmp_path, texts, converters)
    print(f"{found} of {len(texts)} short Simplified/Traditional pairs found")
    assert found == len(texts)  # README: every one


def scan_pairs(tmp_path, texts: dict[str, str], converters) -> int:
    """Each text and its copy by the next converter in turn, scanned together; returns how
    many pairs were found, after asserting that no group mixes two texts."""
    root = tmp_path / "docs"
    root.mkdir()
    text_of: dict[str, str] = {}
    for i, (text_id, text) in enumerate(texts.items()):
        name, convert = converters[i % len(converters)]
        converted = convert(text)
        assert converted != text, text_id
        for file, body in ((f"{i}-simplified.txt", text), (f"{i}-{name}.txt", converted)):
            (root / file).write_text(body, encoding="utf-8")
            text_of[os.path.realpath(root / file)] = text_id
    with DedupService(tmp_path / "db.sqlite") as svc:
        svc.scan([root], workers=1)
        groups = svc.groups()
    found = 0
    for g in groups:
        ids = {text_of[m.path] for m in g.members}
        assert len(ids) == 1, f"different texts grouped: {sorted(ids)}"
        found += len(g.members) == 2
    return found
