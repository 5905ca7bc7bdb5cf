"""Every per-file fault becomes ExtractionError with a reason a user can act on."""

from __future__ import annotations

import io
import os
import random
import stat
import struct
import zipfile
from pathlib import Path

import docgen
import pytest
from unprivileged import run_python

from desktop_dedup.core.errors import ExtractionError
from desktop_dedup.core.extract import (
    MAX_TEXT_BYTES,
    SUPPORTED_EXTENSIONS,
    _common,
    extract_text,
    pdf,
)

TEXT = docgen.SAMPLE_ZH + "\n" + docgen.SAMPLE_EN


def reason_of(path: Path | str, ext: str | None = None) -> str:
    with pytest.raises(ExtractionError) as info:
        extract_text(path, ext)
    assert str(info.value) == info.value.reason
    return info.value.reason


@pytest.fixture(scope="module")
def originals(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return docgen.write_all_formats(tmp_path_factory.mktemp("originals"), "doc", TEXT)


@pytest.mark.parametrize("ext", sorted(SUPPORTED_EXTENSIONS))
def test_zero_byte_file(tmp_path: Path, ext: str) -> None:
    path = tmp_path / f"empty.{ext}"
    path.touch()
    assert reason_of(path) == "empty file (0 bytes)"


@pytest.mark.parametrize("ext", ["txt", "md", "rst", "html"])
def test_binary_file_with_a_text_name(tmp_path: Path, ext: str) -> None:
    rng = random.Random(7)
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + rng.randbytes(20_000)
    elf = b"\x7fELF\x02\x01\x01\x00" + bytes(8) + rng.randbytes(20_000)
    for name, data in (("png", png), ("elf", elf)):
        path = tmp_path / f"{name}.{ext}"
        path.write_bytes(data)
        assert reason_of(path) == "binary data, not text"


def test_corrupt_pdf(tmp_path: Path, originals: dict[str, Path]) -> None:
    data = originals["pdf"].read_bytes()
    truncated = tmp_path / "truncated.pdf"
    truncated.write_bytes(data[: len(data) // 3])
    assert reason_of(truncated).startswith("corrupt PDF: ")
    garbage = tmp_path / "garbage.pdf"
    garbage.write_bytes(b"%PDF-1.7\n" + random.Random(3).randbytes(5000))
    assert reason_of(garbage).startswith("corrupt PDF: ")


def test_encrypted_pdf(tmp_path: Path) -> None:
    from reportlab.pdfgen import canvas

    path = tmp_path / "locked.pdf"
    locked = canvas.Canvas(str(path), encrypt="secret")
    locked.drawString(72, 720, "Top secret text behind a password")
    locked.showPage()
    locked.save()
    assert reason_of(path) == "PDF is encrypted"


@pytest.mark.parametrize(("fmt", "label"), [("docx", "DOCX"), ("epub", "EPUB"), ("odt", "ODT")])
def test_truncated_zip_container(
    tmp_path: Path, originals: dict[str, Path], fmt: str, label: str
) -> None:
    data = originals[fmt].read_bytes()
    path = tmp_path / f"truncated.{fmt}"
    path.write_bytes(data[: len(data) // 2])
    assert reason_of(path) == f"truncated or corrupt {label} (not a valid zip archive)"


@pytest.fixture(scope="module")
def zip_bomb_docx(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A DOCX whose document.xml is 600 MiB of zeros: ~600 KB on disk, written as a stream."""
    path = tmp_path_factory.mktemp("bomb") / "bomb.docx"
    chunk = bytes(8 * 1024 * 1024)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("[Content_Types].xml", "<Types/>")
        with zf.open("word/document.xml", "w", force_zip64=True) as member:
            for _ in range(600 * 1024 * 1024 // len(chunk)):
                member.write(chunk)
    return path


def test_zip_bomb_docx(zip_bomb_docx: Path) -> None:
    assert zip_bomb_docx.stat().st_size < 5 * 1024 * 1024
    reason = reason_of(zip_bomb_docx)
    assert reason.startswith("zip bomb: DOCX member word/document.xml expands to 600 MB")


def test_zip_bomb_by_total_size_and_plain_oversize(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Shrink the limits so many moderately compressible members exceed the total cheaply.
    monkeypatch.setattr(_common, "ZIP_MAX_TOTAL_BYTES", 4 * 1024 * 1024)
    zeros = tmp_path / "many.docx"
    with zipfile.ZipFile(zeros, "w", zipfile.ZIP_DEFLATED) as zf:
        for i in range(5):
            zf.writestr(f"word/part{i}.xml", bytes(1024 * 1024))
    assert reason_of(zeros) == "zip bomb: DOCX expands to 5 MB"
    # barely compressible parts that a reader opens (pictures are not counted:
    # test_extract_office.test_pictures_in_a_container_are_neither_inflated_nor_counted)
    chapters = tmp_path / "chapters.epub"
    rng = random.Random(5)
    with zipfile.ZipFile(chapters, "w", zipfile.ZIP_DEFLATED) as zf:
        for i in range(5):
            zf.writestr(f"OEBPS/c{i}.xhtml", rng.randbytes(1024 * 1024))
    assert reason_of(chapters) == "too large: EPUB expands to 5 MB, over the 4 MB cap"


@pytest.mark.parametrize(("fmt", "part"), [("docx", "word/document.xml"), ("odt", "content.xml")])
def test_oversized_xml_body(
    tmp_path: Path,
    originals: dict[str, Path],
    monkeypatch: pytest.MonkeyPatch,
    fmt: str,
    part: str,
) -> None:
    with zipfile.ZipFile(originals[fmt]) as zf:
        size = zf.getinfo(part).file_size
    monkeypatch.setattr(_common, "MAX_XML_PART_BYTES", size - 1)
    assert reason_of(originals[fmt]).startswith(f"too large: {fmt.upper()} body is ")
    monkeypatch.setattr(_common, "MAX_XML_PART_BYTES", size)
    assert extract_text(originals[fmt]).format == fmt


def _cfb(*stream_names: str) -> bytes:
    """Minimal bytes of an OLE compound file naming the given streams in its directory."""
    header = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(504)
    directory = b"".join(
        name.encode("utf-16-le").ljust(64, b"\x00") + struct.pack("<H", 2 * len(name) + 2)
        for name in stream_names
    )
    return header + directory.ljust(4096, b"\x00")


def test_password_protected_docx_and_legacy_doc(tmp_path: Path) -> None:
    locked = tmp_path / "locked.docx"
    locked.write_bytes(_cfb("Root Entry", "EncryptionInfo", "EncryptedPackage"))
    assert reason_of(locked) == "DOCX is password-protected"
    legacy = tmp_path / "old.docx"
    legacy.write_bytes(_cfb("Root Entry", "WordDocument", "1Table"))
    assert reason_of(legacy).startswith("not a DOCX: legacy binary Office document")


def test_password_protected_odt(tmp_path: Path, originals: dict[str, Path]) -> None:
    path = tmp_path / "locked.odt"
    with zipfile.ZipFile(originals["odt"]) as src, zipfile.ZipFile(path, "w") as dst:
        for info in src.infolist():
            data = src.read(info)
            if info.filename == "META-INF/manifest.xml":
                data = data.replace(
                    b'manifest:full-path="content.xml"',
                    b'manifest:full-path="content.xml"><manifest:encryption-data '
                    b'manifest:checksum-type="SHA1/1K" manifest:checksum="x"/'
                    b"></manifest:file-entry><manifest:file-entry "
                    b'manifest:media-type="text/xml" manifest:full-path="dummy.xml"',
                )
                assert b"encryption-data" in data
            dst.writestr(info, data)
    assert reason_of(path) == "ODT is password-protected"


def test_valid_zip_that_is_not_a_docx(tmp_path: Path) -> None:
    path = tmp_path / "other.docx"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("hello.txt", "not an office document")
    assert reason_of(path) == "corrupt DOCX: word/document.xml is missing"


def test_epub_without_container(tmp_path: Path) -> None:
    path = tmp_path / "bare.epub"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("mimetype", "application/epub+zip")
        zf.writestr("chapter.xhtml", "<html><body><p>text</p></body></html>")
    assert reason_of(path) == "corrupt EPUB: META-INF/container.xml is missing"


@pytest.mark.parametrize("ext", ["txt", "md", "rtf"])
def test_text_file_over_the_cap(tmp_path: Path, ext: str) -> None:
    path = tmp_path / f"huge.{ext}"
    with open(path, "wb") as f:
        f.truncate(MAX_TEXT_BYTES + 1)  # sparse: no disk, no time
    # one byte over: "64 MB" would read as the cap itself, so the exact count is given
    assert reason_of(path) == "too large: 67,108,865 bytes of text exceeds the 64 MB cap"


def test_html_file_over_the_html_cap(tmp_path: Path) -> None:
    """HTML has a cap of its own, half the text cap: its parser's tree costs several times the
    markup, and a reader has 512 MB."""
    path = tmp_path / "huge.html"
    with open(path, "wb") as f:
        f.truncate(32 * 1024 * 1024 + 1)
    assert reason_of(path) == "too large: 33,554,433 bytes of HTML exceeds the 32 MB cap"


def test_extracted_text_over_the_cap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A DOCX is small on disk but may hold more text than we accept: the cap applies to the
    extracted text too. With the cap at 1 MiB, 1.2 million characters of text are refused."""
    monkeypatch.setattr(_common, "MAX_TEXT_BYTES", 1024 * 1024)
    path = docgen.write_docx(tmp_path / "long.docx", "word " * 240_000)
    assert path.stat().st_size < 1024 * 1024  # compressed: the file itself is under the cap
    # 1,200,000 characters are 1.14 MiB: the size in the cap's unit
    assert reason_of(path) == "too large: 1.1 MB of text exceeds the 1 MB cap"


_REASONS = """
import json, sys
from desktop_dedup.core.errors import ExtractionError
from desktop_dedup.core.extract import extract_text
out = {}
for path in sys.argv[1:]:
    try:
        out[path] = "read %d characters" % len(extract_text(path).text)
    except ExtractionError as exc:
        out[path] = exc.reason
print(json.dumps(out))
"""


def test_permission_denied_chmod(tmp_path: Path, originals: dict[str, Path]) -> None:
    """A file of mode 0, read without the rights that bypass permissions (even as root)."""
    paths = []
    for fmt, original in originals.items():
        path = tmp_path / f"locked.{fmt}"
        path.write_bytes(original.read_bytes())
        path.chmod(0)
        paths.append(str(path))
    try:
        reasons = run_python(_REASONS, *paths)
    finally:
        for path in paths:
            os.chmod(path, stat.S_IRUSR | stat.S_IWUSR)
    assert reasons == {path: "permission denied" for path in paths}
    assert run_python(_REASONS, paths[0]) != {paths[0]: "permission denied"}  # readable again


@pytest.mark.parametrize(
    ("module", "opener", "fmt"),
    [(_common, "open_regular", "txt"), (_common, "open_regular", "docx"), (pdf, "open", "pdf")],
)
def test_permission_denied_mapping(
    tmp_path: Path,
    originals: dict[str, Path],
    monkeypatch: pytest.MonkeyPatch,
    module: object,
    opener: str,
    fmt: str,
) -> None:
    """Same as the chmod test but works as root: the OS refusal is raised where we open."""

    def refuse(file: object, *args: object, **kwargs: object) -> io.BufferedReader:
        raise PermissionError(13, "Permission denied", str(file))

    monkeypatch.setattr(module, opener, refuse, raising=False)
    assert reason_of(originals[fmt]) == "permission denied"


def test_vanished_file(tmp_path: Path) -> None:
    assert reason_of(tmp_path / "gone.txt") == "file vanished during scan"
    assert reason_of(tmp_path / "gone.pdf") == "file vanished during scan"


def test_directory_with_a_document_name(tmp_path: Path) -> None:
    folder = tmp_path / "folder.txt"
    folder.mkdir()
    assert reason_of(folder) == "cannot read: Is a directory"


_ZIPPED = ("docx", "odt", "epub")


@pytest.mark.parametrize("fmt", ["txt", "md", "html", "docx", "odt", "rtf", "epub", "pdf"])
def test_damaged_files_give_a_reason_that_names_the_damage(
    tmp_path: Path, originals: dict[str, Path], fmt: str
) -> None:
    """Truncations and byte flips of a real file: text, or a one-line reason a user can act on.

    That nothing but ExtractionError escapes is guaranteed by extract_text's last ``except``;
    what is tested here is what the user reads (README: "truncated ... DOCX, ODT and EPUB
    files", "corrupt ... PDFs", binary data named .txt)."""
    data = originals[fmt].read_bytes()
    rng = random.Random(fmt)
    truncated = [data[: int(len(data) * f)] for f in (0.05, 0.25, 0.5, 0.75)]
    flipped = []
    for _ in range(6):
        damaged = bytearray(data)
        for _ in range(8):
            damaged[rng.randrange(len(damaged))] = rng.randrange(256)
        flipped.append(bytes(damaged))
    noise = rng.randbytes(3000)
    allowed = (
        f"corrupt {fmt.upper()}",
        f"truncated or corrupt {fmt.upper()}",
        f"not a {fmt.upper()}",
        f"not an {fmt.upper()}",
        "binary data, not text",
        "no text",
    )
    for i, variant in enumerate([*truncated, *flipped, noise]):
        path = tmp_path / f"v{i}.{fmt}"
        path.write_bytes(variant)
        try:
            extract_text(path)
        except ExtractionError as exc:
            assert exc.reason.startswith(allowed) and "\n" not in exc.reason, exc.reason
    if fmt in _ZIPPED:  # a cut zip has no central directory: said so, whatever the cut
        for variant in truncated:
            path = tmp_path / f"cut.{fmt}"
            path.write_bytes(variant)
            assert (
                reason_of(path) == f"truncated or corrupt {fmt.upper()} (not a valid zip archive)"
            )
    if fmt == "pdf":
        for variant in truncated:
            path = tmp_path / "cut.pdf"
            path.write_bytes(variant)
            assert reason_of(path).startswith("corrupt PDF: ")
    if fmt in ("txt", "md"):
        path = tmp_path / f"noise.{fmt}"
        path.write_bytes(noise)
        assert reason_of(path) == "binary data, not text"


@pytest.mark.parametrize("ext", ["txt", "mobi"])
def test_reading_a_small_file_never_asks_for_the_whole_cap(tmp_path: Path, ext: str) -> None:
    """A text file was read with read(64 MB + 1) and an e-book with read(256 MB + 1): Python
    allocates what it is asked for before reading, so every file, however small, took the
    whole cap of a reader's memory budget for a moment (the e-book's half of it), and the
    allocation cost more than reading a small text. Here a reader with 32 MB of address space
    to spare reads small files of both kinds."""
    import subprocess
    import sys

    path = tmp_path / f"small.{ext}"
    path.write_bytes(b"A short note of a few words.\n" * 20)
    code = f"""
import os, resource
from desktop_dedup.core.extract import _common, ebook
with open("/proc/self/statm") as f:
    size = int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
resource.setrlimit(resource.RLIMIT_AS, (size + (32 << 20), resource.RLIM_INFINITY))
if {ext!r} == "mobi":
    data = ebook._read_bounded({str(path)!r}, "MOBI")
else:
    data = _common.read_capped({str(path)!r})
print(len(data))
"""
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == str(path.stat().st_size)
