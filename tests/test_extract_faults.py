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

from desktop_dedup.core.errors import ExtractionError
from desktop_dedup.core.extract import (
    MAX_TEXT_BYTES,
    SUPPORTED_EXTENSIONS,
    Extracted,
    _common,
    extract_text,
    pdf,
)

TEXT = docgen.SAMPLE_ZH + "\n" + docgen.SAMPLE_EN
RUNNING_AS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


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
    assert reason.startswith("zip bomb: DOCX member word/document.xml expands to 629.1 MB")


def test_zip_bomb_by_total_size_and_plain_oversize(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Shrink the limits so many moderately compressible members exceed the total cheaply.
    monkeypatch.setattr(_common, "ZIP_MAX_TOTAL_BYTES", 4 * 1024 * 1024)
    zeros = tmp_path / "many.docx"
    with zipfile.ZipFile(zeros, "w", zipfile.ZIP_DEFLATED) as zf:
        for i in range(5):
            zf.writestr(f"word/part{i}.xml", bytes(1024 * 1024))
    assert reason_of(zeros) == "zip bomb: DOCX expands to 5.2 MB"
    images = tmp_path / "images.epub"
    rng = random.Random(5)
    with zipfile.ZipFile(images, "w", zipfile.ZIP_DEFLATED) as zf:
        for i in range(5):
            zf.writestr(f"OEBPS/img{i}.jpg", rng.randbytes(1024 * 1024))
    assert reason_of(images) == "too large: EPUB expands to 5.2 MB, over the 4 MiB cap"


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
    assert reason_of(path).startswith("corrupt DOCX: ")


def test_epub_without_container(tmp_path: Path) -> None:
    path = tmp_path / "bare.epub"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("mimetype", "application/epub+zip")
        zf.writestr("chapter.xhtml", "<html><body><p>text</p></body></html>")
    assert reason_of(path) == "corrupt EPUB: META-INF/container.xml is missing"


@pytest.mark.parametrize("ext", ["txt", "md", "html", "rtf"])
def test_text_file_over_the_cap(tmp_path: Path, ext: str) -> None:
    path = tmp_path / f"huge.{ext}"
    with open(path, "wb") as f:
        f.truncate(MAX_TEXT_BYTES + 1)  # sparse: no disk, no time
    assert reason_of(path) == "too large: 67.1 MB of text exceeds the 64 MiB cap"


def test_extracted_text_over_the_cap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A DOCX is small on disk but may hold more text than we accept.
    monkeypatch.setattr(_common, "MAX_TEXT_BYTES", 1000)
    path = docgen.write_docx(tmp_path / "long.docx", docgen.SAMPLE_EN)
    extracted_chars = len("\n".join(docgen.paragraphs(docgen.SAMPLE_EN)))
    assert extracted_chars > 1000
    assert reason_of(path) == (
        f"too large: {_common.human_size(extracted_chars)} of text exceeds the "
        f"{_common.cap_label()} cap"
    )


@pytest.mark.skipif(RUNNING_AS_ROOT, reason="root reads files regardless of permissions")
@pytest.mark.parametrize("fmt", ["txt", "html", "docx", "pdf", "epub"])
def test_permission_denied_chmod(tmp_path: Path, originals: dict[str, Path], fmt: str) -> None:
    path = tmp_path / f"locked.{fmt}"
    path.write_bytes(originals[fmt].read_bytes())
    path.chmod(0)
    try:
        assert reason_of(path) == "permission denied"
    finally:
        path.chmod(stat.S_IRUSR | stat.S_IWUSR)


@pytest.mark.parametrize(
    ("module", "opener", "fmt"),
    [(_common, "open_regular", "txt"), (_common, "open", "docx"), (pdf, "open", "pdf")],
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


@pytest.mark.parametrize("fmt", ["txt", "md", "html", "docx", "odt", "rtf", "epub", "pdf"])
def test_damaged_files_never_raise_anything_else(
    tmp_path: Path, originals: dict[str, Path], fmt: str
) -> None:
    """Truncations and byte flips of a real file: either text or ExtractionError, nothing else."""
    data = originals[fmt].read_bytes()
    rng = random.Random(fmt)
    variants = [data[: int(len(data) * f)] for f in (0.05, 0.25, 0.5, 0.75, 0.99)]
    for _ in range(6):
        damaged = bytearray(data)
        for _ in range(8):
            damaged[rng.randrange(len(damaged))] = rng.randrange(256)
        variants.append(bytes(damaged))
    variants.append(rng.randbytes(3000))
    outcomes = set()
    for i, variant in enumerate(variants):
        path = tmp_path / f"v{i}.{fmt}"
        path.write_bytes(variant)
        try:
            result = extract_text(path)
        except ExtractionError as exc:
            assert exc.reason and "\n" not in exc.reason
            outcomes.add("error")
        else:
            assert isinstance(result, Extracted) and result.format == fmt
            outcomes.add("text")
    assert "error" in outcomes or fmt in ("txt", "md")
