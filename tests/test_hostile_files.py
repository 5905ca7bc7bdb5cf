"""Hostile files cost their own file a clear reason, in bounded time and memory (issue 7 cases 5
and 6), read by a real scan in its worker processes under their budgets."""

from __future__ import annotations

import time
from pathlib import Path

import docgen
import hostile
import pytest

from desktop_dedup.core.service import DedupService
from desktop_dedup.core.workers import Budget


@pytest.fixture(scope="module")
def scanned(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, str], float, object]:
    root = tmp_path_factory.mktemp("hostile") / "docs"
    docgen.write_txt(root / "plain.txt", docgen.SAMPLE_EN)
    docgen.write_docx(root / "fine.docx", docgen.SAMPLE_ZH)
    hostile.write_nested_html(root / "nested.html")
    hostile.write_markdown_line(root / "links.md", "[a](")
    hostile.write_markdown_line(root / "bold.md", "**a ")
    hostile.write_docx_bomb(root / "bomb.docx", real=512 * hostile.MB)
    hostile.write_docx_huge_body(root / "body.docx", body=30 * hostile.MB)
    hostile.write_epub_huge_chapters(root / "huge.epub")
    with DedupService(root.parent / "db.sqlite") as svc:
        # were any reader to hang, its file would say so after 20 s, not stop the scan
        svc.read_budget = Budget(seconds=20, memory_mb=512)
        started = time.monotonic()
        summary = svc.scan([root], workers=2)
        elapsed = time.monotonic() - started
        problems = {Path(p.path).name: p.reason for p in svc.problems()}
    return problems, elapsed, summary


def test_a_zip_bomb_with_lying_sizes_is_caught_by_its_real_bytes(scanned) -> None:
    problems, _, _ = scanned
    assert problems["bomb.docx"].startswith(
        "zip bomb: DOCX member word/document.xml expands to more than"
    ), problems


def test_a_docx_body_too_big_to_parse_is_refused_before_parsing(scanned) -> None:
    problems, _, _ = scanned
    # document.xml holds 30,411,135 bytes: 29.002 MiB, written "29 MB" as the 24 MiB cap is
    assert problems["body.docx"] == "too large: DOCX body is 29 MB of XML, over the 24 MB cap"


def test_an_epub_chapter_too_big_to_parse_is_refused_before_parsing(scanned) -> None:
    problems, _, _ = scanned
    assert problems["huge.epub"] == (
        # 47,183,831 bytes of HTML: 44.998 MiB
        "too large: EPUB chapter OEBPS/c0.xhtml is 45 MB of HTML, over the 32 MB cap"
    )


def test_deep_html_and_quadratic_markdown_are_read_in_time(scanned) -> None:
    problems, elapsed, summary = scanned
    assert not {"nested.html", "links.md", "bold.md", "plain.txt", "fine.docx"} & set(problems)
    assert summary.files_fingerprinted + summary.files_reused >= 5
    assert elapsed < 60, f"the hostile folder took {elapsed:.0f} s"
