"""Generators of real documents in every supported format, for tests across the project.

Each ``write_*`` function writes ``text`` (paragraphs separated by newlines) as a genuine file of
that format, made with the same kind of tool people use (python-docx, odfpy, reportlab; EPUB as
its specification lays it out), and returns the path. Extracting any of them gives back the same
words. Binary office formats and e-books made by LibreOffice and calibre are in tests/data/formats.
"""

from __future__ import annotations

import codecs
import html
import re
import shutil
import subprocess
import tempfile
import zipfile
import zlib
from os import PathLike
from pathlib import Path

__all__ = [
    "SAMPLE_EN",
    "SAMPLE_ZH",
    "paragraphs",
    "soffice",
    "write_all_formats",
    "write_docx",
    "write_epub",
    "write_html",
    "write_md",
    "write_odt",
    "write_pdf",
    "write_rtf",
    "write_txt",
]

SAMPLE_ZH = """\
江南的春天总是来得悄无声息。清晨推开窗，河面上浮着一层薄薄的雾气，远处的石桥只露出一道模糊的弧线。早起的船家撑着竹篙从桥下穿过，木桨拍打水面的声音在巷子里回荡，惊起了屋檐下栖息的几只燕子。
老街两旁的店铺陆续卸下门板。卖豆浆的老人把铜壶擦得发亮，蒸笼里冒出的白气带着糯米和桂花的香味。孩子们背着书包跑过青石板路，鞋底溅起昨夜积下的雨水，惹得路边晒太阳的花猫不满地甩了甩尾巴。
镇上的图书馆建于上世纪八十年代，是一座两层的砖木小楼。馆长姓陈，退休前在中学教了三十年语文。他常说，一个地方有没有文化，不看高楼有多少，而看有多少人愿意坐下来安静地读一本书。每逢周末，他都会在阅览室里给附近的孩子讲故事，从唐诗宋词讲到天文地理，听的人总是把小小的屋子挤得满满当当。
近几年，随着旅游业的发展，越来越多的外地游客来到这里。有人担心古镇会因此失去原来的模样，也有人认为这是让更多人了解传统文化的好机会。镇政府组织居民召开了好几次座谈会，最后决定保留老街的原貌，把新的商业区建在河对岸，并且规定所有新建房屋的高度不得超过三层。
傍晚时分，夕阳把整条河染成金红色。游客们坐在临河的茶馆里，一边喝着新采的碧螺春，一边听评弹艺人用吴侬软语唱着古老的故事。灯笼一盏盏亮起来，倒映在水中，随着微波轻轻摇晃。这样的时刻，仿佛时间也放慢了脚步，让每一个来到这里的人都能暂时忘记城市的喧嚣，找回内心的平静。
夜深以后，街上渐渐安静下来。只有打更的老人还提着灯笼，沿着河岸慢慢走着，一声声梆子敲在寂静的夜里，提醒人们关好门窗，小心火烛。第二天清晨，雾气又会从河面升起，新的一天就在这熟悉的节奏中悄然开始。"""

SAMPLE_EN = """\
The river town wakes slowly in spring. Mist lies on the water at dawn, and the old stone bridge \
shows only a faint arc against the grey sky. A boatman pushes his long pole into the mud and \
glides beneath the arch, and the slap of his oar echoes along the narrow lanes, startling the \
swallows that nest under the eaves of the tea houses.
Along the main street the shopkeepers take down their wooden shutters one by one. An old man \
polishes the copper kettle he has used for forty years to sell soy milk, and the steam from his \
bamboo baskets carries the smell of sticky rice and osmanthus. Children with satchels run across \
the flagstones, splashing the puddles left by last night's rain, while a tabby cat sunning \
itself on a doorstep flicks its tail in protest.
The town library was built in the nineteen eighties, a modest two storey building of brick and \
timber. Its keeper, Mr Chen, taught literature at the secondary school for thirty years before \
he retired. He likes to say that the culture of a place is measured not by the height of its \
towers but by the number of people willing to sit quietly and read a book. Every weekend he \
tells stories to the neighbourhood children in the reading room, ranging from classical poetry \
to astronomy and geography, and the small room is always packed.
In recent years tourism has brought more and more visitors from distant cities. Some residents \
worry that the old town will lose its character, while others see a chance to share traditional \
culture with a wider audience. The town council held several public meetings and finally \
decided to preserve the old street exactly as it is, to build the new commercial district on \
the far bank of the river, and to forbid any new building taller than three storeys.
At dusk the setting sun turns the whole river to red gold. Visitors sit in waterside tea houses \
drinking freshly picked green tea and listening to storytellers who sing ancient ballads in the \
soft local dialect. Lanterns are lit one after another, and their reflections sway gently on \
the rippling water. In moments like these time itself seems to slow down, and everyone who \
comes here can forget the noise of the city for a while and find a little peace of mind.
Late at night the streets fall silent. Only the old night watchman still walks along the bank \
with his lantern, striking a wooden clapper in the stillness to remind people to bolt their \
doors and mind their fires. Next morning the mist will rise from the river again, and a new day \
will begin quietly to the same familiar rhythm."""


def paragraphs(text: str) -> list[str]:
    """Non-empty lines of ``text``: the unit every generator turns into a paragraph."""
    return [line.strip() for line in text.splitlines() if line.strip()]


def _prepare(path: str | PathLike[str]) -> Path:
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    return target


_BOM_FOR = {
    "utf-8": (codecs.BOM_UTF8, "utf-8"),
    "utf-16": (codecs.BOM_UTF16_LE, "utf-16-le"),
    "utf-16-le": (codecs.BOM_UTF16_LE, "utf-16-le"),
    "utf-16-be": (codecs.BOM_UTF16_BE, "utf-16-be"),
    "utf-32": (codecs.BOM_UTF32_LE, "utf-32-le"),
    "utf-32-le": (codecs.BOM_UTF32_LE, "utf-32-le"),
    "utf-32-be": (codecs.BOM_UTF32_BE, "utf-32-be"),
}


def write_txt(
    path: str | PathLike[str], text: str, encoding: str = "utf-8", bom: bool = False
) -> Path:
    """Plain text in ``encoding``; ``bom`` prefixes the byte-order mark (UTF encodings only).

    "utf-16"/"utf-32" without a BOM are written little-endian.
    """
    target = _prepare(path)
    key = codecs.lookup(encoding).name.replace("_", "-")
    if key in _BOM_FOR:
        mark, codec = _BOM_FOR[key]
        if key in ("utf-16-be", "utf-32-be"):
            codec = key
        data = (mark if bom else b"") + text.encode(codec)
    elif bom:
        raise ValueError(f"no byte-order mark for {encoding}")
    else:
        data = text.encode(encoding)
    target.write_bytes(data)
    return target


def write_md(path: str | PathLike[str], text: str) -> Path:
    """Markdown: first paragraph as a heading, others with emphasis, a link, a list, a quote."""
    parts = []
    for i, para in enumerate(paragraphs(text)):
        if i == 0:
            parts.append(f"# {para}")
        elif i % 5 == 1:
            parts.append(f"**{para}**")
        elif i % 5 == 2:
            parts.append(f"[{para}](https://example.com/articles/{i}?ref=md)")
        elif i % 5 == 3:
            parts.append(f"- {para}")
        elif i % 5 == 4:
            parts.append(f"> *{para}*")
        else:
            parts.append(para)
    target = _prepare(path)
    target.write_text("\n\n".join(parts) + "\n", encoding="utf-8", newline="\n")
    return target


_CHROME_HEAD = """<style>body { font-family: serif; } .nav a { color: #333; }</style>
<script>window.analytics = {track: function (e) { return "tracked " + e; }};</script>"""
_CHROME_TOP = """<nav class="nav"><a href="/">Home</a> | <a href="/news">News</a> | \
<a href="/about">About us</a></nav>
<noscript>Please enable JavaScript to see comments.</noscript>"""
_CHROME_BOTTOM = """<script>document.write("<p>Advertisement: buy now</p>");</script>
<template><p>Hidden template text</p></template>"""


def write_html(
    path: str | PathLike[str],
    text: str,
    *,
    title: str = "Sample document",
    extra_chrome: bool = True,
    encoding: str = "utf-8",
) -> Path:
    """HTML5 page with ``<meta charset>``; ``extra_chrome`` adds nav/script/style/noscript noise."""
    body = "\n".join(
        f"<h1>{html.escape(p)}</h1>" if i == 0 else f"<p>{html.escape(p)}</p>"
        for i, p in enumerate(paragraphs(text))
    )
    page = (
        f'<!DOCTYPE html>\n<html><head><meta charset="{encoding}">\n'
        f"<title>{html.escape(title)}</title>\n{_CHROME_HEAD if extra_chrome else ''}\n"
        f"</head>\n<body>\n{_CHROME_TOP if extra_chrome else ''}\n<main>\n{body}\n</main>\n"
        f"{_CHROME_BOTTOM if extra_chrome else ''}\n</body></html>\n"
    )
    target = _prepare(path)
    target.write_bytes(page.encode(encoding, errors="xmlcharrefreplace"))
    return target


def write_docx(path: str | PathLike[str], text: str) -> Path:
    """Word document (python-docx), one paragraph per non-empty line."""
    import docx

    document = docx.Document()
    for para in paragraphs(text):
        document.add_paragraph(para)
    target = _prepare(path)
    document.save(str(target))
    return target


def write_odt(path: str | PathLike[str], text: str) -> Path:
    """OpenDocument text (odfpy), first line as a heading, the rest as paragraphs."""
    from odf.opendocument import OpenDocumentText
    from odf.text import H, P

    document = OpenDocumentText()
    for i, para in enumerate(paragraphs(text)):
        element = H(outlinelevel=1, text=para) if i == 0 else P(text=para)
        document.text.addElement(element)
    target = _prepare(path)
    document.save(str(target))
    return target


def _rtf_escape(text: str) -> str:
    out = []
    for ch in text:
        code = ord(ch)
        if ch in "\\{}":
            out.append("\\" + ch)
        elif code < 128:
            out.append(ch)
        else:
            for unit in (
                [code] if code < 0x10000 else list(_surrogates(code))
            ):  # RTF \uN takes a signed 16-bit value
                out.append(f"\\u{unit - 0x10000 if unit > 0x7FFF else unit}?")
    return "".join(out)


def _surrogates(code: int) -> tuple[int, int]:
    code -= 0x10000
    return 0xD800 + (code >> 10), 0xDC00 + (code & 0x3FF)


def write_rtf(path: str | PathLike[str], text: str) -> Path:
    """RTF as Word writes it for Chinese: \\ansicpg936, non-ASCII as \\uN? escapes."""
    body = "\n".join(f"{_rtf_escape(p)}\\par" for p in paragraphs(text))
    document = (
        "{\\rtf1\\ansi\\ansicpg936\\deff0\\uc1"
        "{\\fonttbl{\\f0\\fnil\\fcharset134 SimSun;}{\\f1\\fswiss\\fcharset0 Arial;}}\n"
        "{\\colortbl;\\red0\\green0\\blue0;}\n"
        "{\\*\\generator docgen;}\\viewkind4\\pard\\f0\\fs24\n"
        f"{body}\n}}\n"
    )
    target = _prepare(path)
    target.write_bytes(document.encode("ascii"))
    return target


def write_epub(path: str | PathLike[str], text: str, title: str = "Sample book") -> Path:
    """EPUB 3 with two chapters holding the first and second half of the paragraphs.

    Written with zipfile as the EPUB 3 specification lays it out (mimetype first and stored,
    container.xml, an OPF package with manifest and spine, a navigation document).
    """
    paras = paragraphs(text)
    half = max(1, (len(paras) + 1) // 2)
    lang = "zh" if re.search(r"[\u4e00-\u9fff]", text) else "en"
    ident = f"docgen-{zlib.crc32(text.encode('utf-8')):08x}"

    def xhtml(heading: str, body: str) -> str:
        return (
            '<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE html>\n'
            f'<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"'
            f' lang="{lang}" xml:lang="{lang}"><head><title>{html.escape(heading)}</title></head>'
            f"<body>{body}</body></html>"
        )

    chapters = []
    for number, chunk in enumerate((paras[:half], paras[half:]), start=1):
        body = "".join(f"<p>{html.escape(p)}</p>" for p in chunk) or "<p></p>"
        chapters.append(
            (f"chap_{number}.xhtml", f"Chapter {number}", xhtml(f"Chapter {number}", body))
        )
    nav_items = "".join(f'<li><a href="{name}">{label}</a></li>' for name, label, _ in chapters)
    nav = xhtml("Contents", f'<nav epub:type="toc" id="toc"><ol>{nav_items}</ol></nav>')
    manifest = "".join(
        f'<item id="chapter_{i}" href="{name}" media-type="application/xhtml+xml"/>'
        for i, (name, _, _) in enumerate(chapters, start=1)
    )
    spine = "".join(f'<itemref idref="chapter_{i}"/>' for i in range(1, len(chapters) + 1))
    opf = (
        '<?xml version="1.0" encoding="utf-8"?>\n'
        '<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">'
        '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">'
        f'<dc:identifier id="id">{ident}</dc:identifier><dc:title>{html.escape(title)}</dc:title>'
        f"<dc:language>{lang}</dc:language>"
        '<meta property="dcterms:modified">2026-01-01T00:00:00Z</meta></metadata>'
        f'<manifest><item id="nav" href="nav.xhtml" media-type="application/xhtml+xml"'
        f' properties="nav"/>{manifest}</manifest><spine>{spine}</spine></package>'
    )
    container = (
        '<?xml version="1.0"?>\n<container version="1.0"'
        ' xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles>'
        '<rootfile full-path="EPUB/content.opf" media-type="application/oebps-package+xml"/>'
        "</rootfiles></container>"
    )
    target = _prepare(path)
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(zipfile.ZipInfo("mimetype"), "application/epub+zip", zipfile.ZIP_STORED)
        zf.writestr("META-INF/container.xml", container)
        zf.writestr("EPUB/content.opf", opf)
        zf.writestr("EPUB/nav.xhtml", nav)
        for name, _, content in chapters:
            zf.writestr(f"EPUB/{name}", content)
    return target


_CJK = r"\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef"
_WRAP_TOKEN = re.compile(rf"[{_CJK}]|[^\s{_CJK}]+|\s+")


def _wrap(line: str, width: float, font: str, size: float) -> list[str]:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    rows: list[str] = []
    current = ""
    for token in _WRAP_TOKEN.findall(line):
        candidate = current + token
        if current and stringWidth(candidate.rstrip(), font, size) > width:
            rows.append(current.rstrip())
            current = "" if token.isspace() else token
        else:
            current = candidate
    if current.strip():
        rows.append(current.rstrip())
    return rows


def write_pdf(
    path: str | PathLike[str],
    text: str,
    *,
    header: str | None = None,
    footer: str | None = None,
    first_page_plain: bool = False,
) -> Path:
    """PDF (reportlab) in the built-in CID font STSong-Light, lines wrapped to the page width.

    The CID font is not embedded but PDF readers (PDFium too) map it back to Unicode, so both
    Chinese and English text come out of the text layer.

    ``header`` and ``footer``: a running head drawn above the text of each page and a line
    below it, as a word processor's export has them; ``{page}`` and ``{pages}`` in them are the
    page's number and the count of pages. ``first_page_plain``: none on the first page (a
    title page).
    """
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen import canvas

    font, size, leading, margin = "STSong-Light", 11.0, 16.0, 56.0
    if font not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(UnicodeCIDFont(font))
    target = _prepare(path)
    pdf = canvas.Canvas(str(target), pagesize=A4, invariant=1)
    width, height = A4
    # Laid out first, so that a footer can say how many pages there are.
    pages: list[list[tuple[float, str]]] = [[]]
    y = height - margin
    for para in paragraphs(text):
        for row in _wrap(para, width - 2 * margin, font, size):
            if y < margin:
                pages.append([])
                y = height - margin
            pages[-1].append((y, row))
            y -= leading
        y -= leading / 2
    for number, rows in enumerate(pages, start=1):
        pdf.setFont(font, size)
        furnished = not (first_page_plain and number == 1)
        if header is not None and furnished:
            pdf.drawString(
                margin, height - margin / 2, header.format(page=number, pages=len(pages))
            )
        for y, row in rows:
            pdf.drawString(margin, y, row)
        if footer is not None and furnished:
            line = footer.format(page=number, pages=len(pages))
            pdf.drawCentredString(width / 2, margin / 2, line)
        pdf.showPage()
    pdf.save()
    return target


_WRITERS = {
    "txt": write_txt,
    "md": write_md,
    "html": write_html,
    "docx": write_docx,
    "odt": write_odt,
    "rtf": write_rtf,
    "epub": write_epub,
    "pdf": write_pdf,
}


def write_all_formats(directory: str | PathLike[str], stem: str, text: str) -> dict[str, Path]:
    """One file per format (``<stem>.<format>`` in ``directory``); returns format -> path."""
    folder = Path(directory)
    return {fmt: writer(folder / f"{stem}.{fmt}", text) for fmt, writer in _WRITERS.items()}


def soffice(args: list[str], cwd: str | PathLike[str] | None = None, timeout: int = 300) -> None:
    """Run LibreOffice headless with ``args`` (``--convert-to``...), in a profile of its own that
    is removed after: what the committed office files and the benchmarks' copies are made with.
    Not used by the tests themselves (CI has no office suite)."""
    profile = Path(tempfile.mkdtemp(prefix="lo-profile-"))
    try:
        subprocess.run(
            ["soffice", f"-env:UserInstallation=file://{profile}", "--headless", *args],
            cwd=cwd,
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=timeout,
        )
    finally:
        shutil.rmtree(profile, ignore_errors=True)
