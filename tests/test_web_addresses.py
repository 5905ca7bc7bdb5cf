"""Words only a text's web addresses hold name nothing (core/fingerprint.py, the template rule).

Two pages of one template each repeat their own name, which the other never has: such a pair
is refused whatever its similarity (README, "template instances"). A read-me's links change
between releases in ways that look like that and are not: the badges point at another branch
(``master`` in one release's addresses, ``develop`` in the next), the download links name the
new version, the project's name is only in its links once the text stops saying it. Real
data: WeRoBot's read-me in four releases (tests/data/revisions/werobot, MIT) and packaging's in
two (tests/data/revisions/packaging, Apache-2.0 or BSD-2-Clause)."""

from __future__ import annotations

from pathlib import Path

from desktop_dedup.core.service import DedupService, text_similarity
from desktop_dedup.core.text import normalize_text, web_addresses

REVISIONS = Path(__file__).parent / "data" / "revisions"
WEROBOT = REVISIONS / "werobot"
PACKAGING = REVISIONS / "packaging"


def _release(version: str) -> str:
    return (WEROBOT / f"werobot-{version}.rst").read_text(encoding="utf-8")


def test_the_addresses_of_a_text_are_found_where_they_end():
    text = normalize_text(
        "Docs: https://Example.com/a_(b). Mirror www.EXAMPLE.org/x and "
        "ＨＴＴＰＳ://example.net/页面 then ftp://example.com/a!"
    )
    assert web_addresses(text) == [
        "https://example.com/a_(b).",
        "www.example.org/x",
        "https://example.net/",
        "ftp://example.com/a!",
    ]
    plain = "a line about http and www, ftp: and :// alone, and sswww.wiki or xhttps://a"
    assert web_addresses(normalize_text(plain)) == []


def test_a_read_me_whose_badges_point_at_another_branch_is_the_same_document():
    """1.1.0's badges point at ``master`` (six times in their addresses), 1.4.0's at
    ``develop``; not a word of the text changed."""
    assert text_similarity(_release("1.1.0"), _release("1.4.0")) >= 0.9


def test_the_read_me_is_one_document_across_releases(tmp_path):
    with DedupService(tmp_path / "db.sqlite") as svc:
        svc.scan([WEROBOT])
        groups = [sorted(Path(m.path).name for m in g.members) for g in svc.groups()]
    assert any({"werobot-1.1.0.rst", "werobot-1.4.0.rst"} <= set(g) for g in groups), groups


def test_a_version_named_only_in_links_names_no_document():
    """A release's read-me whose download links name its version (``v14`` three times, only in
    addresses) against the next release's (``v15``)."""
    text = _release("1.4.0")

    def links(version: str) -> str:
        return "\n".join(
            f"* https://github.com/offu/WeRoBot/releases/download/{version}/werobot-{version}.{ext}"
            for ext in ("tar.gz", "zip", "whl")
        )

    older, newer = f"{text}\n\n{links('v14')}\n", f"{text}\n\n{links('v15')}\n"
    assert text_similarity(older, newer) >= 0.75


def test_a_name_the_next_release_says_only_in_its_links_is_still_held():
    """packaging's read-me names ``pypa`` once in its text and six times in its links; the next
    release only in its links (seven times), and gained ``discussions`` four times: not a page
    that names its sibling once, but the same project's read-me."""
    older, newer = (
        (PACKAGING / f"packaging-{v}.txt").read_text(encoding="utf-8") for v in ("24.2", "26.2")
    )
    assert text_similarity(older, newer) >= 0.75


def test_a_name_also_in_the_text_still_names_it():
    """The other way round: two pages of one template that each name their command twice in
    their text and once in their own address are two documents: the address's occurrence
    counts with the others (tests/test_templates.py has the real pages)."""
    page = (
        "{name} - work on files\n\nIt reads files and prints what it finds. "
        "Run {name} --check to verify a list. Full documentation: "
        "https://www.gnu.org/software/coreutils/{name}\n"
    ) + "\n".join(f"Option {i}: what the option number {i} does to the input." for i in range(12))
    one, other = page.format(name="shred"), page.format(name="sponge")
    assert text_similarity(one, other) == 0.0


def test_addresses_are_found_as_the_pattern_finds_them():
    """web_addresses looks from each "://" and "www." instead of trying one pattern at every
    character: the same answers as that pattern, on texts made of the pieces an address is
    told by."""
    import random
    import re

    address = re.compile(
        r"(?<![a-z0-9])(?:(?:https?|ftp)://|www\.)[a-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]+"
    )
    pieces = list("abwhtpsf:/.x1 -_") + ["://", "www.", "http", "https", "ftp", "页", "(", ")"]
    rng = random.Random(36)
    for _ in range(20_000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 25)))
        assert web_addresses(text) == address.findall(text), text


def test_addresses_run_together_are_looked_at_once_each_run(monkeypatch):
    """Addresses joined by characters an address may hold (a list of links on one line,
    separated by commas: a CSV export) make one run; every "://" and "www." in it was matched
    to the run's end, and dropped as inside the first: 20,000 links of 17 characters (340 KB)
    took 4.8 s, each match scanning the rest of the line. The matches are now counted: one per
    run, and the addresses are those of a findall with one pattern (the module's comment)."""
    import random
    import re

    from desktop_dedup.core import text as text_mod

    calls = []
    real = text_mod._ADDRESS_REST

    class Counting:
        def match(self, string: str, pos: int = 0):
            calls.append(pos)
            return real.match(string, pos)

    monkeypatch.setattr(text_mod, "_ADDRESS_REST", Counting())
    line = ",".join(["https://x.org/(a)", "www.y.org/b"] * 5_000)
    found = web_addresses(normalize_text(f"links: {line} end, and www.z.org too"))
    assert found == ["https://x.org/(a)," + line[len("https://x.org/(a),") :], "www.z.org"]
    assert len(calls) <= 4
    # nor are the ones that follow a letter, which no address begins after
    calls.clear()
    assert web_addresses(",".join(["xhttps://a.org", "2www.b.org"] * 5_000)) == []
    assert len(calls) == 0
    # the same addresses as one pattern with a look-behind finds, on texts of every kind
    one = re.compile(
        r"(?<![a-z0-9])(?:(?:https|http|ftp)://|www\.)[a-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]+"
    )
    rng = random.Random(3)
    bits = ["https://", "http://", "ftp://", "www.", "xhttps://", "a", "/", ",", " ", "中", "."]
    monkeypatch.setattr(text_mod, "_ADDRESS_REST", real)
    for _ in range(3_000):
        text = "".join(rng.choice(bits) for _ in range(rng.randint(1, 12)))
        assert web_addresses(text) == one.findall(text), text


def test_a_read_me_begins_alike_whatever_its_badges_point_at():
    """A document's head (fingerprint.HEAD_WORDS: its first twenty words, where a page
    of one template names itself) leaves out words only its web addresses hold: a read-me
    whose build badge moved from Travis CI to GitHub's workflows begins alike, and so it is
    no page of a template whatever word it renamed throughout (sketch.substituted). A title
    that changed, or a badge with another text, is another beginning."""
    from desktop_dedup.core import sketch
    from desktop_dedup.core.fingerprint import fingerprint_text

    body = (PACKAGING / "packaging-26.2.txt").read_text(encoding="utf-8")

    def head(title: str, badge: str) -> int:
        text = f"{title}\n[![Build Status]({badge})]({badge})\n\n{body}"
        return sketch.decode(fingerprint_text(text).sketch).head

    travis = "https://travis-ci.org/pypa/packaging.svg?branch=main"
    actions = "https://github.com/pypa/packaging/actions/workflows/test.yml/badge.svg"
    first = head("packaging", travis)
    assert first != 0
    assert head("packaging", actions) == first
    assert head("packaging-core", actions) != first
    other_badge = f"{actions})\n[![Tests Passing]({actions}"
    assert head("packaging", other_badge) != first
