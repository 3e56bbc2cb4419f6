"""The diff views `diff_view_choice` measures besides the shipped one: a `QPlainTextEdit` with a
`QSyntaxHighlighter` (on the GUI thread, on a worker, in two batches), and the rows view without its
layout caches. Prototypes for a measurement, not parts of the app."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from enum import Enum

from PySide6.QtCore import (
    QObject,
    QRunnable,
    QSize,
    Qt,
    QThreadPool,
    Signal,
    SignalInstance,
)
from PySide6.QtGui import QFont, QSyntaxHighlighter, QTextCharFormat, QTextCursor, QTextDocument, QTextLayout
from PySide6.QtWidgets import QPlainTextEdit, QStyleOptionViewItem

from app.diff.stream import DiffStream, Fold, InlineLine, ViewRow
from app.diff.style import LIGHT_COLORS, SpanKind, StyledText, styled_line
from ui.diff.row_delegate import AnyIndex, DiffRowDelegate, _formats
from ui.diff.rows import ROW_ROLE, Item
from ui.diff.view import DiffView
from ui.widgets.long_text import wrap_mode

SIZE = (700, 900)  # the diff panel's size in `measure_gui.diff_panel`
Spans = tuple[tuple[int, int, SpanKind], ...]


# The prototype


def styled_rows(rows: Iterable[ViewRow]) -> list[StyledText]:
    """Inline rows as the rows view shows them (same styling); a fold as its label line."""
    lines: list[StyledText] = []
    for row in rows:
        if isinstance(row, Fold):
            lines.append(StyledText(row.label, ()))
        elif isinstance(row, InlineLine):
            lines.append(styled_line(row.ops))
    return lines


def inline_lines(old: str, new: str) -> list[StyledText]:
    """Every line of the inline diff, computed whole."""
    return styled_rows(DiffStream(old, new, side_by_side=False).rest())


class _DiffHighlighter(QSyntaxHighlighter):
    """Gives block N the spans of inline line N."""

    def __init__(self, document: QTextDocument) -> None:
        super().__init__(document)
        self.spans: list[Spans] = []
        self._formats: dict[SpanKind, QTextCharFormat] = _formats(LIGHT_COLORS)

    def highlightBlock(self, text: str) -> None:
        number = self.currentBlock().blockNumber()
        if number < len(self.spans):
            for start, end, kind in self.spans[number]:
                self.setFormat(start, end - start, self._formats[kind])


class _Relay(QObject):
    """Results of the jobs, delivered on the GUI thread: token, (what was computed, seconds it took)."""

    whole = Signal(object, object)  # the lines
    first = Signal(object, object)  # (the first screen's lines, the stream for the rest)
    rest = Signal(object, object)  # the lines after the first screen


class _Job(QRunnable):
    """Runs `work` on the thread pool and emits its result with `token` and its duration."""

    def __init__(self, work: Callable[[], object], deliver: SignalInstance, token: int) -> None:
        super().__init__()
        self._work, self._deliver, self._token = work, deliver, token

    def run(self) -> None:
        start = time.perf_counter()
        outcome = self._work()
        self._deliver.emit(self._token, (outcome, time.perf_counter() - start))


class PlainMode(Enum):
    SAME_THREAD = "plain"  # computed whole on the GUI thread
    WORKER = "plain, worker"  # computed whole on the thread pool
    STREAMED = "plain, 2 batches"  # a first screen of lines, then the rest appended, both on the pool


class PlainDiff(QPlainTextEdit):
    """The prototype: the inline diff as one plain text, colored by a highlighter."""

    def __init__(self, mode: PlainMode) -> None:
        super().__init__()
        self.setReadOnly(True)
        flags = Qt.TextInteractionFlag.TextSelectableByMouse | Qt.TextInteractionFlag.TextSelectableByKeyboard
        self.setTextInteractionFlags(flags)  # keys move a cursor (Ctrl+End), as in a diff viewer
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)  # as the rows view
        self.highlighter = _DiffHighlighter(self.document())
        self.mode = mode
        self.split: tuple[float, float] = (0.0, 0.0)  # seconds: computing the first lines, setting them
        self.token = 0  # of the newest request
        self.shown = 0  # of the request whose (first) text is set
        self.whole = 0  # of the request whose whole text is set
        self.whole_at = 0.0  # perf_counter() when it was
        self._relay = _Relay(self)
        self._relay.whole.connect(self._set_whole)
        self._relay.first.connect(self._set_first)
        self._relay.rest.connect(self._append_rest)

    def show_texts(self, old: str, new: str) -> int:
        self.token += 1
        if self.mode is PlainMode.SAME_THREAD:
            start = time.perf_counter()
            lines = inline_lines(old, new)
            self._set_whole(self.token, (lines, time.perf_counter() - start))
        elif self.mode is PlainMode.WORKER:
            self._start(lambda: inline_lines(old, new), self._relay.whole)
        else:
            screen, chars = self._screen()

            def first() -> tuple[list[StyledText], DiffStream]:
                stream = DiffStream(old, new, side_by_side=False)
                return styled_rows(stream.take_screen(screen, chars)), stream

            self._start(first, self._relay.first)
        return self.token

    def _start(self, work: Callable[[], object], deliver: SignalInstance) -> None:
        QThreadPool.globalInstance().start(_Job(work, deliver, self.token))

    def _screen(self) -> tuple[int, int]:
        """(lines, characters per line) on screen, as `DiffView._screen` counts them."""
        metrics, viewport = self.fontMetrics(), self.viewport()
        return viewport.height() // max(1, metrics.height()) + 1, viewport.width() // max(
            1, metrics.averageCharWidth()
        )

    def _set(self, token: int, lines: list[StyledText], computing: float) -> None:
        start = time.perf_counter()
        text = "\n".join(line.text for line in lines)
        self.highlighter.spans = [line.spans for line in lines]
        self.setWordWrapMode(wrap_mode(text))
        self.setPlainText(text)  # the highlighter colors every block here
        self.split = (computing, time.perf_counter() - start)
        self.shown = token

    def _set_whole(self, token: int, outcome: tuple[list[StyledText], float]) -> None:
        if token == self.token:  # else superseded
            self._set(token, *outcome)
            self.whole, self.whole_at = token, time.perf_counter()

    def _set_first(self, token: int, outcome: tuple[tuple[list[StyledText], DiffStream], float]) -> None:
        if token != self.token:
            return
        (lines, stream), computing = outcome
        self._set(token, lines, computing)
        if stream.done:
            self.whole, self.whole_at = token, time.perf_counter()
        else:
            self._start(lambda: styled_rows(stream.rest()), self._relay.rest)

    def _append_rest(self, token: int, outcome: tuple[list[StyledText], float]) -> None:
        if token != self.token:
            return
        lines = outcome[0]
        if lines:
            text = "\n".join(line.text for line in lines)
            self.highlighter.spans.extend(line.spans for line in lines)
            if wrap_mode(text) != self.wordWrapMode():
                self.setWordWrapMode(wrap_mode(text))
            cursor = QTextCursor(self.document())  # not the view's cursor: the view stays where it is
            cursor.movePosition(QTextCursor.MoveOperation.End)
            cursor.insertText("\n" + text)  # the highlighter colors the new blocks
        self.whole, self.whole_at = token, time.perf_counter()


# The rows view without its caches


class _UncachedDelegate(DiffRowDelegate):
    """Lays a row out at every size hint and every paint: no layouts or heights kept per row."""

    def _laid_out(self, item: Item, width: int, font: QFont) -> tuple[list[QTextLayout], int]:
        self._layouts.clear()
        self._heights.clear()
        return super()._laid_out(item, width, font)

    def sizeHint(self, option: QStyleOptionViewItem, index: AnyIndex) -> QSize:
        width = self._width()
        return QSize(width, self._laid_out(index.data(ROW_ROLE), width, option.font)[1])


def rows_view(*, cached: bool) -> DiffView:
    view = DiffView()
    view._timer.setInterval(0)
    if not cached:
        view._delegate = _UncachedDelegate(view.rows_view, view._colors())
        view.rows_view.setItemDelegate(view._delegate)
    view.resize(*SIZE)
    view.show()
    return view
