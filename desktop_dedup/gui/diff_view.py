"""Side-by-side diff of two documents' extracted text, in two synchronised panes.

The core computes the diff as data (aligned rows with word-level spans, ``core.diff``); this
widget only renders it. Each row becomes one text block in BOTH panes (a side with no line
gets an empty filler block), so block *n* on the left always faces block *n* on the right and
scrolling can be synchronised by block even with word wrap on.

Speed: a 1 MB text must open in well under a second, so the text goes in with one
``setPlainText`` and only the changed rows get formats applied afterwards, inside one edit
block; no HTML is built.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QEvent, QSignalBlocker, Qt, Signal
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFontDatabase,
    QPalette,
    QTextBlock,
    QTextBlockFormat,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
)
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QPlainTextDocumentLayout,
    QPlainTextEdit,
    QSizePolicy,
    QSplitter,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop_dedup.core.pathrules import shown as shown_path
from desktop_dedup.gui.formatting import format_similarity, plural
from desktop_dedup.gui.reasons import translate_reason

log = logging.getLogger(__name__)

# Tints mixed into the palette's own base colour, so the panes follow a light or a dark theme;
# the text keeps the palette's text colour and stays readable on them (tests check the contrast).
_TINTS = {
    "delete": QColor("#d9534f"),
    "insert": QColor("#2e9d4a"),
    "replace": QColor("#e0a800"),
}


@dataclass(frozen=True)
class DiffColours:
    """The backgrounds of one pane, derived from a palette."""

    line: dict[str, QColor]  # "delete" | "insert" | "replace" | "filler" -> line background
    word: QColor  # background of a changed word on this side
    current: QColor  # line background of the change being looked at


def _mix(base: QColor, tint: QColor, share: float) -> QColor:
    return QColor.fromRgbF(
        base.redF() * (1 - share) + tint.redF() * share,
        base.greenF() * (1 - share) + tint.greenF() * share,
        base.blueF() * (1 - share) + tint.blueF() * share,
    )


def diff_colours(palette: QPalette, side: str) -> DiffColours:
    """Line and word backgrounds for side ``"a"`` (reference: removed/changed words in red) or
    ``"b"`` (the other copy: added/changed words in green), from ``palette``'s base colour."""
    base = palette.color(QPalette.ColorRole.Base)
    text = palette.color(QPalette.ColorRole.Text)
    dark = base.lightnessF() < 0.5
    line_share, word_share = (0.22, 0.5) if dark else (0.12, 0.38)
    word_tint = _TINTS["delete"] if side == "a" else _TINTS["insert"]
    return DiffColours(
        line={tag: _mix(base, tint, line_share) for tag, tint in _TINTS.items()}
        | {"filler": _mix(base, text, 0.07)},
        word=_mix(base, word_tint, word_share),
        current=_mix(base, palette.color(QPalette.ColorRole.Highlight), 0.3 if dark else 0.2),
    )


_SEPARATORS = str.maketrans({"\n": " ", "\r": " ", "\u2029": " ", "\x0b": " ", "\x0c": " "})


def _utf16_len(text: str) -> int:
    """QTextDocument positions count UTF-16 code units (astral characters count twice)."""
    if text.isascii():
        return len(text)
    return len(text.encode("utf-16-le")) // 2


def _line_text(spans: Sequence[tuple[str, str]]) -> str:
    text = "".join(t for t, _ in spans)
    if text.endswith("\n"):
        text = text[:-1]
    if text.endswith("\r"):
        text = text[:-1]
    # Any separator left inside would split the block and break the row alignment.
    return text.translate(_SEPARATORS)


@dataclass(frozen=True)
class PaneText:
    """What one pane shows for a diff's rows: the text, one line per row (an empty line where
    the side has none), and the rows that are not equal: (row, tag or "filler", spans, line)."""

    text: str
    changed: list[tuple[int, str, Sequence[tuple[str, str]], str]]


def pane_text(rows: Sequence[Any], side: str) -> PaneText:
    """The :class:`PaneText` of ``rows`` for side "a" or "b": plain Python, so the app builds
    it on the thread that computed the diff."""
    lines: list[str] = []
    changed: list[tuple[int, str, Sequence[tuple[str, str]], str]] = []
    for i, row in enumerate(rows):
        lineno = row.a_lineno if side == "a" else row.b_lineno
        spans = row.a_spans if side == "a" else row.b_spans
        if lineno is None:
            lines.append("")
            if row.tag != "equal":  # an equal row: a blank line that only the other side has
                changed.append((i, "filler", (), ""))
            continue
        text = _line_text(spans)
        lines.append(text)
        if row.tag != "equal":
            changed.append((i, row.tag, spans, text))
    return PaneText("\n".join(lines), changed)


class ElidedLabel(QLabel):
    """A one-line label that shows as much of its text as fits, with an ellipsis in the middle
    (a file name at the start and the end of its folder stay visible); the whole text is its
    tooltip."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._full = ""
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)

    def setText(self, text: str) -> None:  # noqa: N802 - Qt's name
        self._full = text
        self._elide()

    def full_text(self) -> str:
        return self._full

    def resizeEvent(self, event: Any) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self._elide()

    def _elide(self) -> None:
        shown = self.fontMetrics().elidedText(
            self._full, Qt.TextElideMode.ElideMiddle, max(0, self.width() - 2)
        )
        super().setText(shown)
        if shown != self._full:
            self.setToolTip(self._full)


class DiffPane(QPlainTextEdit):
    """One read-only side; remembers which blocks are changes for highlighting."""

    def __init__(self, side: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.side = side
        self.setReadOnly(True)
        self.setUndoRedoEnabled(False)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse
            | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )
        self._font = QFontDatabase.systemFont(QFontDatabase.SystemFont.GeneralFont)
        self._font.setPointSizeF(max(self._font.pointSizeF(), 10.5))
        self._load_text("")
        self._current_row: int | None = None
        self._row_colours: dict[int, QColor | QBrush] = {}
        self._rows: Sequence[Any] = ()
        self.colours = diff_colours(self.palette(), side)

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            # A theme switch while a diff is open: repaint it in the new palette's colours.
            current = self._current_row
            self.colours = diff_colours(self.palette(), self.side)
            self.render_rows(self._rows)
            if current is not None:
                self.show_current_row(current)

    def render_rows(self, rows: Sequence[Any], prepared: PaneText | None = None) -> None:
        """Show ``rows``; ``prepared``: their :func:`pane_text` for this side, when it was
        built off the GUI thread (a 1 MB text's lines took a tenth of a second to join)."""
        self._rows = rows
        if prepared is None:
            prepared = pane_text(rows, self.side)
        self._current_row = None
        self._row_colours = {}
        self._load_text(prepared.text)
        if prepared.changed:
            self._apply_formats(prepared.changed)

    def _load_text(self, text: str) -> None:
        """Show ``text`` in a new, unformatted document.

        ``setPlainText`` on the old document gives the new text the character format under the
        cursor, and the cursor sits on the last highlighted change: the next comparison came up
        painted all over (issue 9). A fresh document carries nothing over.
        """
        old = self.document()
        # Qt deletes a document the editor created itself; ours (parented here) we delete.
        ours = old is not None and old.parent() is self
        doc = QTextDocument(self)
        doc.setDocumentLayout(QPlainTextDocumentLayout(doc))
        doc.setDefaultFont(self._font)
        doc.setUndoRedoEnabled(False)
        doc.setPlainText(text)
        self.setDocument(doc)
        self.setCurrentCharFormat(QTextCharFormat())
        if ours:
            old.deleteLater()

    def _apply_formats(
        self, changed: list[tuple[int, str, Sequence[tuple[str, str]], str]]
    ) -> None:
        doc = self.document()
        cursor = QTextCursor(doc)
        cursor.beginEditBlock()
        # Colour is never the only cue: on the reference side removed words are struck out and
        # changed ones underlined with dashes; on the other side changed or added words are
        # underlined; a side with no line there is hatched.
        formats = {}
        for tag in ("delete", "insert", "replace"):
            fmt = QTextCharFormat()
            fmt.setBackground(self.colours.word)
            if self.side == "a" and tag == "delete":
                fmt.setFontStrikeOut(True)
            elif self.side == "a":
                fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.DashUnderline)
            else:
                fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.SingleUnderline)
            formats[tag] = fmt
        block = doc.firstBlock()
        block_number = 0
        for row_index, tag, spans, text in changed:
            # Walk forward instead of findBlockByNumber: rows come in order.
            while block_number < row_index and block.isValid():
                block = block.next()
                block_number += 1
            if not block.isValid():
                break
            background: QColor | QBrush
            if tag == "filler":
                background = QBrush(self.colours.line["filler"], Qt.BrushStyle.BDiagPattern)
            else:
                background = self.colours.line.get(tag, self.colours.line["replace"])
            self._row_colours[row_index] = background
            block_format = QTextBlockFormat()
            block_format.setBackground(background)
            cursor.setPosition(block.position())
            cursor.setBlockFormat(block_format)
            if tag == "filler":
                continue
            start = block.position()
            limit = start + _utf16_len(text)
            offset = start
            for span_text, span_tag in spans:
                length = _utf16_len(span_text)
                if span_tag != "equal" and span_text.strip() and offset < limit:
                    cursor.setPosition(offset)
                    cursor.setPosition(min(offset + length, limit), QTextCursor.MoveMode.KeepAnchor)
                    cursor.mergeCharFormat(formats.get(span_tag, formats["replace"]))
                offset += length
        cursor.endEditBlock()

    def show_current_row(self, row: int | None) -> None:
        """Give the current change a stronger line background and scroll it to the middle.

        A block background is painted beneath the word highlights, so the changed words stay
        visible (an extra selection would paint over them).
        """
        doc = self.document()
        if self._current_row is not None:
            previous = doc.findBlockByNumber(self._current_row)
            if previous.isValid():
                self._set_block_background(previous, self._row_colours.get(self._current_row))
        self._current_row = None
        if row is None:
            return
        block = doc.findBlockByNumber(row)
        if not block.isValid():
            return
        self._set_block_background(block, self.colours.current)
        self._current_row = row
        self.setTextCursor(QTextCursor(block))
        self.centerCursor()

    def _set_block_background(self, block: QTextBlock, colour: QColor | QBrush | None) -> None:
        cursor = QTextCursor(block)
        block_format = QTextBlockFormat()
        if colour is None:
            block_format.clearBackground()
        else:
            block_format.setBackground(colour)
        cursor.setBlockFormat(block_format)


class DiffView(QWidget):
    """Two panes, change navigation, similarity, swap sides, ignore whitespace/punctuation."""

    #: Emitted after a diff was rendered: (similarity, number of changes).
    rendered = Signal(float, int)
    #: Emitted when the user swapped sides: the new (left doc id, right doc id).
    swapped = Signal(int, int)
    #: Emitted when a diff could not be computed (a file gone or unreadable): the message.
    failed = Signal(str)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._service: Any = None
        self._ops: Any = None  # an OpRunner: diffs are then computed off the GUI thread
        self._shown: tuple[Any, ...] | None = None  # (docs, ignore option) of the result shown
        self._docs: tuple[int, int] | None = None
        self._paths: tuple[str, str] = ("", "")
        self._reference_left = True
        self._first_role: str | None = None  # the left side's role, when not "Reference"
        self._result: Any = None
        self._current_change: int | None = None
        self._syncing = False

        self.left_title = ElidedLabel()
        self.right_title = ElidedLabel()
        for label in (self.left_title, self.right_title):
            font = label.font()
            font.setBold(True)
            label.setFont(font)
        self.left_pane = DiffPane("a")
        self.right_pane = DiffPane("b")
        self.left_pane.setAccessibleName(self.tr("Reference text"))
        self.right_pane.setAccessibleName(self.tr("Compared text"))

        self.previous_button = self._tool_button(self.tr("Previous change"), "previous")
        self.next_button = self._tool_button(self.tr("Next change"), "next")
        self.swap_button = self._tool_button(self.tr("Swap sides"), "swap")
        self.ignore_box = QCheckBox(self.tr("Ignore spaces and punctuation"))
        self.ignore_box.setToolTip(
            self.tr("Differences in whitespace and punctuation are not shown as changes")
        )
        self.similarity_label = QLabel()
        self.similarity_label.setAccessibleName(self.tr("Similarity"))
        self.change_label = QLabel()
        self.previous_button.clicked.connect(self.previous_change)
        self.next_button.clicked.connect(self.next_change)
        self.swap_button.clicked.connect(self.swap_sides)
        self.ignore_box.toggled.connect(self._recompute)

        bar = QHBoxLayout()
        bar.setContentsMargins(0, 0, 0, 0)
        for w in (self.previous_button, self.next_button, self.change_label, self.swap_button):
            bar.addWidget(w)
        bar.addWidget(self.ignore_box)
        bar.addStretch(1)
        bar.addWidget(self.similarity_label)

        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.addWidget(self.left_title)
        left_layout.addWidget(self.left_pane)
        right = QWidget()
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.addWidget(self.right_title)
        right_layout.addWidget(self.right_pane)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(left)
        self.splitter.addWidget(right)
        self.splitter.setChildrenCollapsible(False)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(bar)
        layout.addWidget(self.splitter, 1)

        self.left_pane.verticalScrollBar().valueChanged.connect(
            lambda _v: self._sync(self.left_pane, self.right_pane)
        )
        self.right_pane.verticalScrollBar().valueChanged.connect(
            lambda _v: self._sync(self.right_pane, self.left_pane)
        )
        self.clear()

    def _tool_button(self, text: str, icon_name: str) -> QToolButton:
        button = QToolButton()
        button.setText(text)
        button.setToolTip(text)
        button.setAccessibleName(text)
        button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        try:
            from desktop_dedup.resources import icon

            button_icon = icon(icon_name)
            if not button_icon.isNull():
                # Icon only keeps the bar narrow enough for the panes to share the window;
                # the text stays as tooltip and accessible name.
                button.setIcon(button_icon)
                button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonIconOnly)
        except Exception:  # icons are decoration; a missing one must not break the view
            log.debug("no icon %s", icon_name)
        return button

    # -- public API --------------------------------------------------------------------------
    @property
    def result(self) -> Any:
        """The DiffResult on screen (None when empty)."""
        return self._result

    @property
    def documents(self) -> tuple[int, int] | None:
        """(left doc id, right doc id) on screen."""
        return self._docs

    @property
    def current_change(self) -> int | None:
        """Index into ``result.change_rows`` of the highlighted change."""
        return self._current_change

    @property
    def reference_on_left(self) -> bool:
        return self._reference_left

    def set_ops(self, ops: Any) -> None:
        """Compute diffs through ``ops`` (a :class:`~desktop_dedup.gui.ops.OpRunner`)."""
        self._ops = ops

    def clear(self) -> None:
        """Nothing to compare: "Select a group to compare its files"."""
        self.show_message(self.tr("Select a group to compare its files"))

    def show_message(self, text: str) -> None:
        """Nothing to compare, and ``text`` (why, or what to do) in the left pane, wrapped to
        its width and whole: a pane's title is one line, elided in the middle as its path is,
        which cut a hint at 1280 x 800 to "Add a folder on…hen press Scan."."""
        self._docs = None
        self._result = None
        self._shown = None
        self._current_change = None
        self.left_pane.render_rows([])
        self.right_pane.render_rows([])
        self.left_title.setText("")
        self.right_title.setText("")
        self._say(text)
        self.similarity_label.setText("")
        self.similarity_label.setToolTip("")
        self.change_label.setText("")
        self._update_buttons()

    def message(self) -> str:
        """What the panes say when they compare nothing (:meth:`show_message`), else ""."""
        return self.left_pane.placeholderText()

    def _say(self, text: str) -> None:
        self.left_pane.setPlaceholderText(text)

    def compare(
        self,
        service: Any,
        doc_a: int,
        path_a: str,
        doc_b: int,
        path_b: str,
        *,
        first_role: str | None = None,
    ) -> None:
        """Show the reference ``doc_a`` on the left against ``doc_b`` on the right.
        ``first_role``: what ``doc_a`` is called when it is not the group's reference (the
        member a document close to the group is closest to)."""
        if (
            self._shown == ((doc_a, doc_b), self.ignore_box.isChecked())
            and self._result is not None
            and self._reference_left
            and self._first_role == first_role
        ):
            return  # already on screen (a filter cleared re-selects the same pair)
        self._first_role = first_role
        self._service = service
        self._docs = (doc_a, doc_b)
        self._paths = (path_a, path_b)
        self._reference_left = True
        self._recompute()

    def swap_sides(self) -> None:
        if self._docs is None:
            return
        self._docs = (self._docs[1], self._docs[0])
        self._paths = (self._paths[1], self._paths[0])
        self._reference_left = not self._reference_left
        self._recompute()
        self.swapped.emit(*self._docs)

    def next_change(self) -> None:
        rows = self._change_rows()
        if not rows:
            return
        if self._current_change is None:
            self._go_to_change(0)
        elif self._current_change + 1 < len(rows):
            self._go_to_change(self._current_change + 1)

    def previous_change(self) -> None:
        rows = self._change_rows()
        if not rows:
            return
        if self._current_change is None:
            self._go_to_change(len(rows) - 1)
        elif self._current_change > 0:
            self._go_to_change(self._current_change - 1)

    def show_result(
        self,
        result: Any,
        path_a: str,
        path_b: str,
        prepared: tuple[PaneText, PaneText] | None = None,
    ) -> None:
        """Render an already computed DiffResult (also used by :meth:`compare`); ``prepared``:
        the left and right panes' :func:`pane_text`, when built off the GUI thread."""
        self._result = result
        self._paths = (path_a, path_b)
        self._say("")  # an empty document's pane is empty, not a message
        left_role, right_role = self._roles()
        # The file name first: long folders are cut at the end, the name never is.
        self.left_title.setText(self._title(left_role, path_a))
        self.right_title.setText(self._title(right_role, path_b))
        self.left_title.setToolTip(path_a)
        self.right_title.setToolTip(path_b)
        with (
            QSignalBlocker(self.left_pane.verticalScrollBar()),
            QSignalBlocker(self.right_pane.verticalScrollBar()),
        ):
            left, right = prepared if prepared is not None else (None, None)
            self.left_pane.render_rows(result.rows, left)
            self.right_pane.render_rows(result.rows, right)
        self._current_change = None
        self._show_similarity(result)
        changes = len(result.change_rows)
        self.change_label.setText(
            plural(self.tr("%n change(s)", "", changes), changes)
            if changes
            else self.tr("No changes")
        )
        self._update_buttons()
        if changes:
            self._go_to_change(0)
        self.rendered.emit(float(result.similarity), changes)

    # -- internals ---------------------------------------------------------------------------
    def _show_similarity(self, result: Any) -> None:
        """The figure, and when a rule made it 0 for two files that look alike, why: in a
        word beside it, in full in its tooltip (the diff command prints the same)."""
        text = self.tr("Similarity: {value}").format(value=format_similarity(result.similarity))
        why = ""
        if getattr(result, "swapped", None):
            first, second = result.swapped
            text += " " + self.tr("(two pages of one template)")
            why = self.tr(
                "Taken for two documents: “{first}” recurs in one and seldom or never in the "
                "other, “{second}” the other way round, as in two pages of one template that "
                "name two things."
            ).format(first=first, second=second)
        elif getattr(result, "boilerplate", False):
            text += " " + self.tr("(only boilerplate in common)")
            why = self.tr(
                "Taken for two documents: what they share is text that many other documents "
                "of the index hold too (a disclaimer, a template's lines), and without it each "
                "is a text of its own."
            )
        self.similarity_label.setText(text)
        self.similarity_label.setToolTip(why)

    def _roles(self) -> tuple[str, str]:
        """What the left and the right pane show: the reference (or the first document's own
        role) and the document compared with it, either way round."""
        first = self._first_role or self.tr("Reference")
        other = self.tr("Compared")
        return (first, other) if self._reference_left else (other, first)

    def retitle(self) -> None:
        """Both titles again, as the paths are shown now (a name read in its code page)."""
        if any(self._paths):
            left_role, right_role = self._roles()
            self.left_title.setText(self._title(left_role, self._paths[0]))
            self.right_title.setText(self._title(right_role, self._paths[1]))

    def _title(self, role: str, path: str) -> str:
        folder, name = os.path.split(shown_path(path))
        return self.tr("{role}: {name}  —  {folder}").format(role=role, name=name, folder=folder)

    def _change_rows(self) -> list[int]:
        return list(self._result.change_rows) if self._result is not None else []

    def _recompute(self) -> None:
        if self._docs is None or self._service is None:
            return
        docs, paths, ignore = self._docs, self._paths, self.ignore_box.isChecked()
        if self._ops is None:
            result = self._service.diff(docs[0], docs[1], ignore_whitespace_punct=ignore)
            self._shown = (docs, ignore)
            self.show_result(result, *paths)
            return
        # Off the GUI thread (the reader's service keeps the last texts extracted, so a swap or
        # the checkbox does not read the files again); until it arrives the panes are empty and
        # say so, never showing one pair's text under another pair's titles.
        self._result = None
        self._shown = None
        self._current_change = None
        self.left_pane.render_rows([])
        self.right_pane.render_rows([])
        self._say("")
        left_role, right_role = self._roles()
        self.left_title.setText(self._title(left_role, paths[0]))
        self.right_title.setText(self._title(right_role, paths[1]))
        self.similarity_label.setText("")
        self.similarity_label.setToolTip("")
        self.change_label.setText(self.tr("Comparing…"))
        self._update_buttons()

        def diff(service: Any) -> tuple[Any, tuple[PaneText, PaneText]]:
            result = service.diff(docs[0], docs[1], ignore_whitespace_punct=ignore)
            return result, (pane_text(result.rows, "a"), pane_text(result.rows, "b"))

        def done(computed: tuple[Any, tuple[PaneText, PaneText]]) -> None:
            if (self._docs, self.ignore_box.isChecked()) == (docs, ignore):
                self._shown = (docs, ignore)
                self.show_result(computed[0], *paths, prepared=computed[1])

        def failed(message: str, _details: str) -> None:
            if self._docs != docs:
                return
            log.warning("diff failed: %s", message)
            shown = translate_reason(message)  # the core's words, in the interface language
            self.show_message(self.tr("Cannot compare: {error}").format(error=shown))
            self.failed.emit(message)

        self._ops.read(
            diff,
            done,
            on_error=failed,
            key="diff",
            label="diff",
        )

    def _go_to_change(self, index: int) -> None:
        rows = self._change_rows()
        if not 0 <= index < len(rows):
            return
        self._current_change = index
        row = rows[index]
        self._syncing = True
        try:
            self.left_pane.show_current_row(row)
            self.right_pane.show_current_row(row)
        finally:
            self._syncing = False
        self.change_label.setText(
            self.tr("Change {index} of {count}").format(index=index + 1, count=len(rows))
        )
        self._update_buttons()
        # Each pane centred the row on its own; the right one then faces the left one block for
        # block (centring twice could leave them a line apart once the labels were laid out).
        self._sync(self.left_pane, self.right_pane)

    def _update_buttons(self) -> None:
        rows = self._change_rows()
        current = self._current_change
        self.next_button.setEnabled(bool(rows) and (current is None or current + 1 < len(rows)))
        self.previous_button.setEnabled(bool(rows) and (current is None or current > 0))
        self.swap_button.setEnabled(self._docs is not None)

    def _sync(self, source: DiffPane, target: DiffPane) -> None:
        """Keep the facing block on top of the other pane (rows align block for block)."""
        if self._syncing:
            return
        self._syncing = True
        try:
            top = source.firstVisibleBlock()
            if not top.isValid():
                return
            facing = target.document().findBlockByNumber(top.blockNumber())
            if not facing.isValid():
                return
            wrapped_offset = source.verticalScrollBar().value() - top.firstLineNumber()
            wrapped_offset = max(0, min(wrapped_offset, max(0, facing.lineCount() - 1)))
            target.verticalScrollBar().setValue(facing.firstLineNumber() + wrapped_offset)
        finally:
            self._syncing = False
