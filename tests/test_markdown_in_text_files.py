"""A text file that holds Markdown reads as Markdown: a package's description as PyPI keeps it
(``Description-Content-Type: text/markdown``, shown as a text file), a note exported from a
notes app as ``.txt``. What tells it is a Markdown link, ``[text](target)``, which plain prose
never writes. Read as written, its links' addresses (a read-me's status badges: a picture's
address and a link's each) were a sixth of fugashi's read-me: its description and its
``README.md`` were 0.838 the same and fell into two groups of other releases; over the read-mes
of Japanese, Korean and Chinese packages (``tests/bench/pypi_readmes.py``) such pairs were most
of what was missed. A text file without such a link reads as written.

Real data: fugashi's read-me as its 1.0.5 archive holds it and as the metadata of 1.0.5a4
describes it (tests/data/revisions/fugashi, MIT)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from desktop_dedup.core.extract import extract_text
from desktop_dedup.core.extract.plaintext import _MARKDOWN_LINK, strip_markdown
from desktop_dedup.core.models import GroupKind
from desktop_dedup.core.service import DedupService

FUGASHI = Path(__file__).parent / "data" / "revisions" / "fugashi"
WORD = re.compile(r"\w+")


def test_a_description_kept_as_text_reads_as_its_markdown_file() -> None:
    description = extract_text(FUGASHI / "fugashi-1.0.5a4.txt")
    assert description.format == "txt"  # the file's own type, as its name gives it
    words = WORD.findall(description.text)
    assert words == WORD.findall(extract_text(FUGASHI / "fugashi-1.0.5.md").text)
    assert "https" not in words  # no badge's address is left


def test_the_description_and_the_markdown_file_are_one_text(tmp_path: Path) -> None:
    """The same text, not a near duplicate: read as written, 0.838 the same."""
    with DedupService(tmp_path / "db.sqlite") as svc:
        svc.scan([FUGASHI])
        groups = [
            (g.kind, sorted(Path(m.path).name for m in g.members), g.members[1].similarity)
            for g in svc.groups()
        ]
    assert groups == [(GroupKind.SAME_TEXT, ["fugashi-1.0.5.md", "fugashi-1.0.5a4.txt"], 1.0)]


@pytest.mark.parametrize(
    "text",
    [
        "def __init__(self): pass\n*stars* and _under_ and **two**\n# not a heading?\n| a | b |",
        "see the values [a, b] (in order), array[i](j) and [a note](with spaces in it)",
        "[link] (a space before the parenthesis) and a [reference][1] alone",
    ],
)
def test_a_text_file_without_a_markdown_link_reads_as_written(tmp_path: Path, text: str) -> None:
    path = tmp_path / "plain.txt"
    path.write_text(text, encoding="utf-8")
    assert extract_text(path).text == text


def test_a_link_whose_text_spans_a_line_break_reads_as_its_text() -> None:
    """fugashi's read-me wraps a link's text: ``[MeCab's\\nsource](https://...)``. Its address
    is no text of the page; a blank line ends the paragraph, and no link crosses it."""
    text = "the [MeCab\nsource](https://github.com/taku910/mecab) and ![a\nbadge](b.svg) and "
    text += "[a reference\nlink][1]; [not\n\nthis](c)\n\n[1]: https://example.com/"
    assert strip_markdown(text).split() == (
        "the MeCab source and a badge and a reference link; [not this](c)".split()
    )


def test_a_link_is_found_where_its_plain_pattern_finds_it() -> None:
    """The pattern looks for the bracket first, then at what stands before it (opening with the
    look-behind, it was tried at every character: 75 ms over the corpora's text files, 2 ms
    so). Its specification, on random strings of brackets, words and spaces: a bracket not
    right after a word or a bracket, text, the bracket closed, a target without spaces."""
    specification = re.compile(r"(?<![\w\]])\[[^\[\]\n]+\]\([^()\s]+\)")
    rng = random.Random(7)
    for _ in range(20_000):
        s = "".join(rng.choice("ab_[]()\n !") for _ in range(rng.randint(0, 14)))
        found, expected = _MARKDOWN_LINK.search(s), specification.search(s)
        assert (found and found.span()) == (expected and expected.span()), s
