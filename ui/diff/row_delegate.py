"""Paints one row of a diff: line numbers, wrapped text with colored spans, the changed-line tint.

Each side is a `QTextLayout` of the row's plain text (never rich text: the content is untrusted) with
formats for the insert, delete and hidden-character spans of `app.diff.style`.

Heights: shaping text costs time per character, so a 64 KiB diff is never laid out whole. A row
not laid out yet reports an estimate from its length (`sizeHint`); painting lays it out, records its
exact height and, when the estimate was off, asks the view to lay the rows out again (a cheap
pass: every row answers from its record). Rows still at their estimate are laid out a
slice at a time when the event loop is idle, then the view lays out once more. `measure_screen` lays
out the first screen at once, so the first paint is exact. Records are keyed by the row
object and dropped when rows are replaced or removed.

Lengths: a row shows at most `app.diff.style.LINE_CHARS` characters of its line, and one with a run too
long for words wraps anywhere (`ui.widgets.long_text.wrap_mode`): both keep a row's layout linear and short.
No override raises (`ui.widgets.guard`): a row that cannot be painted is left blank and logged once.
"""

from __future__ import annotations

import time

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QPointF, QRect, QSize, Qt, QTimer
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetrics,
    QPainter,
    QPalette,
    QTextCharFormat,
    QTextLayout,
    QTextOption,
)
from PySide6.QtWidgets import QListView, QStyle, QStyledItemDelegate, QStyleOptionViewItem

from app.diff.stream import Fold, InlineLine, screen_lines
from app.diff.style import DiffColors, SpanKind, StyledText
from app.diff.text_diff import SideBySideRow
from ui.diff.rows import ROW_ROLE, Item, Message, row_texts
from ui.widgets.guard import answer, never_raises
from ui.widgets.long_text import wrap_mode
from ui.widgets.theme import blend

Role = QPalette.ColorRole
AnyIndex = QModelIndex | QPersistentModelIndex
PAD = 4  # horizontal padding inside a column, in pixels
MEASURE_SLICE_S = 0.004  # rows laid out ahead of painting this long at a time
V_PAD = 1
_LAYOUT_CACHE_LIMIT = 2000


class DiffRowDelegate(QStyledItemDelegate):
    def __init__(self, view: QListView, colors: DiffColors) -> None:
        super().__init__(view)
        self._view = view
        self._colors = colors
        self._formats = _formats(colors)
        self._digits = 1
        self._font, self._line_height, self._char_width = QFont(), 16, 7
        # id(row) -> the row (kept so that the id stays its own), its layouts and height at a width.
        self._layouts: dict[int, tuple[Item, int, list[QTextLayout], int]] = {}
        self._heights: dict[int, tuple[Item, int, int, bool]] = {}  # ..., exact (else an estimate)
        self._relayout = QTimer(self)
        self._relayout.setSingleShot(True)
        self._relayout.setInterval(0)
        self._relayout.timeout.connect(self._view.doItemsLayout)
        # Rows still at their estimate are laid out a few milliseconds at a time when nothing else
        # waits, so that scrolling meets exact heights (and the rows move once, not under the eye).
        self._measuring = QTimer(self)
        self._measuring.setInterval(0)
        self._measuring.timeout.connect(self._measure_some)
        self._next_row = 0
        self._estimates_off = False
        model = view.model()
        for signal in (model.modelReset, model.rowsRemoved):
            signal.connect(self.forget)

    # Settings

    def set_colors(self, colors: DiffColors) -> None:
        if colors != self._colors:
            self._colors = colors
            self._formats = _formats(colors)
            self._layouts.clear()

    def set_line_digits(self, digits: int) -> None:
        """How many digits the widest line number has: the number columns are that wide."""
        if digits != self._digits:
            self._digits = digits
            self.forget()

    def forget(self) -> None:
        # The rows laid out so far are let go once the event loop turns, not before the next paint:
        # destroying a few hundred text layouts took ~1 ms that a new diff's first screen waited for.
        QTimer.singleShot(0, self._layouts.clear)
        self._layouts = {}
        self._heights = {}
        self._next_row = 0

    @property
    def measuring(self) -> bool:
        """Whether rows still wait to be laid out at their exact height, or the view to place them there."""
        return self._measuring.isActive() or self._relayout.isActive()

    def _measure_some(self) -> None:
        model = self._view.model()
        width, font = self._width(), self._view.font()
        deadline = time.perf_counter() + MEASURE_SLICE_S
        while self._next_row < model.rowCount() and time.perf_counter() < deadline:
            item = model.index(self._next_row, 0).data(ROW_ROLE)
            known = self._heights.get(id(item))
            if not (known is not None and known[0] is item and known[1] == width and known[3]):
                estimate = known[2] if known is not None else None
                if self._laid_out(item, width, font)[1] != estimate:
                    self._estimates_off = True
            self._next_row += 1
        if self._next_row >= model.rowCount():
            self._measuring.stop()
            if self._estimates_off:
                self._estimates_off = False
                self._relayout.start()

    # Geometry

    def _columns(self, width: int, font: QFont) -> tuple[int, int]:
        """(number column width, text column width) of a side-by-side row `width` pixels wide."""
        number = QFontMetrics(font).horizontalAdvance("9" * self._digits) + 2 * PAD
        return number, max(20, (width - 2 * number) // 2 - 2 * PAD)

    def _text_width(self, item: Item, width: int, font: QFont) -> int:
        return self._columns(width, font)[1] if isinstance(item, SideBySideRow) else max(20, width - 2 * PAD)

    def _width(self) -> int:
        return max(40, self._view.viewport().width())

    def _laid_out(self, item: Item, width: int, font: QFont) -> tuple[list[QTextLayout], int]:
        """The row's layouts (one per side shown) and its exact height at `width`, recorded."""
        cached = self._layouts.get(id(item))
        if cached is not None and cached[0] is item and cached[1] == width:
            return cached[2], cached[3]
        if len(self._layouts) > _LAYOUT_CACHE_LIMIT:
            self._layouts.clear()
        text_width = self._text_width(item, width, font)
        line_height, _ = self._metrics(font)
        layouts: list[QTextLayout] = []
        height = line_height
        if isinstance(item, SideBySideRow | InlineLine | Message):
            for styled in row_texts(item):
                layout, text_height = self._layout(styled, text_width, font)
                layouts.append(layout)
                height = max(height, text_height)
            height += 2 * V_PAD
        else:
            height += 4 * V_PAD
        self._layouts[id(item)] = (item, width, layouts, height)
        self._heights[id(item)] = (item, width, height, True)
        return layouts, height

    def _layout(self, styled: StyledText | None, width: int, font: QFont) -> tuple[QTextLayout, int]:
        text = styled.text if styled else ""
        layout = QTextLayout(text, font)
        option = QTextOption()
        option.setWrapMode(wrap_mode(text))
        layout.setTextOption(option)
        if styled:
            layout.setFormats([self._range(start, end, kind) for start, end, kind in styled.spans])
        layout.beginLayout()
        height = 0.0
        while True:
            line = layout.createLine()
            if not line.isValid():
                break
            line.setLineWidth(width)
            line.setPosition(QPointF(0, height))
            height += line.height()
        layout.endLayout()
        return layout, round(height)

    def _range(self, start: int, end: int, kind: SpanKind) -> QTextLayout.FormatRange:
        span = QTextLayout.FormatRange()
        span.start, span.length, span.format = start, end - start, self._formats[kind]
        return span

    def _metrics(self, font: QFont) -> tuple[int, int]:
        """(line height, average character width) of `font`, kept while the font stays the same."""
        if font != self._font:
            metrics = QFontMetrics(font)
            self._font, self._line_height, self._char_width = (
                QFont(font),
                metrics.height(),
                metrics.averageCharWidth(),
            )
        return self._line_height, self._char_width

    def _estimate(self, item: Item, width: int, font: QFont) -> int:
        line_height, char_width = self._metrics(font)
        if isinstance(item, Fold):
            return line_height + 4 * V_PAD
        if isinstance(item, Message):
            item = InlineLine(())  # a message is one short line
        chars = max(1, self._text_width(item, width, font) // max(1, char_width))
        return screen_lines(item, chars) * line_height + 2 * V_PAD

    def measure_screen(self) -> None:
        """Lay out the rows of the first screen now, so that their first paint is exact."""
        model = self._view.model()
        width, font = self._width(), self._view.font()
        filled, row = 0, 0
        while filled < self._view.viewport().height() and row < model.rowCount():
            filled += self._laid_out(model.index(row, 0).data(ROW_ROLE), width, font)[1]
            row += 1

    @never_raises(answer(QSize(40, 16)))
    def sizeHint(self, option: QStyleOptionViewItem, index: AnyIndex) -> QSize:
        item = index.data(ROW_ROLE)
        width = self._width()
        known = self._heights.get(id(item))
        if known is None or known[0] is not item or known[1] != width:
            known = (item, width, self._estimate(item, width, option.font), False)
            self._heights[id(item)] = known  # until the row is laid out
            if not self._measuring.isActive():
                self._next_row = 0
                self._measuring.start()
        return QSize(width, known[2])

    # Painting

    @never_raises(answer(None))
    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: AnyIndex) -> None:
        item = index.data(ROW_ROLE)
        rect: QRect = option.rect
        palette: QPalette = option.palette
        font: QFont = option.font
        layouts, height = self._laid_out(item, rect.width(), font)
        if height != rect.height():  # painted at its estimate: lay the rows out again with the truth
            self._relayout.start()
        painter.save()
        try:
            painter.setClipRect(rect)
            painter.setFont(font)
            if isinstance(item, SideBySideRow):
                self._paint_pair(painter, rect, item, layouts, palette, font)
            elif isinstance(item, InlineLine | Message):
                painter.setPen(palette.color(Role.Text))
                layouts[0].draw(painter, QPointF(rect.left() + PAD, rect.top() + V_PAD))
            elif isinstance(item, Fold):
                self._paint_fold(painter, rect, item, palette)
            if option.state & QStyle.StateFlag.State_Selected:
                tint = QColor(palette.color(Role.Highlight))
                tint.setAlpha(60)
                painter.fillRect(rect, tint)
        finally:
            painter.restore()

    def _paint_pair(
        self,
        painter: QPainter,
        rect: QRect,
        row: SideBySideRow,
        layouts: list[QTextLayout],
        palette: QPalette,
        font: QFont,
    ) -> None:
        number_width, _ = self._columns(rect.width(), font)
        half = rect.width() // 2
        columns = (
            (rect.left(), row.left_number, layouts[0], self._colors.deleted_line),
            (rect.left() + half, row.right_number, layouts[1], self._colors.inserted_line),
        )
        for x, number, layout, line_color in columns:
            column = QRect(x, rect.top(), half, rect.height())
            if number is None:
                painter.fillRect(column, blend(palette.color(Role.Base), palette.color(Role.Text), 0.04))
                continue
            if row.changed:
                painter.fillRect(column, QColor(line_color))
            painter.setPen(QColor(self._colors.line_number))
            number_rect = QRect(x, rect.top() + V_PAD, number_width - PAD, rect.height())
            painter.drawText(
                number_rect, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop, str(number)
            )
            painter.setPen(palette.color(Role.Text))
            layout.draw(painter, QPointF(x + number_width + PAD, rect.top() + V_PAD))
        painter.setPen(blend(palette.color(Role.Base), palette.color(Role.Text), 0.15))
        painter.drawLine(rect.left() + half, rect.top(), rect.left() + half, rect.bottom())

    def _paint_fold(self, painter: QPainter, rect: QRect, fold: Fold, palette: QPalette) -> None:
        painter.fillRect(rect, blend(palette.color(Role.Base), palette.color(Role.Text), 0.05))
        painter.setPen(QColor(self._colors.line_number))
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, fold.label)


def _formats(colors: DiffColors) -> dict[SpanKind, QTextCharFormat]:
    inserted = QTextCharFormat()
    inserted.setForeground(QColor(colors.inserted_text))
    inserted.setBackground(QColor(colors.inserted_background))
    inserted.setFontUnderline(True)
    deleted = QTextCharFormat()
    deleted.setForeground(QColor(colors.deleted_text))
    deleted.setBackground(QColor(colors.deleted_background))
    deleted.setFontStrikeOut(True)
    hidden = QTextCharFormat()
    hidden.setForeground(QColor(colors.hidden_text))
    hidden.setBackground(QColor(colors.hidden_background))
    note = QTextCharFormat()  # "… N more characters on this line, not shown"
    note.setForeground(QColor(colors.line_number))
    note.setFontItalic(True)
    return {"insert": inserted, "delete": deleted, "hidden": hidden, "note": note}


__all__ = ["DiffRowDelegate"]
