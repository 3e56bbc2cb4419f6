"""The window indexes changed contents when idle, never inside a person's writes."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.store import MemoryFilter, MemoryStore
from tests.support.hostdb import build_host_db, has_table, pending_index_changes, search_index_intact
from ui.runtime import idle_indexing
from ui.runtime.controller import Controller


@pytest.fixture(autouse=True)
def quick_idle(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(idle_indexing, "IDLE_MS", 50)
    monkeypatch.setattr(idle_indexing, "NEXT_STEP_MS", 5)


def test_changes_are_indexed_once_the_window_is_idle(qtbot: QtBot, tmp_path: Path) -> None:
    path = build_host_db(tmp_path / "context.db")
    store = MemoryStore.open(path)
    if not has_table(path, "mdash_search"):
        pytest.skip("this SQLite has no FTS5 trigram tokenizer")
    for number in range(3):
        store.edit(1, f"Works mostly in Python, revision {number} about kubernetes")
    assert pending_index_changes(path) > 0
    controller = Controller(store)
    with qtbot.waitSignal(controller.memoriesLoaded, timeout=10_000):
        controller.refresh()
    assert controller.idle_indexing.pending
    qtbot.waitUntil(
        lambda: not controller.idle_indexing.pending and not controller.runner.busy, timeout=10_000
    )
    assert pending_index_changes(path) == 0 and search_index_intact(path)
    assert store.list_ids(MemoryFilter(search="kubernetes")) == [1]
    controller.runner.wait_for_done()
    store.close()


def test_a_read_only_window_never_indexes(qtbot: QtBot, tmp_path: Path) -> None:
    path = build_host_db(tmp_path / "context.db")
    MemoryStore.open(path).close()
    store = MemoryStore.open(path, read_only=True)
    controller = Controller(store)
    with qtbot.waitSignal(controller.memoriesLoaded, timeout=10_000):
        controller.refresh()
    assert not controller.idle_indexing.pending
    controller.runner.wait_for_done()
    store.close()
