"""The card list keeps its place: a refresh that inserts rows above keeps the first visible card put."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from conftest import REVIEW_TIME
from hostdb import DAY, T0, build_host_db, host_sql, memory_row
from PySide6.QtCore import QPoint
from pytestqt.qtbot import QtBot
from window_helpers import make_window, settle

from app.core.clock import ManualClock
from app.store import MemoryStore
from ui.cards.model import ID_ROLE


def test_refresh_keeps_the_scroll_anchor_and_the_selection(qtbot: QtBot, tmp_path: Path) -> None:
    path = build_host_db(tmp_path / "many.db", seed=False)
    conn = sqlite3.connect(path)
    for number in range(1, 81):
        memory_row(conn, number, f"Memory {number}", promoted_at=T0 + number * DAY, ids=[number])
    conn.commit()
    conn.close()
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
