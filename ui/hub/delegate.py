"""Paints one hub card: a pill per machine with that machine's status, the machines without a copy, a
"differs" pill, two lines of the newest text, and when it was last updated. `sizeHint` beside `paint`.

Colours come from the palette and `ui.widgets.theme` tones, as the main window's cards do. Everything
shown is untrusted: the text is painted as plain text by the main window's cards' own means (its start
only, hidden characters made visible: `card_text`; at most two lines laid out: `clamp_lines`), so a
megabyte without a space paints as fast as a sentence; machine names and statuses are cut and made
visible (`app.hub.words`).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QFontMetrics, QPainter, QPalette, QPen
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem, QWidget

from app.hub.cards import ACTIVE, DISMISSED, HubCard, MachineCopy
from app.hub.words import copy_name, copy_status, machine_name
from app.present.timefmt import relative
from ui.cards.layout import CardFonts, card_text, clamp_lines
from ui.hub.model import CARD_ROLE
from ui.widgets.guard import answer, never_raises
from ui.widgets.theme import Tone, badge_colors, blend, card_border, muted_text

Role = QPalette.ColorRole
AnyIndex = QModelIndex | QPersistentModelIndex
LINES = 2  # of the text


def copy_tone(copy: MachineCopy) -> Tone:
    if copy.dismiss_pending and copy.status != DISMISSED:
        return Tone.AMBER
    return Tone.GREEN if copy.status == ACTIVE else Tone.NEUTRAL


def pills(card: HubCard) -> list[tuple[str, Tone]]:
    shown = [(f"{copy_name(c)} · {copy_status(c)}", copy_tone(c)) for c in card.copies]
    shown += [(f"not on {machine_name(machine)}", Tone.NEUTRAL) for machine in card.missing]
    if card.differs:
        shown.append((f"differs: {len(card.versions())} texts", Tone.PURPLE))
    return shown


class HubCardDelegate(QStyledItemDelegate):
    def __init__(self, now: Callable[[], int], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._now = now

    @never_raises(answer(QSize(320, 110)))
    def sizeHint(self, option: QStyleOptionViewItem, index: AnyIndex) -> QSize:
        fonts = CardFonts.from_font(option.font)
        body, small = QFontMetrics(fonts.body), QFontMetrics(fonts.small)
        height = small.height() + 8 + LINES * body.lineSpacing() + small.height() + 34
        return QSize(body.averageCharWidth() * 40, height)

    @never_raises(answer(None))
    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: AnyIndex) -> None:
        card = index.data(CARD_ROLE)
        if not isinstance(card, HubCard):
            return
        palette: QPalette = option.palette
        fonts = CardFonts.from_font(option.font)
        small, body = QFontMetrics(fonts.small), QFontMetrics(fonts.body)
        rect = QRectF(option.rect).adjusted(6.5, 4.5, -6.5, -4.5)
        painter.save()
        try:
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            self._background(painter, rect, palette, option.state)
            inner = rect.toRect().adjusted(12, 8, -12, -8)
            painter.setFont(fonts.small)
            x, top, pill_h = inner.left(), inner.top(), small.height() + 4
            for text, tone in pills(card):
                width = small.horizontalAdvance(text) + 14
                if x + width > inner.right():
                    break
                self._pill(painter, QRect(x, top, width, pill_h), text, tone, palette)
                x += width + 6
            painter.setFont(fonts.body)
            dim = all(c.status == DISMISSED for c in card.copies)
            painter.setPen(muted_text(palette) if dim or not card.loaded else palette.color(Role.Text))
            text_top = top + pill_h + 6
            self._text(
                painter, QRect(inner.left(), text_top, inner.width(), LINES * body.lineSpacing()), card
            )
            painter.setFont(fonts.small)
            painter.setPen(muted_text(palette))
            copies = "1 copy" if len(card.copies) == 1 else f"{len(card.copies)} copies"
            meta = f"updated {relative(card.updated_at, self._now())} · {copies}"
            meta_rect = QRect(inner.left(), inner.bottom() - small.height(), inner.width(), small.height())
            painter.drawText(meta_rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, meta)
        finally:
            painter.restore()

    def _background(
        self, painter: QPainter, rect: QRectF, palette: QPalette, state: QStyle.StateFlag
    ) -> None:
        base, border = palette.color(Role.Base), card_border(palette)
        fill = base
        selected = bool(state & QStyle.StateFlag.State_Selected)
        if selected:
            fill, border = blend(base, palette.color(Role.Highlight), 0.10), palette.color(Role.Highlight)
        painter.setPen(QPen(border, 1.6 if selected else 1.0))
        painter.setBrush(fill)
        painter.drawRoundedRect(rect, 7, 7)

    def _pill(self, painter: QPainter, rect: QRect, text: str, tone: Tone, palette: QPalette) -> None:
        colors = badge_colors(palette, tone)
        painter.setPen(QPen(colors.border, 1.0))
        painter.setBrush(colors.background)
        radius = rect.height() / 2
        painter.drawRoundedRect(QRectF(rect).adjusted(0.5, 0.5, -0.5, -0.5), radius, radius)
        painter.setPen(colors.foreground)
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)

    def _text(self, painter: QPainter, rect: QRect, card: HubCard) -> None:
        if not card.loaded:
            painter.drawText(rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop, "loading…")
            return
        line_height = QFontMetrics(painter.font()).lineSpacing()
        lines = clamp_lines(card_text(card.text), painter.font(), rect.width(), LINES)
        for number, line in enumerate(lines):
            line_rect = QRect(rect.left(), rect.top() + number * line_height, rect.width(), line_height)
            painter.drawText(line_rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, line)
