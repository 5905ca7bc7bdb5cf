"""Generators of hostile files (issue 7 cases 5 and 6), for tests and tests/bench/bench_hostile.py.

Each ``write_*`` function writes one file that once hung a reader or blew up its memory, and
returns its path. They are built in seconds, not minutes: the zip members are deflate streams
made of one compressed chunk repeated (a full flush makes each chunk's bytes independent of what
came before), so a member that inflates to hundreds of megabytes costs a fraction of a second.
"""

from __future__ import annotations

import random
import struct
import zipfile
import zlib
from pathlib import Path

import docgen

MB = 1024 * 1024


def write_nested_html(path: Path, depth: int = 1_000_000) -> Path:
    """A page of ``depth`` nested divs (1,000,000: 11 MB; the parser ran for minutes)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        "<html><body>" + "<div>" * depth + "deep text" + "</div>" * depth + "</body></html>",
        encoding="ascii",
    )
    return path


def write_markdown_line(path: Path, unit: str = "**a ", size: int = 2_000_000) -> Path:
    """One Markdown line of ``unit`` repeated (unmatched markers: quadratic patterns hung)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(unit * (size // len(unit)) + "\n", encoding="utf-8")
    return path


def write_long_line(path: Path, size: int = 50 * MB) -> Path:
    """A plain text file of one ``size``-byte line of words (once cost 40 times its size)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    words = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor "
    with open(path, "w", encoding="ascii") as f:
        block = words * (MB // len(words))
        for _ in range(size // len(block)):
            f.write(block)
    return path


def _deflated(head: bytes, chunk: bytes, repeat: int, tail: bytes) -> tuple[bytes, int, int]:
    """Raw deflate of head + chunk * repeat + tail, built from one compressed chunk; returns
    (compressed, real size, crc32)."""
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    first = c.compress(head) + c.flush(zlib.Z_FULL_FLUSH)
    block = c.compress(chunk) + c.flush(zlib.Z_FULL_FLUSH)
    again = c.compress(chunk) + c.flush(zlib.Z_FULL_FLUSH)
    assert block == again, "deflate blocks are not independent"
    last = c.compress(tail) + c.flush()
    crc = zlib.crc32(head)
    for _ in range(repeat):
        crc = zlib.crc32(chunk, crc)
    crc = zlib.crc32(tail, crc)
    return (
        first + block * (repeat + 1) + last,
        len(head) + len(chunk) * (repeat + 1) + len(tail),
        crc,
    )


def _write_raw_zip(path: Path, members: list[tuple[str, bytes, int, int, int]]) -> Path:
    """Write a zip of already deflated members: (name, deflated, declared size, crc, method)."""
    out = bytearray()
    central = bytearray()
    for name, data, declared, crc, method in members:
        encoded = name.encode("utf-8")
        offset = len(out)
        out += struct.pack(
            "<4s2B4HL2L2H", b"PK\x03\x04", 20, 0, 0, method, 0, 0x21, crc, len(data),
            declared, len(encoded), 0,
        )  # fmt: skip
        out += encoded + data
        central += struct.pack(
            "<4s4B4HL2L5H2L", b"PK\x01\x02", 20, 3, 20, 0, 0, method, 0, 0x21, crc, len(data),
            declared, len(encoded), 0, 0, 0, 0, 0, offset,
        )  # fmt: skip
        central += encoded
    end = struct.pack(
        "<4s4H2LH", b"PK\x05\x06", 0, 0, len(members), len(members), len(central), len(out), 0
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(bytes(out + central + end))
    return path


def _members_of(source: Path) -> list[tuple[str, bytes, int, int, int]]:
    with zipfile.ZipFile(source) as zf:
        out = []
        for info in zf.infolist():
            raw = zf.read(info)
            c = zlib.compressobj(9, zlib.DEFLATED, -15)
            out.append((info.filename, c.compress(raw) + c.flush(), len(raw), zlib.crc32(raw), 8))
        return out


def write_docx_bomb(path: Path, real: int = 1024 * MB, declared: int = 10_000) -> Path:
    """A real DOCX whose word/document.xml inflates to ``real`` bytes (white space inside the
    body) while its headers declare ``declared``: the declared sizes pass every check."""
    source = docgen.write_docx(path.with_suffix(".source.docx"), docgen.SAMPLE_EN)
    members = _members_of(source)
    source.unlink()
    with zipfile.ZipFile(path.with_suffix(".tmp"), "w") as _:
        pass
    path.with_suffix(".tmp").unlink()
    head = (
        b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        b'<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
        b"<w:body><w:p><w:r><w:t>bomb</w:t></w:r></w:p>"
    )
    tail = b"</w:body></w:document>"
    chunk = b" " * MB
    data, _size, crc = _deflated(head, chunk, max(0, real // MB - 1), tail)
    members = [
        (name, data, declared, crc, 8) if name == "word/document.xml" else member
        for member in members
        for name in [member[0]]
    ]
    return _write_raw_zip(path, members)


def write_docx_huge_body(path: Path, body: int = 250 * MB) -> Path:
    """A DOCX whose word/document.xml honestly holds ``body`` bytes of paragraphs (250 MB: the
    issue's was 13 MB on disk; under the old caps its DOM took 4.8 GB)."""
    source = docgen.write_docx(path.with_suffix(".source.docx"), docgen.SAMPLE_EN)
    members = _members_of(source)
    source.unlink()
    head = (
        b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        b'<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
        b"<w:body>"
    )
    # words drawn from a vocabulary: the member compresses about 3:1, far from a bomb's ratio
    rng = random.Random(7)
    vocab = [
        bytes(rng.choices(b"abcdefghijklmnopqrstuvwxyz", k=rng.randint(2, 9))) for _ in range(3000)
    ]
    paras, filled = [], 0
    while filled < MB:
        words = b" ".join(rng.choices(vocab, k=12))
        paras.append(b"<w:p><w:r><w:t>" + words + b"</w:t></w:r></w:p>")
        filled += len(paras[-1])
    chunk = b"".join(paras)
    tail = b"</w:body></w:document>"
    data, size, crc = _deflated(head, chunk, max(0, body // len(chunk) - 1), tail)
    members = [(m[0], data, size, crc, 8) if m[0] == "word/document.xml" else m for m in members]
    return _write_raw_zip(path, members)


def write_epub_huge_chapters(path: Path, chapters: int = 10, size: int = 45 * MB) -> Path:
    """An EPUB (under 1 MB on disk) of ``chapters`` chapters of ``size`` bytes of HTML each,
    sizes declared honestly (10 x 45 MB: 2 GB of memory before the text cap was checked)."""
    out: list[tuple[str, bytes, int, int, int]] = []

    def add(name: str, raw: bytes) -> None:
        c = zlib.compressobj(9, zlib.DEFLATED, -15)
        out.append((name, c.compress(raw) + c.flush(), len(raw), zlib.crc32(raw), 8))

    out.append(("mimetype", b"application/epub+zip", 20, zlib.crc32(b"application/epub+zip"), 0))
    add(
        "META-INF/container.xml",
        b'<?xml version="1.0"?><container version="1.0" '
        b'xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles>'
        b'<rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/>'
        b"</rootfiles></container>",
    )
    items = "".join(
        f'<item id="c{i}" href="c{i}.xhtml" media-type="application/xhtml+xml"/>'
        for i in range(chapters)
    )
    refs = "".join(f'<itemref idref="c{i}"/>' for i in range(chapters))
    add(
        "OEBPS/content.opf",
        (
            '<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" '
            'unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/">'
            '<dc:identifier id="id">hostile</dc:identifier><dc:title>Huge</dc:title>'
            f"<dc:language>en</dc:language></metadata><manifest>{items}</manifest>"
            f"<spine>{refs}</spine></package>"
        ).encode(),
    )
    para = b"<p>all work and no play makes a very long chapter indeed</p>\n"
    chunk = para * (MB // len(para))
    for i in range(chapters):
        data, real, crc = _deflated(
            b"<html><body>", chunk, max(0, size // len(chunk) - 1), b"</body></html>"
        )
        out.append((f"OEBPS/c{i}.xhtml", data, real, crc, 8))
    return _write_raw_zip(path, out)
