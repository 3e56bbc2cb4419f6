"""Paints one memory as a card of uniform height; `sizeHint` beside `paint`, tooltips per part.

The layout (what goes where) comes from `ui.cards.layout`; this file only paints it with colours
from the palette, inside `painter.save()`/`restore()`. No override raises: a row that cannot be laid
out is painted as an "unreadable row" card (and logged once), never a crash (`ui.widgets.guard`).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QModelIndex, QPersistentModelIndex, QRect, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QFontMetrics, QHelpEvent, QMouseEvent, QPainter, QPalette, QPen
from PySide6.QtWidgets import QAbstractItemView, QStyle, QStyledItemDelegate, QStyleOptionViewItem, QToolTip

from app.core.models import Memory
from ui.cards.evidence_tip import EvidenceTips
from ui.cards.layout import SEPARATOR, CardFonts, CardLayout, CardMetrics, layout_card
from ui.cards.model import HIGHLIGHT_ROLE, ID_ROLE, LINKS_ROLE, MEMORY_ROLE
from ui.cards.parts import CANDIDATES_TIP, Badge
from ui.widgets.guard import answer, never_raises
from ui.widgets.plain_tip import plain_tip
from ui.widgets.theme import Tone, accent_text, badge_colors, blend, card_border, muted_text

Role = QPalette.ColorRole
AnyIndex = QModelIndex | QPersistentModelIndex
UNREADABLE = "this row could not be shown (the log says why)"


class CardDelegate(QStyledItemDelegate):
    linkClicked = Signal(object)  # the memory id a card's link names (a click on "merged into #12")

    def __init__(self, now: Callable[[], int], parent: QAbstractItemView | None = None) -> None:
        super().__init__(parent)
        self._now = now
        self.evidence_tips = EvidenceTips()  # the candidates' words in their tooltip (set up by the window)

    @never_raises(answer(QSize(320, 120)))
    def sizeHint(self, option: QStyleOptionViewItem, index: AnyIndex) -> QSize:
        metrics = CardMetrics.from_fonts(CardFonts.from_font(option.font))
        return QSize(QFontMetrics(option.font).averageCharWidth() * 40, metrics.card_height())

    def _layout(self, option: QStyleOptionViewItem, index: AnyIndex) -> tuple[CardLayout, Memory | None]:
        memory = index.data(MEMORY_ROLE)
        memory = memory if isinstance(memory, Memory) else None
        fonts = CardFonts.from_font(option.font)
        highlighted = bool(index.data(HIGHLIGHT_ROLE))
        links = index.data(LINKS_ROLE) or ()
        rect: QRect = option.rect
        memory_id = int(index.data(ID_ROLE))
        return layout_card(rect, memory, memory_id, fonts, self._now(), highlighted, links), memory

    def _paint_unreadable(self, painter: QPainter, option: QStyleOptionViewItem, index: AnyIndex) -> None:
        """What a card whose painting failed shows instead: its frame, its id and that it failed."""
        palette: QPalette = option.palette
        rect = QRectF(option.rect).adjusted(6.5, 4.5, -6.5, -4.5)
        painter.save()
        try:
            painter.setPen(QPen(QColor(Tone.RED.value), 1.0))
            painter.setBrush(palette.color(Role.Base))
            painter.drawRoundedRect(rect, 6, 6)
            painter.setPen(palette.color(Role.Text))
            text = f"#{index.data(ID_ROLE)}  ·  {UNREADABLE}"
            painter.drawText(rect.adjusted(12, 0, -12, 0), Qt.AlignmentFlag.AlignVCenter, text)
        finally:
            painter.restore()

    @never_raises(_paint_unreadable)
    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: AnyIndex) -> None:
        layout, _memory = self._layout(option, index)
        palette: QPalette = option.palette
        state = option.state
        fonts = CardFonts.from_font(option.font)
        painter.save()
        try:
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            self._paint_background(painter, layout, palette, state, bool(index.data(HIGHLIGHT_ROLE)))
            painter.setFont(fonts.bold)
            painter.setPen(muted_text(palette))
            painter.drawText(
                layout.id_rect, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, layout.id_text
            )
            painter.setFont(fonts.small)
            for badge, rect in layout.badges:
                self._paint_pill(painter, rect, badge, palette)
            self._paint_content(painter, layout, palette, fonts.body, layout.dim, layout.loading)
            painter.setFont(fonts.small)
            self._paint_meta(painter, layout, palette)
        finally:
            painter.restore()

    def _paint_background(
        self,
        painter: QPainter,
        layout: CardLayout,
        palette: QPalette,
        state: QStyle.StateFlag,
        highlighted: bool,
    ) -> None:
        base = palette.color(Role.Base)
        border = card_border(palette)
        fill = base
        selected = bool(state & QStyle.StateFlag.State_Selected)
        if selected:
            fill = blend(base, palette.color(Role.Highlight), 0.10)
            border = palette.color(Role.Highlight)
        elif state & QStyle.StateFlag.State_MouseOver:
            fill = blend(base, palette.color(Role.Text), 0.03)
            border = blend(border, palette.color(Role.Text), 0.15)
        radius = layout.id_rect.height() * 0.35
        rect = QRectF(layout.card).adjusted(0.5, 0.5, -0.5, -0.5)
        painter.setPen(QPen(border, 1.6 if selected else 1.0))
        painter.setBrush(fill)
        painter.drawRoundedRect(rect, radius, radius)
        if highlighted:
            bar = QRectF(rect.left() + 1, rect.top() + radius, 3.5, rect.height() - 2 * radius)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(Tone.BLUE.value))
            painter.drawRoundedRect(bar, 1.5, 1.5)

    def _paint_pill(self, painter: QPainter, rect: QRect, badge: Badge, palette: QPalette) -> None:
        colors = badge_colors(palette, badge.tone)
        painter.setPen(QPen(colors.border, 1.0))
        painter.setBrush(colors.background)
        radius = rect.height() / 2
        painter.drawRoundedRect(QRectF(rect).adjusted(0.5, 0.5, -0.5, -0.5), radius, radius)
        painter.setPen(colors.foreground)
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, badge.text)

    def _paint_content(
        self, painter: QPainter, layout: CardLayout, palette: QPalette, font: QFont, dim: bool, loading: bool
    ) -> None:
        painter.setFont(font)
        painter.setPen(muted_text(palette) if dim else palette.color(Role.Text))
        rect = layout.content_rect
        if loading:
            painter.drawText(rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop, "loading…")
            return
        line_height = QFontMetrics(painter.font()).lineSpacing()
        for number, line in enumerate(layout.content_lines):
            line_rect = QRect(rect.left(), rect.top() + number * line_height, rect.width(), line_height)
            painter.drawText(line_rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, line)

    def _paint_meta(self, painter: QPainter, layout: CardLayout, palette: QPalette) -> None:
        muted, accent = muted_text(palette), accent_text(palette)
        small = QFontMetrics(painter.font())
        align = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
        for piece, rect, shown in layout.meta:
            text, x = shown, rect.left()
            if text.startswith(SEPARATOR):
                painter.setPen(muted)
                sep_rect = QRect(x, rect.top(), small.horizontalAdvance(SEPARATOR), rect.height())
                painter.drawText(sep_rect, align, SEPARATOR)
                x += sep_rect.width()
                text = text[len(SEPARATOR) :]
            painter.setPen(accent if piece.emphasis else muted)
            painter.drawText(QRect(x, rect.top(), rect.right() - x + 1, rect.height()), align, text)

    @never_raises(answer(False))
    def editorEvent(
        self, event: QEvent, model: object, option: QStyleOptionViewItem, index: AnyIndex
    ) -> bool:
        """A click released on a card's link selects the memory it names (`linkClicked`)."""
        if not isinstance(event, QMouseEvent) or event.type() != QEvent.Type.MouseButtonRelease:
            return False
        if event.button() != Qt.MouseButton.LeftButton or not index.isValid():
            return False
        point = event.position().toPoint()
        target = self._layout(option, index)[0].link_at(point.x(), point.y())
        if target is None:
            return False
        self.linkClicked.emit(target)
        return True

    @never_raises(answer(False))
    def helpEvent(
        self, event: QHelpEvent, view: QAbstractItemView, option: QStyleOptionViewItem, index: AnyIndex
    ) -> bool:
        if event.type() == QEvent.Type.ToolTip and index.isValid():
            layout, memory = self._layout(option, index)
            text = layout.tooltip_at(event.pos().x(), event.pos().y())
            if text is not None and memory is not None and text.startswith(CANDIDATES_TIP):
                text = self.evidence_tips.tip(memory, text)
            if text is None and memory is not None:
                text = index.data(Qt.ItemDataRole.ToolTipRole)
            if text:
                QToolTip.showText(event.globalPos(), plain_tip(str(text)), view)
                return True
        return super().helpEvent(event, view, option, index)
