"""The version of the fingerprints a scan stores, and the documents row of a file that could
not be read: what the scanning process needs of the readers' work without loading the readers
(core/pipeline.py, core/fingerprint.py and their libraries: a tenth of a second of start-up,
on the process the readers wait for)."""

from __future__ import annotations

from typing import Any

from desktop_dedup.core.models import DocStatus, FileEntry

# Bump when anything in core/fingerprint.py changes the fingerprint of some text, or when a
# reader gives other text for some file (13: legacy encodings told by chardet; 14: single
# hiragana are no features; 15: a short text's sketch keeps its words in order; 16: words keep
# their combining marks, also in "same text", Thai and its neighbours are cut into letters,
# Arabic and Hebrew vowel marks are dropped; 17: a word wrap whose lines happen to be equally
# long is not unwrapped as a fixed-width cut, a PDF's words hyphenated at line ends are joined;
# 18: a web page is its main content, without the site around it; 19: a Markdown note's front
# matter and comments are not its text, its [[links]] read as they show; 20: a Latin letter
# with a mark that has no one-character form stays in its word in a text without other
# accented letters, a web page's headings lose their permalink signs, groff's hyphenated words
# in a text are whole; 21: a page laid out in a table loses its menu column; 22: a word of the
# text's own counts where it also occurs in the lines peeled at its ends, for the substitution
# check; 23: a short text's tokens go with the line each begins in, also after a word joined
# across a line break; 24: a sketch also keeps a filter of the rare words its document holds
# twice or more; 25: and how often it holds each salient word, and a filter of the rare
# words it holds three times or more; 26: a text file's bold and underline written by groff or
# a terminal program, overstrikes or escape sequences, are not its text, nor are zero bytes at
# its end; UTF-8 with a few damaged bytes is UTF-8; a web page in UTF-8 whose meta tag names
# another charset is read as UTF-8; 27: a reStructuredText directive nested in another's block
# is markup, as at the margin; 28: a text file named for a markup with .txt added, Sphinx's
# copy of a page's source, is read as that markup; 29: a PDF's page numbers and its running
# heads and feet are not its text, nor a slide's date, footer and number, and its words groff
# hyphenated with U+2010 at line ends are whole; 30: the characters of a right-to-left glyph in a
# PDF, Arabic's lam-alef, read in their order, a right-to-left word Chromium gives left to right
# reads right to left, and a PDF's space between two touching glyphs of
# a script whose vowel signs are drawn apart, Gujarati's or Devanagari's, is no space, and a
# stacked tone mark of Thai, Lao, Burmese or Khmer goes after the letter it is drawn over; 31: a
# word only a text's web addresses hold names nothing, for the template rule; 32: a
# reStructuredText file's pictures, comments and substitutions' definitions are not its text,
# a substitution reads as what it shows, a code block's language is not shown; 33: a text file
# that holds a Markdown link is read as Markdown, and a Markdown link's text may wrap onto more
# lines; 34: a reStructuredText directive's options are not its text; 35: a sketch keeps how
# often its document holds each salient word past 255, in two bytes; 36: and a hash of its
# first words, its head; 37: and a short document's edge keys): stored fingerprints made with
# another version are recomputed on the next scan.
FINGERPRINT_VERSION = 37


def problem_row(entry: FileEntry, reason: str, content_hash: str | None = None) -> dict[str, Any]:
    """The documents row of a file that was not read (``reason`` says why)."""
    return {
        "path": entry.path,
        "size": entry.size,
        "mtime_ns": entry.mtime_ns,
        "content_hash": content_hash,
        "text_hash": None,
        "simhash": None,
        "sketch": None,
        "shingles": None,
        "token_count": 0,
        "text_chars": 0,
        "format": entry.ext,
        "status": DocStatus.PROBLEM.value,
        "error": reason,
        "fp_version": FINGERPRINT_VERSION,
    }
