"""Regenerate the short East Asian texts in this folder from the message catalogues Debian installs.

The texts are real short documents not written for the matcher: the Simplified Chinese
(zh_CN), Traditional Chinese (zh_TW), Japanese (ja) and Korean (ko) translations of the help
texts and messages of GNU and Debian tools (coreutils, bash, findutils, grep, diffutils, make,
gettext, sed, tar, dpkg, apt, man-db; all GPL-2.0-or-later or GPL-3.0-or-later), as
/usr/share/locale/LANG/LC_MESSAGES/*.mo holds them on Debian 12. Each block of a message (split
at blank lines) with 40-150 Chinese characters, kana or Hangul syllables and no format
directive is a candidate, taken from the packages in turn; a block that shares half of its
character trigrams with one already taken is left out (many help texts repeat one sentence).
The lines stay as the translators broke them. tests/owncorpus.py builds labelled copies from
them (build_short).

Run: python tests/data/cjk_notes/make.py
"""

from __future__ import annotations

import gettext
import itertools
import re
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
PACKAGES = [
    "coreutils", "bash", "findutils", "grep", "diffutils", "make", "gettext-tools", "sed",
    "tar", "dpkg", "apt", "man-db",
]  # fmt: skip
LANGUAGES = ["zh_CN", "zh_TW", "ja", "ko"]
PER_LANGUAGE = 150
_LETTER = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]")


def _trigrams(text: str) -> set[str]:
    letters = "".join(_LETTER.findall(text))
    return {letters[i : i + 3] for i in range(len(letters) - 2)}


def catalogue_blocks(language: str, package: str, wanted: Callable[[str], bool]) -> list[str]:
    """The blocks (split at blank lines, lines stripped) of ``package``'s messages in
    ``language`` that hold no format directive or control character and that ``wanted``
    takes."""
    path = Path("/usr/share/locale") / language / "LC_MESSAGES" / f"{package}.mo"
    if not path.is_file():
        return []
    with path.open("rb") as f:
        catalogue = gettext.GNUTranslations(f)._catalog  # noqa: SLF001 - the plain mapping
    found = []
    for _, message in sorted(catalogue.items(), key=lambda kv: str(kv[0])):
        if not isinstance(message, str):
            continue
        for block in re.split(r"\n\s*\n", message):
            block = "\n".join(line.strip() for line in block.strip().splitlines())
            control = any(ord(c) < 32 and c not in "\n\t" for c in block)
            if "%" not in block and not control and wanted(block):
                found.append(block)
    return found


def choose(by_package: list[list[str]], trigrams: Callable[[str], set[str]], n: int) -> list[str]:
    """Up to ``n`` blocks taken from the packages in turn, leaving out a block that shares half
    of its trigrams with one already taken."""
    chosen: list[str] = []
    grams: list[set[str]] = []
    for block in itertools.chain.from_iterable(itertools.zip_longest(*by_package)):
        if block is None:
            continue
        mine = trigrams(block)
        if all(4 * len(mine & g) < len(mine) + len(g) for g in grams):  # Dice < 0.5
            chosen.append(block)
            grams.append(mine)
        if len(chosen) == n:
            break
    return chosen


def _wanted(block: str) -> bool:
    return 40 <= len(_LETTER.findall(block)) <= 150


def main() -> None:
    for language in LANGUAGES:
        by_package = [catalogue_blocks(language, p, _wanted) for p in PACKAGES]
        chosen = choose(by_package, _trigrams, PER_LANGUAGE)
        (HERE / f"{language}.txt").write_text("\n\n\n".join(chosen) + "\n", encoding="utf-8")
        print(language, len(chosen))


if __name__ == "__main__":
    main()
