"""Extraction of every format from real files: same words in, same words out."""

from __future__ import annotations

import os
import re
import subprocess
import time
import zipfile
from pathlib import Path

import docgen
import pytest

from desktop_dedup.core import sketch
from desktop_dedup.core.errors import ExtractionError
from desktop_dedup.core.extract import (
    SUPPORTED_EXTENSIONS,
    Extracted,
    decode_text_bytes,
    extract_text,
)
from desktop_dedup.core.extract.epub import read_epub_spine
from desktop_dedup.core.extract.html import html_to_text
from desktop_dedup.core.extract.plaintext import strip_markdown
from desktop_dedup.core.fingerprint import fingerprint_text
from desktop_dedup.core.models import DEFAULT_EXTENSIONS

TRADITIONAL_ZH = (
    "臺灣的夏天總是來得特別早。五月剛過，街道兩旁的鳳凰木便開滿了火紅的花朵，遠遠望去像是一片燃燒的雲彩。"
    "學生們在樹下背誦課文，準備即將到來的期末考試，老師則在教室裡來回踱步，叮嚀大家不要忘記複習重點。\n"
    "傍晚時分，夜市的攤販陸續擺出桌椅，空氣中瀰漫著滷味、烤香腸與珍珠奶茶的香氣，熱鬧的人潮一直持續到深夜才慢慢散去。"
)
JAPANESE = (
    "日本の春は桜の季節です。三月の終わりになると、各地で桜の花が咲き始め、人々は公園や川沿いに集まってお花見を楽しみます。"
    "会社の同僚や家族、友人と一緒にお弁当を広げ、満開の桜の下で語り合う時間は、多くの日本人にとって一年で最も楽しみな行事の一つです。\n"
    "夜になると提灯に照らされた夜桜もまた格別の美しさを見せてくれます。"
)
FRENCH = (
    "Le café du coin ouvre à sept heures. Les habitués y boivent un crème en lisant le journal, "
    "et la patronne, très élégante, salue chacun par son prénom.\nMême en hiver, la terrasse "
    "reste pleine: on y parle de politique, de football et des prix qui ne cessent d'augmenter. "
    "À midi, le menu du jour attire les employés des bureaux voisins, pressés mais fidèles."
)

SAMPLES = {"zh": docgen.SAMPLE_ZH, "en": docgen.SAMPLE_EN}
FORMATS = ["txt", "md", "html", "docx", "odt", "rtf", "epub", "pdf"]


def words_only(text: str) -> str:
    """Text with all whitespace and punctuation removed: what must survive any format."""
    return re.sub(r"[\W_]+", "", text)


def lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


def test_supported_extensions_cover_the_scan_defaults() -> None:
    assert SUPPORTED_EXTENSIONS == frozenset(DEFAULT_EXTENSIONS)


def test_samples_are_substantial() -> None:
    assert len(docgen.SAMPLE_ZH) >= 600
    assert len(re.findall(r"[\u4e00-\u9fff]", docgen.SAMPLE_ZH)) >= 500
    assert len(docgen.SAMPLE_EN) >= 2000
    assert len(docgen.paragraphs(docgen.SAMPLE_EN)) >= 4


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Path]]:
    root = tmp_path_factory.mktemp("formats")
    return {
        name: docgen.write_all_formats(root / name, "doc", text) for name, text in SAMPLES.items()
    }


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("sample", sorted(SAMPLES))
def test_every_format_gives_back_the_same_words(
    generated: dict[str, dict[str, Path]], sample: str, fmt: str
) -> None:
    path = generated[sample][fmt]
    assert path.suffix == f".{fmt}" and path.stat().st_size > 0
    result = extract_text(path)
    assert isinstance(result, Extracted)
    assert result.format == fmt
    assert words_only(result.text) == words_only(SAMPLES[sample])


@pytest.mark.parametrize("fmt", [f for f in FORMATS if f != "pdf"])
@pytest.mark.parametrize("sample", sorted(SAMPLES))
def test_paragraphs_become_lines(
    generated: dict[str, dict[str, Path]], sample: str, fmt: str
) -> None:
    # PDF is excluded: its lines are the page's wrapped lines, not paragraphs.
    text = extract_text(generated[sample][fmt]).text
    assert lines(text) == docgen.paragraphs(SAMPLES[sample])


@pytest.mark.parametrize("sample", sorted(SAMPLES))
def test_pdf_differs_only_in_line_wrapping(
    generated: dict[str, dict[str, Path]], sample: str
) -> None:
    text = extract_text(generated[sample]["pdf"]).text
    assert "\r" not in text
    source = SAMPLES[sample]
    if sample == "en":  # words are kept whole; only the breaks between them move
        assert text.split() == source.split()
    else:
        assert re.sub(r"\s+", "", text) == re.sub(r"\s+", "", source)
    assert len(lines(text)) > len(docgen.paragraphs(source))  # it really was wrapped


def test_extension_argument_overrides_the_name(tmp_path: Path) -> None:
    path = docgen.write_html(tmp_path / "page.dat", "Hello there\nSecond line")
    result = extract_text(path, "HTM")
    assert result.format == "html"
    assert lines(result.text) == ["Hello there", "Second line"]
    assert extract_text(docgen.write_txt(tmp_path / "notes.markdown", "# Title")).format == "md"
    assert extract_text(docgen.write_txt(tmp_path / "a.TEXT", "plain")).format == "txt"


def test_unsupported_extension_is_an_extraction_error(tmp_path: Path) -> None:
    path = tmp_path / "image.png"
    path.write_bytes(b"\x89PNG")
    with pytest.raises(ExtractionError, match=r"unsupported file type: \.png"):
        extract_text(path)


# --- encodings --------------------------------------------------------------------------------

ENCODED_CASES = [
    ("utf-8", False, docgen.SAMPLE_ZH),
    ("utf-8", False, docgen.SAMPLE_EN),
    ("utf-8", True, docgen.SAMPLE_ZH),
    ("utf-8", True, docgen.SAMPLE_EN),
    ("utf-16-le", True, docgen.SAMPLE_ZH),
    ("utf-16-le", True, docgen.SAMPLE_EN),
    ("utf-16-be", True, docgen.SAMPLE_ZH),
    ("utf-16-be", True, docgen.SAMPLE_EN),
    ("utf-16-le", False, docgen.SAMPLE_ZH),
    ("utf-16-le", False, docgen.SAMPLE_EN),
    ("utf-16-be", False, docgen.SAMPLE_ZH),
    ("utf-16-be", False, docgen.SAMPLE_EN),
    ("utf-32-le", True, docgen.SAMPLE_ZH),
    ("utf-32-be", True, docgen.SAMPLE_EN),
    ("utf-32-le", False, docgen.SAMPLE_ZH),  # chardet's test files hold these: once "binary"
    ("utf-32-le", False, docgen.SAMPLE_EN),
    ("utf-32-be", False, docgen.SAMPLE_ZH),
    ("utf-32-be", False, docgen.SAMPLE_EN),
    ("gb18030", False, docgen.SAMPLE_ZH),
    ("gb18030", False, docgen.SAMPLE_EN),
    ("gbk", False, docgen.SAMPLE_ZH),
    ("gbk", False, docgen.SAMPLE_EN),
    ("big5", False, TRADITIONAL_ZH),
    ("big5", False, docgen.SAMPLE_EN),
    ("shift_jis", False, JAPANESE),
    ("shift_jis", False, docgen.SAMPLE_EN),
    ("latin-1", False, FRENCH),
    ("latin-1", False, docgen.SAMPLE_EN),
    ("cp1252", False, FRENCH + " Prix: 5 €."),
]


@pytest.mark.parametrize(
    ("encoding", "bom", "text"),
    ENCODED_CASES,
    ids=[f"{e}-{'bom' if b else 'nobom'}-{t[:2]}" for e, b, t in ENCODED_CASES],
)
def test_text_encodings_are_detected(tmp_path: Path, encoding: str, bom: bool, text: str) -> None:
    path = docgen.write_txt(tmp_path / "doc.txt", text, encoding=encoding, bom=bom)
    raw = path.read_bytes()
    assert raw != text.encode("utf-8") or encoding == "utf-8" or text.isascii()
    assert decode_text_bytes(raw) == text
    assert extract_text(path).text == text


def test_chinese_gb18030_four_byte_characters(tmp_path: Path) -> None:
    text = docgen.SAMPLE_ZH + "\n罕见字：𠀀𪚥，表情😀。"
    path = docgen.write_txt(tmp_path / "rare.txt", text, encoding="gb18030")
    assert extract_text(path).text == text


def test_decode_rejects_binary() -> None:
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 8
    with pytest.raises(ExtractionError, match="binary data, not text"):
        decode_text_bytes(png)
    noisy = bytes((i * 37 + 11) % 255 + 1 for i in range(4000))  # no NULs, no structure
    with pytest.raises(ExtractionError, match="binary data, not text"):
        decode_text_bytes(noisy)
    with pytest.raises(ExtractionError, match=r"empty file \(0 bytes\)"):
        decode_text_bytes(b"")


def test_stray_nul_in_utf8_text_is_dropped_not_binary() -> None:
    text = docgen.SAMPLE_ZH + "\n" + docgen.SAMPLE_EN
    damaged = text.encode("utf-8")
    cut = damaged.index(b"\n", 1000)
    damaged = damaged[:cut] + b"\x00" + damaged[cut:]
    assert decode_text_bytes(damaged) == text
    many_nuls = damaged.replace(b"\n", b"\n\x00\x00")
    with pytest.raises(ExtractionError, match="binary data, not text"):
        decode_text_bytes(many_nuls)


@pytest.mark.parametrize(
    ("encoding", "bom"),
    [("utf-8", False), ("utf-8", True), ("utf-16-le", True), ("utf-16-le", False),
     ("utf-32-le", False), ("gb18030", False), ("cp1252", False)],
)  # fmt: skip
@pytest.mark.parametrize("zeros", [3, 4096, 1_000_000])
def test_a_text_followed_by_zero_bytes_is_its_text(
    tmp_path: Path, encoding: str, bom: bool, zeros: int
) -> None:
    """A download that stopped in a file the downloader had set to its full size, or a file
    being written when the machine lost power, holds its text and then zero bytes to its end.
    Three of them had the file refused as "binary data, not text", its copies left alone.
    The zeros are made here as such programs make them (``truncate``, which extends a file
    with zero bytes); the text before them reads as the file without them, in its encoding,
    UTF-16 and UTF-32 too, whose last character ends in zero bytes of its own (an English text
    ends in ``.`` 00). A file of zero bytes only says so."""
    french = Path(__file__).parent / "data" / "languages" / "fr" / "chsh.txt"  # a real page
    body = {
        "gb18030": docgen.SAMPLE_ZH,
        "cp1252": french.read_text(encoding="utf-8"),
    }.get(encoding, docgen.SAMPLE_ZH + "\n" + docgen.SAMPLE_EN)
    plain = docgen.write_txt(tmp_path / "plain.txt", body, encoding=encoding, bom=bom)
    padded = docgen.write_txt(tmp_path / "padded.txt", body, encoding=encoding, bom=bom)
    subprocess.run(["truncate", "-s", f"+{zeros}", str(padded)], check=True)
    assert padded.read_bytes() == plain.read_bytes() + b"\x00" * zeros
    assert extract_text(padded).text == extract_text(plain).text == body
    zeroed = tmp_path / "zeroed.txt"
    subprocess.run(["truncate", "-s", str(zeros), str(zeroed)], check=True)
    with pytest.raises(ExtractionError, match="only zero bytes"):
        extract_text(zeroed)


def test_text_with_escape_sequences_and_tabs_is_still_text() -> None:
    """A coloured log saved from a terminal is text, read as the terminal shows it: its tabs,
    line ends and form feeds kept, its colour sequences not."""
    log_text = "col1\tcol2\n\x1b[31mred\x1b[0m warning\r\nform\x0cfeed\n" * 50
    shown = "col1\tcol2\nred warning\r\nform\x0cfeed\n" * 50
    assert decode_text_bytes(log_text.encode()) == shown


# --- markup -----------------------------------------------------------------------------------


def test_markdown_markup_is_removed() -> None:
    source = """# The *Title* here ##

Some **bold** and __strong__ words, a [link text](https://example.com/x "t") and
an image ![alt words](img/p.png) plus `inline code` and ~~struck~~ text.

> quoted line
- item one
* item two
1. numbered item

```python
print("code kept")
```

| head a | head b |
|--------|:------:|
| cell 1 | cell 2 |

snake_case_name and 2*3*4 stay; see [ref words][r1] or <https://auto.example.org>.
<br/>Escaped \\*star\\*.

[r1]: https://example.com/ref
---
"""
    text = strip_markdown(source)
    for gone in ("#", "**", "__", "](", "https://example.com", "```", "> ", "|", "---", "~~"):
        assert gone not in text, gone
    for kept in (
        "The Title here",
        "Some bold and strong words, a link text and",
        "an image alt words plus inline code and struck text.",
        "quoted line",
        "item one",
        "item two",
        "numbered item",
        'print("code kept")',
        "snake_case_name and 2*3*4 stay; see ref words or https://auto.example.org.",
        "Escaped *star*.",
    ):
        assert kept in text, kept
    assert "cell 1 cell 2" in lines(text)


def test_markdown_and_txt_of_one_article_have_the_same_words(tmp_path: Path) -> None:
    md = extract_text(docgen.write_md(tmp_path / "a.md", docgen.SAMPLE_EN)).text
    txt = extract_text(docgen.write_txt(tmp_path / "a.txt", docgen.SAMPLE_EN)).text
    assert md.split() == txt.split()


@pytest.mark.parametrize(
    "front",
    [
        "---\ntitle: Spring\ndate: 2024-03-01\ntags:\n  - nature\n  - town\n"
        "aliases: [river]\n---\n",
        "---\n# a comment\ntitle: Spring\n...\n",
        '+++\ntitle = "Spring"\ndate = 2024-03-01\n[params]\nlayout = "post"\n+++\n',
        "\ufeff---\ncreated: 2024-03-01T09:00\nstatus: draft\n---\n",
    ],
    ids=["yaml", "yaml-dots", "toml", "bom"],
)
def test_a_notes_front_matter_is_not_its_text(tmp_path: Path, front: str) -> None:
    """The metadata block at the top of a note or a post (Obsidian, Jekyll, Hugo, Pandoc) is
    what its tool shows as title, tags and dates, or not at all; no copy of the note in another
    format holds it as text."""
    note = tmp_path / "note.md"
    note.write_text(front + docgen.SAMPLE_EN, encoding="utf-8")
    txt = docgen.write_txt(tmp_path / "note.txt", docgen.SAMPLE_EN)
    assert extract_text(note).text.split() == extract_text(txt).text.split()


def test_a_page_that_opens_with_a_rule_and_prose_keeps_it() -> None:
    for source in (
        "---\nThis note opens with a rule.\n\n---\nAnd goes on.\n",
        "---\ntitle: a key, then prose\nThe closing line never comes.\n",
        "---\nnote: a key line\nand a line of prose between the rules\n---\nMore.\n",
    ):
        assert strip_markdown(source).split() == source.replace("---", "").split()


def test_a_notes_links_and_comments_read_as_they_show(tmp_path: Path) -> None:
    """Obsidian's (and other wikis') [[links]] show their alias, else their target; an embed
    shows a picture or another note; HTML and Obsidian comments show nothing. A note and the
    same note as its app shows it (printed, exported) are the same words."""
    note = (
        "# Spring notes\n<!-- draft: check the dates -->\n"
        "The river rises every spring; see [[River|the river page]] and [[Town]].\n"
        "![[bridge.png]]\n%% a private aside %%\n"
        "It floods the [[Lower town#Streets|lower streets]] some years.\n"
        "<!--\nan older\nparagraph\n-->\nThe end."
    )
    shown = (
        "Spring notes\nThe river rises every spring; see the river page and Town.\n"
        "It floods the lower streets some years.\nThe end."
    )
    md = docgen.write_txt(tmp_path / "note.md", note)
    txt = docgen.write_txt(tmp_path / "note.txt", shown)
    assert extract_text(md).text.split() == extract_text(txt).text.split()


def test_rst_markup_is_removed(tmp_path: Path) -> None:
    source = """=========
Big Title
=========

Section
-------

Text with **strong**, *emphasis*, ``literal`` and a `link <https://example.com>`_.
See :ref:`the guide` for more::

    code block

.. _target:

.. note:: Careful here.

- bullet one
"""
    path = tmp_path / "doc.rst"
    path.write_text(source, encoding="utf-8")
    result = extract_text(path)
    assert result.format == "rst"
    assert lines(result.text) == [
        "Big Title",
        "Section",
        "Text with strong, emphasis, literal and a link.",
        "See the guide for more:",
        "code block",
        "Careful here.",
        "bullet one",
    ]


def test_rst_directives_nested_in_a_block_are_markup_too(tmp_path: Path) -> None:
    """Sphinx's reference pages nest directives in the block of another (a class's methods, a
    note inside a function's text): their markers are markup wherever they are indented, as
    at the margin. Left as words, ``method`` and ``versionadded`` were among the heaviest of
    a page (``logging.handlers``: ``method`` a tenth of its weight), which its rendered page
    does not hold."""
    source = """\
.. class:: Handler(level)

   A handler writes records.

   .. method:: emit(record)

      Writes the record.

      .. versionadded:: 3.2

   .. _handler-note:

   .. attribute:: level
"""
    path = tmp_path / "handlers.rst"
    path.write_text(source, encoding="utf-8")
    assert lines(extract_text(path).text) == [
        "Handler(level)",
        "A handler writes records.",
        "emit(record)",
        "Writes the record.",
        "3.2",
        "level",
    ]


def test_sphinx_source_copies_read_as_their_markup(tmp_path: Path) -> None:
    """Sphinx puts a copy of each page's source beside the rendered site, named for its markup
    with ``.txt`` added (``_sources/library/logging.rst.txt``; MyST's ``.md.txt``): it is read
    as that markup, not as plain text, so that it is the same text as the page it renders. Read
    as plain text, the markers (``.. method::``, ``:ref:``, ``**``) were its words."""
    source = """\
Handlers
========

.. class:: Handler(level)

   A handler writes **records** to :ref:`a stream <streams>`.

   .. method:: emit(record)
"""
    sources = tmp_path / "_sources"
    sources.mkdir()
    (tmp_path / "handlers.rst").write_text(source, encoding="utf-8")
    (sources / "handlers.rst.txt").write_text(source, encoding="utf-8")
    (sources / "handlers.md.txt").write_text("# Handlers\n\nA **handler**.\n", encoding="utf-8")
    copy = extract_text(sources / "handlers.rst.txt")
    assert copy.text == extract_text(tmp_path / "handlers.rst").text
    assert copy.format == "txt"  # the file's own type, as its name gives it
    assert lines(extract_text(sources / "handlers.md.txt").text) == ["Handlers", "A handler."]
    # a plain name with a dot inside stays plain text
    (tmp_path / "v1.2.txt").write_text("**kept** as written", encoding="utf-8")
    assert extract_text(tmp_path / "v1.2.txt").text.strip() == "**kept** as written"


def test_html_keeps_visible_text_only() -> None:
    markup = """<!DOCTYPE html><html><head><title>Site name</title>
<style>p { color: red }</style><script>var hidden = "script text";</script></head>
<body><nav><a href="/">Home</a> <a href="/x">Menu</a></nav>
<noscript>Enable JS</noscript><template><p>template text</p></template>
<svg><text>svg label</text></svg>
<h1>Heading</h1><p>First para with <b>bold</b> and un<i>believ</i>able words&nbsp;&amp; more.</p>
<div hidden>hidden div</div><span aria-hidden="true">icon</span>
<ul><li>one</li><li>two</li></ul>line<br>break
<table><tr><td>cell a</td><td>cell b</td></tr></table>
<!-- a comment --></body></html>"""
    text = html_to_text(markup)
    for gone in (
        "Site name", "p {", "script text", "Home", "Menu", "Enable JS", "template text",
        "svg label", "hidden div", "icon", "comment",
    ):  # fmt: skip
        assert gone not in text, gone
    assert lines(text) == [
        "Heading",
        "First para with bold and unbelievable words\xa0& more.",
        "one",
        "two",
        "line",
        "break",
        "cell a",
        "cell b",
    ]


def test_html_leaves_out_what_its_inline_style_hides_unless_it_is_most_of_the_page() -> None:
    """What a page's own style hides (style="display: none": a login dialog, a share box, a
    template a script fills, as a saved page holds them) is not its visible text, like the
    hidden attribute. A page whose text is mostly hidden so (shown by a script when the page
    loads) is read with it: that text is what its reader saw. So is text hidden only by
    "visibility: hidden", which pages put on their article until a script has laid it out
    (WeChat's articles as their server sends them)."""
    article = (
        "<h1>The river in spring</h1><p>The river rises every spring when the snow melts in "
        "the hills, and the town watches the water climb the old stone steps.</p>"
    )
    dialogs = (
        '<div class="dialog" style="display:none"><p>Log in to comment</p></div>'
        '<div style="color: grey; DISPLAY: NONE ;">Share to WeChat, Weibo</div>'
        '<p style="display:block">Shown by its style</p>'
        '<p style="visibility: hidden">Kept: laid out by a script</p>'
    )
    assert lines(html_to_text(f"<html><body>{article}{dialogs}</body></html>")) == [
        "The river in spring",
        "The river rises every spring when the snow melts in the hills, and the town watches "
        "the water climb the old stone steps.",
        "Shown by its style",
        "Kept: laid out by a script",
    ]
    revealed = f'<html><body><div id="content" style="display: none">{article}</div></body></html>'
    assert "The river rises every spring" in html_to_text(revealed)


@pytest.mark.parametrize("encoding", ["gb18030", "gbk", "big5", "utf-8", "utf-16"])
def test_html_charset_from_meta(tmp_path: Path, encoding: str) -> None:
    text = TRADITIONAL_ZH if encoding == "big5" else docgen.SAMPLE_ZH
    if encoding == "utf-16":  # a UTF-16 page carries a BOM; its meta tag is not readable first
        path = tmp_path / "page.html"
        page = f"<html><body><p>{text}</p></body></html>"
        path.write_bytes(b"\xff\xfe" + page.encode("utf-16-le"))
    else:
        path = docgen.write_html(tmp_path / "page.html", text, encoding=encoding)
        assert f'charset="{encoding}"'.encode() in path.read_bytes()
    assert words_only(extract_text(path).text) == words_only(text)


@pytest.mark.parametrize("declared", ["iso-8859-1", "windows-1252", "gb2312", "big5"])
def test_a_page_whose_meta_names_another_charset_reads_as_its_bytes_are(
    tmp_path: Path, declared: str
) -> None:
    """A page saved from a site whose server said UTF-8 in its HTTP header while the page's
    own meta tag still names the charset the site used before (a site moved to UTF-8, its
    templates not): online, a browser follows the header; the saved file has only the meta,
    and was read in that charset, every character beyond ASCII as two or three wrong ones,
    so that it matched none of its copies. Bytes that are valid UTF-8 beyond ASCII are UTF-8
    (legacy text almost never is: tests/test_decoding.py). The other way round, a page in
    GB18030 whose meta says UTF-8 is read as the Chinese it is, not as U+FFFD."""
    text = docgen.SAMPLE_ZH + "\nCafé crème, naïve résumé.\n" + docgen.SAMPLE_EN
    page = docgen.write_html(tmp_path / "page.html", text, encoding="utf-8")
    raw = page.read_bytes()
    assert raw.count(b'charset="utf-8"') == 1
    page.write_bytes(raw.replace(b'charset="utf-8"', f'charset="{declared}"'.encode()))
    assert words_only(extract_text(page).text) == words_only(text)
    chinese = docgen.write_html(tmp_path / "gb.html", docgen.SAMPLE_ZH, encoding="gb18030")
    raw = chinese.read_bytes()
    chinese.write_bytes(raw.replace(b'charset="gb18030"', b'charset="utf-8"'))
    assert words_only(extract_text(chinese).text) == words_only(docgen.SAMPLE_ZH)


def test_html_http_equiv_and_xml_declaration(tmp_path: Path) -> None:
    text = docgen.SAMPLE_ZH.splitlines()[0]
    http_equiv = tmp_path / "old.htm"
    http_equiv.write_bytes(
        b'<html><head><meta http-equiv="Content-Type" content="text/html; charset=GB2312">'
        + b"</head><body><p>"
        + text.encode("gb18030")
        + b"</p></body></html>"
    )
    assert extract_text(http_equiv).text == text
    xhtml = tmp_path / "page.xhtml"
    xhtml.write_bytes(
        b'<?xml version="1.0" encoding="big5"?><html xmlns="http://www.w3.org/1999/xhtml">'
        + b"<body><p>"
        + TRADITIONAL_ZH.splitlines()[0].encode("big5")
        + b"</p></body></html>"
    )
    assert extract_text(xhtml).text == TRADITIONAL_ZH.splitlines()[0]


def test_html_without_declared_charset_is_detected(tmp_path: Path) -> None:
    path = tmp_path / "nodecl.html"
    body = "".join(f"<p>{p}</p>" for p in docgen.paragraphs(docgen.SAMPLE_ZH))
    path.write_bytes(f"<html><body>{body}</body></html>".encode("gb18030"))
    assert lines(extract_text(path).text) == docgen.paragraphs(docgen.SAMPLE_ZH)


# --- office formats ---------------------------------------------------------------------------


def test_docx_tables_in_order_headers_excluded_merged_cells_once(tmp_path: Path) -> None:
    import docx

    document = docx.Document()
    document.sections[0].header.paragraphs[0].text = "HEADER CHROME"
    document.sections[0].footer.paragraphs[0].text = "FOOTER CHROME"
    document.add_heading("文档标题", level=1)
    document.add_paragraph("Before the table.")
    table = document.add_table(rows=2, cols=3)
    table.cell(0, 0).merge(table.cell(0, 1)).text = "merged cell"
    table.cell(0, 2).text = "top right"
    table.cell(1, 0).text = "表格内容"
    table.cell(1, 1).text = "second"
    inner = table.cell(1, 2).add_table(rows=1, cols=1)
    inner.cell(0, 0).text = "nested cell"
    document.add_paragraph("After the table.")
    path = tmp_path / "tables.docx"
    document.save(str(path))

    text = extract_text(path).text
    assert "CHROME" not in text
    assert lines(text) == [
        "文档标题",
        "Before the table.",
        "merged cell",
        "top right",
        "表格内容",
        "second",
        "nested cell",
        "After the table.",
    ]


def test_docx_reads_controls_insertions_links_and_breaks_but_not_deletions(tmp_path: Path) -> None:
    """What Word writes around runs: a content control (w:sdt) at body level and inside a
    paragraph, a tracked insertion (read) and deletion (not read), a hyperlink, and run-level
    breaks and tabs (a page break is nothing)."""
    import docx
    from docx.oxml import parse_xml

    w = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
    document = docx.Document()
    document.add_paragraph("First paragraph.")
    para = document.add_paragraph("Kept ")
    tracked = ' w:id="{1}" w:author="A"><w:r><w:{2}>{3}</w:{2}></w:r></w:{0}>'
    para._p.append(parse_xml(f"<w:ins {w}" + tracked.format("ins", 1, "t", "inserted")))
    para._p.append(parse_xml(f"<w:del {w}" + tracked.format("del", 2, "delText", "deleted")))
    para._p.append(
        parse_xml(
            f'<w:hyperlink {w}><w:r><w:t xml:space="preserve"> linked</w:t></w:r></w:hyperlink>'
        )
    )
    para._p.append(
        parse_xml(
            f'<w:r {w}><w:tab/><w:t>a</w:t><w:br/><w:t>b</w:t><w:br w:type="page"/><w:t>c</w:t>'
            "<w:noBreakHyphen/><w:t>d</w:t></w:r>"
        )
    )
    control = parse_xml(
        f"<w:sdt {w}><w:sdtPr/><w:sdtContent><w:p><w:r><w:t>Inside a control.</w:t></w:r></w:p>"
        "</w:sdtContent></w:sdt>"
    )
    document.element.body.insert(len(document.element.body) - 1, control)  # before sectPr
    path = tmp_path / "controls.docx"
    document.save(str(path))

    assert extract_text(path).text.split("\n") == [
        "First paragraph.",
        "Kept inserted linked\ta",
        "bc-d",
        "Inside a control.",
    ]


def test_odt_headings_paragraphs_and_tables_in_order(tmp_path: Path) -> None:
    from odf.opendocument import OpenDocumentText
    from odf.table import Table, TableCell, TableColumn, TableRow
    from odf.text import H, List, ListItem, P, Span

    document = OpenDocumentText()
    document.text.addElement(H(outlinelevel=1, text="标题 Heading"))
    para = P(text="Mixed ")
    para.addElement(Span(text="span text"))
    document.text.addElement(para)
    table = Table(name="T1")
    table.addElement(TableColumn(numbercolumnsrepeated=2))
    row = TableRow()
    for value in ("单元格一", "cell two"):
        cell = TableCell()
        cell.addElement(P(text=value))
        row.addElement(cell)
    table.addElement(row)
    document.text.addElement(table)
    items = List()
    item = ListItem()
    item.addElement(P(text="list item"))
    items.addElement(item)
    document.text.addElement(items)
    document.text.addElement(P(text="结尾。"))
    path = tmp_path / "doc.odt"
    document.save(str(path))
    assert lines(extract_text(path).text) == [
        "标题 Heading",
        "Mixed span text",
        "单元格一",
        "cell two",
        "list item",
        "结尾。",
    ]


def test_rtf_code_page_escapes_and_surrogates(tmp_path: Path) -> None:
    gbk = "".join(f"\\'{b:02x}" for b in "中文段落".encode("gbk"))
    path = tmp_path / "cp936.rtf"
    path.write_bytes(
        (
            "{\\rtf1\\ansi\\ansicpg936\\deff0{\\fonttbl{\\f0\\fnil\\fcharset134 SimSun;}}"
            "{\\*\\generator Hand;}\\pard\\f0 " + gbk + "\\par\n"
            "Plain \\{braces\\} line\\par\n}"
        ).encode("ascii")
    )
    assert lines(extract_text(path).text) == ["中文段落", "Plain {braces} line"]
    rare = "罕见字𠀀与𪚥，emoji 😀 end"
    generated = docgen.write_rtf(tmp_path / "rare.rtf", rare)
    assert extract_text(generated).text.strip() == rare


def test_rtf_requires_rtf_header(tmp_path: Path) -> None:
    path = tmp_path / "fake.rtf"
    path.write_text("just text pretending", encoding="utf-8")
    with pytest.raises(ExtractionError, match="not an RTF document"):
        extract_text(path)


# --- EPUB ---------------------------------------------------------------------------------------


def _hand_made_epub(path: Path, *, missing_image: bool, encryption_xml: str | None = None) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("mimetype", "application/epub+zip", compress_type=zipfile.ZIP_STORED)
        zf.writestr(
            "META-INF/container.xml",
            '<?xml version="1.0"?><container version="1.0" '
            'xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles>'
            '<rootfile full-path="OEBPS/content.opf" '
            'media-type="application/oebps-package+xml"/></rootfiles></container>',
        )
        image = '<item id="img" href="Images/cover.jpg" media-type="image/jpeg"/>'
        zf.writestr(
            "OEBPS/content.opf",
            '<?xml version="1.0" encoding="utf-8"?><package xmlns="http://www.idpf.org/2007/opf" '
            'version="2.0" unique-identifier="id"><metadata '
            'xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>T</dc:title>'
            '<dc:identifier id="id">x</dc:identifier></metadata><manifest>'
            '<item id="b" href="Text/b%20two.xhtml" media-type="application/xhtml+xml"/>'
            '<item id="a" href="Text/a.xhtml" media-type="application/xhtml+xml"/>'
            + image
            + '</manifest><spine><itemref idref="b"/><itemref idref="a"/></spine></package>',
        )
        page = '<html xmlns="http://www.w3.org/1999/xhtml"><head><title>{t}</title></head><body><p>{b}</p></body></html>'  # noqa: E501
        zf.writestr("OEBPS/Text/a.xhtml", page.format(t="A", b="第二章 second chapter"))
        zf.writestr("OEBPS/Text/b two.xhtml", page.format(t="B", b="第一章 first chapter"))
        if not missing_image:
            zf.writestr("OEBPS/Images/cover.jpg", b"\xff\xd8\xff\xe0not really a jpeg")
        if encryption_xml is not None:
            zf.writestr("META-INF/encryption.xml", encryption_xml)
    return path


def test_epub_follows_the_spine_not_the_manifest(tmp_path: Path) -> None:
    path = _hand_made_epub(tmp_path / "ok.epub", missing_image=False)
    assert lines(extract_text(path).text) == ["第一章 first chapter", "第二章 second chapter"]


def test_epub_with_files_missing_from_its_manifest_is_read_from_the_spine(tmp_path: Path) -> None:
    path = _hand_made_epub(tmp_path / "sloppy.epub", missing_image=True)
    assert lines(extract_text(path).text) == ["第一章 first chapter", "第二章 second chapter"]
    with zipfile.ZipFile(path) as zf:
        assert lines(read_epub_spine(zf)) == ["第一章 first chapter", "第二章 second chapter"]


def _encryption_xml(uri: str) -> str:
    return (
        '<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" '
        'xmlns:enc="http://www.w3.org/2001/04/xmlenc#"><enc:EncryptedData>'
        '<enc:EncryptionMethod Algorithm="http://www.idpf.org/2008/embedding"/>'
        f'<enc:CipherData><enc:CipherReference URI="{uri}"/></enc:CipherData>'
        "</enc:EncryptedData></encryption>"
    )


def test_epub_drm_versus_font_obfuscation(tmp_path: Path) -> None:
    drm = _hand_made_epub(
        tmp_path / "drm.epub",
        missing_image=False,
        encryption_xml=_encryption_xml("OEBPS/Text/a.xhtml"),
    )
    with pytest.raises(ExtractionError, match="EPUB is DRM-protected"):
        extract_text(drm)
    fonts = _hand_made_epub(
        tmp_path / "fonts.epub",
        missing_image=False,
        encryption_xml=_encryption_xml("OEBPS/Fonts/serif.otf"),
    )
    assert "first chapter" in extract_text(fonts).text


# --- PDF ----------------------------------------------------------------------------------------


def test_pdf_pages_in_order(tmp_path: Path) -> None:
    text = "\n".join(f"第{i}段 paragraph number {i} " + "文字" * 30 for i in range(120))
    path = docgen.write_pdf(tmp_path / "long.pdf", text)
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(path))
    try:
        assert len(document) >= 3
    finally:
        document.close()
    extracted = extract_text(path).text
    positions = [extracted.index(f"paragraph number {i} ") for i in range(120)]
    assert positions == sorted(positions)


def test_pdf_without_text_layer(tmp_path: Path) -> None:
    from reportlab.pdfgen import canvas

    path = tmp_path / "scan.pdf"
    pdf = canvas.Canvas(str(path))
    pdf.rect(100, 100, 300, 400, fill=1)  # a "scanned image" stand-in: ink, no text
    pdf.showPage()
    pdf.rect(50, 50, 100, 100, fill=0)
    pdf.showPage()
    pdf.save()
    # OCR off (the default): the reason says so and what would read it (tests/test_ocr.py)
    with pytest.raises(ExtractionError, match=r"^scanned, no text layer; OCR (can|could) read it"):
        extract_text(path)


def test_a_text_file_of_exactly_64_mib_is_read(tmp_path: Path) -> None:
    """README: "text files over **64 MiB**" are refused: 64 MiB itself is not over. A sparse file
    of zeros costs no disk; it is read, then found to be no text (not "too large")."""
    path = tmp_path / "exactly.txt"
    with open(path, "wb") as f:
        f.truncate(64 * 1024 * 1024)
    with pytest.raises(ExtractionError, match="^only zero bytes, no text$"):
        extract_text(path)


def test_html_whose_text_was_cut_at_a_fixed_width_reads_whole_words() -> None:
    """A page made from text cut every 40 characters (``fold -w 40``) has line breaks inside
    words; collapsing white space would show them as spaces ("p rovided"). They are joined."""
    paragraphs = docgen.SAMPLE_EN.split("\n")
    body = "\n".join(
        "<p>" + "\n".join(p[i : i + 40] for i in range(0, len(p), 40)) + "</p>" for p in paragraphs
    )
    text = html_to_text(f"<html><body><h1>Spring</h1>\n{body}</body></html>")
    assert text.split("\n") == ["Spring", *paragraphs]
    # a page with ordinary line breaks in its source keeps its spaces
    ragged = "<p>" + docgen.SAMPLE_EN.replace(". ", ".\n") + "</p>"
    assert html_to_text(ragged).split() == docgen.SAMPLE_EN.split()


# --- hyphenated PDFs ----------------------------------------------------------------------------


def _justified_pdf(path: Path, text: str, language: str) -> Path:
    """Justified, hyphenated narrow columns, as LaTeX, InDesign or a word processor with
    hyphenation on set them: reportlab's paragraphs with pyphen's patterns."""
    from xml.sax.saxutils import escape

    from reportlab.lib.enums import TA_JUSTIFY
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Paragraph, SimpleDocTemplate

    style = ParagraphStyle(
        "body",
        fontName="Helvetica",
        fontSize=10,
        leading=12,
        alignment=TA_JUSTIFY,
        hyphenationLang=language,
        embeddedHyphenation=1,
        uriWasteReduce=0.3,
    )
    doc = SimpleDocTemplate(str(path), leftMargin=200, rightMargin=200)
    doc.build([Paragraph(escape(" ".join(p.split())), style) for p in docgen.paragraphs(text)])
    return path


@pytest.mark.parametrize("language", ["en_US", "de_DE"])
def test_words_hyphenated_at_the_line_ends_of_a_pdf_are_read_whole(tmp_path: Path, language):
    """A word hyphenated at a line end (``docu-`` / ``ment``) is one word again: shown as
    written it was two words to the fingerprint and a change in the diff against any other
    copy of the text."""
    import pypdfium2

    source = (
        docgen.SAMPLE_EN
        if language == "en_US"
        else sorted((Path(__file__).parent / "data" / "languages" / "de").glob("*.txt"))[
            0
        ].read_text(encoding="utf-8")
    )
    path = _justified_pdf(tmp_path / "justified.pdf", source, language)
    document = pypdfium2.PdfDocument(str(path))
    layer = "".join(document[i].get_textpage().get_text_range() for i in range(len(document)))
    document.close()
    hyphens = layer.count("\ufffe") + layer.count("\x02")
    assert hyphens >= 10  # PDFium marks each: the columns really were hyphenated
    text = extract_text(path).text
    assert "\ufffe" not in text and "\x02" not in text
    assert text.split() == source.split()
    # the same word pairs as the text: 0.90 (English) and 0.84 (German) with the hyphens shown
    pdf, txt = (sketch.decode(fingerprint_text(t).sketch) for t in (text, source))
    assert sketch.verified_similarity(pdf, txt) >= 0.99


def test_a_compound_broken_at_its_hyphen_keeps_it_where_the_text_says_so(tmp_path: Path):
    """A compound broken at its own hyphen looks like a hyphenated word; it keeps its hyphen
    where the text writes it with one elsewhere, or where the piece after it does not begin
    with a small letter."""
    from reportlab.pdfgen import canvas

    lines = [
        "A well-known tool for the docu-",
        "ment of a well-",
        "known format, with anti-",
        "American and COVID-",
        "19 in it, and an e-",
        "mail.",
    ]
    path = tmp_path / "lines.pdf"
    page = canvas.Canvas(str(path))
    for i, line in enumerate(lines):
        page.drawString(72, 800 - 14 * i, line)
    page.save()
    text = extract_text(path).text
    assert (
        text.split()
        == (
            "A well-known tool for the document of a well-known format, with antiAmerican and "
            "COVID-19 in it, and an email."
        )
        .replace("antiAmerican", "anti-American")
        .split()
    )


def test_a_pdf_of_a_page_groff_hyphenated_has_its_words_whole(tmp_path: Path):
    """A manual page saved as text and made a PDF keeps groff's hyphen sign U+2010 at its line
    ends (``in‐`` / ``vert``); PDFium marks only the ASCII hyphen, so each such word was two
    in the PDF and one in the text, a change in their diff. Joined as the text reader joins
    them, a compound the text writes with its hyphen elsewhere kept whole."""
    text = (
        "With -v, --in\u2010\nvert-match the sense of match\u2010\ning is inverted, and a "
        "well\u2010\nknown well\u2010known word."
    )
    pdf = docgen.write_pdf(tmp_path / "page.pdf", text)
    got = extract_text(pdf).text
    # (the hyphen a compound keeps at a line end is the ASCII one, as a text reader gives it)
    assert (
        got.split()
        == (
            "With -v, --invert-match the sense of matching is inverted, and a well-known"
            " well\u2010known word."
        ).split()
    )


def _groff_run(page: Path, *flags: str, columns: int = 80, sgr: bool = False) -> bytes:
    """``page`` set by groff ``columns`` wide, as ``groff -Tutf8 page > page.txt`` saves it;
    ``sgr``: with escape sequences, which Debian's groff writes only when GROFF_SGR is set."""
    env = {k: v for k, v in os.environ.items() if k != "GROFF_SGR"}
    if sgr:
        env["GROFF_SGR"] = "1"
    out = subprocess.run(
        ["groff", "-k", "-man", "-Tutf8", f"-rLL={columns}n", *flags, str(page)],
        capture_output=True,
        env=env,
    )
    assert out.returncode == 0, out.stderr
    return out.stdout


def _groff(page: Path, columns: int, *extra: str) -> str:
    """``page`` set by groff as ``man`` shows it, ``columns`` wide, without bold or underline."""
    return _groff_run(page, "-P-cbu", *extra, columns=columns).decode("utf-8")


def test_only_a_word_hyphenated_at_a_line_end_is_joined(tmp_path: Path) -> None:
    """The typeset hyphen joins a word cut after a letter; after a digit or an underscore it
    is written text (a range, a version), kept as it is: only letters make a word groff cut."""
    path = tmp_path / "page.txt"
    path.write_text(
        "a his\u2010\n       torical page, versions 2\u2010\n       3 and x_\u2010\n   y\n",
        encoding="utf-8",
    )
    text = extract_text(path).text
    assert "historical" in text
    assert "2\u2010\n" in text and "x_\u2010\n" in text


def test_a_manual_page_saved_as_text_has_its_hyphenated_words_whole(tmp_path: Path) -> None:
    """``man bind > bind.txt`` holds the page as groff set it: words hyphenated at the line
    ends with U+2010 (``his‐`` / ``torical``), the next line indented. Read as written, each
    was two words to the fingerprint and a change in the diff against the page in any other
    format. The same page set wide without hyphenation has the same words as the narrow one
    read; a text that writes its hyphen at a line end with the ASCII sign is left alone."""
    page = Path("/usr/share/fish/man/man1/bind.1")  # fish is a dependency of the suite
    narrow = _groff(page, 50)
    assert narrow.count("\u2010\n") >= 10  # groff really hyphenated
    wide = _groff(page, 2000, "-rHY=0")
    path = tmp_path / "bind.txt"
    path.write_text(narrow, encoding="utf-8")
    text = extract_text(path).text
    assert "\u2010\n" not in text

    def words(t: str) -> list[str]:
        return re.findall(r"[^\W_]+", t.replace("\u2010", "-"))

    assert words(text) == words(wide)
    ours, theirs = (sketch.decode(fingerprint_text(t).sketch) for t in (text, wide))
    assert sketch.verified_similarity(ours, theirs) >= 0.99
    ascii_wrap = tmp_path / "wrapped.txt"
    ascii_wrap.write_text("a well-\nknown tool, and a docu-\nment", encoding="utf-8")
    assert extract_text(ascii_wrap).text == "a well-\nknown tool, and a docu-\nment"


_CHINESE_PAGE = (
    ".TH 示例 1\n.SH 名称\n示例 \\- 一个\\fB中文\\fR手册页，带有\\fI下划线\\fR的词。\n"
    ".SH 描述\n\\fB粗体的中文\\fR和 \\fBbold English\\fR words, \\fIunderlined\\fR ones.\n"
)


@pytest.mark.parametrize("style", ["overstrike", "escape sequences"])
def test_a_manual_page_saved_with_bold_and_underline_reads_as_the_page(
    tmp_path: Path, style: str
) -> None:
    """``MAN_KEEP_FORMATTING=1 man bind > bind.txt``, ``groff -man -Tutf8 page > page.txt`` or
    a catman page keeps groff's bold and underline in the file. Debian's groff writes them as a
    typewriter would: a bold letter twice with a backspace between (``N\\bN``), an underlined
    one after ``_\\b``, a Chinese character as well; groff elsewhere (and Debian's with
    GROFF_SGR set) writes ANSI escape sequences (``ESC[1m`` ... ``ESC[0m``). The backspaces made
    such a file "binary data, not text", skipped; the sequences were read as words (``1m``,
    ``22m``) the page without them lacks. Either reads as the same page set without them."""
    chinese = tmp_path / "zh.1"
    chinese.write_text(_CHINESE_PAGE, encoding="utf-8")
    for n, page in enumerate([Path("/usr/share/fish/man/man1/bind.1"), chinese]):
        plain = _groff_run(page, "-P-cbu")
        if style == "overstrike":
            styled, mark = _groff_run(page, "-P-c"), b"\b"
        else:
            styled, mark = _groff_run(page, sgr=True), b"\x1b["
        assert styled.count(mark) >= 10 and mark not in plain  # groff really wrote them
        (tmp_path / f"plain{n}.txt").write_bytes(plain)
        (tmp_path / f"styled{n}.txt").write_bytes(styled)
        ours = extract_text(tmp_path / f"styled{n}.txt").text
        assert ours == extract_text(tmp_path / f"plain{n}.txt").text
        assert fingerprint_text(ours).text_hash == fingerprint_text(plain.decode()).text_hash


def test_hyphenated_words_are_joined_in_linear_time_beside_a_long_run_of_letters(
    tmp_path: Path,
) -> None:
    """A manual page saved as text whose example holds a long run of letters (a DNA sequence,
    a key in base32): the hyphenated words were found with a pattern that began with a run of
    letters, which was tried from each letter of the run to its end: a 40,000-letter run took
    40 s, past the 30 s a file may take to read, so the page was skipped as one that would not
    read, and even an ordinary page spent most of its reading there.

    Measured in CPU seconds of this process against a tenth of the run in the same test:
    linear work grows about 10 times, quadratic work 100 times."""
    page = _groff(Path("/usr/share/fish/man/man1/bind.1"), 50)
    assert page.count("\u2010\n") >= 10  # groff really hyphenated
    seconds = []
    for run in (4_000, 40_000):
        sequence = "".join("ACGT"[(i * i + 7 * i) % 4] for i in range(run))
        path = tmp_path / f"bind-{run}.txt"
        path.write_text(f"{page}\nEXAMPLE\n    {sequence}\n{page}", encoding="utf-8")
        start = time.process_time()
        text = extract_text(path).text
        seconds.append(time.process_time() - start)
        assert "\u2010\n" not in text and sequence in text
    assert seconds[1] < 10
    assert seconds[1] < 30 * max(seconds[0], 0.01), seconds


def test_a_marked_hyphen_kept_keeps_the_line_end_it_stood_at() -> None:
    """A page may end on a marked hyphen; what follows on the next page that is no small
    letter keeps its line (``10-`` / ``20``), while a word goes on (``docu-`` / ``ment``)."""
    from desktop_dedup.core.extract._common import HYPHEN_MARK, join_hyphenated

    text = f"page one ends in num{HYPHEN_MARK}\n42 and a docu{HYPHEN_MARK}\nment"
    assert join_hyphenated(text) == "page one ends in num-\n42 and a document"
