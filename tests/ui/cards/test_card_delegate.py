"""The card delegate without the window: uniform height, painting every card state, tooltips per part."""

from __future__ import annotations

from dataclasses import replace

import pytest
from PySide6.QtCore import QRect
from PySide6.QtGui import QFont, QImage, QPainter
from PySide6.QtWidgets import QApplication, QListView, QStyleOptionViewItem
from pytestqt.qtbot import QtBot

from app.core.models import Memory
from app.core.provenance import ProvenanceEntry
from app.store import MemoryStore
from tests.conftest import REVIEW_TIME
from ui.cards.delegate import CardDelegate
from ui.cards.layout import CardFonts, CardMetrics, layout_card
from ui.cards.model import MemoryListModel
from ui.widgets.theme import dark_palette, light_palette

DAY = 86_400_000


def states(store: MemoryStore) -> list[Memory]:
    five = store.get(5)
    many = replace(five, source_candidate_ids=tuple(range(100, 112)))
    origins = replace(
        five,
        provenance=(
            *(five.provenance or ()),
            ProvenanceEntry(141, "ses_c3", 1, 2, "update"),
            ProvenanceEntry(143, "ses_c3", 3, 4, "update"),
        ),
    )
    hidden = replace(five, content="Prefers\u200b pnpm", has_hidden_characters=True)
    expiring = replace(five, expires_at=REVIEW_TIME + 3 * DAY)
    expired = replace(five, expires_at=REVIEW_TIME - 1, status="dismissed")
    odd = replace(five, status="archived", trust="untrusted", content="x " * 400)
    return [five, many, origins, hidden, expiring, expired, odd, store.get(3), store.get(2)]


@pytest.mark.parametrize("palette", [light_palette, dark_palette])
def test_every_card_state_paints_at_one_height(qtbot: QtBot, store: MemoryStore, palette: object) -> None:
    memories = states(store)
    model = MemoryListModel()
    model.set_listing([m.id for m in memories[:1]] + [9999], memories[:1])
    view = QListView()
    qtbot.addWidget(view)
    delegate = CardDelegate(store.now, view)
    option = QStyleOptionViewItem()
    option.initFrom(view)
    option.palette = palette()  # type: ignore[operator]
    heights = set()
    image = QImage(700, 200, QImage.Format.Format_ARGB32)
    for memory in memories:
        model.update_rows([replace(memory, id=memories[0].id)])
        index = model.index(0, 0)
        size = delegate.sizeHint(option, index)
        heights.add(size.height())
        option.rect = QRect(0, 0, 700, size.height())
        painter = QPainter(image)
        delegate.paint(painter, option, index)
        painter.end()
    option.rect = QRect(0, 0, 700, 120)
    painter = QPainter(image)
    delegate.paint(painter, option, model.index(1, 0))  # a row not loaded yet
    painter.end()
    assert len(heights) == 1


def test_tooltips_belong_to_the_part_under_the_mouse(qtbot: QtBot, store: MemoryStore) -> None:
    app = QApplication.instance()
    assert app is not None
    fonts = CardFonts.from_font(QFont())
    height = CardMetrics.from_fonts(fonts).card_height()
    memory = replace(store.get(5), source_candidate_ids=tuple(range(100, 112)), expires_at=REVIEW_TIME + DAY)
    layout = layout_card(QRect(0, 0, 900, height), memory, memory.id, fonts, REVIEW_TIME, False)
    texts = {badge.text: badge.tooltip for badge, _ in layout.badges}
    assert "active" in texts and "expires in 1d" in texts and "semi-trusted" in texts
    assert "session:ses_a1" in texts["semi-trusted"]
    candidates = next((piece, rect) for piece, rect, _ in layout.meta if piece.text.startswith("from"))
    assert "+4 more" in candidates[0].text
    point = candidates[1].center()
    tooltip = layout.tooltip_at(point.x(), point.y())
    assert tooltip is not None and tooltip.startswith("from candidates: 100, 101") and "111" in tooltip
    assert len(layout.content_lines) <= 2
