"""The OCR setting in the settings dialog, and OCR pages in the progress panel (issue 10)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from desktop_dedup.core import ocr
from desktop_dedup.core.progress import ProgressEvent
from desktop_dedup.core.service import DedupService
from desktop_dedup.gui.progress_panel import ProgressPanel
from desktop_dedup.gui.settings_dialog import SettingsDialog
from desktop_dedup.gui.tasks import ThrottledSink


@pytest.fixture
def service(tmp_path):
    with DedupService(tmp_path / "index.sqlite3") as s:
        yield s


def test_ocr_checkbox_saves_the_setting_when_tesseract_is_installed(qtbot, service) -> None:
    engine = ocr.find_engine()
    if engine is None:
        pytest.skip("Tesseract is not installed (packaging/bootstrap.sh installs it)")
    dialog = SettingsDialog(service)
    qtbot.addWidget(dialog)
    assert dialog.ocr.isEnabled() and not dialog.ocr.isChecked()  # off by default
    assert engine.version in dialog.ocr_note.text()
    dialog.ocr.setChecked(True)
    dialog.apply()
    assert service.settings().ocr is True
    reopened = SettingsDialog(service)
    qtbot.addWidget(reopened)
    assert reopened.ocr.isChecked()


def test_ocr_checkbox_is_disabled_with_the_reason_when_tesseract_is_missing(
    qtbot, service, tmp_path, monkeypatch
) -> None:
    monkeypatch.setenv(ocr.ENV_TESSERACT, str(tmp_path / "no-such-tesseract"))
    service.update_settings(ocr=True)  # chosen on a machine that had it
    dialog = SettingsDialog(service)
    qtbot.addWidget(dialog)
    assert not dialog.ocr.isEnabled() and not dialog.ocr.isChecked()
    assert "not installed" in dialog.ocr_note.text()
    assert "tesseract-ocr-chi-sim" in dialog.ocr_note.text()
    dialog.apply()
    assert service.settings().ocr is True  # the choice is kept for when it is installed


def test_progress_panel_shows_the_ocr_page(qtbot) -> None:
    panel = ProgressPanel()
    qtbot.addWidget(panel)
    panel.start("Scanning…")
    panel.update_event(
        ProgressEvent("reading", 3, 10, "/docs/scan.pdf", 0, ocr_page=2, ocr_pages=7)
    )
    assert panel.current_label.toolTip() == "/docs/scan.pdf  (OCR: page 2 of 7)"
    panel.update_event(ProgressEvent("reading", 4, 10, "/docs/next.txt", 0))
    assert panel.current_label.toolTip() == "/docs/next.txt"


def test_throttled_sink_never_holds_back_an_ocr_page() -> None:
    sent = []
    sink = ThrottledSink(sent.append, interval=10.0)
    sink(ProgressEvent("reading", 1, 2, "/a.txt"))
    sink(ProgressEvent("reading", 1, 2, "/b.pdf", ocr_page=1, ocr_pages=3))
    assert [e.ocr_page for e in sent] == [0, 1]


def test_ocr_reasons_are_translated(qapp) -> None:
    import re

    from desktop_dedup import i18n
    from desktop_dedup.core import workers
    from desktop_dedup.gui.reasons import translate_reason

    repo = Path(__file__).resolve().parents[2]
    venv = Path(sys.executable).parent.parent
    subprocess.run([str(repo / "packaging" / "build_resources.sh"), str(venv)], check=True)
    assert i18n.install_translator(qapp, "zh_CN") == "zh_CN"
    try:
        budget = workers.Budget()
        reasons = [
            ocr.REASON_OCR_OFF,
            ocr.REASON_OCR_OFF_NOT_INSTALLED,
            ocr.REASON_OCR_NOT_INSTALLED,
            "scanned, OCR found no text",
            "OCR failed on page 3: Error in pixReadMem",
            budget.ocr_time_reason(3, 12, whole_file=False),
            budget.ocr_time_reason(3, 12, whole_file=True),
        ]
        for reason in reasons:
            shown = translate_reason(reason)
            assert shown != reason and re.search(r"[\u4e00-\u9fff]", shown), reason
        assert "Error in pixReadMem" in translate_reason(reasons[4])  # the detail is kept
        assert "15 min" in translate_reason(reasons[6])
    finally:
        i18n.install_translator(qapp, "en")
