"""HTML/XHTML: visible text only, block elements become line breaks (selectolax/lexbor).

Also used for EPUB chapters, e-mail and e-books. Site chrome that is not the document
(head/title, scripts, styles, navigation bars, hidden elements; a page's <main> is its document,
and the site's landmarks, its own header, footer and sidebars are not: _main_content) is dropped
so the same article saved from two sites, or copied into another format, matches.
"""

from __future__ import annotations

import codecs
import html
import os
import re
from collections.abc import Callable

import numpy as np
from selectolax.lexbor import LexborHTMLParser
from selectolax.lexbor import LexborNode as Node

from desktop_dedup.core.extract._common import read_capped
from desktop_dedup.core.extract.plaintext import decode_text_bytes
from desktop_dedup.core.text import unwrap_fixed_width

_DROP_TAGS = [
    "head", "title", "script", "style", "noscript", "template", "svg", "math", "nav",
    "iframe", "object", "embed", "canvas", "audio", "video", "select", "datalist",
]  # fmt: skip
_BLOCK_SELECTOR = ", ".join(
    [
        "address", "article", "aside", "blockquote", "br", "caption", "dd", "details",
        "dialog", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form",
        "h1", "h2", "h3", "h4", "h5", "h6", "header", "hgroup", "hr", "li", "main", "ol",
        "p", "pre", "section", "summary", "table", "tr", "ul", "td", "th",
    ]
)  # fmt: skip
# A private-use character marks block ends so they survive whitespace collapsing; any such
# character already in the document is removed first.
_BREAK = "\ue000"
_WS = re.compile(r"[ \t\r\n\f]+")
_BREAKS = re.compile(r" ?(?:\ue000 ?)+")

_META_CHARSET = re.compile(rb"<meta[^>]+?charset\s*=\s*[\"']?\s*([A-Za-z0-9_.:-]+)", re.I)
_XML_ENCODING = re.compile(rb"<\?xml[^>]+encoding\s*=\s*[\"']([A-Za-z0-9_.:-]+)", re.I)
_BOMS = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
# WHATWG encoding rules: labels that browsers decode as a superset.
_WHATWG = {
    "gb2312": "gb18030",
    "gbk": "gb18030",
    "gb18030": "gb18030",
    "latin_1": "cp1252",
    "iso8859_1": "cp1252",
    "ascii": "cp1252",
    "big5": "big5hkscs",
    "shift_jis": "cp932",
}


def _declared_encoding(data: bytes) -> str | None:
    head = data[:4096]
    match = _META_CHARSET.search(head) or _XML_ENCODING.search(head)
    if match is None:
        return None
    try:
        name = codecs.lookup(match.group(1).decode("ascii")).name
    except (LookupError, UnicodeDecodeError):
        return None
    if name.startswith("utf_16"):  # a meta tag readable as ASCII cannot really be UTF-16
        return "utf-8"
    return _WHATWG.get(name.replace("-", "_"), name)


def decode_html_bytes(data: bytes) -> str:
    """Decode HTML bytes: BOM, then declared charset, then detection (like a browser), where
    the meta tag and the bytes agree. A page saved from a site whose server said UTF-8 in its
    HTTP header may still name the site's older charset in its meta tag (online, a browser
    follows the header; the file keeps only the meta): bytes that are valid UTF-8 beyond ASCII
    are UTF-8, which legacy text almost never is (tests/test_decoding.py). A page that says
    UTF-8 and is not is read as the text detector reads it."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return data[len(bom) :].decode(encoding, errors="replace")
    declared = _declared_encoding(data)
    if declared is None:
        return decode_text_bytes(data)
    if declared != "utf-8" and not data.isascii():
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            pass
    try:
        return data.decode(declared)
    except UnicodeDecodeError:
        if declared == "utf-8":
            return decode_text_bytes(data)
        return data.decode(declared, errors="replace")


#: Largest HTML handed to the parser (an .html file, an EPUB chapter): a DOM costs several
#: times its markup, and a reader has 512 MB.
MAX_HTML_BYTES: int = 32 * 1024 * 1024
#: Deepest nesting handed to the parser. Lexbor's tree building slows down with the depth of
#: open elements (nested divs: 5,000 deep 0.26 s, 10,000 0.9 s, 20,000 4.1 s; 1,000,000 ran
#: for minutes). No page a person reads nests this deep; deeper markup is read as plain text
#: without its tags, in linear time.
MAX_HTML_DEPTH: int = 4000

# Elements that never hold others (void) or that the parser closes by itself: they do not
# count toward the depth. Tag names are compared by their first 8 bytes, lower-cased.
_FLAT = (
    b"area base br col embed hr img input link meta param source track wbr "
    b"p li dt dd tr td th option optgroup rb rt rp tbody thead tfoot colgroup caption "
    b"image basefont bgsound frame keygen"
).split()


def _key(name: bytes) -> int:
    return int.from_bytes(name[:8].ljust(8, b"\0"), "little")


_FLAT_KEYS = np.array(sorted({_key(n) for n in _FLAT}), dtype=np.uint64)
_SCRIPT_KEYS = np.array([_key(b"script"), _key(b"style")], dtype=np.uint64)


def nesting_depth(markup: str) -> int:
    """An upper estimate of how deep the parser's stack of open elements gets, in linear time
    (numpy over the tag starts): +1 for each start tag, -1 for each end tag, never below 0;
    void and self-closing elements and the contents of scripts and styles do not count."""
    data = np.frombuffer(markup.encode("utf-8", "surrogatepass") + b"\0" * 10, np.uint8)
    lt = np.flatnonzero(data[:-10] == 0x3C)
    if len(lt) < MAX_HTML_DEPTH:
        return len(lt)
    closing = data[lt + 1] == 0x2F
    start = lt + 1 + closing
    names = data[start[:, None] + np.arange(8)]
    letters = ((names | 0x20) >= 0x61) & ((names | 0x20) <= 0x7A)
    alnum = letters | ((names >= 0x30) & (names <= 0x39))
    alnum &= np.cumprod(alnum, axis=1, dtype=np.uint8).astype(bool)
    is_tag = letters[:, 0]
    names = np.where(alnum, np.where(letters, names | 0x20, names), 0).astype(np.uint8)
    keys = np.ascontiguousarray(names).view("<u8").ravel()
    # tags inside a script or a style are text
    script = np.isin(keys, _SCRIPT_KEYS) & is_tag
    opened = np.cumsum(np.where(script & ~closing, 1, np.where(script & closing, -1, 0)))
    inside = (opened - np.minimum.accumulate(np.minimum(opened, 0))) > 0
    inside_before = np.concatenate(([False], inside[:-1]))
    counted = is_tag & ~np.isin(keys, _FLAT_KEYS) & ~(inside_before & ~script)
    step = np.where(counted, np.where(closing, -1, 1), 0)
    level = np.cumsum(step)
    depth = level - np.minimum.accumulate(np.minimum(level, 0))
    return int(depth.max()) if len(depth) else 0


_TAG = re.compile(r"<[^<>]*>")
_SKIP_CONTENT = re.compile(r"<(script|style)\b[^<>]*>[^<]*(?:<(?!/\1)[^<]*)*</\1\s*>", re.I)


def _markup_free_text(markup: str) -> str:
    """Text of markup too deep to parse: tags dropped, entities decoded, in linear time."""
    text = _SKIP_CONTENT.sub(" ", markup)
    text = _BLOCK_TAG.sub("\n", text)
    text = html.unescape(_TAG.sub("", text))
    return "\n".join(line for line in (_WS.sub(" ", ln).strip() for ln in text.split("\n")) if line)


_BLOCK_TAG = re.compile(
    r"</?(?:p|div|br|li|h[1-6]|tr|td|th|section|article|blockquote)\b[^<>]*>", re.I
)


# The parts of a page around its document (HTML's landmark roles): the site's banner, its
# navigation, search, sidebars and footer. <nav> is dropped with the other tags above.
_CHROME_SELECTOR = ", ".join(
    f"[role={role}]" for role in ("banner", "navigation", "search", "complementary", "contentinfo")
)
# Where a <header> or <footer> is an article's own (its title, its byline), and an <aside> too
# (a pull quote, a note): anywhere else they are the page's.
_OWNERS = {"header": {"article", "section", "main"}, "aside": {"article", "section"}}
_OWNERS["footer"] = _OWNERS["header"]
# How much of a page's text its one <article> holds for it to be the page's document.
_ARTICLE_SHARE = 0.5


def _main_content(root: Node, book: bool = False) -> Node:
    """The document a page holds, without the site around it: its <main> (or the element
    whose role is main) when it has text, else its one <article> when that holds most of its
    text (_the_article), else the whole page; either way without the landmarks
    of the site (the roles above: banner, navigation, search, sidebars, footer) and without the
    page's own <header>, <footer> and <aside> (those of an article or a section are the
    article's title, byline and notes; a <main>'s header and footer are its own).

    A web page saved from a site, or a documentation page made by Sphinx or mdBook, wraps the
    article in the site's breadcrumbs, table of contents, search box and footer: 24 short
    pages made by Sphinx with a table of contents in the sidebar, as Python's and fish's
    documentation have it, carried about 140 words of site each, and were 25-65 % the same as
    the same pages built as text, while the pages fell into four groups of different pages
    (tests/test_web_pages.py). What a copy of the article in any other format holds is the
    article. ``book``: a chapter of an e-book, no page of a site: the class names of a site's
    parts are not looked at (a DocBook sidebar there is the book's own text)."""
    main = root.css_first("main, [role=main]")
    if main is not None and main.text(strip=True):
        root = main
    else:
        root = _the_article(root) or root
    pages_own = []
    for tags, owners in (("header, footer", _OWNERS["header"]), ("aside", _OWNERS["aside"])):
        nodes = root.css(tags)
        owned = _inside(nodes, _named(owners))
        pages_own += [node for node, inside in zip(nodes, owned, strict=True) if not inside]
    _remove([*root.css(_CHROME_SELECTOR), *pages_own])
    if root.tag in ("body", "html"):  # no <main>, no one <article>: maybe a table layout
        _remove(_menu_columns(root))
        if not book:
            _leave_out_the_site(root)
    return root


def _inside(nodes: list[Node], holder: Callable[[Node], bool]) -> list[bool]:
    """For each of ``nodes``, whether an ancestor that is a ``holder`` holds it; each ancestor
    is looked at once, however many of the nodes it holds (a page of 40,000 headers 3,900
    elements deep took 12-16 s walking each one up)."""
    known: dict[int, bool] = {}
    out = []
    for node in nodes:
        path, parent = [], node.parent
        while parent is not None and parent.mem_id not in known and not holder(parent):
            path.append(parent.mem_id)
            parent = parent.parent
        held = parent is not None and known.get(parent.mem_id, True)
        known.update(dict.fromkeys(path, held))
        out.append(held)
    return out


def _named(tags: set[str]) -> Callable[[Node], bool]:
    return lambda node: node.tag in tags


def _the_article(root: Node) -> Node | None:
    """A page's one <article> (nested ones, such as comments, are its own) when it holds most
    of the page's text: the site around it marked with class names only (a blog's or a news
    site's sidebar and footer as plain <div>s). A teaser card, or one of several, is not the
    page's document."""
    articles = root.css("article")
    held = _inside(articles, _named({"article"}))
    outer = [node for node, inside in zip(articles, held, strict=True) if not inside]
    if len(outer) != 1:
        return None
    text = len(outer[0].text(strip=True))
    return outer[0] if text and text >= _ARTICLE_SHARE * len(root.text(strip=True)) else None


# A page laid out in a table, as sites were before HTML had landmarks (libxml2's and libxslt's
# documentation, many a personal site, pages saved from them): the site's menu is a column of
# its own, a cell beside the cell of the document, nearly all of it links. A cell is all links
# when it holds at least _MENU_MIN_LINKS links and links are _MENU_LINK_SHARE of its text; it
# is a menu when a cell of its row that is not all links holds more text that is not links.
# A table of links in the document (a download list) has one link per cell; a document that is
# all links (an index of modules) beside the menu leaves both, as when there were no rule.
_MENU_MIN_LINKS = 5
_MENU_LINK_SHARE = 0.9
# Only this many rows are looked at, and no page with more links than this: a layout's rows come
# first, and each row's cells are read whole (a hostile page of nested tables stays linear).
_MENU_MAX_ROWS = 64
_MENU_MAX_LINKS = 5000


def _all_links(links: int, chars: int, in_links: int) -> bool:
    """Whether a block of ``chars`` characters with ``links`` links holding ``in_links`` of them
    is nearly all links: a menu, or a list of other articles, when it is beside the document."""
    return links >= _MENU_MIN_LINKS and in_links >= _MENU_LINK_SHARE * chars


def _chars(node: Node) -> int:
    return sum(map(len, node.text(separator=" ").split()))


def _menu_columns(root: Node) -> list[Node]:
    """The cells of a page laid out in a table that are its site's menu (above)."""
    if root.css_first("td") is None or not (
        _MENU_MIN_LINKS <= len(root.css("a[href]")) <= _MENU_MAX_LINKS
    ):
        return []
    menus = []
    for row in root.css("tr")[:_MENU_MAX_ROWS]:
        cells = [node for node in row.iter() if node.tag in ("td", "th")]
        if len(cells) < 2:
            continue
        counted = []
        for cell in cells:
            links = cell.css("a[href]")
            text = _chars(cell)
            counted.append((len(links), text, text - sum(map(_chars, links))))
        links_only = [_all_links(n, text, text - unlinked) for n, text, unlinked in counted]
        prose = max(
            (u for (_, _, u), only in zip(counted, links_only, strict=True) if not only),
            default=0,
        )
        menus += [
            cell
            for cell, (_, _, unlinked), only in zip(cells, counted, links_only, strict=True)
            if only and prose > unlinked
        ]
    return menus


# A page whose site is marked with class names only, as most sites made before HTML5 and many
# since (a news portal's <div class="nav">, <div class="sidebar">, <div id="footer">, a blog's
# comments), or not at all: what a copy of its document in another format lacks is the site's.
# 1. A block whose class or id names a part of a site is left out, unless it holds the page's
#    longest paragraph (a layout's wrapper: <div class="content has-sidebar">); and none is
#    when together they hold most of the page's text outside links. The names are
#    the HTML5 elements' and landmark roles' that the rules above follow (header, footer,
#    aside, nav, banner, navigation, search, complementary, contentinfo) and those Mozilla's
#    Readability (Firefox's reader view) takes for unlikely to be the article. Only blocks: a
#    word of code marked as a comment (<span class="token comment">) is the document's.
# 2. Then what holds the document is the element that holds more than half of the page's text
#    outside links; around it, a block that is nearly all links (a menu, a list of other
#    articles: _MENU_MIN_LINKS and _MENU_LINK_SHARE, as for a table layout's menu), and shorter
#    than the document, is the site's. Inside it, a list of links is the document's; and a list
#    of links as long as the document or longer (a book's contents beside its title page, an
#    index) is the page's, all of it.
_SITE_NAMES = frozenset(
    {
        # HTML5's elements and landmark roles, as class names
        "header", "footer", "aside", "nav", "navbar", "navigation", "banner", "search",
        "complementary", "contentinfo", "sidebar", "menu", "breadcrumb", "breadcrumbs",
        # Readability's unlikely candidates (REGEXPS.unlikelyCandidates), whole words
        "comment", "comments", "community", "disqus", "related", "remark", "replies", "rss",
        "shoutbox", "skyscraper", "social", "sponsor", "supplemental", "pagination", "pager",
        "popup", "gdpr", "agegate", "share", "copyright",
    }
)  # fmt: skip
# A class or id names a part when one of its words (split at anything but letters and digits,
# and where a small letter meets a capital: siteFooter) is one of the names, or begins with one
# of these (commentlist, sidebarleft)
_SITE_PREFIXES = ("header", "footer", "sidebar", "navbar", "comment", "breadcrumb", "copyright")
_NAME_WORD = re.compile(r"[^a-z0-9]+")
_CAMEL_CASE = re.compile(r"([a-z0-9])([A-Z])")
_BLOCKS = _BLOCK_SELECTOR.replace("br, ", "").replace("hr, ", "")  # blocks that hold text
_BLOCK_TAGS = frozenset(_BLOCKS.split(", "))
# Looked at on pages of at most this much text (a page of megabytes of text is a document, not
# a page of a site around one); the document looked for at most this deep, and each part
# around it this many levels into its blocks.
_SITE_MAX_CHARS = 1_000_000
_DOCUMENT_MAX_DEPTH = 64
_SITE_MAX_DEPTH = 8
_LISTS = frozenset({"ul", "ol", "dl"})  # (a contents page's, its chapters' parts nested)
_CONTAINERS = frozenset(
    {"div", "section", "table", "tbody", "thead", "tr", "td", "th", "center", "form", "font"}
)


def _names_a_site_part(node: Node) -> bool:
    attributes = node.attributes
    names = f"{attributes.get('class') or ''} {attributes.get('id') or ''}"
    for word in _NAME_WORD.split(_CAMEL_CASE.sub(r"\1 \2", names).lower()):
        if word in _SITE_NAMES or (word and word.startswith(_SITE_PREFIXES)):
            return True
    return False


class _Texts:
    """The characters of an element's text (white space left out) and of the links in it,
    each link's counted once however many of its ancestors are asked about."""

    def __init__(self) -> None:
        self._link: dict[int, int] = {}

    def link(self, node: Node) -> int:
        chars = self._link.get(node.mem_id)
        if chars is None:
            chars = self._link[node.mem_id] = _chars(node)
        return chars

    def of(self, node: Node) -> tuple[int, int]:
        """``node``'s characters, and those of its links."""
        return _chars(node), sum(map(self.link, node.css("a[href]")))

    def outside_links(self, node: Node) -> int:
        chars, in_links = self.of(node)
        return chars - in_links


def _elements(node: Node) -> list[Node]:
    return [child for child in node.iter() if child.tag and not child.tag.startswith("-")]


def _longest_paragraph(root: Node) -> Node | None:
    """The block without blocks in it that holds the most text outside links."""
    blocks = root.css(_BLOCKS)
    holders: set[int] = set()  # the blocks' ancestors, each marked once
    for node in blocks:
        parent = node.parent
        while parent is not None and parent.mem_id not in holders:
            holders.add(parent.mem_id)
            parent = parent.parent
    best, most, texts = None, 0, _Texts()
    for node in blocks:
        if node.mem_id not in holders and _chars(node) > most:  # (else no need for its links)
            prose = texts.outside_links(node)
            if prose > most:
                best, most = node, prose
    return best


def _leave_out_the_site(root: Node) -> None:
    """Take the parts of a page without landmarks that are its site's (above) out of it."""
    named = [
        node
        for node in root.css("[class], [id]")
        if node.tag in _BLOCK_TAGS and _names_a_site_part(node)
    ]
    links = len(root.css("a[href]")) >= _MENU_MIN_LINKS  # else no menu
    if not (named or links):
        return  # a page of nothing but paragraphs
    texts = _Texts()
    chars, in_links = texts.of(root)
    if chars > _SITE_MAX_CHARS:
        return  # a document of megabytes
    if named and (paragraph := _longest_paragraph(root)) is not None:
        holds_it = set()
        node = paragraph
        while node is not None:
            holds_it.add(node.mem_id)
            node = node.parent
        outermost = _outermost([node for node in named if node.mem_id not in holds_it])
        if 2 * sum(map(texts.outside_links, outermost)) < chars - in_links:
            _remove(outermost)
        # else they hold most of the page's text: a wrapper of the document whose name says
        # "sidebar" beside a longer paragraph of the site's, or comments longer than the
        # article; the page is read whole, as a page of no such names
    if links:
        _remove(_link_lists_around_the_document(root))


def _link_lists_around_the_document(root: Node) -> list[Node]:
    """The blocks of nearly all links around the element that holds more than half of the
    page's text outside links, each shorter than it (2. above)."""
    texts = _Texts()
    prose = texts.outside_links(root)
    document, chain = root, []
    for _ in range(_DOCUMENT_MAX_DEPTH):
        holder = None
        for child in _elements(document):
            # (its links are counted only when its whole text could be enough)
            if child.tag in _CONTAINERS and 2 * _chars(child) > prose:
                if 2 * texts.outside_links(child) > prose:
                    holder = child
                    break
        if holder is None:
            break
        chain.append(document)
        document = holder
    if not chain:
        return []  # the page is its document: nothing is around it
    own, in_links = texts.of(document)
    if own - in_links < in_links:
        return []  # what holds most of the text outside links is itself mostly links

    menus: list[Node] = []

    def look_at(node: Node, depth: int) -> None:
        links = node.css("a[href]")
        if len(links) >= _MENU_MIN_LINKS:
            chars = _chars(node)
            if _all_links(len(links), chars, sum(map(texts.link, links))):
                if chars < own:
                    menus.append(node)
                    return
                if node.tag in _LISTS:
                    return  # a list as long as the document is the page's, all of it
        elif not links:
            return  # no menu in it
        if depth < _SITE_MAX_DEPTH:
            for child in _elements(node):
                look_at(child, depth + 1)

    on_the_way = {node.mem_id for node in chain} | {document.mem_id}
    for holder in chain:
        for child in _elements(holder):
            if child.mem_id not in on_the_way:
                look_at(child, 0)
    return menus


# A heading's link to itself, shown when the pointer is over it: Sphinx and MkDocs write a
# pilcrow, rustdoc a section sign, others a hash or a link symbol. Only a link within the page
# whose whole text is one such sign: no copy of the page in another format holds it.
_PERMALINK_SIGNS = frozenset({"¶", "§", "#", "🔗"})


def _permalinks(root: Node) -> list[Node]:
    return [node for node in root.css('a[href^="#"]') if node.text(strip=True) in _PERMALINK_SIGNS]


# What a page's own style hides: a login dialog, a share box, a template a script fills, as a
# page saved from a browser holds them (its state when saved). Not "visibility: hidden", which
# pages put on their article until a script has laid it out (WeChat's, as its server sends it).
_DISPLAY_NONE = re.compile(r"(?:^|;)\s*display\s*:\s*none\s*(?:!important\s*)?(?:;|$)", re.I)


def _hidden_by_style(root: Node) -> list[Node]:
    """The elements whose style attribute says ``display: none``, unless together they hold
    most of the page's text: a page shown by a script when it loads is read as its reader saw
    it."""
    hidden = [
        node for node in root.css("[style]") if _DISPLAY_NONE.search(node.attributes["style"] or "")
    ]
    outermost = _outermost(hidden)
    return outermost if 2 * sum(map(_chars, outermost)) < _chars(root) else []


def _outermost(nodes: list[Node]) -> list[Node]:
    """Those of ``nodes`` that no other of them holds."""
    chosen = {node.mem_id for node in nodes}
    held = _inside(nodes, lambda node: node.mem_id in chosen)
    return [node for node, inside in zip(nodes, held, strict=True) if not inside]


def _remove(nodes: list[Node]) -> None:
    """Take ``nodes`` out of the tree, each with what it holds: only the outermost, since one
    inside another goes with it (and is freed memory after)."""
    for node in _outermost(nodes):
        node.decompose()


def html_to_text(markup: str, *, book: bool = False) -> str:
    """Visible text of an HTML document, one line per block element; ``book``: a chapter of an
    e-book (_main_content)."""
    if _BREAK in markup:
        markup = markup.replace(_BREAK, "")
    if nesting_depth(markup) > MAX_HTML_DEPTH:
        return _markup_free_text(markup)
    tree = LexborHTMLParser(markup)
    tree.strip_tags(_DROP_TAGS, recursive=True)
    _remove(tree.css("[hidden], [aria-hidden=true]"))
    root = tree.body if tree.body is not None else tree.root
    if root is None:
        return ""
    _remove(_hidden_by_style(root))
    root = _main_content(root, book)
    _remove(_permalinks(root))
    for node in root.css(_BLOCK_SELECTOR):  # a block starts and ends a line
        node.insert_before(_BREAK)
        node.insert_after(_BREAK)
    # Text cut at a fixed width before it was marked up (``fold``) has line breaks inside words
    # that white space collapsing would turn into spaces ("p rovided"): undo them first, as for
    # plain text.
    text = unwrap_fixed_width(root.text(separator=""))
    text = _WS.sub(" ", text)
    text = _BREAKS.sub("\n", text)
    return text.strip(" \n")


def html_bytes_to_text(data: bytes, *, book: bool = False) -> str:
    return html_to_text(decode_html_bytes(data), book=book)


def extract_html(path: str | os.PathLike[str]) -> str:
    return html_bytes_to_text(read_capped(path, MAX_HTML_BYTES, "HTML"))
