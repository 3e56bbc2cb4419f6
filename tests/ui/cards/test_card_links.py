"""A card's links: asked for a page at a time as cards are painted, and only once until forgotten; a
card whose links changed repaints alone; the window shows "merged from #2" on the kept card after a
merge made elsewhere, and a click on it, on the card or in the history panel, selects the memory named
(one the filter hides is listed under All, the status bar saying so)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from pytestqt.qtbot import QtBot

from app.store import MemoryStore
from app.tidy import merge
from tests.support.tidy_memories import tidy_db
from tests.ui.window_helpers import make_window, select, settle
from ui.cards.layout import CardFonts, layout_card
from ui.cards.model import LINKS_ROLE, MemoryListModel
from ui.window.main_window import MainWindow


def test_links_are_asked_for_once_per_page_and_repaint_only_what_changed(qtbot: QtBot) -> None:
    model = MemoryListModel(page_size=2)
    model.set_listing([10, 11, 12])
    asked: list[list[int]] = []
    model.linksWanted.connect(asked.append)
    changed: list[tuple[int, int, list[int]]] = []
    model.dataChanged.connect(lambda top, bottom, roles: changed.append((top.row(), bottom.row(), roles)))
    assert model.index(0, 0).data(LINKS_ROLE) == ()
    assert model.index(1, 0).data(LINKS_ROLE) == ()
    qtbot.waitUntil(lambda: asked == [[10, 11]])
    model.set_links([10, 11], {11: ["merged from #12"]})
    assert model.index(1, 0).data(LINKS_ROLE) == ("merged from #12",)
    assert changed == [(1, 1, [LINKS_ROLE])]
    model.set_links([10, 11], {11: ["merged from #12"]})  # the same answer: nothing repaints
    assert len(changed) == 1
    model.index(0, 0).data(LINKS_ROLE)
    model.forget_links()
    assert model.index(1, 0).data(LINKS_ROLE) == ("merged from #12",)  # kept while asked again
    qtbot.waitUntil(lambda: asked[-1] == [10, 11])
    model.set_links([10, 11], {})
    assert model.index(1, 0).data(LINKS_ROLE) == () and changed[-1] == (1, 1, [LINKS_ROLE])


@pytest.fixture
def store(tmp_path: Path) -> Iterator[MemoryStore]:
    opened = MemoryStore.open(tidy_db(tmp_path / "context.db"))
    yield opened
    opened.close()


def _link_point(window: MainWindow, memory_id: int) -> QPoint:
    """The middle of the card's first link, where the delegate lays it out."""
    cards = window.list
    index = window.model.index_of(memory_id)
    layout = layout_card(
        cards.visualRect(index),
        window.model.memory(memory_id),
        memory_id,
        CardFonts.from_font(cards.font()),
        cards.shown_time(),
        False,
        index.data(LINKS_ROLE),
    )
    rect = next(rect for piece, rect, _ in layout.meta if piece.target is not None)
    return rect.center()


def _selected(window: MainWindow) -> int | None:
    memory = window.selected_memory()
    return None if memory is None else memory.id


def test_the_card_and_the_panel_show_links_and_select_what_they_name(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path
) -> None:
    window = make_window(qtbot, store, tmp_path)
    settle(qtbot, window)
    window.filters.set_status("active")
    settle(qtbot, window)
    merge.apply(store, merge.plan(store, [1, 2]), "Prefers pnpm over npm", "cli")  # as the CLI would
    window.refresh()
    qtbot.waitUntil(lambda: 2 not in window.model.ids, timeout=10_000)
    index = window.model.index_of(1)
    qtbot.waitUntil(lambda: index.data(LINKS_ROLE) == ("merged from #2",), timeout=10_000)
    select(qtbot, window, 3)
    QTest.mouseClick(window.list.viewport(), Qt.MouseButton.LeftButton, pos=_link_point(window, 1))
    qtbot.waitUntil(lambda: _selected(window) == 2, timeout=10_000)
    assert window.statusBar().currentMessage() == "All memories listed, to show #2"
    qtbot.waitUntil(lambda: window.panel.links.plain() == "merged into #1", timeout=10_000)
    window.panel.links.linkActivated.emit("memory:1")
    qtbot.waitUntil(lambda: _selected(window) == 1, timeout=10_000)
