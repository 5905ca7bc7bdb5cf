"""Markdown and reStructuredText stripping takes linear time on hostile lines (issue 7 case 5):
a 2 MB single line of a repeated unmatched construct used to take hours (64 KB of "[a](":
15 s, of spaces: 260 s), since a pattern scanned to the end of the line from every start."""

from __future__ import annotations

import time

import pytest

from desktop_dedup.core.extract.plaintext import strip_markdown, strip_rst

# 256 KB tells linear from quadratic (64 KB of "[a](" took 15 s); the bold markers of the
# original report get their 2 MB line.
SIZE = 256_000
# Each case: (unit repeated to 2 MB) or a long run inside a line.
MARKDOWN = {
    "bold markers": "**a " * 500_000,
    "strike markers": "~~a ",
    "unclosed links": "[a](",
    "unclosed images": "![a](",
    "open brackets": "[[[[",
    "reference links": "[a][",
    "unclosed autolinks": "<http:a",
    "emphasis": "*a ",
    "underscores": "_a ",
    "code spans": "``a",
    "backticks": "`a",
    "inline tags": "<a ",
    "spaces": " ",
    "table rule with spaces": "|---" + " " * SIZE + "x",
    "backtick fence": "`",
    "tilde fence": "~",
    "heading with spaces": "# a" + " " * SIZE + "b",
    "heading of hashes": "# a " + "#" * SIZE + "b",
    "unclosed comments": "<!--",
    "comment starts and ends": "<!-- a --",
    "percent comments": "%%a",
    "unclosed wiki links": "[[a",
    "wiki links with bars": "[[a|",
}
RST = {
    "unclosed targets": "`a <b ",
    "roles": ":a",
    "colons": ":",
    "spaced target": "`a" + " " * SIZE + "b",
    "literals": "``a ",
    "strong": "**a ",
    "emphasis": "*a ",
}


def _line(unit: str) -> str:
    return unit if len(unit) >= SIZE else unit * (SIZE // len(unit))


@pytest.mark.parametrize("case", sorted(MARKDOWN))
def test_markdown_stripping_is_linear(case: str) -> None:
    line = _line(MARKDOWN[case])
    started = time.perf_counter()
    strip_markdown(line)
    took = time.perf_counter() - started
    assert took < 6.0, f"{case}: {took:.1f} s for a {len(line):,}-character line"


@pytest.mark.parametrize("case", sorted(RST))
def test_rst_stripping_is_linear(case: str) -> None:
    line = _line(RST[case])
    started = time.perf_counter()
    strip_rst(line)
    took = time.perf_counter() - started
    assert took < 6.0, f"{case}: {took:.1f} s for a {len(line):,}-character line"


@pytest.mark.parametrize(
    ("markdown", "text"),
    [
        ("# Title #", "Title"),
        ("## Title ##   ", "Title"),
        ("# C#", "C#"),
        ("# ##", "##"),
        ("a | b | c", "a b c"),
        ("a | | b", "a  b"),
        ("see [the docs](http://x.org) and ![logo](l.png)", "see the docs and logo"),
        ("[ref][1] and <http://example.org>", "ref and http://example.org"),
    ],
)
def test_markdown_stripping_keeps_its_meaning(markdown: str, text: str) -> None:
    assert strip_markdown(markdown) == text


@pytest.mark.parametrize(
    ("rst", "text"),
    [
        ("`Python <https://python.org>`_ site", "Python site"),
        (":ref:`the index` here", "the index here"),
    ],
)
def test_rst_stripping_keeps_its_meaning(rst: str, text: str) -> None:
    assert strip_rst(rst) == text
