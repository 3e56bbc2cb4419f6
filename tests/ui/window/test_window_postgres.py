"""The real window on a store on PostgreSQL: cards, selection with provenance, dismiss, search; an outside
rewrite shown after a poll."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.core.clock import ManualClock
from app.store import MemoryStore
from tests.conftest import REVIEW_TIME
from tests.support.pg_host import PostgresHostDb, seed_postgres
from tests.ui.window_helpers import make_window, select, settle
from ui.runtime.live_refresh import ServerWatcher
from ui.window.main_window import MainWindow


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


def test_an_outside_rewrite_on_the_server_is_shown_after_a_poll_and_quiet_polls_relist_nothing(
    qtbot: QtBot, pg_store: tuple[MemoryStore, PostgresHostDb], tmp_path: Path
) -> None:
    """No file to watch on a server: the window polls (`ServerWatcher`); a poll asks the store whether
    anyone else committed (one snapshot read) and relists only then."""
    store, host = pg_store
    window = make_window(qtbot, store, tmp_path, watch=True)
    watcher = window.watcher
    assert isinstance(watcher, ServerWatcher)
    watcher._poll.setInterval(100)  # the window's 2 s, shortened for the test
    polls: list[int] = []
    relistings: list[int] = []
    watcher.changed.connect(lambda: polls.append(1))
    window.controller.memoriesLoaded.connect(lambda _listing: relistings.append(1))
    window.controller.rowsLoaded.connect(lambda _rows: relistings.append(1))
    qtbot.waitUntil(lambda: len(polls) >= 4, timeout=10_000)
    settle(qtbot, window)
    assert relistings == []  # nothing changed: no poll relisted
    select(qtbot, window, 4)
    host.sql("UPDATE user_memories SET content = 'Lives in Lisbon (WET)' WHERE id = 4")  # another connection
    qtbot.waitUntil(lambda: _content(window, 4) == "Lives in Lisbon (WET)", timeout=5_000)
    assert relistings  # shown by a relisting...
    qtbot.waitUntil(lambda: window.panel.content.toPlainText() == "Lives in Lisbon (WET)", timeout=5_000)
    settle(qtbot, window)
    relistings.clear()
    seen = len(polls)
    qtbot.waitUntil(lambda: len(polls) >= seen + 4, timeout=10_000)
    settle(qtbot, window)
    assert relistings == []  # ...and only that once: quiet again


def _content(window: MainWindow, memory_id: int) -> str | None:
    memory = window.model.memory(memory_id)
    return memory.content if memory is not None else None
