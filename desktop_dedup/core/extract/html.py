"""HTML/XHTML: visible text only, block elements become line breaks (selectolax/lexbor).

Also used for EPUB chapters. Site chrome that is not the document (head/title, scripts, styles,
navigation bars, hidden elements) is dropped so the same article saved from two sites matches.
"""

from __future__ import annotations

import codecs
import os
import re

from selectolax.lexbor import LexborHTMLParser

from desktop_dedup.core.extract._common import read_capped
from desktop_dedup.core.extract.plaintext import decode_text_bytes

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
    """Decode HTML bytes: BOM, then declared charset, then detection (like a browser)."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return data[len(bom) :].decode(encoding, errors="replace")
    declared = _declared_encoding(data)
    if declared is not None:
        return data.decode(declared, errors="replace")
    return decode_text_bytes(data)


def html_to_text(markup: str) -> str:
    """Visible text of an HTML document, one line per block element."""
    if _BREAK in markup:
        markup = markup.replace(_BREAK, "")
    tree = LexborHTMLParser(markup)
    tree.strip_tags(_DROP_TAGS, recursive=True)
    for node in tree.css("[hidden], [aria-hidden=true]"):
        node.decompose()
    root = tree.body if tree.body is not None else tree.root
    if root is None:
        return ""
    for node in root.css(_BLOCK_SELECTOR):  # a block starts and ends a line
        node.insert_before(_BREAK)
        node.insert_after(_BREAK)
    text = root.text(separator="")
    text = _WS.sub(" ", text)
    text = _BREAKS.sub("\n", text)
    return text.strip(" \n")


def html_bytes_to_text(data: bytes) -> str:
    return html_to_text(decode_html_bytes(data))


def extract_html(path: str | os.PathLike[str]) -> str:
    return html_bytes_to_text(read_capped(path))
