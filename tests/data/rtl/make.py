"""Regenerate the right-to-left documents in this folder: real Arabic and Hebrew texts, each as
plain text and as the DOCX and PDF that LibreOffice writes from it.

CI does not run this: the files it makes are committed, so the tests need no office suite. Run
it by hand on Debian 12 with LibreOffice (libreoffice-writer-nogui) and the fonts it draws
Arabic and Hebrew with (fonts-dejavu-core, fonts-noto-core):

    /usr/bin/python3 tests/data/rtl/make.py

The texts are the translations Debian installs with these programs (GPL-2.0-or-later for apt,
BSD-3-Clause or GPL for Linux-PAM, GPL-2.0-or-later for PackageKit): the messages of one program,
in the order of its catalogue, as paragraphs of about sixty words. They are prose of the
language with the Latin names and options such programs mention (``--fix-missing``,
``Acquire::ftp::ProxyLogin``), which is how right-to-left documents mix scripts.

Why these files: PDFium reports the characters of a right-to-left line in reading order, but
the characters that one glyph stands for (Arabic's lam-alef ligature, لا) come out reversed
(ال), so that every word with the ligature is misspelt in the PDF's text (see
core/extract/pdf.py, _glyphs_in_reading_order).
"""

from __future__ import annotations

import gettext
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCES = {  # name: (catalogue, how many words)
    "ar-apt": ("/usr/share/locale/ar/LC_MESSAGES/apt.mo", 500),
    "ar-pam": ("/usr/share/locale/ar/LC_MESSAGES/Linux-PAM.mo", 220),
    "he-packagekit": ("/usr/share/locale/he/LC_MESSAGES/PackageKit.mo", 400),
}
_PRINTF = re.compile(r"%[-+ #0-9.*]*[a-zA-Z]|%%")


def catalogue_text(path: str, words: int) -> str:
    with open(path, "rb") as f:
        catalogue = gettext.GNUTranslations(f)._catalog  # noqa: SLF001 - no public listing
    messages = [
        _PRINTF.sub("", v)
        for k, v in catalogue.items()
        if k and isinstance(v, str) and len(v.split()) >= 4
    ]
    chosen = " ".join(" ".join(messages).split()[:words]).split()
    return "\n\n".join(" ".join(chosen[i : i + 60]) for i in range(0, len(chosen), 60)) + "\n"


def main() -> None:
    profile = Path(tempfile.mkdtemp(prefix="lo-profile-"))
    try:
        for name, (catalogue, words) in SOURCES.items():
            txt = HERE / f"{name}.txt"
            txt.write_text(catalogue_text(catalogue, words), encoding="utf-8")
            for target in ("docx", "pdf"):
                subprocess.run(
                    [
                        "soffice",
                        f"-env:UserInstallation=file://{profile}",
                        "--headless",
                        "--infilter=Text (encoded):UTF8,LF,,,",
                        "--convert-to",
                        target,
                        "--outdir",
                        str(HERE),
                        str(txt),
                    ],
                    check=True,
                    stdout=subprocess.DEVNULL,
                    timeout=300,
                )
    finally:
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    main()
