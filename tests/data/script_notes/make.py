"""Regenerate the short texts in this folder from the message catalogues Debian installs.

Real short documents in scripts whose words carry combining marks, not written for the
matcher: the Thai (th), Hindi (hi), Bengali (bn), Arabic (ar) and Hebrew (he) translations of
the messages of GNU and Debian tools and libraries (apt, dpkg, grep, diffutils, sed, make, wget:
GPL-2.0-or-later or GPL-3.0-or-later; GLib, GTK 2 and its property descriptions, GDK-Pixbuf,
AT-SPI, GSettings desktop schemas, AppStream, Avahi: LGPL-2.1-or-later; PackageKit,
software-properties, shared-mime-info, python-apt: GPL-2.0-or-later; Linux-PAM: BSD-3-Clause
or GPL), as /usr/share/locale/LANG/LC_MESSAGES/*.mo holds them on Debian 12.

Thai writes no space between words and puts vowels and tone marks on its consonants as
combining marks; Hindi and Bengali write vowel signs and the virama as combining marks inside
words; Arabic and Hebrew may add vowel points (harakat, niqqud) that writers usually leave out.

Each block of a message (split at blank lines) with no format directive and mostly letters of
the language is a candidate: 10-60 words, or in Thai 40-200 letters. They are taken from the
catalogues in turn; a block that shares half of its letter trigrams with one already taken is
left out (the reading and the choice are cjk_notes/make.py's). The lines stay as the
translators broke them. tests/owncorpus.py builds labelled copies from them (build_short).

Run: python tests/data/script_notes/make.py
"""

from __future__ import annotations

import functools
import importlib.util
from pathlib import Path

HERE = Path(__file__).resolve().parent
# The catalogue reading and the choice are cjk_notes/make.py's.
_spec = importlib.util.spec_from_file_location("cjk_make", HERE.parent / "cjk_notes" / "make.py")
_cjk = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_cjk)
catalogue_blocks, choose = _cjk.catalogue_blocks, _cjk.choose
PACKAGES = [
    "apt", "dpkg", "grep", "diffutils", "sed", "make", "wget", "glib20", "gtk20",
    "gtk20-properties", "gdk-pixbuf", "at-spi2-core", "gsettings-desktop-schemas", "appstream",
    "avahi", "PackageKit", "software-properties", "shared-mime-info", "python-apt", "Linux-PAM",
    "libapt-pkg6.0",
]  # fmt: skip
LANGUAGES = ["th", "hi", "bn", "ar", "he"]
PER_LANGUAGE = 150


def _letters(text: str) -> str:
    return "".join(c for c in text if c.isalpha())


def _trigrams(text: str) -> set[str]:
    letters = _letters(text)
    return {letters[i : i + 3] for i in range(len(letters) - 2)}


def _wanted(block: str, language: str) -> bool:
    letters = _letters(block)
    native = sum(not c.isascii() for c in letters)
    if "{" in block or native < 0.6 * max(1, len(letters)):
        return False
    if language == "th":
        return 40 <= native <= 200
    return 10 <= len(block.split()) <= 60


def main() -> None:
    for language in LANGUAGES:
        by_package = [
            catalogue_blocks(language, p, functools.partial(_wanted, language=language))
            for p in PACKAGES
        ]
        chosen = choose(by_package, _trigrams, PER_LANGUAGE)
        (HERE / f"{language}.txt").write_text("\n\n\n".join(chosen) + "\n", encoding="utf-8")
        print(language, len(chosen))


if __name__ == "__main__":
    main()
