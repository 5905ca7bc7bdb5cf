"""File and folder names that are not UTF-8 (README, Bad input): a Chinese name in GBK, as a
Windows archive unpacked on Linux leaves it, is a document like any other. It is read, grouped,
shown, reported, marked, moved, restored and removed by the name it has on disk, on SQLite and
on a shared PostgreSQL index alike.

Python holds such a name as os.fsdecode gives it (each byte that is not UTF-8 a lone surrogate);
every path here is checked against the bytes on disk, through os.fsencode.
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import docgen
import pytest

from desktop_dedup.core import pathrules
from desktop_dedup.core.service import DedupService

FOLDER = "资料备份".encode("gbk")  # b"\xd7\xca\xc1\xcf\xb1\xb8\xb7\xdd"
NAME = "江南春天.txt".encode("gbk")
EDITED = "江南春天-修订.txt".encode("gbk")


def _gbk(root: Path, *parts: bytes) -> str:
    """The path of ``parts`` (bytes as on disk) below ``root``, as Python holds it."""
    return os.fsdecode(os.path.join(os.fsencode(root), *parts))


def _write(path: str, text: str) -> str:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return os.path.realpath(path)


@pytest.fixture
def svc(db_target):
    """A service over a new index, on SQLite and on PostgreSQL (conftest.db_target)."""
    with DedupService(db_target) as s:
        yield s


@pytest.fixture
def library(tmp_path: Path) -> dict[str, str]:
    root = tmp_path / "docs"
    edited = docgen.SAMPLE_ZH.replace("城市", "乡村", 1)
    return {
        "root": str(root),
        "folder": _gbk(root, FOLDER),
        "gbk": _write(_gbk(root, FOLDER, NAME), docgen.SAMPLE_ZH),
        "gbk_edited": _write(_gbk(root, FOLDER, EDITED), edited),
        "utf8": _write(str(root / "文稿" / "江南春天.txt"), docgen.SAMPLE_ZH),
        "unrelated": _write(str(root / "notes.txt"), docgen.SAMPLE_EN),
    }


def test_the_stored_form_gives_back_every_name_and_keeps_folders_prefixes() -> None:
    names = [
        "/a/b.txt",
        "/中文/文件.txt",
        os.fsdecode(b"/\xd7\xca/\xc1\xcf.txt"),
        "/odd\uffff/name",
        "/odd\uffffDCAB/name",  # the escape character before what an escaped byte looks like
        "C:\\notes\\\ud83d.txt",  # a lone UTF-16 surrogate, which a Windows name may hold
        os.fsdecode(b"/x\xff\xfe") + "\uffff",
    ]
    for name in names:
        kept = pathrules.stored(name)
        kept.encode("utf-8")  # what a database's text holds
        assert pathrules.from_stored(kept) == name
    folder = os.fsdecode(b"/\xd7\xca")
    inside = os.fsdecode(b"/\xd7\xca/\xc1\xcf.txt")
    assert pathrules.stored(inside).startswith(pathrules.stored(folder) + "/")
    assert pathrules.stored("/中文/文件.txt") == "/中文/文件.txt"  # UTF-8 names stay as they are
    assert len({pathrules.stored(n) for n in names}) == len(names)
    assert pathrules.shown(os.fsdecode(b"/\xd7\xca")) == "/\\xd7\\xca"
    assert pathrules.shown("C:\\notes\\\ud83d.txt") == "C:\\notes\\\\ud83d.txt"


def test_a_name_that_is_not_utf8_is_read_grouped_and_kept_by_its_name(
    svc: DedupService, library: dict[str, str], tmp_path: Path
) -> None:
    summary = svc.scan([library["root"]], workers=1)
    assert summary.problems == []
    (group,) = svc.groups()
    paths = {m.path for m in group.members}
    assert paths == {library["gbk"], library["gbk_edited"], library["utf8"]}
    for path in paths:
        assert os.path.exists(path)
    assert os.fsencode(library["gbk"]).endswith(NAME)

    again = svc.scan([library["root"]], workers=1)  # the index knows the file by its name
    assert again.files_reused == 4 and again.files_fingerprinted == 0

    gbk_id = next(m.doc_id for m in group.members if m.path == library["gbk"])
    utf8_id = next(m.doc_id for m in group.members if m.path == library["utf8"])
    assert "城市" in svc.document_text(gbk_id)
    assert svc.pair_similarity(gbk_id, utf8_id) == 1.0

    # marks by folder: the folder that is not UTF-8 holds its two files (the reference is kept)
    svc.apply_mark_rule("add_in_folder", folder=library["folder"])
    marked = {m.path for m in svc.group(group.id).members if m.doc_id in svc.marked_ids()}
    assert marked == {library["gbk"], library["gbk_edited"]} - {group.reference.path}
    assert marked
    svc.apply_mark_rule("keep_in_folder", folder=library["folder"])
    marked = {m.path for m in svc.group(group.id).members if m.doc_id in svc.marked_ids()}
    assert marked == {library["utf8"]}


def test_a_file_whose_name_is_not_utf8_is_moved_restored_and_trashed_by_that_name(
    svc: DedupService, library: dict[str, str], tmp_path: Path
) -> None:
    svc.scan([library["root"]], workers=1)
    (group,) = svc.groups()
    ids = {m.path: m.doc_id for m in group.members}
    target = tmp_path / "moved"
    target.mkdir()
    (done,) = svc.move([ids[library["gbk"]]], target, keep_structure=True)
    assert done.ok, done.reason
    assert not os.path.exists(library["gbk"])
    moved = os.path.join(os.fsencode(target), FOLDER, NAME)  # below the scanned folder
    assert os.path.exists(moved)
    (entry,) = [e for e in svc.journal() if e.action == "move"]
    assert entry.path == library["gbk"] and os.fsencode(entry.destination) == moved
    (back,) = svc.restore([entry.id])
    assert back.ok, back.reason
    assert os.path.exists(library["gbk"]) and not os.path.exists(moved)

    svc.scan([library["root"]], workers=1)
    (group,) = svc.groups()
    ids = {m.path: m.doc_id for m in group.members}
    trashed: list[str] = []

    def trash(path: str) -> None:
        trashed.append(path)
        os.remove(path)

    (gone,) = svc.trash([ids[library["gbk_edited"]]], trash=trash, include_near=True)
    assert gone.ok, gone.reason
    assert trashed == [library["gbk_edited"]]
    assert os.path.exists(library["gbk"]) and os.path.exists(library["utf8"])


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the freedesktop trash")
def test_a_file_whose_name_is_not_utf8_comes_back_from_the_real_trash(
    svc: DedupService, library: dict[str, str]
) -> None:
    """The trash records the name percent-encoded, byte by byte (%BD%AD): read back as UTF-8,
    those bytes were lost, and the file was "not found in the trash"."""
    svc.scan([library["root"]], workers=1)
    (group,) = svc.groups()
    ids = {m.path: m.doc_id for m in group.members}
    (gone,) = svc.trash([ids[library["gbk_edited"]]], include_near=True)  # the real send2trash
    assert gone.ok, gone.reason
    assert not os.path.exists(library["gbk_edited"])
    (entry,) = [e for e in svc.journal() if e.action == "trash"]
    assert [e.id for e in svc.restorable()] == [entry.id]
    (back,) = svc.restore([entry.id])
    assert (back.ok, back.reason) == (True, "")
    assert os.path.exists(library["gbk_edited"])
    assert os.fsencode(library["gbk_edited"]).endswith(EDITED)


def test_a_folder_whose_name_is_not_utf8_is_listed_scanned_and_a_reference(
    svc: DedupService, library: dict[str, str]
) -> None:
    svc.add_folder(library["root"])
    svc.add_folder(library["folder"], reference=True)
    assert [(f.path, f.is_reference) for f in svc.folders()] == [
        (os.path.realpath(library["root"]), False),
        (library["folder"], True),
    ]
    svc.scan(workers=1)
    (group,) = svc.groups()
    assert os.path.dirname(group.reference.path) == library["folder"]
    assert group.reference.in_reference_folder
    svc.remove_folder(library["folder"])
    assert [f.path for f in svc.folders()] == [os.path.realpath(library["root"])]


def test_an_ignored_pair_and_a_problem_keep_names_that_are_not_utf8(
    svc: DedupService, library: dict[str, str]
) -> None:
    broken = _gbk(Path(library["root"]), FOLDER, "坏文件.pdf".encode("gbk"))
    with open(broken, "wb") as f:
        f.write(b"not a pdf at all " * 20)
    unread = _gbk(Path(library["root"]), FOLDER, "说明.djvu".encode("gbk"))
    with open(unread, "wb") as f:  # a type no reader handles: listed while walking the folders
        f.write(b"AT&TFORM" + bytes(64))
    svc.scan([library["root"]], workers=1)
    assert sorted(p.path for p in svc.problems()) == sorted(
        [os.path.realpath(broken), os.path.realpath(unread)]
    )
    (group,) = svc.groups()
    ids = {m.path: m.doc_id for m in group.members}
    svc.ignore_pair(ids[library["gbk"]], ids[library["gbk_edited"]])
    (pair,) = svc.ignored_pairs()
    assert {pair.path_a, pair.path_b} == {library["gbk"], library["gbk_edited"]}


def test_reports_give_a_name_that_is_not_utf8(
    svc: DedupService, library: dict[str, str], tmp_path: Path
) -> None:
    """JSON: the exact name, as JSON escapes (\\udcd7: what Python's json gives back and
    os.fsencode turns into the bytes on disk); CSV and HTML, which people read: each part of it
    as read in its code page, GBK here, marked so, as the command line prints it."""
    svc.scan([library["root"]], workers=1)
    svc.export_report("json", tmp_path / "r.json")
    data = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    (group,) = data["groups"]
    assert library["gbk"] in {m["path"] for m in group["members"]}
    json.loads(svc.report("json"))

    shown = os.path.abspath(pathrules.shown(library["gbk"]))
    assert shown.endswith("/资料备份 \u27e8GBK\u27e9/江南春天.txt \u27e8GBK\u27e9")
    svc.export_report("csv", tmp_path / "r.csv")
    with open(tmp_path / "r.csv", encoding="utf-8-sig", newline="") as f:
        rows = list(csv.DictReader(f))
    assert shown in {r["path"] for r in rows}
    svc.export_report("html", tmp_path / "r.html")
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert shown in page


def test_a_copy_unpacked_with_the_wrong_name_encoding_is_a_duplicate(
    svc: DedupService, tmp_path: Path
) -> None:
    """The case that brings such names: one archive unpacked twice, once with the names as
    UTF-8 and once with them as the GBK bytes a Windows zip holds."""
    src = tmp_path / "src"
    docgen.write_docx(src / "报告" / "年度总结.docx", docgen.SAMPLE_ZH)
    docgen.write_txt(src / "报告" / "会议记录.txt", docgen.SAMPLE_EN)
    good = tmp_path / "docs" / "unpacked"
    shutil.copytree(src, good)
    bad = os.fsencode(tmp_path / "docs" / "unpacked-again")
    for rel in ("报告/年度总结.docx", "报告/会议记录.txt"):
        target = os.path.join(bad, rel.encode("gbk"))
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(src / rel, target)
    svc.scan([tmp_path / "docs"], workers=1)
    groups = svc.groups()
    assert len(groups) == 2
    for g in groups:
        assert len(g.members) == 2
        assert all(os.path.exists(m.path) for m in g.members)


# Real names as East Asian Windows writes them into a zip or onto a FAT drive, and the label each
# encoding is shown with.
LEGACY_NAMES = [
    ("会议纪要2023.docx", "gbk", "GBK"),
    ("新建文本文档.txt", "gbk", "GBK"),
    ("第一章 总则.pdf", "gbk", "GBK"),
    ("简历-李四.doc", "gbk", "GBK"),
    ("资料备份", "gbk", "GBK"),
    ("會議記錄.docx", "big5", "Big5"),
    ("期末報告.txt", "big5", "Big5"),
    ("ファイル一覧.txt", "cp932", "Shift_JIS"),
    ("新しいフォルダー", "cp932", "Shift_JIS"),
]

# Names in the one-byte code pages of other scripts: their bytes often pair up as Chinese
# characters (Cyrillic's 0xC0-0xFF are GB2312's range), which no one wrote.
OTHER_CODE_PAGES = [
    ("Отчёт за квартал.doc", "cp1251"),
    ("Договор поставки.pdf", "cp1251"),
    ("Приказ", "cp1251"),
    ("Документы", "koi8_r"),
    ("Письмо директору.txt", "koi8_r"),
    ("Έκθεση πωλήσεων.doc", "cp1253"),
    ("Συμβόλαιο", "cp1253"),
    ("דוח שנתי.txt", "cp1255"),
    ("תקציב", "cp1255"),
    ("تقرير سنوي.doc", "cp1256"),
    ("عقد العمل", "cp1256"),
    ("รายงานประจำปี.doc", "cp874"),
    ("สัญญาเช่า", "cp874"),
    ("Sözleşme taslağı.docx", "cp1254"),
    ("Umowa źródłowa.pdf", "cp1250"),
    ("Übersicht Größen.xls", "cp1252"),
    ("Café crème.txt", "cp1252"),
    # Korean is not guessed: Chinese names' bytes read as Hangul syllables as often
    ("보고서.hwp", "cp949"),
    ("회의록 초안.txt", "cp949"),
]


def test_a_name_in_an_east_asian_code_page_is_shown_as_read_in_it_and_says_which() -> None:
    for name, codec, label in LEGACY_NAMES:
        path = os.fsdecode(b"/home/me/" + name.encode(codec))
        assert pathrules.shown(path) == f"/home/me/{name} \u27e8{label}\u27e9", (name, codec)
    # each part of a path on its own: a GBK folder holding a file named in UTF-8
    folder = os.fsdecode(b"/data/" + "资料备份".encode("gbk") + "/年度总结.txt".encode())
    assert pathrules.shown(folder) == "/data/资料备份 \u27e8GBK\u27e9/年度总结.txt"
    # the code page follows the word it read: in a name, and in a message that names the file
    mixed = os.fsdecode("/x/年度总结 draft 2.txt".encode("gbk"))
    assert pathrules.shown(mixed) == "/x/年度总结 \u27e8GBK\u27e9 draft 2.txt"
    message = os.fsdecode(b"/x/" + NAME + b" no longer exists")
    assert pathrules.shown(message) == "/x/江南春天.txt \u27e8GBK\u27e9 no longer exists"
    # (its bytes \xcf\xb1 happen to be UTF-8's ϱ: the escapes are of the others)
    assert pathrules.escaped(folder) == "/data/\\xd7\\xca\\xc1ϱ\\xb8\\xb7\\xdd/年度总结.txt"


def test_a_name_that_reads_as_no_east_asian_words_stays_escaped() -> None:
    for name, codec in OTHER_CODE_PAGES:
        raw = name.encode(codec)
        path = os.fsdecode(b"/x/" + raw)
        assert pathrules.shown(path) == "/x/" + raw.decode("utf-8", "backslashreplace"), name
    # one Chinese character is too little to tell (a Thai, Russian or Hebrew pair of letters
    # reads as one), and bytes no encoding reads stay escapes
    assert pathrules.shown(os.fsdecode(b"/\xd7\xca")) == "/\\xd7\\xca"
    assert pathrules.shown(os.fsdecode(b"/\xff\xfe\xfd.txt")) == "/\\xff\\xfe\\xfd.txt"


def test_groups_are_filtered_by_a_name_that_is_not_utf8_as_it_is_shown(
    svc: DedupService, library: dict[str, str]
) -> None:
    """The filter box takes what the window shows: 资料备份 finds the GBK folder's group, in
    plain text and as a regular expression, on SQLite and PostgreSQL alike."""
    svc.scan([library["root"]], workers=1)
    (group,) = svc.groups()
    assert svc.group_count(text="资料备份") == 1
    assert [g.id for g in svc.group_page(0, 10, text="资料备份")] == [group.id]
    assert svc.group_count(text="⟨gbk⟩/江南") == 1  # the code page too, in any case
    assert svc.group_count(text="资料.份 ⟨GBK⟩", regex=True) == 1
    assert svc.group_count(text="资料备份X") == 0
    assert svc.group_count(text="资料备份X", regex=True) == 0
    assert svc.group_count(text="城市") == 0  # words of the text are not its path


READER_CHILD = textwrap.dedent(
    """
    import os, sys, threading
    from desktop_dedup.core import pathrules

    path = os.fsdecode("/资料备份/江南春天.txt".encode("gbk"))
    ready = threading.Event()
    pathrules.read_names_off_thread(ready.set)
    here = pathrules.shown(path)  # this thread does not wait: escapes, the reader starts
    there = []
    worker = threading.Thread(target=lambda: there.append(pathrules.shown(path)))
    worker.start()  # another thread (a report's export) waits for the reader
    worker.join()
    assert ready.wait(60)
    print(here)
    print(there[0])
    print(pathrules.shown(path))
    """
)


def test_a_thread_that_must_not_wait_shows_escapes_until_the_reader_is_loaded() -> None:
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    proc = subprocess.run(
        [sys.executable, "-c", READER_CHILD], capture_output=True, text=True, env=env, timeout=120
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    here, there, after = proc.stdout.splitlines()[-3:]
    readable = "/资料备份 \u27e8GBK\u27e9/江南春天.txt \u27e8GBK\u27e9"
    assert here == "/\\xd7\\xca\\xc1ϱ\\xb8\\xb7\\xdd/\\xbd\\xad\\xc4ϴ\\xba\\xcc\\xec.txt"
    assert there == readable and after == readable


def test_a_thread_may_wait_for_the_reader_again_once_its_window_is_gone() -> None:
    child = textwrap.dedent(
        """
        import os
        from desktop_dedup.core import pathrules

        stop = pathrules.read_names_off_thread(lambda: None)  # a window opens, and closes
        stop()
        stop()  # twice is once
        print(pathrules.shown(os.fsdecode("/资料备份".encode("gbk"))))
        """
    )
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    proc = subprocess.run(
        [sys.executable, "-c", child], capture_output=True, text=True, env=env, timeout=120
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.splitlines()[-1] == "/资料备份 \u27e8GBK\u27e9"
