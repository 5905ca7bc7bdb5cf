"""Regenerate the documents in this folder: real texts in scripts that PDF text layers garble,
each as plain text and as the DOCX and PDF that LibreOffice writes from it.

CI does not run this: the files it makes are committed, so the tests need no office suite. Run
it by hand on Debian 12 with LibreOffice (libreoffice-writer-nogui), Chromium (chromium) and
the fonts they draw these scripts with (fonts-dejavu-core, fonts-noto-core):

    /usr/bin/python3 tests/data/pdf_scripts/make.py

The texts are the translations Debian installs with these programs: Arabic (apt, GPL-2.0-or-
later; Linux-PAM, BSD-3-Clause or GPL; AppStream, LGPL-2.1-or-later), Hebrew and Gujarati
(PackageKit, GPL-2.0-or-later) and Marathi (at-spi2-core, LGPL-2.1-or-later), Thai (apt),
Burmese (gdk-pixbuf, LGPL-2.1-or-later) and Bengali (Linux-PAM): the messages of one program, in
the order of its catalogue, as paragraphs of about sixty words. They are prose of the language
with the Latin names and options such programs mention (``--fix-missing``,
``Acquire::ftp::ProxyLogin``), which is how such documents mix scripts.

Why these files (see core/extract/pdf.py):
- PDFium reports the characters of a right-to-left line in reading order, but the characters
  that one glyph stands for (Arabic's lam-alef ligature, لا) come out reversed (ال), so that
  every word with the ligature is misspelt in the PDF's text;
- in Gujarati and Devanagari, a vowel sign drawn apart from its letter made PDFium put a space
  between them, and a word space drawn after the first letters of the next word stood there:
  "ભૂમિકા" read "ભૂ મિકા", "પેકેજ" "પે કે જ";
- in Thai and Burmese a tone mark stacked above a vowel sign is a raised glyph of its own,
  which PDFium gave at the end of the line or after a later word (Thai "ติดตั้ง" read "ติดตัง");
  Bengali, whose marks sit over conjuncts, is read right as it is, and stays so;
- Chromium's PDF of a right-to-left page (a web page saved as PDF) gives some words' letters
  left to right: "التطبيق" read "قيبطتلا".
"""

from __future__ import annotations

import html
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))  # tests/, for owncorpus

from owncorpus import catalogue_text, office_copies  # noqa: E402

SOURCES = {  # name: (catalogue, how many words)
    "ar-apt": ("/usr/share/locale/ar/LC_MESSAGES/apt.mo", 500),
    "ar-pam": ("/usr/share/locale/ar/LC_MESSAGES/Linux-PAM.mo", 220),
    "ar-appstream": ("/usr/share/locale/ar/LC_MESSAGES/appstream.mo", 220),
    "he-packagekit": ("/usr/share/locale/he/LC_MESSAGES/PackageKit.mo", 400),
    "gu-packagekit": ("/usr/share/locale/gu/LC_MESSAGES/PackageKit.mo", 400),
    "mr-at-spi": ("/usr/share/locale/mr/LC_MESSAGES/at-spi2-core.mo", 300),
    "th-apt": ("/usr/share/locale/th/LC_MESSAGES/apt.mo", 400),
    "my-gdk-pixbuf": ("/usr/share/locale/my/LC_MESSAGES/gdk-pixbuf.mo", 300),
    "bn-pam": ("/usr/share/locale/bn/LC_MESSAGES/Linux-PAM.mo", 300),
}


# Pages printed to PDF by Chromium (a web page saved as PDF): the text as an HTML page of
# paragraphs, right to left, printed by headless Chromium (Debian's chromium package).
CHROMIUM = ["ar-pam", "ar-appstream", "ar-apt"]


def chromium_pdf(text: Path, pdf: Path) -> None:
    paragraphs = "".join(
        f"<p>{html.escape(p)}</p>\n" for p in text.read_text("utf-8").split("\n") if p.strip()
    )
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / f"{text.stem}.html"
        page.write_text(
            f'<!doctype html><html dir="rtl"><head><meta charset="utf-8"><title>{text.stem}'
            f"</title></head><body>{paragraphs}</body></html>",
            encoding="utf-8",
        )
        subprocess.run(
            [
                "chromium",
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--no-first-run",
                f"--user-data-dir={tmp}/profile",
                "--no-pdf-header-footer",
                f"--print-to-pdf={pdf}",
                str(page),
            ],
            check=True,
            capture_output=True,
            timeout=120,
        )


def main() -> None:
    texts = []
    for name, (catalogue, words) in SOURCES.items():
        texts.append(HERE / f"{name}.txt")
        texts[-1].write_text(catalogue_text(catalogue, words), encoding="utf-8")
    office_copies(texts, HERE, ("docx", "pdf"))
    for name in CHROMIUM:
        chromium_pdf(HERE / f"{name}.txt", HERE / f"{name}-chromium.pdf")


if __name__ == "__main__":
    main()
