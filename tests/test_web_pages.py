"""Web pages hold a site around their document: the site's banner, navigation, table of
contents, search box and footer. What a copy of the page's text in any other format holds is
the document. Two pages of one site share the site, not the document.

The pages here are made by Sphinx, the generator of much of the documentation people keep
(Python's, fish's, Linux's), from real paragraphs (the manual pages of tests/data/languages),
each page beside the same source built as plain text by Sphinx's text builder. The classic theme
with a table of contents in the sidebar, as fish's and Python's documentation have it: 24 pages
of 20-60 words under about 140 words of site. Before the reader kept a page's main content,
no page was found with its text (25-65 % the same) and the 24 pages fell into 4 groups.
"""

from __future__ import annotations

import itertools
import random
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import docgen
import owncorpus
import pytest
from support import site_pages

from desktop_dedup.core.extract import extract_text
from desktop_dedup.core.extract.html import html_to_text
from desktop_dedup.core.service import DedupService

PAGES = 24


@pytest.fixture(scope="module")
def sphinx_site(tmp_path_factory) -> Path:
    """A Sphinx project of PAGES real paragraphs, built as HTML and as text into one folder:
    ``pageN.html`` beside ``pageN.txt``."""
    root = tmp_path_factory.mktemp("sphinx")
    source = root / "source"
    source.mkdir()
    (source / "conf.py").write_text(
        'project = "Notes"\nauthor = "Someone"\nhtml_theme = "classic"\n'
        'html_sidebars = {"**": ["globaltoc.html", "localtoc.html", "relations.html",'
        ' "searchbox.html"]}\n',
        encoding="utf-8",
    )
    names = []
    for i, paragraph in enumerate(owncorpus.short_paragraphs(PAGES)):
        title = " ".join(paragraph.split()[:4]).strip(".,:;")
        (source / f"page{i}.rst").write_text(
            f"{title}\n{'=' * len(title) * 2}\n\n{paragraph}\n", encoding="utf-8"
        )
        names.append(f"page{i}")
    toctree = "".join(f"   {name}\n" for name in names)
    (source / "index.rst").write_text(f"Notes\n=====\n\n.. toctree::\n\n{toctree}", "utf-8")
    site = root / "site"
    site.mkdir()
    for builder in ("html", "text"):
        out = root / builder
        subprocess.run(
            [sys.executable, "-m", "sphinx", "-q", "-b", builder, str(source), str(out)],
            check=True,
            capture_output=True,
        )
        suffix = ".html" if builder == "html" else ".txt"
        for name in names:
            (site / f"{name}{suffix}").write_bytes((out / f"{name}{suffix}").read_bytes())
    return site


def test_a_documentation_page_is_one_document_with_its_text_and_pages_stay_apart(
    sphinx_site: Path, tmp_path: Path
) -> None:
    html = (sphinx_site / "page0.html").read_text(encoding="utf-8")
    assert 'role="navigation"' in html and "sphinxsidebar" in html  # the site is there
    with DedupService(tmp_path / "index.sqlite") as service:
        service.add_folder(sphinx_site)
        service.scan()
        groups = [{Path(m.path).name for m in g.members} for g in service.groups()]
    assert sorted(groups, key=sorted) == sorted(
        ({f"page{i}.html", f"page{i}.txt"} for i in range(PAGES)), key=sorted
    )


def test_a_page_without_main_loses_its_landmarks_and_its_own_header_and_footer() -> None:
    """A page with no <main>: the site's banner, navigation, search, sidebar and footer
    (HTML's landmark roles, and the page's own <header>, <footer> and <aside>) are not the
    document; an article's header and footer (its title, its byline) are."""
    page = """<html><body>
    <div id="page">
      <header><a href="/">Example Weekly</a> Home News Sport Weather</header>
      <div role="banner">Subscribe today for unlimited access</div>
      <div role="navigation"><a>Previous story</a> <a>Next story</a></div>
      <div role="search"><label>Search this site</label></div>
      <div id="content">
        <article>
          <header><h1>The river in spring</h1><p>By A. Writer</p></header>
          <p>The river rises every spring when the snow melts in the hills.</p>
          <footer>Filed under nature</footer>
        </article>
        <aside>Most read this week: ten things to do in town</aside>
        <div role="complementary">Advertisement</div>
      </div>
      <footer>Copyright Example Weekly. All rights reserved.</footer>
      <div role="contentinfo">Contact us</div>
    </div></body></html>"""
    assert html_to_text(page).split("\n") == [
        "The river in spring",
        "By A. Writer",
        "The river rises every spring when the snow melts in the hills.",
        "Filed under nature",
    ]
    # with a <main> (an element whose role is main), that is the document
    main = page.replace('<div id="content">', '<div id="content" role="main">')
    assert html_to_text(main) == html_to_text(page)
    # an empty <main> (filled by a script) is no document: the page without its landmarks
    empty = page.replace("<body>", "<body><main></main>")
    assert html_to_text(empty) == html_to_text(page)


def test_a_page_with_main_is_its_main_whatever_surrounds_it() -> None:
    """Plenty of sites mark their chrome with nothing but class names: the <main> is what
    says where the document is."""
    page = """<html><body><div class="top-bar">Example Weekly | Home | News | Sport</div>
    <div class="layout"><div class="sidebar">Popular posts: ten things to do in town</div>
    <main><h1>The river in spring</h1>
    <p>The river rises every spring when the snow melts in the hills.</p></main>
    <div class="bottom">Copyright Example Weekly</div></div></body></html>"""
    assert html_to_text(page).split("\n") == [
        "The river in spring",
        "The river rises every spring when the snow melts in the hills.",
    ]


def test_a_headings_permalink_sign_is_not_its_text(sphinx_site: Path, tmp_path: Path) -> None:
    """Sphinx ends every heading with a link to itself, a pilcrow that shows when the pointer
    is over the heading (rustdoc a section sign, MkDocs the same); no copy of the page in
    another format has it. Read as text, the diff marked every heading as changed ("Notes¶"
    against "Notes"). A sign that is text of its own, or a link to a page, stays."""
    html = (sphinx_site / "page0.html").read_text(encoding="utf-8")
    assert 'class="headerlink"' in html and "¶</a>" in html  # Sphinx wrote them
    text = html_to_text(html)
    assert "¶" not in text
    with DedupService(tmp_path / "index.sqlite") as service:
        service.add_folder(sphinx_site)
        service.scan()
        ids = service.store.ids_by_path(
            [str((sphinx_site / name).resolve()) for name in ("page0.html", "page0.txt")]
        )
        result = service.diff(*ids, ignore_whitespace_punct=True)
    title = text.splitlines()[0]
    changed = ["".join(t for t, tag in row.a_spans if tag != "equal") for row in result.rows]
    assert not any(part.strip() for part in changed), changed  # the page holds the text
    assert title in html_to_text(html.replace("¶</a>", "</a>"))
    kept = html_to_text(
        '<h2>Signs <a href="#s">§</a></h2><p>See <a href="other.html">¶</a> and § 3.</p>'
    )
    assert kept.split("\n") == ["Signs", "See ¶ and § 3."]


def test_pages_of_one_site_are_not_near_duplicates_of_each_other(sphinx_site: Path) -> None:
    texts = [html_to_text((sphinx_site / f"page{i}.html").read_text("utf-8")) for i in range(8)]
    for a, b in itertools.combinations(texts, 2):
        assert owncorpus.word_dice(a, b) < 0.5


def test_a_page_with_one_article_is_that_article_when_it_holds_most_of_the_page() -> None:
    """No <main>, no landmarks, the site marked with class names only; one <article> holds the
    story (its comments are articles inside it). A teaser card is not the page's document."""
    story = (
        "<article><h1>The river in spring</h1>"
        "<p>The river rises every spring when the snow melts in the hills, and the town "
        "watches the water climb the old stone steps by the bridge until it turns.</p>"
        "<article class='comment'>I remember the flood of that year.</article></article>"
    )
    page = f"""<html><body><div class="top-bar">Example Weekly | Home | News | Sport</div>
    <div class="sidebar">Popular posts: ten things to do in town</div>{story}
    <div class="bottom">Copyright Example Weekly</div></body></html>"""
    assert html_to_text(page).split("\n") == [
        "The river in spring",
        "The river rises every spring when the snow melts in the hills, and the town watches "
        "the water climb the old stone steps by the bridge until it turns.",
        "I remember the flood of that year.",
    ]
    # a teaser card in the sidebar, the story in plain <div>s: the whole page is read
    teaser = page.replace(story, "<div>" + story.replace("article", "div") + "</div>").replace(
        "Popular posts", "<article>Also read: a walk in the hills</article> Popular posts"
    )
    text = html_to_text(teaser)
    assert "The river rises every spring" in text and "Example Weekly" in text
    # two stories on one page: neither is the page's document
    two = page.replace(story, story + story.replace("river", "lake"))
    assert "Example Weekly" in html_to_text(two)


@pytest.mark.parametrize(
    "element", ["<header>x</header>", "<aside>x</aside>", "<article>x</article>", "<p hidden>x</p>"]
)
def test_many_sections_deep_in_a_page_are_read_in_time(element: str) -> None:
    """Whether a header, an aside or an article is a page's own, or a hidden element inside
    another, is asked of its ancestors, each of them once: walking each of 40,000 headers
    3,900 elements up took 16 s."""
    inner = element * 40_000
    page = "<html><body><article>" + "<div>" * 3_900 + inner + "</div>" * 3_900 + "</article>"
    started = time.perf_counter()
    html_to_text(page + "<p>The end.</p></body></html>")
    took = time.perf_counter() - started
    assert took < 5.0, f"{took:.1f} s"


# The menu column of libxml2's and libxslt's documentation sites (site.xsl), as their pages
# have it: a search box, the site's pages, related links and the API indexes.
LIBXSLT_MENU = {
    "Main Menu": [
        "Home", "Introduction", "Documentation", "Reporting bugs and getting help",
        "How to help", "Downloads", "libxslt", "API Menu", "ChangeLog",
    ],
    "Related links": [
        "Mail archive", "XML libxml2", "FTP", "Windows binaries", "Solaris binaries",
        "MacOsX binaries", "Bug Tracker", "lxml Python bindings", "Perl XSLT bindings",
        "XSLT with PHP", "Apache module", "Pascal bindings", "Xsldbg Debugger",
    ],
    "API Indexes": ["Alphabetic", "Constructors", "Functions/Types", "Modules", "Symbols"],
}  # fmt: skip


def table_layout_page(title: str, document: str) -> str:
    """A page laid out as libxslt's site.xsl lays them out: a banner table, then one row with
    the menu column beside the document's column (nested tables, no landmarks)."""
    boxes = "".join(
        f'<table width="100%"><tr><td bgcolor="#eecfa1"><center><b>{box}</b></center></td></tr>'
        '<tr><td bgcolor="#fffacd"><ul>'
        + "".join(f'<li><a href="p{i}.html">{name}</a></li>' for i, name in enumerate(names))
        + "</ul></td></tr></table>"
        for box, names in LIBXSLT_MENU.items()
    )
    search = (
        '<form action="../search.php"><input name="query" type="text" size="20" />'
        '<input name="submit" type="submit" value="Search ..." /></form>'
    )
    return (
        '<html><head><title>libexslt</title></head><body bgcolor="#8b7765">'
        '<table width="100%"><tr><td><h1>The EXSLT C library for Gnome</h1>'
        f"<h2>{title}</h2></td></tr></table>"
        '<table width="100%"><tr><td valign="top" width="200">'
        f"{search}{boxes}</td>"
        f'<td valign="top"><table><tr><td bgcolor="#fffacd">{document}'
        '<p><a href="bugs.html">Daniel Veillard</a></p></td></tr></table></td></tr></table>'
        "</body></html>"
    )


def test_a_table_layout_sites_menu_column_is_not_its_pages_text(tmp_path: Path) -> None:
    """Sites made before HTML had landmarks (libxml2's and libxslt's documentation) put the
    menu in a column of the page's layout table: about 90 words of links beside pages of a few
    dozen. The pages of libexslt's site fell into one group (its home page and its
    introduction 83 % the same, its function index 76 %), and no page matched its text."""
    paragraphs = owncorpus.short_paragraphs(8)
    site = tmp_path / "site"
    site.mkdir()
    for i, paragraph in enumerate(paragraphs):
        title = " ".join(paragraph.split()[:3])
        page = table_layout_page(title, f"<p>{paragraph}</p>")
        (site / f"page{i}.html").write_text(page, encoding="utf-8")
        (site / f"page{i}.txt").write_text(f"{title}\n\n{paragraph}\n", encoding="utf-8")
        text = html_to_text(page)
        assert paragraph in text and "Perl XSLT bindings" not in text and "Main Menu" not in text
    with DedupService(tmp_path / "db.sqlite") as service:
        service.scan([site], workers=1)
        groups = sorted(sorted(Path(m.path).stem for m in g.members) for g in service.groups())
    assert groups == [[f"page{i}", f"page{i}"] for i in range(len(paragraphs))]


def test_links_of_a_table_layout_pages_own_document_are_kept() -> None:
    """A document that is itself links keeps them: a download table (a link in each row) and
    an index of modules (all links, beside the menu: both are read, as without the rule)."""
    downloads = table_layout_page(
        "Downloads",
        "<p>The latest versions of the library can be found on the server.</p><table>"
        + "".join(
            f'<tr><td><a href="v1.{i}.tar.gz">libexslt-1.{i}.tar.gz</a></td><td>{i}07 KB</td></tr>'
            for i in range(8)
        )
        + "</table>",
    )
    text = html_to_text(downloads)
    assert "libexslt-1.7.tar.gz" in text and "Perl XSLT bindings" not in text
    modules = ["exslt", "exsltexports", "date", "math", "sets", "strings", "saxon", "dynamic"]
    index = table_layout_page(
        "Modules",
        "<ul>" + "".join(f'<li><a href="{m}.html">{m}</a></li>' for m in modules) + "</ul>",
    )
    text = html_to_text(index)
    assert all(m in text.split("\n") for m in modules) and "Perl XSLT bindings" in text


# --- sites marked with class names only -------------------------------------------------------

ARTICLES = 6  # a layout


def _articles(chinese: bool, part: int) -> list[tuple[str, list[str]]]:
    """ARTICLES articles of real text, 1 to 4 paragraphs each (20-60 words, or 40-150 Chinese
    characters, a paragraph): titles and paragraphs, none shared between two articles, the
    ``part``-th such set of the texts."""
    if chinese:
        notes = [" ".join(n.split()) for n in owncorpus.cjk_notes("zh_CN")]
    else:
        notes = owncorpus.short_paragraphs(4 * ARTICLES * 2)  # enough for two sets
    need = sum(1 + i % 4 for i in range(ARTICLES))
    out, at = [], part * need
    assert len(notes) >= at + need
    for i in range(ARTICLES):
        n = 1 + i % 4
        paragraphs = notes[at : at + n]
        at += n
        title = paragraphs[0][:16].rstrip() if chinese else " ".join(paragraphs[0].split()[:6])
        out.append((title, paragraphs))
    return out


@pytest.fixture(scope="module")
def class_named_sites(tmp_path_factory) -> Path:
    """For each layout of tests/support/site_pages.py, ARTICLES pages (``layout-N.html``), each
    beside its article as a text file (``layout-N.txt``)."""
    folder = tmp_path_factory.mktemp("class_named_sites")
    rng = random.Random(2026)
    for layout in site_pages.LAYOUTS:
        chinese = layout in ("portal", "forum")
        part = int(layout in ("forum", "news"))  # the other layout of a language: other texts
        encoding = "gbk" if layout == "forum" else "utf-8"  # what Discuz's Chinese sites use
        for i, (title, paragraphs) in enumerate(_articles(chinese, part)):
            markup = site_pages.page(layout, title, paragraphs, rng)
            (folder / f"{layout}-{i}.html").write_bytes(markup.encode(encoding))
            (folder / f"{layout}-{i}.txt").write_text(
                site_pages.text(title, paragraphs), encoding="utf-8"
            )
    return folder


def test_a_page_of_a_site_marked_by_class_names_is_one_document_with_its_text(
    class_named_sites: Path, tmp_path: Path
) -> None:
    """A news portal's, a blog's, a forum's and a news site's pages, the site around each
    article marked with class names only: each page is the same document as its article's
    text, and no two articles are one. Read whole, as before, 4 of these 24 pages were found
    with their text (an article of 300 words beside the site's 200). Three are still not: two
    articles of 70 and 132 characters beside a column of 16 headlines that no name marks (a
    book's contents page is such a column beside its title, and keeps it), and a post of 97
    characters among its forum's replies and the posters' details, which no name marks."""
    with DedupService(tmp_path / "index.sqlite") as service:
        service.add_folder(class_named_sites)
        service.scan()
        groups = [{Path(m.path).name for m in g.members} for g in service.groups()]
    for group in groups:
        assert len({name.rsplit(".", 1)[0] for name in group}) == 1, group  # one article
    found = {name.rsplit(".", 1)[0] for group in groups for name in group}
    assert len(found) >= 21, sorted(found)
    blog_and_news = {f"{layout}-{i}" for layout in ("blog", "news") for i in range(ARTICLES)}
    assert blog_and_news <= found  # named parts and link lists: every page


def test_the_site_around_a_document_is_left_out_and_what_the_document_holds_stays() -> None:
    """Blocks whose class or id names a part of a site (header, footer, sidebar, comments,
    share, related, ...) are left out, but not one that holds the page's longest paragraph (a
    layout's wrapper) nor a word marked so (a comment in a code sample); and around what holds
    most of the page's text outside links, blocks that are nearly all links, named or not.
    Inside it, a list of links is the document's."""
    links = "".join(f'<li><a href="/{i}">Story number {i}</a></li>' for i in range(8))
    page = f"""<html><body>
    <div class="masthead"><div id="header-wrap">The Example Weekly</div></div>
    <div class="bar"><ul>{links}</ul></div>
    <div class="columns has-sidebar"><div class="col-a">
      <h1>The river in spring</h1>
      <div class="share-this">Share: by e-mail, on the radio</div>
      <div class="text">
        <p>The river rises every spring when the snow melts in the hills, and the town
        watches the water climb the old stone steps by the bridge.</p>
        <p>Further reading, from the town's archive:</p>
        <ul><li><a href="/a">The flood of 1911</a></li><li><a href="/b">The new bridge</a></li>
        <li><a href="/c">Boats on the river</a></li><li><a href="/d">The mill</a></li>
        <li><a href="/e">Fishing rights</a></li></ul>
        <pre><code>steps = 42  <span class="token comment"># rebuilt in 1960</span></code></pre>
        <p>Every year someone paints a line where the water stopped.</p>
      </div>
      <div class="comments">Anna: I remember the flood of that year.</div>
    </div>
    <div class="col-b"><h3>Elsewhere</h3><ul>{links}</ul></div></div>
    <div id="siteFooter">Copyright Example Weekly. All rights reserved.</div>
    </body></html>"""
    assert html_to_text(page).split("\n") == [
        "The river in spring",
        "The river rises every spring when the snow melts in the hills, and the town watches "
        "the water climb the old stone steps by the bridge.",
        "Further reading, from the town's archive:",
        "The flood of 1911",
        "The new bridge",
        "Boats on the river",
        "The mill",
        "Fishing rights",
        "steps = 42 # rebuilt in 1960",
        "Every year someone paints a line where the water stopped.",
    ]


def test_a_layouts_wrapper_is_not_a_part_of_the_site_whatever_its_name() -> None:
    """A wrapper whose class names a part of a site (a layout with or without a sidebar) holds
    the document: kept when it holds the page's longest paragraph. And what such names mark
    is not taken out when it is most of the page's text: a wrapper beside a longer paragraph
    of the site's, or comments longer than the article (the page is then read whole)."""
    river = (
        "The river rises every spring when the snow melts in the hills, and the town watches "
        "the water climb the old stone steps by the bridge until it turns."
    )
    page = f"""<html><body><div id="main-with-sidebar"><p>{river}</p></div>
    <div class="comments">{{comments}}</div>
    <div class="footer"><p>Example Weekly, 1 High Street.</p></div></body></html>"""
    two = "<p>Anna: lovely, thank you.</p><p>Tom: I was there.</p>"
    assert html_to_text(page.format(comments=two)).split("\n") == [river]
    many = "".join(
        f"<p>Reader {i}: thanks, I walked there last week and it was lovely.</p>" for i in range(3)
    )
    assert "Reader 2: thanks" in html_to_text(page.format(comments=many))
    legal = "Everything on this site is the property of its publisher. " * 5
    paragraphs = "".join(
        f"<p>Paragraph {i} of the story: the river rises every spring when the snow melts in the "
        f"hills, and the town watches the water climb the steps.</p>"
        for i in range(3)
    )
    long_footer = f"""<html><body><div class="content no-sidebar">{paragraphs}</div>
    <div class="footer"><p>{legal}</p></div></body></html>"""
    text = html_to_text(long_footer)
    assert all(f"Paragraph {i} of the story" in text for i in range(3)), text


def test_a_page_whose_document_is_mostly_links_keeps_them() -> None:
    """A book's contents page (its title page and a table of contents longer than it), and a
    page that is a list of links: what holds the most text outside links is not beside a
    longer list of links, which is then the document, not a menu."""
    chapters = "".join(
        f'<dt><a href="ch{i}.html">{i}. Chapter {i}: the part of the book about topic {i}</a></dt>'
        + "<dd><dl>"
        + "".join(f'<dt><a href="ch{i}.html#s{j}">{i}.{j} Part {j}</a></dt>' for j in range(6))
        + "</dl></dd>"
        for i in range(1, 13)
    )
    contents = f"""<html><body>
    <table class="nav"><tr><td><a href="prev.html">Prev</a></td><td>Up</td>
    <td><a href="next.html">Next</a></td></tr></table>
    <div class="book"><div class="titlepage"><h1>The Example Manual</h1>
    <p>Release 3.1, 11 April 2022. Copyright the Example developers, who wrote it.</p></div>
    <div class="toc"><p><b>Table of Contents</b></p><dl>{chapters}</dl></div></div>
    </body></html>"""
    text = html_to_text(contents)
    assert "Chapter 12: the part of the book about topic 12" in text
    assert "12.5 Part 5" in text  # each chapter's parts too, shorter than the title page
    assert "The Example Manual" in text and "Prev" not in text  # the site's menu is not
    index = "<html><body><h1>Modules</h1><ul>" + "".join(
        f'<li><a href="m{i}.html">module {i}</a> - what module {i} does</li>' for i in range(30)
    )
    assert html_to_text(index + "</ul></body></html>").count("module") == 60


def test_an_e_books_sidebar_is_its_text(tmp_path: Path) -> None:
    """A book's chapter is no page of a site: a sidebar there (DocBook's <div class="sidebar">,
    a boxed aside of a textbook or a manual, as its EPUB holds it) is the book's own text, as
    in its PDF. The names of a site's parts are looked at in web pages and e-mails only."""
    book = docgen.write_epub(tmp_path / "book.epub", docgen.SAMPLE_EN)
    sidebar = (
        '<div class="sidebar"><p class="title"><b>Why the steps were rebuilt</b></p>'
        "<p>The old steps were worn smooth by a century of floods.</p></div>"
    )
    rewritten = tmp_path / "sidebar.epub"
    with zipfile.ZipFile(book) as src, zipfile.ZipFile(rewritten, "w") as out:
        for item in src.infolist():
            data = src.read(item.filename)
            if item.filename.endswith("chap_1.xhtml"):
                data = data.replace(b"</body>", sidebar.encode() + b"</body>")
            compress = zipfile.ZIP_STORED if item.filename == "mimetype" else zipfile.ZIP_DEFLATED
            out.writestr(item, data, compress_type=compress)
    text = extract_text(str(rewritten), "epub").text
    assert "The old steps were worn smooth by a century of floods." in text
    assert "Why the steps were rebuilt" in text
