"""Shared builders for GUI tests: real document folders and a test trash."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import docgen
from PySide6.QtCore import QItemSelectionModel

ORIGINAL_WORD = "lighthouse"
SCAN_TIMEOUT_MS = 300_000  # a wide margin: the shared 2-core machine was seen to take 120 s


def edited_english() -> tuple[str, str, str]:
    """SAMPLE_EN and a copy with exactly one word replaced: (a, b, replaced word)."""
    a = docgen.SAMPLE_EN
    words = a.split(" ")
    index = next(i for i, w in enumerate(words) if w.isalpha() and len(w) > 6 and i > 30)
    original = words[index]
    words[index] = ORIGINAL_WORD
    return a, " ".join(words), original


def build_library(root: Path) -> dict[str, Path]:
    """A small folder of Chinese and English documents with exact, same-text and near copies.

    - report/{a,b,c}/report.txt: identical bytes (an "identical" group of three)
    - english.txt + english-edited.txt: one word differs (a near group)
    - chinese.txt + chinese.docx: the same Chinese text as TXT and DOCX
    - chinese-edited.html: the Chinese text with one word changed
    - broken.pdf: not a PDF at all (a problem, listed and skipped)
    - unrelated.md: a document with no duplicate
    """
    files: dict[str, Path] = {}
    report = (
        "Quarterly report of the harbour logistics office.\n"
        "Container throughput rose by nine percent while crane downtime fell. The night shift "
        "cleared the backlog of refrigerated cargo, and customs inspections now take two days "
        "instead of four. Fuel costs for the tugboats remain the largest open risk; the board "
        "asked for quotes on electric tugs before the autumn meeting.\n"
    ) * 3
    for name in ("a", "b", "c"):
        files[f"report_{name}"] = docgen.write_txt(root / "report" / name / "report.txt", report)
    a, b, _ = edited_english()
    files["english"] = docgen.write_txt(root / "english.txt", a)
    files["english_edited"] = docgen.write_txt(root / "english-edited.txt", b)
    files["chinese"] = docgen.write_txt(root / "中文" / "chinese.txt", docgen.SAMPLE_ZH)
    files["chinese_docx"] = docgen.write_docx(root / "中文" / "chinese.docx", docgen.SAMPLE_ZH)
    files["chinese_edited"] = docgen.write_html(
        root / "中文" / "chinese-edited.html", docgen.SAMPLE_ZH.replace("城市", "乡村", 1)
    )
    broken = root / "broken.pdf"
    broken.write_bytes(b"this is not a pdf at all" * 10)
    files["broken"] = broken
    files["unrelated"] = docgen.write_md(
        root / "unrelated.md",
        "A completely different note about gardening, tomatoes, compost and rain barrels. " * 20,
    )
    return files


def build_many(root: Path, count: int) -> list[Path]:
    """``count`` distinct documents (pairs of near copies) for progress/cancel tests."""
    paths = []
    base = docgen.SAMPLE_EN + "\n" + docgen.SAMPLE_ZH
    for i in range(count):
        text = f"Document number {i}. " + base.replace("the", f"the{i % 7}", 1) + f"\nEnd {i // 2}"
        paths.append(docgen.write_txt(root / f"batch{i % 10}" / f"doc{i:04d}.txt", text))
    return paths


def make_test_trash(trash_dir: Path) -> Callable[[str], None]:
    """A trash function that moves files into ``trash_dir`` (what send2trash would do)."""
    trash_dir.mkdir(parents=True, exist_ok=True)

    def trash(path: str) -> None:
        target = trash_dir / f"{len(os.listdir(trash_dir))}-{Path(path).name}"
        shutil.move(path, target)

    return trash


def change_same_size(path: Path) -> None:
    """Change one byte but keep size and mtime: only the content hash can catch it."""
    stat = path.stat()
    data = bytearray(path.read_bytes())
    data[0] = ord("Q") if data[0] != ord("Q") else ord("R")
    path.write_bytes(bytes(data))
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))


def settle(window, timeout_ms: int = 60_000) -> None:
    """Wait until every op the window started (reads, mutations, the refreshes their changes
    trigger) has been delivered: what the window shows is then what the database holds."""
    assert window.ops.wait_idle(timeout_ms), "operations still running"


def scan(qtbot, window):
    settle(window)
    with qtbot.waitSignal(window.scanFinished, timeout=SCAN_TIMEOUT_MS) as blocker:
        window.act_scan.trigger()
    settle(window)
    return blocker.args[0]


def select_member(window, path: Path) -> None:
    row = window.members_model.row_of_doc(
        next(m.doc_id for m in window.members_model.group.members if m.path == str(path))
    )
    assert row is not None
    window.members_view.selectionModel().setCurrentIndex(
        window.members_model.index(row, 0),
        QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows,
    )
    settle(window)


def filter_to(qtbot, window, text: str) -> None:
    window.filter_edit.setText(text)
    window.apply_filter()  # what the debounce timer or Enter would do
    settle(window)
    assert window.groups_model.total == 1
    assert any(text in m.path for m in window.members_model.group.members)
