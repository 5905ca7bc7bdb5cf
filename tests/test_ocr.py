"""Scanned PDFs (issue 10, item 5): without OCR a problem that says what would read it; with
OCR (Tesseract, chi_sim/eng) the page text joins the pipeline, groups with the same document in
another format, is cached by content hash, shows its pages as progress, has a per-page time
budget, and stops on cancel.

Every scanned PDF here is made by tests/scangen.py: text drawn into a 300 DPI image with
Pillow, the image wrapped into a PDF by reportlab; nothing of the text is in the PDF but pixels.
The real Tesseract runs (packaging/bootstrap.sh installs it), through a wrapper script that
logs each OCR run (its pid) and then becomes Tesseract.
"""

from __future__ import annotations

import os
import shutil
import stat
import threading
import time
from pathlib import Path

import docgen
import pytest
import scangen
from support.processes import alive

from desktop_dedup.core import ocr
from desktop_dedup.core import workers as workers_mod
from desktop_dedup.core.errors import DedupError, ExtractionError
from desktop_dedup.core.extract import extract_text
from desktop_dedup.core.progress import CancelToken, ProgressEvent
from desktop_dedup.core.service import DedupService

ZH_PAGES = [  # short Chinese pages for the multi-page tests (one OCR run per page)
    docgen.paragraphs(docgen.SAMPLE_ZH)[i] + "\n" + docgen.paragraphs(docgen.SAMPLE_ZH)[i + 1]
    for i in range(0, 6, 2)
]


@pytest.fixture(scope="module")
def real_tesseract() -> str:
    engine = ocr.find_engine()
    if engine is None or engine.languages != ("chi_sim", "eng"):
        if os.environ.get("CI"):
            pytest.fail("Tesseract with chi_sim and eng must be installed (packaging/bootstrap.sh)")
        pytest.skip("Tesseract with chi_sim and eng is not installed")
    return engine.path


@pytest.fixture
def counted(tmp_path: Path, real_tesseract: str, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Tesseract behind a wrapper that logs the pid of every OCR run; returns the log."""
    log = tmp_path / "tesseract-runs.log"
    log.touch()
    wrapper = tmp_path / "bin" / "tesseract"
    wrapper.parent.mkdir()
    wrapper.write_text(
        "#!/bin/sh\n"
        f'case " $* " in *" stdin "*) echo $$ >> "{log}";; esac\n'
        f'exec "{real_tesseract}" "$@"\n'
    )
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv(ocr.ENV_TESSERACT, str(wrapper))
    # each test its own OCR cache (the same text makes the same PDF bytes in another test)
    monkeypatch.setenv("DESKTOP_DEDUP_HOME", str(tmp_path / "home"))
    return log


def runs(log: Path) -> list[int]:
    return [int(x) for x in log.read_text().split()]


@pytest.fixture
def svc(tmp_path: Path):
    with DedupService(tmp_path / "index.sqlite3") as s:
        yield s


# --- without OCR ----------------------------------------------------------------------------


def test_ocr_off_scanned_pdf_is_a_problem_that_says_ocr_can_read_it(
    tmp_path: Path, svc: DedupService, counted: Path
) -> None:
    root = tmp_path / "docs"
    scangen.write_scanned_pdf(root / "scan.pdf", docgen.SAMPLE_EN)
    assert svc.settings().ocr is False  # off by default
    summary = svc.scan([root])
    assert [(Path(p.path).name, p.reason) for p in summary.problems] == [
        ("scan.pdf", ocr.REASON_OCR_OFF)
    ]
    assert "turn OCR on" in ocr.REASON_OCR_OFF and "installed" not in ocr.REASON_OCR_OFF
    assert runs(counted) == []


def test_without_tesseract_the_reason_says_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = scangen.write_scanned_pdf(tmp_path / "scan.pdf", docgen.SAMPLE_EN)
    monkeypatch.setenv(ocr.ENV_TESSERACT, str(tmp_path / "no-such-tesseract"))
    assert ocr.find_engine() is None
    with pytest.raises(ExtractionError) as off:
        extract_text(path)
    assert off.value.reason == ocr.REASON_OCR_OFF_NOT_INSTALLED
    assert "install Tesseract" in off.value.reason
    with ocr.using(ocr.OcrOptions(enabled=True, engine=None)), pytest.raises(ExtractionError) as on:
        extract_text(path)
    assert on.value.reason == ocr.REASON_OCR_NOT_INSTALLED


def test_a_pdf_with_nothing_drawn_is_still_only_no_text_layer(tmp_path: Path) -> None:
    from reportlab.pdfgen import canvas

    path = tmp_path / "blank.pdf"
    pdf = canvas.Canvas(str(path))
    pdf.showPage()
    pdf.save()
    with pytest.raises(ExtractionError, match=r"^scanned, no text layer$"):
        extract_text(path)


@pytest.mark.parametrize("text", [docgen.SAMPLE_ZH, docgen.SAMPLE_EN], ids=["zh", "en"])
def test_a_pdf_with_a_text_layer_diffs_as_equal_to_its_txt(
    tmp_path: Path, svc: DedupService, text: str
) -> None:
    """Issue 10, item 7, for the PDF reader: the same text as TXT and PDF is one document and
    the diff shows it as equal (the PDF's wrapped lines are not changes)."""
    root = tmp_path / "docs"
    docgen.write_txt(root / "a.txt", text)
    docgen.write_pdf(root / "b.pdf", text)
    svc.scan([root], workers=1)
    (group,) = svc.groups()
    a, b = sorted(group.members, key=lambda m: m.format)
    assert (a.format, b.format) == ("pdf", "txt")
    diff = svc.diff(b.doc_id, a.doc_id)
    assert diff.similarity == 1.0 and not diff.change_rows


# --- with OCR -------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_ocr_reads_a_scanned_pdf_that_groups_with_its_txt_and_second_read_is_cached(
    tmp_path: Path, svc: DedupService, counted: Path, lang: str
) -> None:
    text = docgen.SAMPLE_ZH if lang == "zh" else docgen.SAMPLE_EN
    root = tmp_path / "docs"
    txt = docgen.write_txt(root / "article.txt", text)
    pdf = scangen.write_scanned_pdf(root / "article-scan.pdf", text)
    svc.update_settings(ocr=True)
    events: list[ProgressEvent] = []
    summary = svc.scan([root], progress=events.append)
    assert summary.problems == []
    groups = svc.groups()
    # OCR noise is tolerated: the same document, by the same text or as a near copy
    assert len(groups) == 1
    assert {m.path for m in groups[0].members} == {str(txt), str(pdf)}
    assert [(e.ocr_page, e.ocr_pages, e.current) for e in events if e.ocr_page] == [
        (1, 1, str(pdf))
    ]
    first = runs(counted)
    assert len(first) == (1 if lang == "zh" else 2)  # English: chi_sim, then eng

    # A fresh index reads the file again: the text comes from the cache, Tesseract does not run.
    with DedupService(tmp_path / "other.sqlite3") as again:
        again.update_settings(ocr=True)
        again.scan([root])
        assert len(again.groups()) == 1
        # the diff view reads the scanned PDF's OCR text too (from the cache)
        members = {m.path: m.doc_id for m in again.groups()[0].members}
        diff = again.diff(members[str(txt)], members[str(pdf)])
        assert diff.similarity >= again.settings().min_similarity
        # OCR turned off: the indexed document still shows the OCR text it was read with
        read_with_ocr = again.document_text(members[str(pdf)])
        again.update_settings(ocr=False)
        assert again.document_text(members[str(pdf)]) == read_with_ocr
        shutil.rmtree(ocr.cache_dir())  # ... from the cache, which OCR off never refills
    # (a service keeps the last texts it showed: a new one reads the file again)
    with DedupService(tmp_path / "other.sqlite3") as third:
        with pytest.raises(DedupError, match="turn OCR on"):
            third.document_text(members[str(pdf)])
    assert runs(counted) == first


def test_a_pdf_with_typed_and_scanned_pages_gets_both_in_order(
    tmp_path: Path, real_tesseract: str
) -> None:
    path = scangen.write_scanned_pdf(
        tmp_path / "mixed.pdf",
        ZH_PAGES[0],
        typed_first_page="Minutes of the meeting, typed page one.",
    )
    assert extract_text(path).text.strip() == "Minutes of the meeting, typed page one."
    options = ocr.OcrOptions(enabled=True, engine=ocr.find_engine())
    with ocr.using(options):
        text = extract_text(path).text
    typed = text.index("Minutes of the meeting")
    scanned = text.index("江南的春天")
    assert typed < scanned
    assert "老街两旁的店铺" in text


def fake_tesseract(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seconds: float) -> Path:
    """A stand-in for Tesseract that takes ``seconds`` a page whatever the machine's load, and
    reads every page as the same Chinese paragraph (one run a page); logs each OCR run.
    Returns the log."""
    log = tmp_path / "fake-runs.log"
    log.touch()
    fake = tmp_path / "fake" / "tesseract"
    fake.parent.mkdir()
    fake.write_text(
        "#!/bin/sh\n"
        'case "$1" in\n'
        '  --list-langs) printf "List of available languages (2):\\nchi_sim\\neng\\n";;\n'
        '  --version) echo "tesseract 0 (fake)";;\n'
        f'  *) echo $$ >> "{log}"; cat > /dev/null; sleep {seconds}; '
        f'echo "{docgen.paragraphs(docgen.SAMPLE_ZH)[0]}";;\n'
        "esac\n"
    )
    fake.chmod(0o755)
    monkeypatch.setenv(ocr.ENV_TESSERACT, str(fake))
    monkeypatch.setenv("DESKTOP_DEDUP_HOME", str(tmp_path / "home"))
    return log


def test_ocr_pages_each_get_the_time_budget_and_the_file_a_bound(
    tmp_path: Path, svc: DedupService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file of 3 OCR pages of 3 s each takes longer than a reader's per-file budget of 6 s;
    each page is well inside it, so the file is read. With a whole-file OCR bound of 4 s it is
    stopped, and the pages read so far stay cached."""
    log = fake_tesseract(tmp_path, monkeypatch, seconds=3)
    root = tmp_path / "docs"
    root.mkdir()
    _write_pages(root / "three.pdf", ZH_PAGES)
    svc.update_settings(ocr=True)
    svc.read_budget = workers_mod.Budget(seconds=6.0, ocr_file_seconds=600)
    started = time.monotonic()
    summary = svc.scan([root])
    assert time.monotonic() - started > 6.0
    assert summary.problems == [] and summary.files_fingerprinted == 1
    assert len(runs(log)) == 3

    shutil.rmtree(ocr.cache_dir())  # nothing cached: every page must be read again
    with DedupService(tmp_path / "bounded.sqlite3") as bounded:
        bounded.update_settings(ocr=True)
        bounded.read_budget = workers_mod.Budget(seconds=30.0, ocr_file_seconds=4.0)
        (problem,) = bounded.scan([root]).problems
    assert problem.reason == (
        "OCR took longer than 4 s in all; skipped "
        "(the pages read so far are kept for the next scan)"
    )
    assert len(list(Path(ocr.cache_dir()).rglob("*.txt"))) == 1  # page 1 stays


def _write_pages(path: Path, pages: list[str]) -> None:
    """An image-only PDF with one scanned page per text."""
    import pypdfium2 as pdfium

    out = pdfium.PdfDocument.new()
    for i, page_text in enumerate(pages):
        one = scangen.write_scanned_pdf(path.parent / f".page{i}.pdf", page_text)
        src = pdfium.PdfDocument(str(one))
        out.import_pages(src)
        src.close()
        one.unlink()
    out.save(str(path))
    out.close()


def test_cancel_kills_tesseract_keeps_finished_pages_and_the_next_scan_goes_on(
    tmp_path: Path, svc: DedupService, counted: Path
) -> None:
    root = tmp_path / "docs"
    root.mkdir()
    _write_pages(root / "book.pdf", ZH_PAGES)
    svc.update_settings(ocr=True)
    cancel = CancelToken()
    cancelled_at: list[float] = []

    slow = counted.parent / "bin" / "tesseract"
    # each OCR run sleeps 2 s before it becomes Tesseract: a wide window to be killed in
    slow.write_text(slow.read_text().replace("exec ", "sleep 2\nexec "))

    def progress(event: ProgressEvent) -> None:
        if event.ocr_page == 2 and not cancel.cancelled:  # page 1 is read and cached
            deadline = time.monotonic() + 10
            while len(runs(counted)) < 2 and time.monotonic() < deadline:
                time.sleep(0.02)  # page 2's OCR has started
            cancel.cancel()
            cancelled_at.append(time.monotonic())

    result: list = []
    thread = threading.Thread(
        target=lambda: result.append(svc.scan([root], progress=progress, cancel=cancel))
    )
    thread.start()
    thread.join(timeout=120)
    assert not thread.is_alive()
    assert result[0].cancelled
    assert time.monotonic() - cancelled_at[0] < 10  # the scan returned without page 2's end
    started = runs(counted)
    assert len(started) == 2  # page 1 done; page 2's OCR running when cancelled
    deadline = time.monotonic() + 1.0  # killed, not left to finish its page (2 s and more)
    while any(map(alive, started)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(map(alive, started)), "Tesseract outlived the cancelled scan"
    assert len(list(Path(ocr.cache_dir()).rglob("*.txt"))) == 1  # page 1 stays

    summary = svc.scan([root])  # page 1 from the cache; pages 2 and 3 read now
    assert summary.problems == [] and summary.files_fingerprinted == 1
    assert len(runs(counted)) == len(started) + 2
    assert len(list(Path(ocr.cache_dir()).rglob("*.txt"))) == 3


def test_cli_scan_ocr_flag_is_saved_with_save_and_warns_without_tesseract(tmp_path: Path) -> None:
    import subprocess
    import sys

    root = tmp_path / "docs"
    docgen.write_txt(root / "a.txt", docgen.SAMPLE_EN)
    db = tmp_path / "cli.sqlite3"

    def scan(*flags: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
        cmd = [sys.executable, "-m", "desktop_dedup", "scan", str(root), "--db", str(db), "-q"]
        return subprocess.run([*cmd, *flags], capture_output=True, text=True, timeout=180, env=env)

    def saved() -> bool:
        with DedupService(db) as s:
            return s.settings().ocr

    missing = {**os.environ, ocr.ENV_TESSERACT: str(tmp_path / "no-such-tesseract")}
    once = scan("--ocr", env=missing)  # this scan only (issue 8 item 4), and it warns
    assert once.returncode == 0 and saved() is False
    assert "warning: OCR is on, but Tesseract OCR is not installed" in once.stderr
    assert scan("--ocr", "--save").returncode == 0 and saved() is True
    assert scan().returncode == 0 and saved() is True  # kept, like the other saved settings
    warned = scan(env=missing)
    assert warned.returncode == 0
    assert "warning: OCR is on, but Tesseract OCR is not installed" in warned.stderr
    assert "warning" not in scan("--no-ocr", env=missing).stderr  # off for this scan
    assert saved() is True
    assert scan("--no-ocr", "--save").returncode == 0 and saved() is False


def test_a_poster_sized_page_is_rendered_within_the_pixel_cap() -> None:
    a4 = ocr.render_scale(595, 842)
    assert a4 == ocr.DPI / 72  # an ordinary page: the full resolution
    side = 14400.0  # the largest page PDF allows (200 inches)
    scale = ocr.render_scale(side, side)
    assert (side * scale) ** 2 <= ocr.MAX_PIXELS * 1.0001


def test_tesseract_failing_on_a_page_is_a_problem_and_the_scan_goes_on(
    tmp_path: Path, svc: DedupService, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = tmp_path / "bin" / "tesseract"
    broken.parent.mkdir()
    broken.write_text(
        "#!/bin/sh\n"
        'case "$1" in\n'
        '  --list-langs) printf "List of available languages (2):\\nchi_sim\\neng\\n";;\n'
        '  --version) echo "tesseract 9.9 (broken)";;\n'
        '  *) echo "Error: leptonica cannot read this image" >&2; exit 1;;\n'
        "esac\n"
    )
    broken.chmod(0o755)
    monkeypatch.setenv(ocr.ENV_TESSERACT, str(broken))
    monkeypatch.setenv("DESKTOP_DEDUP_HOME", str(tmp_path / "home"))
    root = tmp_path / "docs"
    scangen.write_scanned_pdf(root / "scan.pdf", ZH_PAGES[0])
    docgen.write_txt(root / "other.txt", docgen.SAMPLE_EN)
    svc.update_settings(ocr=True)
    summary = svc.scan([root])
    assert [(Path(p.path).name, p.reason) for p in summary.problems] == [
        ("scan.pdf", "OCR failed on page 1: Error: leptonica cannot read this image")
    ]
    assert summary.files_fingerprinted == 1
    assert not list(Path(ocr.cache_dir()).rglob("*.txt"))  # a failure is not cached


def test_cli_progress_bar_shows_the_ocr_page(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    monkeypatch.setenv("COLUMNS", "160")  # room for the whole name

    from desktop_dedup.cli import TerminalProgress

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    out = Terminal()
    bar = TerminalProgress(stream=out, enabled=True)
    bar(ProgressEvent("reading", 0, 3, "/docs/a.txt"))
    # within the bar's 0.1 s redraw interval, and shown all the same
    bar(ProgressEvent("reading", 1, 3, "/docs/scan.pdf", ocr_page=2, ocr_pages=7))
    screen = out.getvalue()
    bar.close()
    assert "scan.pdf (OCR page 2/7)" in screen


def test_words_hyphenated_at_the_line_ends_of_a_scanned_page_are_read_whole(
    tmp_path: Path, counted: Path
) -> None:
    """Tesseract writes a hyphen that ends a line as it is (``boat-`` / ``man``): joined, as
    those of a text layer are, unless the text writes the compound with its hyphen elsewhere."""
    text = (
        "The river town wakes slowly in spring, and the old bridge shows a faint arc while a "
        "boat-\u2028man pushes his long pole into the mud and glides beneath the arch; the slap "
        "of his oar echoes along the nar-\u2028row lanes and startles the swallows that nest "
        "under the eaves of the well-known tea houses. It is the old well-\u2028known rule."
    )
    pdf = scangen.write_scanned_pdf(tmp_path / "hyphenated-scan.pdf", text)
    with ocr.using(ocr.OcrOptions(enabled=True, engine=ocr.find_engine())):
        words = extract_text(pdf).text.split()
    assert runs(counted)  # Tesseract read it
    assert "boatman" in words and "narrow" in words, words
    assert words.count("well-known") == 2, words
    assert not any(w.endswith("-") for w in words), words
