"""Regenerate the real office documents in this folder with the programs that write them.

CI does not run this: the files it makes are committed, so the tests need no office suite.
Run it by hand after changing the sample texts in tests/docgen.py:

    /usr/bin/python3 tests/data/formats/make_fixtures.py

Needs LibreOffice (``soffice``; Debian: libreoffice-writer-nogui, -calc-nogui, -impress-nogui and
python3-uno for the password-protected files) and, for the e-books, calibre's ``ebook-convert``.

What writes what:
- ``.doc``, ``.xls``, ``.ppt`` (and ``.docx`` ``.xlsx`` ``.pptx`` ``.odt`` ``.ods`` ``.odp``):
  LibreOffice, from the sample text (Writer), a CSV of it (Calc), a one-slide-per-paragraph ODP
  (Impress).
- ``.wps``, ``.et``, ``.dps``: Kingsoft WPS Office stores these in the Word 97, Excel 97 and
  PowerPoint 97 binary formats; Kingsoft's programs do not run here, so these are LibreOffice's
  binary exports under the Kingsoft names (the readers check the streams inside, not the name).
- ``*-password.*``: LibreOffice with the password "secret".
- ``.mobi``, ``.azw3``, ``.fb2``: calibre's ebook-convert, from an EPUB of the sample text.
- ``.eml``: Python's email package (the standard library's MIME writer), UTF-8 and GB2312.
"""

from __future__ import annotations

import csv
import html
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from email.message import EmailMessage
from email.policy import SMTP
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))  # tests/, for docgen

import docgen  # noqa: E402

SAMPLES = {"zh": docgen.SAMPLE_ZH, "en": docgen.SAMPLE_EN}
PASSWORD = "secret"


def convert(src: Path, target_ext: str, filter_name: str, infilter: str | None = None) -> Path:
    args = ["--convert-to", f"{target_ext}:{filter_name}", "--outdir", str(src.parent)]
    if infilter:
        args = ["--infilter=" + infilter, *args]
    docgen.soffice([*args, str(src)], cwd=src.parent)
    out = src.with_suffix("." + target_ext)
    assert out.exists(), out
    return out


def sentences(paragraph: str) -> list[str]:
    """A paragraph cut after each full stop: the cells of one spreadsheet row."""
    return [s for s in re.split(r"(?<=[。.!?])\s*", paragraph) if s]


ODP_CONTENT = """<?xml version="1.0" encoding="UTF-8"?>
<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
 xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"
 xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"
 xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"
 xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"
 office:version="1.2"><office:body><office:presentation>{slides}</office:presentation>
</office:body></office:document-content>"""
ODP_SLIDE = """<draw:page draw:name="page{n}"><draw:frame svg:x="1cm" svg:y="1cm"
 svg:width="26cm" svg:height="17cm"><draw:text-box><text:p>{text}</text:p></draw:text-box>
</draw:frame></draw:page>"""


def write_odp_source(path: Path, text: str) -> Path:
    """A bare ODP with one text box per slide; LibreOffice then saves it properly."""
    slides = "".join(
        ODP_SLIDE.format(n=i + 1, text=html.escape(p))
        for i, p in enumerate(docgen.paragraphs(text))
    )
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.presentation")
        zf.writestr("content.xml", ODP_CONTENT.format(slides=slides))
        zf.writestr(
            "META-INF/manifest.xml",
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:'
            'manifest:1.0">'
            '<manifest:file-entry manifest:full-path="/" '
            'manifest:media-type="application/vnd.oasis.opendocument.presentation"/>'
            '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
            "</manifest:manifest>",
        )
    return path


def make_office(name: str, text: str, work: Path) -> None:
    # Writer: one paragraph per line of a UTF-8 text file.
    src = work / f"{name}.txt"
    src.write_text("\n".join(docgen.paragraphs(text)) + "\n", encoding="utf-8")
    infilter = "Text (encoded):UTF8,LF,,,"
    for ext, flt in (("doc", "MS Word 97"), ("docx", "MS Word 2007 XML"), ("odt", "writer8")):
        shutil.copy(convert(src, ext, flt, infilter), HERE / f"{name}.{ext}")
    shutil.copy(HERE / f"{name}.doc", HERE / f"{name}.wps")

    # Calc: one row per paragraph, one cell per sentence.
    src = work / f"{name}-sheet.csv"
    with src.open("w", encoding="utf-8", newline="") as f:
        csv.writer(f, quoting=csv.QUOTE_ALL).writerows(
            sentences(p) for p in docgen.paragraphs(text)
        )
    for ext, flt in (("xls", "MS Excel 97"), ("xlsx", "Calc MS Excel 2007 XML"), ("ods", "calc8")):
        shutil.copy(convert(src, ext, flt, "CSV:44,34,76,1"), HERE / f"{name}.{ext}")
    shutil.copy(HERE / f"{name}.xls", HERE / f"{name}.et")

    # Impress: one slide per paragraph.
    src = write_odp_source(work / f"{name}-slides.odp", text)
    saved = work / "saved"
    saved.mkdir(exist_ok=True)
    for ext, flt in (("ppt", "MS PowerPoint 97"), ("pptx", "Impress MS PowerPoint 2007 XML"),
                     ("odp", "impress8")):  # fmt: skip
        docgen.soffice(["--convert-to", f"{ext}:{flt}", "--outdir", str(saved), str(src)], cwd=work)
        shutil.copy(saved / f"{name}-slides.{ext}", HERE / f"{name}.{ext}")
    shutil.copy(HERE / f"{name}.ppt", HERE / f"{name}.dps")


#: A heading, a hyperlink (a field in Word's binary format), a 2x2 table and a footnote-free end.
STRUCTURED_HTML = """<html><head><meta charset="utf-8"></head><body>
<h1>标题 Heading</h1>
<p>Before <a href="http://example.com/">链接文字</a> after.</p>
<table border="1"><tr><td>单元格一</td><td>cell two</td></tr>
<tr><td>三</td><td>four</td></tr></table>
<p>结尾。</p>
</body></html>"""


def make_structured(work: Path) -> None:
    src = work / "structured.html"
    src.write_text(STRUCTURED_HTML, encoding="utf-8")
    for ext, flt in (("doc", "MS Word 97"), ("docx", "MS Word 2007 XML"), ("odt", "writer8")):
        shutil.copy(convert(src, ext, flt, "HTML (StarWriter)"), HERE / f"structured.{ext}")


def make_protected(work: Path) -> None:
    """Password-protected .doc, .xls and .odt through LibreOffice's UNO API.

    (LibreOffice 7.4 saves OOXML and .ppt without encrypting them, so those are not made here.)
    """
    import uno
    from com.sun.star.beans import PropertyValue

    def props(**kw):
        out = []
        for k, v in kw.items():
            p = PropertyValue()
            p.Name, p.Value = k, v
            out.append(p)
        return tuple(out)

    profile = Path(tempfile.mkdtemp(prefix="lo-profile-"))
    proc = subprocess.Popen(
        [
            "soffice",
            f"-env:UserInstallation=file://{profile}",
            "--headless",
            "--norestore",
            "--accept=socket,host=127.0.0.1,port=2099;urp;",
        ]  # fmt: skip
    )
    try:
        local = uno.getComponentContext()
        resolver = local.ServiceManager.createInstanceWithContext(
            "com.sun.star.bridge.UnoUrlResolver", local
        )
        for _ in range(60):
            try:
                ctx = resolver.resolve(
                    "uno:socket,host=127.0.0.1,port=2099;urp;StarOffice.ComponentContext"
                )
                break
            except Exception:
                time.sleep(1)
        desktop = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
        for src, ext, flt in (
            ("zh.doc", "doc", "MS Word 97"),
            ("zh.xls", "xls", "MS Excel 97"),
            ("zh.odt", "odt", "writer8"),
        ):
            doc = desktop.loadComponentFromURL(
                uno.systemPathToFileUrl(str(HERE / src)), "_blank", 0, props(Hidden=True)
            )
            target = HERE / f"password.{ext}"
            doc.storeAsURL(
                uno.systemPathToFileUrl(str(target)), props(FilterName=flt, Password=PASSWORD)
            )
            doc.close(True)
        shutil.copy(HERE / "password.doc", HERE / "password.wps")
        desktop.terminate()
    finally:
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
        shutil.rmtree(profile, ignore_errors=True)


def make_ebooks(name: str, text: str, work: Path) -> None:
    if not shutil.which("ebook-convert"):
        print("ebook-convert (calibre) not found: e-books not regenerated", file=sys.stderr)
        return
    epub = docgen.write_epub(work / f"{name}.epub", text, title=f"Sample {name}")
    for ext in ("mobi", "azw3", "fb2"):
        out = work / f"{name}.{ext}"
        # No generated table of contents at the end: the books hold just the sample text.
        extra = {"mobi": ["--mobi-file-type=old", "--no-inline-toc"], "azw3": ["--no-inline-toc"]}
        extra = extra.get(ext, [])
        subprocess.run(
            ["ebook-convert", str(epub), str(out), *extra],
            check=True, stdout=subprocess.DEVNULL, timeout=300,
        )  # fmt: skip
        shutil.copy(out, HERE / f"{name}.{ext}")


def make_mail(name: str, text: str) -> None:
    paras = docgen.paragraphs(text)
    for charset, suffix in (("utf-8", ""), ("gb2312", "-gb2312") if name == "zh" else (None, None)):
        if charset is None:
            continue
        msg = EmailMessage(policy=SMTP)
        msg["From"] = "Chen <chen@example.com>"
        msg["To"] = "reader@example.com"
        msg["Subject"] = paras[0][:20]
        msg["Date"] = "Sun, 22 Nov 2026 10:00:00 +0800"
        msg.set_content("\n".join(paras) + "\n", charset=charset)
        msg.add_alternative(
            "<html><body>" + "".join(f"<p>{html.escape(p)}</p>" for p in paras) + "</body></html>",
            subtype="html",
            charset=charset,
        )
        msg.add_attachment(b"\x89PNG\r\n\x1a\n not really an image", maintype="image",
                           subtype="png", filename="photo.png")  # fmt: skip
        (HERE / f"{name}{suffix}.eml").write_bytes(msg.as_bytes())


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for name, text in SAMPLES.items():
            make_office(name, text, work)
            make_ebooks(name, text, work)
            make_mail(name, text)
        make_structured(work)
        make_protected(work)
    for path in sorted(HERE.iterdir()):
        if path.suffix != ".py":
            print(f"{path.name:24} {os.path.getsize(path):>8} bytes")


if __name__ == "__main__":
    main()
