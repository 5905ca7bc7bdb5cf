"""Domain settings (stored in the database): threshold, document types, excludes, min size.

The threshold is explained in plain words and the dialog shows how many groups it would yield
right now, so a user can try values before committing to them. That count regroups the whole
index in memory (seconds on 100,000 groups): with an OpRunner it runs on the reader thread,
after the user stops clicking, and only the answer for the value now shown is displayed.
"""

from __future__ import annotations

import logging
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from desktop_dedup.core import ocr
from desktop_dedup.core.models import (
    DEFAULT_EXTENSIONS,
    MAX_SUPPORTED_DISTANCE,
    MIN_SUPPORTED_SIMILARITY,
)
from desktop_dedup.gui.formatting import plural

log = logging.getLogger(__name__)


class SettingsDialog(QDialog):
    def __init__(self, service: Any, parent: QWidget | None = None, *, ops: Any = None):
        super().__init__(parent)
        self.setWindowTitle(self.tr("Settings"))
        self._service = service
        self._ops = ops
        settings = service.settings()

        self.similarity = QSpinBox()
        self.similarity.setRange(round(MIN_SUPPORTED_SIMILARITY * 100), 100)
        self.similarity.setValue(round(settings.min_similarity * 100))
        self.similarity.setSuffix(" %")
        self.similarity.setAccessibleName(self.tr("Similarity threshold"))
        # Advanced: the simhash radius of the candidate lookup, in bits.
        self.distance = QSpinBox()
        self.distance.setRange(0, MAX_SUPPORTED_DISTANCE)
        self.distance.setValue(settings.max_distance)
        self.distance.setAccessibleName(self.tr("Candidate search radius"))
        self.distance.setToolTip(
            self.tr(
                "Advanced. Candidates are looked up among documents whose 64-bit fingerprints "
                "differ in at most this many bits, then their text is compared. Larger finds "
                "more heavily edited copies and takes longer."
            )
        )
        self.explanation = QLabel()
        self.explanation.setWordWrap(True)
        self.group_count = QLabel()
        self.group_count.setAccessibleName(self.tr("Groups at this threshold"))

        self.extensions = QListWidget()
        self.extensions.setAccessibleName(self.tr("Document types"))
        chosen = set(settings.extensions)
        for ext in sorted(set(DEFAULT_EXTENSIONS) | chosen):
            item = QListWidgetItem("." + ext)
            item.setData(Qt.ItemDataRole.UserRole, ext)
            item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if ext in chosen else Qt.CheckState.Unchecked)
            self.extensions.addItem(item)
        self.extensions.setFlow(QListWidget.Flow.LeftToRight)
        self.extensions.setWrapping(True)
        self.extensions.setResizeMode(QListWidget.ResizeMode.Adjust)
        self.extensions.setMinimumHeight(90)

        self.excludes = QPlainTextEdit("\n".join(settings.exclude_globs))
        self.excludes.setAccessibleName(self.tr("Exclude patterns"))
        self.excludes.setToolTip(
            self.tr("One pattern per line, matched against each file and folder name (* and ?).")
        )
        self.text_extensions = QLineEdit(", ".join(settings.text_extensions))
        self.text_extensions.setAccessibleName(self.tr("Extensions read as text"))
        self.text_extensions.setToolTip(
            self.tr(
                "More extensions read as plain text, separated by commas (log, nfo). Files "
                "without an extension are read when their content is text."
            )
        )
        self.min_size = QSpinBox()
        self.min_size.setRange(0, 2_000_000_000)
        self.min_size.valueChanged.connect(self._count_bytes)
        self.min_size.setValue(int(settings.min_size))
        self._count_bytes(self.min_size.value())
        self.min_size.setAccessibleName(self.tr("Minimum file size"))

        # OCR of scanned PDF pages: offered only when Tesseract is installed.
        self.ocr = QCheckBox(self.tr("Read scanned PDF pages with OCR (slow: seconds per page)"))
        self.ocr.setAccessibleName(self.tr("OCR for scanned PDFs"))
        engine = ocr.find_engine()
        self.ocr.setChecked(bool(settings.ocr) and engine is not None)
        self.ocr.setEnabled(engine is not None)
        self.ocr_note = QLabel()
        self.ocr_note.setWordWrap(True)
        self.ocr_note.setTextFormat(Qt.TextFormat.PlainText)
        if engine is None:
            self.ocr_note.setText(
                self.tr(
                    "Tesseract OCR is not installed, so PDFs without a text layer are listed "
                    "as problems. Install Tesseract with the chi_sim and eng languages (Debian "
                    "and Ubuntu: tesseract-ocr, tesseract-ocr-chi-sim, tesseract-ocr-eng) to "
                    "turn this on."
                )
            )
        else:
            self.ocr_note.setText(
                self.tr(
                    "Uses {engine} with {languages}; read pages are kept, so it runs once."
                ).format(engine=engine.version, languages=", ".join(engine.languages))
            )
        self.ocr.setToolTip(self.ocr_note.text())

        form = QFormLayout()
        form.addRow(self.tr("Near duplicates share at least:"), self.similarity)
        form.addRow("", self.explanation)
        form.addRow("", self.group_count)
        form.addRow(self.tr("Candidate search radius (bits, advanced):"), self.distance)
        form.addRow(self.tr("Document types:"), self.extensions)
        form.addRow(self.tr("Also read as text:"), self.text_extensions)
        form.addRow(self.tr("Exclude patterns:"), self.excludes)
        form.addRow(self.tr("Minimum size:"), self.min_size)
        form.addRow(self.tr("Scanned PDFs:"), self.ocr)
        form.addRow("", self.ocr_note)

        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(buttons)
        self.resize(620, 560)

        # Counting groups touches the database: wait until the user stops clicking.
        self._count_timer = QTimer(self)
        self._count_timer.setSingleShot(True)
        self._count_timer.setInterval(150)
        self._count_timer.timeout.connect(self._update_count)
        self.similarity.valueChanged.connect(self._on_similarity_changed)
        self._on_similarity_changed(self.similarity.value())
        self._update_count()

    def explanation_for(self, percent: int) -> str:
        if percent >= 95:
            return self.tr(
                "At least {p} % of their text in common: only copies with trivial differences "
                "(another format, punctuation, line breaks, a changed number)."
            ).format(p=percent)
        if percent >= 80:
            return self.tr(
                "At least {p} % of their text in common: copies with a few edited words, a "
                "short passage cut or added, a title or banner, paragraphs in another order. "
                "This is the recommended range."
            ).format(p=percent)
        if percent >= 65:
            return self.tr(
                "At least {p} % of their text in common: looser; finds heavily revised "
                "versions, but also some different documents built from one template. Review "
                "groups carefully."
            ).format(p=percent)
        return self.tr(
            "At least {p} % of their text in common: very loose; groups may hold different "
            "documents that share much boilerplate. Not recommended for removing files."
        ).format(p=percent)

    def values(self) -> dict[str, Any]:
        """The settings as ``update_settings`` keyword arguments."""
        extensions = tuple(
            self.extensions.item(i).data(Qt.ItemDataRole.UserRole)
            for i in range(self.extensions.count())
            if self.extensions.item(i).checkState() == Qt.CheckState.Checked
        )
        excludes = tuple(
            line.strip() for line in self.excludes.toPlainText().splitlines() if line.strip()
        )
        values: dict[str, Any] = {
            "min_similarity": self.similarity.value() / 100,
            "max_distance": self.distance.value(),
            "extensions": extensions,
            "exclude_globs": excludes,
            "min_size": self.min_size.value(),
            "text_extensions": tuple(
                e.strip().lower().lstrip(".")
                for e in self.text_extensions.text().replace(";", ",").split(",")
                if e.strip().strip(".")
            ),
        }
        if self.ocr.isEnabled():  # not installed: the saved choice stays as it was
            values["ocr"] = self.ocr.isChecked()
        return values

    def _count_bytes(self, n: int) -> None:
        """The minimum size's unit, counted: "1 byte", "2048 bytes" (it read "1 bytes")."""
        self.min_size.setSuffix(plural(self.tr(" byte(s)", "", n), n))

    def apply(self) -> Any:
        """Write the settings through the service (which regroups when matching changed): on
        the writer thread with an OpRunner (the change hub then refreshes the window)."""
        values = self.values()
        if self._ops is not None:
            return self._ops.write(
                lambda service: service.update_settings(**values), label="settings"
            )
        return self._service.update_settings(**values)

    def _on_similarity_changed(self, percent: int) -> None:
        self.explanation.setText(self.explanation_for(percent))
        self.group_count.setText(self.tr("Counting groups…"))
        self._count_timer.start()

    def _update_count(self) -> None:
        percent = self.similarity.value()
        if self._ops is not None:
            self._ops.read(
                lambda service: service.count_groups_at(percent / 100),
                lambda count: self._show_count(percent, count),
                key="settings-preview",
                on_error=lambda message, _d: self._count_failed(percent, message),
                label="preview",
            )
            return
        try:
            count = self._service.count_groups_at(percent / 100)
        except Exception as exc:
            self._count_failed(percent, str(exc))
            return
        self._show_count(percent, count)

    def _count_failed(self, percent: int, message: str) -> None:
        log.warning("count_groups_at(%s %%) failed: %s", percent, message)
        self.group_count.setText("")

    def _show_count(self, percent: int, count: int) -> None:
        if percent != self.similarity.value():
            return  # an answer for a value no longer shown
        self.group_count.setText(
            plural(
                self.tr("At {p} %, the current results would form %n group(s).", "", count), count
            ).format(p=percent)
        )
