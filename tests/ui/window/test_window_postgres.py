"""The real window on a store on PostgreSQL: cards, selection with provenance, dismiss, search."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import REVIEW_TIME
from pg_host import PostgresHostDb, seed_postgres
from pytestqt.qtbot import QtBot
from window_helpers import make_window, select, settle

from app.core.clock import ManualClock
from app.store import MemoryStore


@pytest.fixture
def pg_store(postgres_db: str, tmp_path: Path) -> Iterator[tuple[MemoryStore, PostgresHostDb]]:
    host = seed_postgres(postgres_db, tmp_path)
    store = MemoryStore.open(postgres_db, clock=ManualClock(REVIEW_TIME))
    yield store, host
    store.close()


def test_the_window_lists_selects_dismisses_and_searches_on_postgresql(
    qtbot: QtBot, pg_store: tuple[MemoryStore, PostgresHostDb], tmp_path: Path
) -> None:
    store, host = pg_store
    window = make_window(qtbot, store, tmp_path)
    assert list(window.model.ids) == [5, 4, 3, 1]  # active, newest promoted first
    assert window.windowTitle() == f"Memory Dashboard — {store.location}"
    assert store.location.startswith("postgresql+psycopg://") and "/mdash_test_" in store.location
    select(qtbot, window, 5)
    assert window.panel.content.toPlainText() == "Prefers pnpm"
    assert window.panel.provenance.rowCount() == 3
    window.acts.dismiss.trigger()
    qtbot.waitUntil(lambda: window.model.row_of(5) is None, timeout=10_000)
    assert host.query("SELECT status FROM user_memories WHERE id = 5") == [("dismissed",)]
    assert host.profile_version() == 8
    window.filters.search.setText("BERLIN")  # case-insensitive, as on SQLite
    qtbot.waitUntil(lambda: list(window.model.ids) == [4], timeout=10_000)
    settle(qtbot, window)
