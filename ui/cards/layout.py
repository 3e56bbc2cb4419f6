"""Where each part of a card goes: one layout computed from the font and the row's rectangle, used
by both painting and tooltips (so a tooltip always belongs to what is under the mouse).

All sizes derive from the font's metrics, so the card scales with the font and at 200% display scaling.
Cards have one height whatever their content: the content is clamped to `CONTENT_LINES` lines.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QFont, QFontMetrics, QFontMetricsF, QTextLayout, QTextOption

from app.core.models import Memory, MemoryStatus
from app.core.screening import make_visible
from ui.cards.parts import (
    CANDIDATES_TIP,
    Badge,
    MetaPiece,
    link_pieces,
    meta_pieces,
    origin_piece,
    side_badges,
    status_badge,
)
from ui.widgets.long_text import wrap_mode

CONTENT_LINES = 2
# A card shows two lines: no more of the content than this is ever looked at (a host row can hold
# megabytes on one line, and collapsing, marking and shaping all of it took seconds a paint).
CARD_CHARS = 4096
SEPARATOR = "  ·  "
NARROW_GLYPHS = " .,:;'|!ilIj"


@dataclass(frozen=True, slots=True)
class CardFonts:
    body: QFont
    bold: QFont
    small: QFont

    @classmethod
    def from_font(cls, font: QFont) -> CardFonts:
        bold = QFont(font)
        bold.setWeight(QFont.Weight.DemiBold)
        small = QFont(font)
        size = font.pointSizeF()
        if size > 0:
            small.setPointSizeF(size * 0.88)
        else:
            small.setPixelSize(max(8, round(font.pixelSize() * 0.88)))
        return cls(font, bold, small)


@dataclass(frozen=True, slots=True)
class CardMetrics:
    """Spacing in logical pixels, from the font (an `em` is the body font's height)."""

    margin_x: int
    margin_y: int
    pad: int
    gap: int
    pill_height: int
    pill_pad: int
    line_spacing: int
    small_height: int

    @classmethod
    def from_fonts(cls, fonts: CardFonts) -> CardMetrics:
        body, small = QFontMetrics(fonts.body), QFontMetrics(fonts.small)
        em = body.height()
        return cls(
            margin_x=round(em * 0.55),
            margin_y=round(em * 0.3),
            pad=round(em * 0.8),
            gap=round(em * 0.45),
            pill_height=small.height() + round(em * 0.3),
            pill_pad=round(em * 0.5),
            line_spacing=body.lineSpacing(),
            small_height=small.height(),
        )

    def card_height(self) -> int:
        inner = (
            self.pill_height + self.gap + CONTENT_LINES * self.line_spacing + 2 * self.gap + self.small_height
        )
        return inner + 2 * self.pad + 2 * self.margin_y


@dataclass(slots=True)
class CardLayout:
    card: QRect
    id_text: str
    id_rect: QRect
    badges: list[tuple[Badge, QRect]] = field(default_factory=list)
    content_rect: QRect = field(default_factory=QRect)
    content_lines: list[str] = field(default_factory=list)
    meta: list[tuple[MetaPiece, QRect, str]] = field(default_factory=list)
    loading: bool = True  # no row yet: "loading…" where the content goes
    dim: bool = True  # the content in the muted colour

    def tooltip_at(self, x: int, y: int) -> str | None:
        for badge, rect in self.badges:
            if rect.contains(x, y):
                return badge.tooltip
        for piece, rect, _ in self.meta:
            if rect.contains(x, y):
                return piece.tooltip
        return None

    def link_at(self, x: int, y: int) -> int | None:
        """The memory a link under the mouse names, if any."""
        for piece, rect, _ in self.meta:
            if piece.target is not None and rect.contains(x, y):
                return piece.target
        return None


def clamp_lines(text: str, font: QFont, width: int, max_lines: int) -> list[str]:
    """`text` (whitespace collapsed) wrapped to `width`, at most `max_lines`, the last one elided."""
    flat = " ".join(text.split())
    if not flat or width <= 0:
        return []
    # Lay out only what `max_lines` lines can hold, counting every character as narrow as the narrowest
    # common glyph: shaping and eliding a 2,000-character memory to show two lines was a third of a paint.
    advance = QFontMetricsF(font).horizontalAdvance
    narrow = max(0.5, 0.9 * min(advance(glyph) for glyph in NARROW_GLYPHS))
    shown = flat[: max_lines * (int(width / narrow) + 1) + 1]
    layout = QTextLayout(shown, font)
    option = QTextOption()
    option.setWrapMode(wrap_mode(shown))
    layout.setTextOption(option)
    spans: list[tuple[int, int]] = []
    layout.beginLayout()
    while len(spans) < max_lines:
        line = layout.createLine()
        if not line.isValid():
            break
        line.setLineWidth(width)
        spans.append((line.textStart(), line.textLength()))
    layout.endLayout()
    lines = [shown[start : start + length].rstrip() for start, length in spans]
    last_start = spans[-1][0]
    if sum(spans[-1]) < len(flat):
        lines[-1] = QFontMetrics(font).elidedText(shown[last_start:], Qt.TextElideMode.ElideRight, width)
    return lines


def card_text(content: str) -> str:
    """The start of `content` a card can show, hidden characters made visible ⟦U+200B⟧ markers; an
    ellipsis says that more follows (so the second line is elided even when the cut part fits)."""
    if len(content) <= CARD_CHARS:
        return make_visible(content)
    return make_visible(content[:CARD_CHARS]) + " …"


def _pill_width(fonts: CardFonts, metrics: CardMetrics, text: str) -> int:
    return QFontMetrics(fonts.small).horizontalAdvance(text) + 2 * metrics.pill_pad


@dataclass(frozen=True, slots=True)
class CardParts:
    """What one card shows, whatever it shows it of (a memory now, or as it was at an instant)."""

    status: Badge
    side: list[Badge]  # right of the header, in reading order
    content: str  # already as a card shows it (`card_text`)
    meta: list[MetaPiece]
    origin: MetaPiece | None = None  # at the right of the meta line
    dim: bool = False  # the content in the muted colour (not what the agent is shown)


def with_links(meta: list[MetaPiece], links: Sequence[str]) -> list[MetaPiece]:
    """The meta line with a card's links after its times, before its candidates (which are elided first)."""
    if not links:
        return meta
    at = next((i for i, piece in enumerate(meta) if piece.tooltip.startswith(CANDIDATES_TIP)), len(meta))
    return [*meta[:at], *link_pieces(links), *meta[at:]]


def layout_card(
    rect: QRect,
    memory: Memory | None,
    memory_id: int,
    fonts: CardFonts,
    now: int,
    highlighted: bool,
    links: Sequence[str] = (),
) -> CardLayout:
    if memory is None:
        return layout_parts(rect, memory_id, fonts, None)
    parts = CardParts(
        status_badge(memory),
        side_badges(memory, now, highlighted),
        card_text(memory.content),
        with_links(meta_pieces(memory, now), links),
        origin_piece(memory),
        dim=memory.status != MemoryStatus.ACTIVE or memory.expired,
    )
    return layout_parts(rect, memory_id, fonts, parts)


def layout_parts(rect: QRect, memory_id: int, fonts: CardFonts, parts: CardParts | None) -> CardLayout:
    """Where `parts` go on a card of `rect` (None: a card whose row is still loading)."""
    metrics = CardMetrics.from_fonts(fonts)
    card = rect.adjusted(metrics.margin_x, metrics.margin_y, -metrics.margin_x, -metrics.margin_y)
    inner = card.adjusted(metrics.pad, metrics.pad, -metrics.pad, -metrics.pad)
    header_y, pill_h = inner.top(), metrics.pill_height
    id_text = f"#{memory_id}"
    id_width = QFontMetrics(fonts.bold).horizontalAdvance(id_text)
    result = CardLayout(card, id_text, QRect(inner.left(), header_y, id_width, pill_h))
    content_top = header_y + pill_h + metrics.gap
    result.content_rect = QRect(
        inner.left(), content_top, inner.width(), CONTENT_LINES * metrics.line_spacing
    )
    if parts is None:
        return result
    result.loading, result.dim = False, parts.dim
    x = inner.left() + id_width + metrics.gap
    status = parts.status
    result.badges.append((status, QRect(x, header_y, _pill_width(fonts, metrics, status.text), pill_h)))
    left_limit = x + result.badges[0][1].width() + metrics.gap
    right = inner.right() + 1
    for badge in reversed(parts.side):
        width = _pill_width(fonts, metrics, badge.text)
        if right - width < left_limit:
            continue  # no room: the panel shows everything anyway
        right -= width
        result.badges.append((badge, QRect(right, header_y, width, pill_h)))
        right -= metrics.gap // 2 + 2
    result.content_lines = clamp_lines(parts.content, fonts.body, inner.width(), CONTENT_LINES)
    _layout_meta(result, parts, fonts, metrics, inner)
    return result


def _layout_meta(
    result: CardLayout, parts: CardParts, fonts: CardFonts, metrics: CardMetrics, inner: QRect
) -> None:
    small = QFontMetrics(fonts.small)
    top = inner.bottom() + 1 - metrics.small_height
    right = inner.right() + 1
    origin = parts.origin
    if origin is not None:
        width = small.horizontalAdvance(origin.text)
        if width < inner.width() // 3:
            right -= width
            result.meta.append((origin, QRect(right, top, width, metrics.small_height), origin.text))
            right -= metrics.gap * 2
    x = inner.left()
    for index, piece in enumerate(parts.meta):
        label = piece.text if index == 0 else SEPARATOR + piece.text
        room = right - x
        if room <= small.horizontalAdvance("…") * 3:
            break
        shown = small.elidedText(label, Qt.TextElideMode.ElideRight, room)
        width = small.horizontalAdvance(shown)
        result.meta.append((piece, QRect(x, top, width, metrics.small_height), shown))
        x += width
        if shown != label:
            break
