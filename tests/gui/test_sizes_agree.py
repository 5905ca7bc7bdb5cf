"""Every face writes a size by the core's one rule (issue 8: "one size formatter"): the CLI's
summary, the HTML report and the app's status bar, group list and member table show the same
text for the same bytes. Before, the same 20,000 bytes were "19.5 KB" (CLI), "19.5 KiB" (HTML
report) and "19.5 kB" (app)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import docgen  # noqa: E402
from clirun import cli  # noqa: E402
from gui_helpers import make_test_trash  # noqa: E402
from PySide6.QtCore import QSettings, Qt  # noqa: E402

from desktop_dedup.core.service import DedupService  # noqa: E402
from desktop_dedup.gui.main_window import MainWindow  # noqa: E402
from desktop_dedup.gui.models.groups import COL_RECLAIMABLE  # noqa: E402
from desktop_dedup.gui.models.members import COL_SIZE  # noqa: E402

SIZE = 20_000
# 20,000 / 1,024 = 19.53: 1024-based, one decimal, labelled KB (1000-based would be "20 KB")
SHOWN = "19.5 KB"


def test_cli_html_report_and_app_show_one_size_text(qtbot, tmp_path: Path, scripted_dialogs):
    text = (docgen.SAMPLE_EN + "\n") * (SIZE // len(docgen.SAMPLE_EN) + 1)
    data = text.encode("ascii")[:SIZE]
    docs = tmp_path / "docs"
    docs.mkdir()
    for name in ("a.txt", "b.txt"):
        (docs / name).write_bytes(data)  # one group of two identical copies: SIZE reclaimable
    db = tmp_path / "db.sqlite3"

    scan = cli("scan", str(docs), "--db", str(db), "--quiet", "--workers", "1")
    assert scan.returncode == 0, scan.stderr
    assert f"1 duplicate group, 2 documents, {SHOWN} reclaimable" in scan.stdout

    report = cli("report", "--db", str(db), "--format", "html")
    assert report.returncode == 0, report.stderr
    html = report.stdout
    assert f"<dd>{SHOWN} ({SIZE} bytes)</dd>" in html  # the summary
    assert f"2 documents, {SHOWN} reclaimable</h2>" in html  # the group's heading
    assert html.count(f'title="{SIZE} bytes">{SHOWN}</td>') == 2  # each copy's size

    with DedupService(db) as service:
        window = MainWindow(
            service,
            trash=make_test_trash(tmp_path / "trash"),
            settings=QSettings(str(tmp_path / "window.ini"), QSettings.Format.IniFormat),
        )
        qtbot.addWidget(window)
        window.show()
        try:
            assert window.ops.wait_idle(60_000)
            qtbot.waitUntil(lambda: "reclaimable" in window.status_label.text(), timeout=30_000)
            assert f"{SHOWN} reclaimable" in window.status_label.text()
            groups = window.groups_model
            assert groups.rowCount() == 1
            shown = groups.data(groups.index(0, COL_RECLAIMABLE), Qt.ItemDataRole.DisplayRole)
            assert shown == SHOWN
            qtbot.waitUntil(lambda: window.members_model.rowCount() == 2, timeout=30_000)
            members = window.members_model
            sizes = [
                members.data(members.index(row, COL_SIZE), Qt.ItemDataRole.DisplayRole)
                for row in range(2)
            ]
            assert sizes == [SHOWN, SHOWN]
        finally:
            window.tasks.wait(30_000)
            window.close()
