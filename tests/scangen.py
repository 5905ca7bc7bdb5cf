"""Scanned PDFs for the OCR tests and benchmark: pages that are only an image, no text layer.

The text is drawn into a 300 DPI grey image with Pillow in Noto Sans CJK (installed by
packaging/bootstrap.sh as fonts-noto-cjk; found with fc-match), as a scanner would deliver a
printed page, and each image is placed on an A4 page by reportlab (the way scanning software
wraps scans in a PDF). Nothing of the text is in the PDF but pixels.
"""

from __future__ import annotations

import io
import subprocess
from functools import lru_cache
from os import PathLike
from pathlib import Path

DPI = 300
A4_INCHES = (8.27, 11.69)


@lru_cache(maxsize=1)
def cjk_font() -> tuple[str, int]:
    """(path, index) of Noto Sans CJK SC in its .ttc."""
    path = subprocess.run(
        ["fc-match", "-f", "%{file}", "Noto Sans CJK SC:style=Regular"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    if "NotoSansCJK" not in path:
        raise RuntimeError(f"Noto Sans CJK is not installed (fc-match gave {path!r})")
    from PIL import ImageFont

    for index in range(10):  # the SC face of the collection
        try:
            face = ImageFont.truetype(path, 12, index=index)
        except OSError:
            break
        if face.getname()[0].endswith(" SC"):
            return path, index
    return path, 0


def page_images(text: str, point_size: float = 11.0) -> list:
    """``text`` (paragraphs separated by newlines; U+2028 ends a line inside one) typeset on
    A4 pages of grey pixels."""
    from PIL import Image, ImageDraw, ImageFont

    path, index = cjk_font()
    px = round(point_size * DPI / 72)
    font = ImageFont.truetype(path, px, index=index)
    width, height = round(A4_INCHES[0] * DPI), round(A4_INCHES[1] * DPI)
    margin = round(0.8 * DPI)
    pages = []

    def new_page():
        image = Image.new("L", (width, height), 255)
        pages.append(image)
        return ImageDraw.Draw(image)

    draw = new_page()
    y = margin
    for para in (p for p in text.split("\n") if p.strip()):
        rows = []
        for piece in para.split("\u2028"):  # a line separator: a line ends there, as typeset
            line = ""
            for token in _tokens(piece):
                if line and draw.textlength(line + token, font=font) > width - 2 * margin:
                    rows.append(line.rstrip())
                    line = token.lstrip()
                else:
                    line += token
            rows.append(line.rstrip())
        for row in rows:
            if y + px > height - margin:
                draw = new_page()
                y = margin
            draw.text((margin, y), row, font=font, fill=0)
            y += round(px * 1.5)
        y += round(px * 0.8)
    return pages


def _tokens(para: str) -> list[str]:
    """Words with their trailing space, and each CJK character on its own (lines break there)."""
    out: list[str] = []
    word = ""
    for ch in para:
        if ord(ch) >= 0x2E80:
            if word:
                out.append(word)
                word = ""
            out.append(ch)
        else:
            word += ch
            if ch == " ":
                out.append(word)
                word = ""
    if word:
        out.append(word)
    return out


def write_scanned_pdf(
    path: str | PathLike[str], text: str, *, typed_first_page: str | None = None
) -> Path:
    """An image-only PDF of ``text``; with ``typed_first_page``, a first page with that text in
    a real text layer comes before the scanned pages (a mixed PDF)."""
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen import canvas

    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    pdf = canvas.Canvas(str(target), pagesize=A4, invariant=1)
    w, h = A4
    if typed_first_page is not None:
        pdf.setFont("Helvetica", 12)
        y = h - 72
        for line in typed_first_page.split("\n"):
            pdf.drawString(72, y, line)
            y -= 18
        pdf.showPage()
    for image in page_images(text):
        buf = io.BytesIO()
        image.save(buf, format="PNG")
        buf.seek(0)
        pdf.drawImage(ImageReader(buf), 0, 0, w, h)
        pdf.showPage()
    pdf.save()
    return target
