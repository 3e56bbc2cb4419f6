"""`ProjectCardDelegate`: paints one project memory's card at a fixed height (two lines of content, then
the meta line), so the list lays out no row to show any other: `setUniformItemSizes` holds at 100,000.

The content is untrusted: painted as plain text, hidden characters made visible, never rich text."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QSize, Qt
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem, QWidget

from app.core.screening import make_visible
from app.store import ProjectMemory
from ui.project.model import MEMORY_ROLE
from ui.project.texts import card_meta
from ui.widgets.guard import answer, never_raises
from ui.widgets.theme import card_border, muted_text

AnyIndex = QModelIndex | QPersistentModelIndex
PAD = 8
CONTENT_LINES = 2
SHOWN_CHARS = 400  # more than two lines ever show: a long text is cut before it is laid out


def _fitting(text: str, width: int, advance: Callable[[str], int]) -> int:
    """How many characters of `text` fit in `width`, cut at a space where one is near (a binary search:
    a handful of measurements per card, not one per character)."""
    if advance(text) <= width:
        return len(text)
    low, high = 0, len(text)
    while low < high:
        middle = (low + high + 1) // 2
        if advance(text[:middle]) <= width:
            low = middle
        else:
            high = middle - 1
    space = text.rfind(" ", 0, low)
    return space + 1 if space > low // 2 else low


class ProjectCardDelegate(QStyledItemDelegate):
    def __init__(self, now: Callable[[], int], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._now = now

    @never_raises(answer(QSize(200, 60)))
    def sizeHint(self, option: QStyleOptionViewItem, index: AnyIndex) -> QSize:
        line = option.fontMetrics.lineSpacing()
        return QSize(200, PAD * 2 + line * (CONTENT_LINES + 1) + 4)

    @never_raises(answer(None))
    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: AnyIndex) -> None:
        memory = index.data(MEMORY_ROLE)
        painter.save()
        try:
            rect: QRect = option.rect
            palette = option.palette
            selected = bool(option.state & QStyle.StateFlag.State_Selected)
            painter.fillRect(rect, palette.highlight() if selected else palette.base())
            painter.setPen(card_border(palette))
            painter.drawLine(rect.bottomLeft(), rect.bottomRight())
            if isinstance(memory, ProjectMemory):
                self._paint_card(painter, option, rect, memory, selected)
        finally:
            painter.restore()

    def _paint_card(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        rect: QRect,
        memory: ProjectMemory,
        selected: bool,
    ) -> None:
        palette = option.palette
        metrics = option.fontMetrics
        line = metrics.lineSpacing()
        inner = rect.adjusted(PAD, PAD, -PAD, -PAD)
        text_color = palette.highlightedText().color() if selected else palette.text().color()
        painter.setPen(text_color)
        content = make_visible(f"#{memory.id}  {memory.content[:SHOWN_CHARS]}").replace("\n", " ⏎ ")
        fit = _fitting(content, inner.width(), metrics.horizontalAdvance)
        head, tail = content[:fit], content[fit:]
        flags = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextSingleLine
        painter.drawText(QRect(inner.left(), inner.top(), inner.width(), line), flags, head)
        if tail:
            second = metrics.elidedText(tail, Qt.TextElideMode.ElideRight, inner.width())
            painter.drawText(QRect(inner.left(), inner.top() + line, inner.width(), line), flags, second)
        painter.setPen(text_color if selected else muted_text(palette))
        meta = metrics.elidedText(card_meta(memory, self._now()), Qt.TextElideMode.ElideRight, inner.width())
        painter.drawText(QRect(inner.left(), inner.top() + 2 * line + 2, inner.width(), line), flags, meta)
