"""The card list keeps its place: a refresh that inserts rows above keeps the first visible card put."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from PySide6.QtCore import QPoint, Qt
from pytestqt.qtbot import QtBot

from app.core.clock import ManualClock
from app.store import MemoryStore
from tests.conftest import REVIEW_TIME
from tests.support.hostdb import DAY, T0, build_host_db, host_sql, memory_row
from tests.ui.window_helpers import make_window, settle
from ui.cards.card_list import CardList
from ui.cards.model import ID_ROLE, MemoryListModel


def eighty_memories(tmp_path: Path) -> Path:
    """Memories 1..80, "Memory N", promoted a day apart (80 is the newest)."""
    path = build_host_db(tmp_path / "many.db", seed=False)
    conn = sqlite3.connect(path)
    for number in range(1, 81):
        memory_row(conn, number, f"Memory {number}", promoted_at=T0 + number * DAY, ids=[number])
    conn.commit()
    conn.close()
    return path


def test_refresh_keeps_the_scroll_anchor_and_the_selection(qtbot: QtBot, tmp_path: Path) -> None:
    path = eighty_memories(tmp_path)
    store = MemoryStore.open(path, clock=ManualClock(REVIEW_TIME))
    try:
        window = make_window(qtbot, store, tmp_path)
        cards = window.list
        assert window.select_id(40, center=True)
        qtbot.waitUntil(lambda: cards.verticalScrollBar().value() > 0)
        top_before = cards.indexAt(QPoint(4, 1)).data(ID_ROLE)
        offset_before = cards.visualRect(cards.indexAt(QPoint(4, 1))).top()
        host_sql(
            path,
            "INSERT INTO user_memories (id, content, status, promoted_at, source_candidate_ids,"
            " source_candidate_provenance, created_at, updated_at) VALUES (500, 'Newest', 'active', ?, '[]',"
            " NULL, ?, ?)",
            (T0 + 200 * DAY, T0 + 200 * DAY, T0 + 200 * DAY),
        )
        window.controller.refresh()
        qtbot.waitUntil(lambda: window.model.row_of(500) == 0, timeout=10_000)
        assert cards.indexAt(QPoint(4, 1)).data(ID_ROLE) == top_before
        assert cards.visualRect(cards.indexAt(QPoint(4, 1))).top() == offset_before
        assert cards.current_id() == 40
        settle(qtbot, window)
        window.close()
    finally:
        store.close()


def test_another_filter_keeps_the_selected_card_in_view(qtbot: QtBot, tmp_path: Path) -> None:
    """Clearing a search lists the selected card far from where it was: the list scrolls to it, so the
    card Enter edits (and a Save repaints) stays on screen; a selected card the person had scrolled
    away from does not pull the list."""
    path = eighty_memories(tmp_path)
    store = MemoryStore.open(path, clock=ManualClock(REVIEW_TIME))
    try:
        window = make_window(qtbot, store, tmp_path)
        cards = window.list

        def search(text: str) -> None:
            window.filters.search.setText(text)
            window.filters.search.returnPressed.emit()
            qtbot.waitUntil(lambda: window.controller.filter.search == text, timeout=10_000)
            settle(qtbot, window)

        search("Memory 7")
        assert window.model.ids[-1] == 7  # the oldest hit: the last card
        assert window.select_id(7)
        assert cards.current_on_screen()
        search("")
        assert window.model.rowCount() == 80 and cards.current_id() == 7
        assert cards.current_on_screen()
        cards.scrollToTop()
        assert not cards.current_on_screen()
        search("Memory")
        assert cards.current_id() == 7 and not cards.current_on_screen()
        assert cards.verticalScrollBar().value() == 0
        window.close()
    finally:
        store.close()


def test_end_page_down_and_select_all_reach_every_card_of_a_large_listing(qtbot: QtBot) -> None:
    """The list of 100,000 ids (no rows read): End reaches the last card, the scroll bar spans them all,
    Ctrl+A selects them all."""
    model = MemoryListModel(cache_limit=500)
    cards = CardList(model, lambda: REVIEW_TIME)
    qtbot.addWidget(cards)
    cards.resize(600, 800)
    cards.show()
    ids = list(range(1, 100_001))
    model.set_listing(ids)
    cards.setCurrentIndex(model.index(0, 0))
    cards.setFocus()
    qtbot.keyClick(cards, Qt.Key.Key_End)
    assert cards.current_id() == 100_000
    bar = cards.verticalScrollBar()
    assert bar.value() == bar.maximum() > 0
    qtbot.keyClick(cards, Qt.Key.Key_Home)
    assert bar.value() == 0 and cards.current_id() == 1
    qtbot.keyClick(cards, Qt.Key.Key_PageDown)
    qtbot.keyClick(cards, Qt.Key.Key_PageDown)
    assert bar.value() > 0 and (cards.current_id() or 0) > 2
    qtbot.keyClick(cards, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    assert cards.selected_count() == 100_000
    model.set_listing(ids[::2])  # a new listing of another size: one layout change
    qtbot.keyClick(cards, Qt.Key.Key_End)
    assert cards.current_id() == 99_999
