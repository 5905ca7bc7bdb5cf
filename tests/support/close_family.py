"""Three versions of one real text (a translated manual page, tests/data/languages) where two
edited copies are each the same as the original but not as each other: each replaces other
words (every 15th and every 12th, by words of another page), so together they differ in about
15 % of the words. The original and the less edited copy form a group; the other copy is the
same as the original only, so the rule against chaining keeps it out of that group, and it is
*close* to it (grouping.CloseDocument)."""

from __future__ import annotations

import re
from pathlib import Path

_DATA = Path(__file__).resolve().parent.parent / "data" / "languages" / "de"
_WORD = re.compile(r"\w{3,}")


def _replaced(text: str, every: int, start: int, pool: list[str]) -> str:
    words = list(_WORD.finditer(text))
    out, at = [], 0
    for k, m in enumerate(words):
        if k % every == start:
            out.append(text[at : m.start()])
            out.append(pool[k % len(pool)])
            at = m.end()
    return "".join(out) + text[at:]


def close_family_texts() -> dict[str, str]:
    """``original``, ``edited-a`` (every 15th word replaced) and ``edited-b`` (every 12th,
    others), by file stem."""
    original = (_DATA / "newgrp.txt").read_text(encoding="utf-8").strip()
    pool = _WORD.findall((_DATA / "lexgrog.txt").read_text(encoding="utf-8"))[200:400]
    return {
        "original": original,
        "edited-a": _replaced(original, 15, 7, pool),
        "edited-b": _replaced(original, 12, 3, pool[::-1]),
    }


def write_close_family(folder: Path) -> dict[str, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = {}
    for stem, text in close_family_texts().items():
        paths[stem] = folder / f"{stem}.txt"
        paths[stem].write_text(text, encoding="utf-8")
    return paths
