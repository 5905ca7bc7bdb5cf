"""Regenerate the plain texts in this folder from the translated manual pages Debian installs.

The texts are real documents in other languages (German, French, Spanish, Italian, Polish,
Russian, Ukrainian, Japanese, Korean, Swedish, Dutch, Brazilian Portuguese, Turkish): the
translations of man-db's, passwd's, psmisc's and dpkg's manual pages (GPL-2.0-or-later, from
/usr/share/man/LANG/man1 on Debian 12). tests/owncorpus.py builds labelled duplicates from them.
The roff markup is removed here with a few rules (macros, fonts, escapes): what is left is the
text a person reads, one paragraph per block.

Run: python tests/data/languages/make.py
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
LANGUAGES = ["de", "fr", "es", "it", "pl", "ru", "uk", "ja", "ko", "sv", "nl", "pt_BR", "tr"]
PAGES = [
    "apropos", "whatis", "manpath", "man", "chsh", "chage", "passwd", "login", "killall",
    "fuser", "pstree", "chfn", "gpasswd", "newgrp", "lexgrog", "zsoelim",
]  # fmt: skip
MAX_CHARS = 12_000  # the first part of a long page is enough

_BREAK = {"PP", "LP", "P", "SH", "SS", "sp", "TP", "IP", "TQ", "HP", "EX", "nf", "fi", "br"}
_TEXT = {"SH", "SS", "B", "I", "BR", "IR", "RB", "BI", "IB", "RI", "IP", "SM", "SB", "OP"}
_ESCAPES = [
    (re.compile(r"\\f(?:\[[^\]]*\]|\(..|.)"), ""),
    (re.compile(r"\\\*(?:\[[^\]]*\]|\(..|.)"), ""),
    (re.compile(r"\\s[+-]?\d+"), ""),
    (re.compile(r"\\\((?:em|en)"), "-"),
    (re.compile(r"\\\((?:aq|cq|oq)"), "'"),
    (re.compile(r"\\\((?:dq|lq|rq)"), '"'),
    (re.compile(r"\\\(bu"), "*"),
    (re.compile(r"\\\(..|\\\[[^\]]*\]"), ""),
    (re.compile(r"\\[-]"), "-"),
    (re.compile(r"\\[&|^c%]"), ""),
    (re.compile(r"\\e"), "\\\\"),
    (re.compile(r"\\ "), " "),
]


def roff_to_text(source: str) -> str:
    paragraphs: list[list[str]] = [[]]
    for line in source.splitlines():
        if line.startswith(('.\\"', "'\\\"")) or line.strip() in {".", "'"}:
            continue
        if line.startswith((".", "'")):
            name, _, args = line[1:].strip().partition(" ")
            if name in _BREAK and paragraphs[-1]:
                paragraphs.append([])
            if name not in _TEXT:
                continue
            line = args.replace('"', "")
        for pattern, repl in _ESCAPES:
            line = pattern.sub(repl, line)
        if line.strip():
            paragraphs[-1].append(line.strip())
    text = "\n\n".join(" ".join(p) for p in paragraphs if p)
    return text[:MAX_CHARS].rsplit("\n\n", 1)[0] if len(text) > MAX_CHARS else text


def main() -> None:
    for lang in LANGUAGES:
        for page in PAGES:
            src = Path("/usr/share/man") / lang / "man1" / f"{page}.1.gz"
            if not src.exists():
                continue
            text = roff_to_text(gzip.decompress(src.read_bytes()).decode("utf-8", "replace"))
            out = HERE / lang / f"{page}.txt"
            out.parent.mkdir(exist_ok=True)
            out.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
