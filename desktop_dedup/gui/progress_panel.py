"""Scan/removal progress: stage, files done of total, current file, rate, time left, Cancel."""

from __future__ import annotations

import time
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QGridLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QWidget,
)

from desktop_dedup.core.pathrules import shown as shown_path
from desktop_dedup.gui.formatting import format_duration, format_size, plural, stage_label


class ProgressPanel(QWidget):
    """Shown while a task runs. Cancel asks nothing: stopping early never loses work."""

    cancelRequested = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.stage_label = QLabel()
        font = self.stage_label.font()
        font.setBold(True)
        self.stage_label.setFont(font)
        self.bar = QProgressBar()
        self.bar.setAccessibleName(self.tr("Progress"))
        self.count_label = QLabel()
        self.rate_label = QLabel()
        self.current_label = QLabel()
        self.current_label.setTextFormat(Qt.TextFormat.PlainText)
        self.current_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        # Why a rescan reads files that did not change (after an update): shown while it does
        self.note_label = QLabel()
        self.note_label.setWordWrap(True)
        self.note_label.setVisible(False)
        self.cancel_button = QPushButton(self.tr("Cancel"))
        self.cancel_button.setAccessibleName(self.tr("Cancel the running task"))
        self.cancel_button.clicked.connect(self._on_cancel)
        try:
            from desktop_dedup.resources import icon

            self.cancel_button.setIcon(icon("cancel"))
        except Exception:
            pass

        grid = QGridLayout(self)
        grid.setContentsMargins(8, 4, 8, 4)
        grid.addWidget(self.stage_label, 0, 0)
        grid.addWidget(self.bar, 0, 1)
        grid.addWidget(self.count_label, 0, 2)
        grid.addWidget(self.cancel_button, 0, 3, 2, 1)
        grid.addWidget(self.current_label, 1, 0, 1, 2)
        grid.addWidget(self.rate_label, 1, 2)
        grid.addWidget(self.note_label, 2, 0, 1, 3)
        grid.setColumnStretch(1, 1)

        self._stage: str | None = None
        self._stage_start = 0.0
        self._stage_done0 = 0
        self._stage_bytes0 = 0
        self._full_current = ""
        self.last_event: Any = None
        self.setVisible(False)

    def start(self, title: str) -> None:
        self._stage = None
        self.last_event = None
        self.stage_label.setText(title)
        self.bar.setRange(0, 0)  # busy until the first count arrives
        self.count_label.setText("")
        self.rate_label.setText("")
        self.current_label.setText("")
        self.note_label.setVisible(False)
        self.cancel_button.setEnabled(True)
        self.cancel_button.setText(self.tr("Cancel"))
        self.setVisible(True)

    def finish(self) -> None:
        self.setVisible(False)

    def update_event(self, event: Any) -> None:
        """Show one ProgressEvent (already throttled by the worker)."""
        now = time.monotonic()
        self.last_event = event
        if event.stage != self._stage:
            self._stage = event.stage
            self._stage_start = now
            self._stage_done0 = event.done
            self._stage_bytes0 = event.bytes_done
        self.stage_label.setText(stage_label(event.stage))
        again = getattr(event, "again", 0)
        if again:
            self.note_label.setText(
                plural(
                    self.tr(
                        "Reading %n unchanged file(s) again: this version of the app reads "
                        "documents differently.",
                        "",
                        again,
                    ),
                    again,
                )
            )
        self.note_label.setVisible(bool(again))
        if event.total:
            self.bar.setRange(0, int(event.total))
            self.bar.setValue(min(int(event.done), int(event.total)))
            self.count_label.setText(
                plural(self.tr("{done} of %n file(s)", "", event.total), event.total).format(
                    done=event.done
                )
            )
        else:
            self.bar.setRange(0, 0)
            self.count_label.setText(plural(self.tr("%n file(s)", "", event.done), event.done))
        self._full_current = shown_path(event.current or "")
        if getattr(event, "ocr_page", 0):  # OCR: seconds per page, so the page is shown
            self._full_current += "  " + self.tr("(OCR: page {page} of {pages})").format(
                page=event.ocr_page, pages=event.ocr_pages
            )
        self.current_label.setToolTip(self._full_current)
        self._elide_current()
        elapsed = now - self._stage_start
        done = event.done - self._stage_done0
        if elapsed >= 0.5 and done > 0:
            rate = done / elapsed
            parts = [self.tr("{rate:.0f} files/s").format(rate=rate)]
            byte_rate = (event.bytes_done - self._stage_bytes0) / elapsed
            if byte_rate > 0:
                parts.append(self.tr("{size}/s").format(size=format_size(int(byte_rate))))
            if event.total and event.done < event.total:
                remaining = (event.total - event.done) / rate
                parts.append(self.tr("about {time} left").format(time=format_duration(remaining)))
            self.rate_label.setText(" · ".join(parts))
        else:
            self.rate_label.setText("")

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        self._elide_current()

    def _elide_current(self) -> None:
        width = max(50, self.current_label.width())
        metrics = self.current_label.fontMetrics()
        self.current_label.setText(
            metrics.elidedText(self._full_current, Qt.TextElideMode.ElideMiddle, width)
        )

    def _on_cancel(self) -> None:
        self.cancel_button.setEnabled(False)
        self.cancel_button.setText(self.tr("Stopping…"))
        self.cancelRequested.emit()
