"""Binary office formats, spreadsheets, slides, e-mail and e-books (issue 10).

The documents in tests/data/formats were made from docgen's sample texts by the programs that
write them (LibreOffice, calibre; see make_fixtures.py there), so every check compares what a
reader extracts with the text the file was made from.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import struct
import sys
import time
import zipfile
from pathlib import Path

import docgen
import olefile
import pytest

from desktop_dedup.core.errors import ExtractionError
from desktop_dedup.core.extract import Extracted, extract_text
from desktop_dedup.core.fingerprint import fingerprint_text

DATA = Path(__file__).parent / "data" / "formats"
SAMPLES = {"zh": docgen.SAMPLE_ZH, "en": docgen.SAMPLE_EN}
#: Formats whose paragraphs come back one per line, exactly.
PARAGRAPH_FORMATS = ["doc", "wps", "odt", "odp", "ppt", "dps", "pptx"]


def words_only(text: str) -> str:
    return re.sub(r"[\W_]+", "", text)


def lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


def reason_of(path: Path, ext: str | None = None) -> str:
    with pytest.raises(ExtractionError) as info:
        extract_text(path, ext)
    return info.value.reason


def fixture(name: str) -> Path:
    path = DATA / name
    assert path.is_file(), f"{path} missing: run tests/data/formats/make_fixtures.py"
    return path


@pytest.mark.parametrize("fmt", PARAGRAPH_FORMATS)
@pytest.mark.parametrize("sample", sorted(SAMPLES))
def test_real_file_gives_back_its_paragraphs(sample: str, fmt: str) -> None:
    result = extract_text(fixture(f"{sample}.{fmt}"))
    assert isinstance(result, Extracted) and result.format == fmt
    assert lines(result.text) == docgen.paragraphs(SAMPLES[sample])


@pytest.mark.parametrize("fmt", PARAGRAPH_FORMATS)
@pytest.mark.parametrize("sample", sorted(SAMPLES))
def test_real_file_is_the_same_document_as_its_txt(sample: str, fmt: str) -> None:
    """The cross-format guarantee: the same text fingerprints as one document."""
    text = extract_text(fixture(f"{sample}.{fmt}")).text
    ours, txt = fingerprint_text(text), fingerprint_text(SAMPLES[sample])
    assert ours.simhash == txt.simhash
    assert ours.text_hash == txt.text_hash


def test_han_characters_are_all_there() -> None:
    han = re.compile(r"[\u4e00-\u9fff]")
    source = han.findall(docgen.SAMPLE_ZH)
    assert len(source) > 500
    assert han.findall(extract_text(fixture("zh.doc")).text) == source


# --- Word binary: fields, special characters, the piece table ----------------------------------


def test_word_control_characters_and_fields() -> None:
    from desktop_dedup.core.extract.doc import _BREAKS, _fields_to_results

    raw = "A\x13 PAGE \x143\x15B\x13 IF \x13 PAGE \x142\x15 = 2 \x14yes\x15\x07cell\rend\x0bx\x1ey"
    assert _fields_to_results(raw).translate(_BREAKS) == "A3Byes\ncell\nend\nx-y"
    assert _fields_to_results("\x13 TOC \x15after").translate(_BREAKS) == "after"


# --- bad input ----------------------------------------------------------------------------------


@pytest.mark.parametrize("ext", ["doc", "wps"])
def test_password_protected_word_file(ext: str) -> None:
    assert reason_of(fixture(f"password.{ext}")) == f"{ext.upper()} is password-protected"


def test_password_protected_odf() -> None:
    assert reason_of(fixture("password.odt")) == "ODT is password-protected"


def test_wrong_kind_of_compound_file(tmp_path: Path) -> None:
    sheet = tmp_path / "sheet.doc"
    shutil.copy(fixture("zh.xls"), sheet)
    assert reason_of(sheet) == "not a DOC: the compound file holds an Excel/ET spreadsheet"
    junk = tmp_path / "junk.wps"
    junk.write_bytes(random.Random(7).randbytes(4096))
    assert reason_of(junk) == "not a WPS (no compound-file header)"


@pytest.mark.parametrize(
    ("name", "text", "encoding"),
    [
        ("README.DOC", docgen.SAMPLE_EN, "cp437"),  # a DOS-era manual
        ("说明.doc", docgen.SAMPLE_ZH, "gbk"),
        ("note.wps", docgen.SAMPLE_ZH, "utf-8"),
        ("export.xls", "项目\t金额\t说明\n房租\t3000\t每月的房租\n伙食\t1200\t买菜做饭\n", "gbk"),
        ("export.et", "Item,Amount\nRent,3000\nFood,1200\n", "utf-8"),
    ],
)
def test_a_plain_text_file_named_doc_is_read_as_text(tmp_path: Path, name, text, encoding):
    """Manuals and notes of the DOS era were plain text named .DOC (Python 2 still ships its
    pdb.doc so), many programs export a table as tab- or comma-separated text named .xls, and
    Word, WPS, Excel and LibreOffice open such files as text. They were refused as "not a DOC
    (no compound-file header)"."""
    path = tmp_path / name
    path.write_bytes(text.replace("\n", "\r\n").encode(encoding))
    result = extract_text(path)
    assert result.format == name.rsplit(".", 1)[1].lower()
    assert words_only(result.text) == words_only(text)


def test_doc_that_is_really_rtf_a_web_page_an_mht_or_a_docx(tmp_path: Path) -> None:
    """Word saves all of these under a .doc name on request; each is read as what it is."""
    text = docgen.SAMPLE_ZH
    made = {
        "rtf.doc": docgen.write_rtf(tmp_path / "src.rtf", text),
        "page.doc": docgen.write_html(tmp_path / "src.html", text),
        "docx.wps": fixture("zh.docx"),
    }
    from email.message import EmailMessage

    mht = EmailMessage()
    mht["MIME-Version"] = "1.0"
    mht.set_content(docgen.write_html(tmp_path / "p.html", text).read_text("utf-8"), "html")
    (tmp_path / "src.mht").write_bytes(mht.as_bytes())
    made["archive.doc"] = tmp_path / "src.mht"
    for name, source in made.items():
        path = tmp_path / name
        shutil.copy(source, path)
        result = extract_text(path)
        assert result.format == name.rsplit(".", 1)[1]
        assert words_only(result.text) == words_only(text), name


def test_xls_that_is_really_a_web_page_or_an_xlsx(tmp_path: Path) -> None:
    page = tmp_path / "report.xls"
    page.write_text(
        '<html><head><meta charset="utf-8"></head><body><table>'
        "<tr><td>项目</td><td>金额</td></tr><tr><td>房租</td><td>3000</td></tr>"
        "</table></body></html>",
        encoding="utf-8",
    )
    assert words_only(extract_text(page).text) == "项目金额房租3000"
    book = tmp_path / "book.et"
    shutil.copy(fixture("en.xlsx"), book)
    assert words_only(extract_text(book).text) == words_only(docgen.SAMPLE_EN)


def _rename_stream(data: bytes, old: str, new: str) -> bytes:
    """Rename a directory entry of a compound file in place (names of equal length)."""
    assert len(old) == len(new)
    before = old.encode("utf-16-le") + b"\x00\x00"
    assert data.count(before) == 1
    return data.replace(before, new.encode("utf-16-le") + b"\x00\x00")


def test_microsoft_works_wps_is_told_from_kingsoft(tmp_path: Path) -> None:
    """Works keeps its text in a CONTENTS stream; its .wps is named as what it is."""
    works = tmp_path / "works.wps"
    works.write_bytes(_rename_stream(fixture("en.xls").read_bytes(), "Workbook", "CONTENTS"))
    assert olefile.OleFileIO(str(works)).exists("CONTENTS")
    assert reason_of(works).startswith("Microsoft Works document, not a Kingsoft WPS one")
    assert extract_text(fixture("en.wps")).format == "wps"


def _fat_entry_offset(data: bytes, sector: int) -> int:
    """Byte offset of ``sector``'s entry in the FAT of a compound file with 512-byte sectors."""
    (first_fat_sector,) = struct.unpack_from("<I", data, 0x4C)
    assert sector < 128, "entry must sit in the first FAT sector"
    return 512 * (first_fat_sector + 1) + 4 * sector


def test_sector_chain_that_loops(tmp_path: Path) -> None:
    data = bytearray(fixture("zh.doc").read_bytes())
    ole = olefile.OleFileIO(bytes(data))
    entry = ole.direntries[ole._find("WordDocument")]
    start = entry.isectStart
    ole.close()
    struct.pack_into("<I", data, _fat_entry_offset(bytes(data), start), start)  # points to itself
    looped = tmp_path / "loop.doc"
    looped.write_bytes(bytes(data))
    began = time.perf_counter()
    reason = reason_of(looped)
    assert time.perf_counter() - began < 2
    assert reason.startswith(("corrupt DOC", "truncated or corrupt DOC")), reason


def test_text_length_claim_larger_than_its_pieces(tmp_path: Path) -> None:
    data = bytearray(fixture("en.doc").read_bytes())
    ole = olefile.OleFileIO(bytes(data))
    word = ole.openstream("WordDocument").read()
    ole.close()
    # ccpText (FibRgLw97 index 3) claims far more text than the pieces hold.
    (csw,) = struct.unpack_from("<H", word, 32)
    at = 34 + 2 * csw + 2 + 12
    original = word[at : at + 4]
    hit = data.find(word[:64])
    assert hit >= 0 and data.count(word[:64]) == 1
    struct.pack_into("<i", data, hit + at, 60_000_000)
    assert data[hit + at : hit + at + 4] != original
    path = tmp_path / "long.doc"
    path.write_bytes(bytes(data))
    # The main text is only as long as its pieces: the claim is capped by what is there.
    assert lines(extract_text(path).text)[:6] == docgen.paragraphs(docgen.SAMPLE_EN)


DAMAGED = ["zh.doc", "en.wps", "zh.odp", "zh.xls", "en.xlsx", "zh.ods", "zh.ppt", "en.pptx"]
DAMAGED += ["zh.mobi", "en.azw3", "zh.fb2", "zh.eml", "structured.doc"]


@pytest.mark.parametrize("name", DAMAGED)
def test_damaged_real_files_never_raise_anything_else(tmp_path: Path, name: str) -> None:
    """Truncations and byte flips of a real file: either text or ExtractionError, nothing else."""
    data = fixture(name).read_bytes()
    fmt = name.rsplit(".", 1)[1]
    rng = random.Random(name)
    variants = [data[: int(len(data) * f)] for f in (0.05, 0.25, 0.5, 0.75, 0.99)]
    for _ in range(8):
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
    assert "error" in outcomes


# --- spreadsheets -------------------------------------------------------------------------------

SHEET_FORMATS = ["xls", "xlsx", "ods", "et"]


@pytest.mark.parametrize("fmt", SHEET_FORMATS)
@pytest.mark.parametrize("sample", sorted(SAMPLES))
def test_spreadsheet_rows_in_reading_order(sample: str, fmt: str) -> None:
    """make_fixtures wrote one row per paragraph, one cell per sentence."""
    result = extract_text(fixture(f"{sample}.{fmt}"))
    assert result.format == fmt
    joiner = "" if sample == "zh" else " "
    rows = [line.replace("\t", joiner) for line in lines(result.text)]
    assert rows == docgen.paragraphs(SAMPLES[sample])
    assert all("\t" in line for line in lines(result.text)[:3])  # several cells per row


@pytest.mark.parametrize("fmt", SHEET_FORMATS)
@pytest.mark.parametrize("sample", sorted(SAMPLES))
def test_spreadsheet_is_the_same_text_as_its_txt(sample: str, fmt: str) -> None:
    text = extract_text(fixture(f"{sample}.{fmt}")).text
    assert fingerprint_text(text).text_hash == fingerprint_text(SAMPLES[sample]).text_hash


@pytest.mark.parametrize("ext", ["xls", "et"])
def test_password_protected_spreadsheet(tmp_path: Path, ext: str) -> None:
    path = tmp_path / f"locked.{ext}"
    shutil.copy(fixture("password.xls"), path)
    assert reason_of(path) == f"{ext.upper()} is password-protected"


def test_text_document_named_as_a_spreadsheet(tmp_path: Path) -> None:
    path = tmp_path / "letter.et"
    shutil.copy(fixture("zh.doc"), path)
    assert reason_of(path) == "not a ET: the compound file holds a Word/WPS text document"


def _sparse_xlsx(path: Path, cells: dict[str, str]) -> Path:
    """The smallest XLSX Excel opens: inline-string cells at the given references."""
    ns = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    rows = "".join(
        f'<row r="{re.sub(r"[A-Z]", "", ref)}"><c r="{ref}" t="inlineStr"><is><t>{value}</t></is>'
        "</c></row>"
        for ref, value in cells.items()
    )
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr(
            "[Content_Types].xml",
            '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
            'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
            '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-'
            'officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/'
            'sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.'
            'spreadsheetml.worksheet+xml"/></Types>',
        )
        zf.writestr(
            "_rels/.rels",
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            f'<Relationship Id="rId1" Type="{rel}/officeDocument" Target="xl/workbook.xml"/>'
            "</Relationships>",
        )
        zf.writestr(
            "xl/workbook.xml",
            f'<workbook xmlns="{ns}" xmlns:r="{rel}"><sheets><sheet name="S" sheetId="1" '
            'r:id="rId1"/></sheets></workbook>',
        )
        zf.writestr(
            "xl/_rels/workbook.xml.rels",
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            f'<Relationship Id="rId1" Type="{rel}/worksheet" Target="worksheets/sheet1.xml"/>'
            "</Relationships>",
        )
        zf.writestr(
            "xl/worksheets/sheet1.xml",
            f'<worksheet xmlns="{ns}"><sheetData>{rows}</sheetData></worksheet>',
        )
    return path


def test_sheet_of_a_million_empty_cells_is_quick(tmp_path: Path) -> None:
    path = _sparse_xlsx(tmp_path / "sparse.xlsx", {"A1": "首格", "J100000": "last cell"})
    began = time.perf_counter()
    assert lines(extract_text(path).text) == ["首格", "last cell"]
    assert time.perf_counter() - began < 5


def test_two_cells_at_opposite_corners_of_a_sheet_are_refused_not_allocated(
    tmp_path: Path,
) -> None:
    """calamine would allocate the 17 billion cells between them and abort the process."""
    path = _sparse_xlsx(tmp_path / "corners.xlsx", {"A1": "a", "XFD1048576": "b"})
    began = time.perf_counter()
    assert reason_of(path) == (
        "too large: XLSX sheet sheet1.xml spans 17,179,869,184 cells, over the 20,000,000 cap"
    )
    assert time.perf_counter() - began < 2


def test_sheet_over_the_cell_cap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from desktop_dedup.core.extract import spreadsheet

    path = _sparse_xlsx(tmp_path / "sparse.xlsx", {"A1": "a", "J1000": "b"})
    monkeypatch.setattr(spreadsheet, "MAX_SHEET_CELLS", 9_999)
    assert (
        reason_of(path) == "too large: XLSX sheet sheet1.xml spans 10,000 cells, over the 9,999 cap"
    )
    monkeypatch.setattr(spreadsheet, "MAX_SHEET_CELLS", 10_000)
    assert lines(extract_text(path).text) == ["a", "b"]


# --- slides -------------------------------------------------------------------------------------


def test_ppt_leaves_out_master_prompts() -> None:
    text = extract_text(fixture("en.ppt")).text
    assert "Click to edit" in fixture("en.ppt").read_bytes().decode("utf-16-le", "ignore")
    assert "Click to edit" not in text


def _ppt_stream(path: Path) -> tuple[bytes, int]:
    """The PowerPoint Document stream and where it starts in the file (one contiguous run)."""
    data = path.read_bytes()
    ole = olefile.OleFileIO(data)
    stream = ole.openstream("PowerPoint Document").read()
    ole.close()
    at = data.find(stream[:512])
    assert at >= 0 and data.count(stream[:512]) == 1
    return stream, at


def test_ppt_record_with_a_huge_length(tmp_path: Path) -> None:
    stream, at = _ppt_stream(fixture("zh.ppt"))
    slide = stream.find(struct.pack("<H", 0x03EE), 0) - 2  # first Slide container header
    assert struct.unpack_from("<H", stream, slide + 2)[0] == 0x03EE
    data = bytearray(fixture("zh.ppt").read_bytes())
    struct.pack_into("<I", data, at + slide + 4, 0xFFFFFFF0)
    path = tmp_path / "huge.ppt"
    path.write_bytes(bytes(data))
    began = time.perf_counter()
    reason = reason_of(path)
    assert time.perf_counter() - began < 2
    assert reason.startswith("corrupt PPT: record 0x03EE claims 4,294,967,280 bytes"), reason


def test_encrypted_ppt_is_told_by_its_current_user_record(tmp_path: Path) -> None:
    data = bytearray(fixture("zh.dps").read_bytes())
    plain = struct.pack("<I", 0xE391C05F)
    assert data.count(plain) == 1
    data[data.find(plain) : data.find(plain) + 4] = struct.pack("<I", 0xF3D1C4DF)
    path = tmp_path / "locked.dps"
    path.write_bytes(bytes(data))
    assert reason_of(path) == "DPS is password-protected"


# --- e-books ------------------------------------------------------------------------------------

EBOOK_FORMATS = ["mobi", "azw3", "fb2"]


@pytest.mark.parametrize("fmt", EBOOK_FORMATS)
@pytest.mark.parametrize("sample", sorted(SAMPLES))
def test_ebook_gives_back_its_paragraphs(sample: str, fmt: str) -> None:
    text = extract_text(fixture(f"{sample}.{fmt}")).text
    assert lines(text) == docgen.paragraphs(SAMPLES[sample])
    ours, txt = fingerprint_text(text), fingerprint_text(SAMPLES[sample])
    assert (ours.simhash, ours.text_hash) == (txt.simhash, txt.text_hash)


@pytest.mark.parametrize("fmt", ["mobi", "azw3"])
def test_drm_protected_kindle_book(tmp_path: Path, fmt: str) -> None:
    data = bytearray(fixture(f"zh.{fmt}").read_bytes())
    (record0,) = struct.unpack_from(">L", data, 78)  # PalmDB: offset of the first record
    assert struct.unpack_from(">H", data, record0 + 0x0C)[0] == 0  # encryption: none
    struct.pack_into(">H", data, record0 + 0x0C, 2)  # Mobipocket DRM
    path = tmp_path / f"bought.{fmt}"
    path.write_bytes(bytes(data))
    assert reason_of(path) == f"{fmt.upper()} is DRM-protected (encrypted content)"


def test_not_a_kindle_book(tmp_path: Path) -> None:
    path = tmp_path / "book.azw3"
    shutil.copy(fixture("zh.doc"), path)
    assert reason_of(path) == "not a AZW3 e-book (no Mobipocket header)"


def test_fb2_notes_body_is_left_out(tmp_path: Path) -> None:
    path = tmp_path / "notes.fb2"
    path.write_text(
        '<?xml version="1.0" encoding="utf-8"?>'
        '<FictionBook xmlns="http://www.gribuser.ru/xml/fictionbook/2.0"><description/>'
        "<body><title><p>第一章</p></title><section><p>正文一段。</p><poem><stanza>"
        "<v>诗句</v></stanza></poem></section></body>"
        '<body name="notes"><section><p>注释</p></section></body>'
        '<binary id="c.jpg" content-type="image/jpeg">AAAA</binary></FictionBook>',
        encoding="utf-8",
    )
    assert lines(extract_text(path).text) == ["第一章", "正文一段。", "诗句"]


# --- e-mail -------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["zh.eml", "zh-gb2312.eml", "en.eml"])
def test_eml_subject_then_plain_body(name: str) -> None:
    sample = SAMPLES[name[:2]]
    text = extract_text(fixture(name)).text
    subject, *body = lines(text)
    assert subject == docgen.paragraphs(sample)[0][:20]
    assert body == docgen.paragraphs(sample)  # once: the HTML alternative is not added
    assert "photo.png" not in text and "PNG" not in text  # attachments are not followed


def test_eml_html_only_and_unknown_charset(tmp_path: Path) -> None:
    path = tmp_path / "html.eml"
    html = "<html><body><p>第一段</p><script>x()</script><p>第二段</p></body></html>"
    path.write_bytes(
        b"From: a@example.com\r\nSubject: =?utf-8?b?"
        + __import__("base64").b64encode("主题".encode())
        + b"?=\r\nMIME-Version: 1.0\r\nContent-Type: text/html; charset=x-unknown-charset\r\n"
        b"Content-Transfer-Encoding: 8bit\r\n\r\n" + html.encode("gb18030")
    )
    assert lines(extract_text(path).text) == ["主题", "第一段", "第二段"]


def test_eml_that_is_not_mail(tmp_path: Path) -> None:
    path = tmp_path / "photo.eml"
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 20)
    reason = reason_of(path)
    assert reason in ("not an e-mail message (no headers)", "binary data, not text"), reason


# --- the cross-format guarantee through a real scan ---------------------------------------------


@pytest.mark.parametrize("sample", sorted(SAMPLES))
def test_one_text_in_every_format_is_one_group_and_diffs_as_equal(
    tmp_path: Path, sample: str
) -> None:
    from desktop_dedup.core.models import GroupKind
    from desktop_dedup.core.service import DedupService

    root = tmp_path / "docs"
    text = SAMPLES[sample]
    docgen.write_txt(root / "a.txt", text)
    docgen.write_pdf(root / "b.pdf", text)
    formats = ["doc", "wps", "docx", "odt", "odp", "ppt", "dps", "pptx", "mobi", "azw3", "fb2"]
    for fmt in formats:
        shutil.copy(fixture(f"{sample}.{fmt}"), root / f"copy.{fmt}")
    with DedupService(tmp_path / "db.sqlite") as svc:
        summary = svc.scan([root], workers=1)
        assert not summary.problems
        (group,) = svc.groups()
        assert {m.format for m in group.members} == {"txt", "pdf", *formats}
        assert group.kind in (GroupKind.SAME_TEXT, GroupKind.NEAR)
        txt = next(m for m in group.members if m.format == "txt")
        for member in group.members:
            if member.format in ("txt", "pdf"):
                continue  # PDF lines are the page's wrapped lines
            diff = svc.diff(txt.doc_id, member.doc_id)
            assert diff.similarity == 1.0, member.format
            assert not diff.change_rows, member.format


def test_eml_text_attachment_is_not_the_body(tmp_path: Path) -> None:
    from email.message import EmailMessage

    msg = EmailMessage()
    msg["Subject"] = "会议纪要"
    msg.set_content("<p>正文在这里</p>", subtype="html")
    msg.add_attachment("附件里的文字", filename="notes.txt")
    path = tmp_path / "attached.eml"
    path.write_bytes(msg.as_bytes())
    assert lines(extract_text(path).text) == ["会议纪要", "正文在这里"]


@pytest.mark.parametrize(
    ("fmt", "member"),
    [
        ("xlsx", "xl/worksheets/sheet1.xml"),
        ("pptx", "ppt/slides/slide1.xml"),
        ("ods", "content.xml"),
    ],
)
def test_zip_bomb_inside_ooxml_and_odf(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fmt: str, member: str
) -> None:
    """A real file whose main part is swapped for zeros that inflate 1000:1 (limits shrunk so
    the bomb stays a few MB)."""
    from desktop_dedup.core.extract import _common

    monkeypatch.setattr(_common, "ZIP_BOMB_MEMBER_BYTES", 1024 * 1024)
    path = tmp_path / f"bomb.{fmt}"
    with zipfile.ZipFile(fixture(f"zh.{fmt}")) as src, zipfile.ZipFile(path, "w") as dst:
        assert member in src.namelist()
        for info in src.infolist():
            if info.filename == member:
                dst.writestr(member, bytes(4 * 1024 * 1024), zipfile.ZIP_DEFLATED)
            else:
                dst.writestr(info, src.read(info))
    assert reason_of(path).startswith(f"zip bomb: {fmt.upper()} member {member} expands to")


#: Where each format keeps its pictures (LibreOffice's names).
PICTURES = {
    "docx": "word/media/image{}.png",
    "pptx": "ppt/media/image{}.jpeg",
    "xlsx": "xl/media/image{}.png",
    "odt": "Pictures/10000000000000{}.png",
    "odp": "Pictures/10000000000000{}.jpg",
    "ods": "Pictures/10000000000000{}.gif",
}


def _with_members(
    source: Path, path: Path, members: dict[str, bytes], how: int = zipfile.ZIP_DEFLATED
) -> Path:
    with zipfile.ZipFile(source) as src, zipfile.ZipFile(path, "w") as dst:
        for info in src.infolist():
            dst.writestr(info, src.read(info))
        for name, data in members.items():
            dst.writestr(name, data, how)
    return path


@pytest.mark.parametrize("fmt", sorted(PICTURES))
def test_pictures_in_a_container_are_neither_inflated_nor_counted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fmt: str
) -> None:
    """No reader opens a container's pictures, so they are not inflated: a picture that would
    inflate 1000:1 past the bomb limit, and pictures that together pass the container's cap
    (limits shrunk so the file stays a few MB), leave the document read as it was. Before, a
    presentation with 600 MB of video was refused as too large, and every photo of a DOCX was
    inflated for nothing."""
    from desktop_dedup.core.extract import _common

    monkeypatch.setattr(_common, "ZIP_BOMB_MEMBER_BYTES", 1024 * 1024)
    monkeypatch.setattr(_common, "ZIP_MAX_TOTAL_BYTES", 4 * 1024 * 1024)
    source = fixture(f"zh.{fmt}")
    rng = random.Random(3)
    pictures = {PICTURES[fmt].format(0): bytes(4 * 1024 * 1024)}  # zeros: 1000:1
    pictures |= {PICTURES[fmt].format(i): rng.randbytes(1024 * 1024) for i in range(1, 6)}
    path = _with_members(source, tmp_path / f"pictures.{fmt}", pictures)
    assert extract_text(path).text == extract_text(source).text


@pytest.mark.parametrize("fmt", ["xlsx", "ods"])
def test_a_workbook_with_pictures_is_read_within_a_readers_memory(tmp_path: Path, fmt: str) -> None:
    """python-calamine handed the open file reads all of it into memory (twice over) to tell
    its format by its content: a workbook with 100 MB of pictures needed more than 200 MB, and
    a reader has 128 MB here. A workbook named for what it is goes to calamine by its path,
    which reads only the parts it needs."""
    from desktop_dedup.core.service import DedupService
    from desktop_dedup.core.workers import Budget

    root = tmp_path / "docs"
    root.mkdir()
    picture = {PICTURES[fmt].format(1): random.Random(4).randbytes(100 * 1024 * 1024)}
    _with_members(fixture(f"zh.{fmt}"), root / f"pictures.{fmt}", picture, zipfile.ZIP_STORED)
    shutil.copy(fixture(f"zh.{fmt}"), root / f"plain.{fmt}")
    with DedupService(tmp_path / "db.sqlite") as svc:
        svc.read_budget = Budget(seconds=30, memory_mb=128)
        svc.scan([root], workers=1)
        assert [(Path(p.path).name, p.reason) for p in svc.problems()] == []
        groups = svc.groups()
    assert [sorted(Path(m.path).name for m in g.members) for g in groups] == [
        [f"pictures.{fmt}", f"plain.{fmt}"]
    ]


@pytest.mark.skipif(sys.platform != "linux", reason="a name of any bytes: Linux file systems")
def test_a_workbook_whose_name_is_not_utf8_is_read(tmp_path: Path) -> None:
    """A name that is not UTF-8 (a byte a Linux file system keeps as it is) cannot be handed to
    calamine as a path: such a workbook is handed as the open file."""
    path = Path(os.fsdecode(bytes(tmp_path) + b"/\xff\xfe.xlsx"))
    shutil.copy(fixture("zh.xlsx"), path)
    assert extract_text(path).text == extract_text(fixture("zh.xlsx")).text


def test_a_picture_a_reader_opens_is_checked_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What is not inflated up front is checked by its real bytes when a reader opens it: a
    picture whose header declares 10 KB and that inflates to 4 MB of zeros (the bomb limit
    shrunk to 1 MB) is refused as it is read, and costs nothing while it is not."""
    import hostile

    from desktop_dedup.core.extract import _common

    monkeypatch.setattr(_common, "ZIP_BOMB_MEMBER_BYTES", 1024 * 1024)
    data, _real, crc = hostile._deflated(b"", bytes(1024 * 1024), 3, b"")
    picture = "word/media/image1.png"
    members = hostile._members_of(fixture("zh.docx")) + [(picture, data, 10_000, crc, 8)]
    path = hostile._write_raw_zip(tmp_path / "lying.docx", members)
    assert extract_text(path).text == extract_text(fixture("zh.docx")).text
    with _common.open_checked_zip(path, "DOCX") as zf:
        with pytest.raises(ExtractionError) as info:
            zf.read(picture)
    assert info.value.reason.startswith(f"zip bomb: DOCX member {picture} expands to more than")


@pytest.mark.parametrize("fmt", ["doc", "docx", "odt"])
def test_heading_hyperlink_and_table_in_reading_order(fmt: str) -> None:
    """LibreOffice's export of make_fixtures.STRUCTURED_HTML: in .doc the link is a field
    (code 'HYPERLINK ...' then the shown text) and each table cell ends with a cell mark."""
    path = fixture(f"structured.{fmt}")
    if fmt == "doc":
        ole = olefile.OleFileIO(str(path))
        word = ole.openstream("WordDocument").read()
        ole.close()
        assert b"HYPERLINK" in word or "HYPERLINK".encode("utf-16-le") in word
    assert lines(extract_text(path).text) == [
        "标题 Heading",
        "Before 链接文字 after.",
        "单元格一",
        "cell two",
        "三",
        "four",
        "结尾。",
    ]


def test_mhtml_web_archive(tmp_path: Path) -> None:
    """A page saved as MHTML, laid out as browsers write it: multipart/related with the page
    as text/html and its images as further parts."""
    from email.message import EmailMessage

    page = docgen.write_html(tmp_path / "page.html", docgen.SAMPLE_ZH).read_text("utf-8")
    archive = EmailMessage()
    archive["Subject"] = "江南"
    archive["MIME-Version"] = "1.0"
    archive.set_content(page, subtype="html")
    archive.add_related(b"\x89PNG\r\n\x1a\n", maintype="image", subtype="png", cid="<img1>")
    path = tmp_path / "saved.mhtml"
    path.write_bytes(archive.as_bytes())
    assert archive.get_content_type() == "multipart/related"
    result = extract_text(path)
    assert result.format == "mht"
    subject, *body = lines(result.text)
    assert subject == "江南" and body == docgen.paragraphs(docgen.SAMPLE_ZH)


def test_kindle_reader_prints_nothing(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    """KindleUnpack print()s a warning for an EXTH value of an odd size; the CLI's standard
    output must stay clean."""
    from mobi.mobi_header import MobiHeader

    data = bytearray(fixture("zh.mobi").read_bytes())
    exth = data.find(b"EXTH")
    (count,) = struct.unpack_from(">L", data, exth + 8)
    pos = exth + 12
    for _ in range(count):
        rec_id, size = struct.unpack_from(">LL", data, pos)
        if rec_id in MobiHeader.id_map_values and size == 12:
            struct.pack_into(">L", data, pos + 4, 11)  # a 3-byte value: "Bad key, size, value"
            break
        pos += size
    else:
        pytest.fail("no 4-byte EXTH value to damage")
    path = tmp_path / "odd.mobi"
    path.write_bytes(bytes(data))
    try:
        extract_text(path)
    except ExtractionError:
        pass
    out, _ = capfd.readouterr()
    assert out == ""


# A slide's date, footer and number as PowerPoint writes them when "Header and Footer" is on:
# placeholders of the slide, the number and the date as fields.
SLIDE_FURNITURE = (
    '<p:sp><p:nvSpPr><p:cNvPr id="90" name="Date Placeholder 1"/><p:cNvSpPr>'
    '<a:spLocks noGrp="1"/></p:cNvSpPr><p:nvPr><p:ph type="dt" sz="half" idx="10"/></p:nvPr>'
    "</p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/><a:lstStyle/><a:p>"
    '<a:fld id="{5C1D2E3F-0000-4000-8000-000000000001}" type="datetime1"><a:rPr lang="en-US"/>'
    '<a:t>11/29/2026</a:t></a:fld><a:endParaRPr lang="en-US"/></a:p></p:txBody></p:sp>'
    '<p:sp><p:nvSpPr><p:cNvPr id="91" name="Footer Placeholder 2"/><p:cNvSpPr>'
    '<a:spLocks noGrp="1"/></p:cNvSpPr><p:nvPr><p:ph type="ftr" sz="quarter" idx="11"/>'
    "</p:nvPr></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/><a:lstStyle/><a:p><a:r>"
    '<a:rPr lang="en-US"/><a:t>Confidential: river town council</a:t></a:r></a:p></p:txBody>'
    "</p:sp>"
    '<p:sp><p:nvSpPr><p:cNvPr id="92" name="Slide Number Placeholder 3"/><p:cNvSpPr>'
    '<a:spLocks noGrp="1"/></p:cNvSpPr><p:nvPr><p:ph type="sldNum" sz="quarter" idx="12"/>'
    "</p:nvPr></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/><a:lstStyle/><a:p>"
    '<a:fld id="{5C1D2E3F-0000-4000-8000-000000000002}" type="slidenum"><a:rPr lang="en-US"/>'
    '<a:t>{n}</a:t></a:fld><a:endParaRPr lang="en-US"/></a:p></p:txBody></p:sp>'
)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_slides_date_footer_and_number_are_not_its_text(tmp_path: Path, lang):
    """A deck with PowerPoint's "Header and Footer" on has its date, footer and number on every
    slide, as placeholders of the slide; they are the slide's furniture, like a PDF's page
    numbers and running feet, which the PDF of the deck no longer has. The LibreOffice-made
    deck with them added to each slide reads as before."""
    original = DATA / f"{lang}.pptx"
    furnished = tmp_path / f"{lang}.pptx"
    with zipfile.ZipFile(original) as src, zipfile.ZipFile(furnished, "w") as dst:
        slides = sorted(n for n in src.namelist() if re.fullmatch(r"ppt/slides/slide\d+\.xml", n))
        for item in src.infolist():
            data = src.read(item.filename)
            if item.filename in slides:
                number = slides.index(item.filename) + 1
                extra = SLIDE_FURNITURE.replace("{n}", str(number))
                data = data.replace(b"</p:spTree>", extra.encode() + b"</p:spTree>", 1)
            dst.writestr(item, data)
    text = extract_text(str(furnished)).text
    assert "Confidential" not in text and "11/29/2026" not in text
    assert text == extract_text(str(original)).text
