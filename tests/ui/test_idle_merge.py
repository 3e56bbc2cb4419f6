"""The window merges the search index's segments when idle, never inside a person's writes."""

from __future__ import annotations

from pathlib import Path

import pytest
from hostdb import build_host_db, merge_work, query
from pytestqt.qtbot import QtBot

from app.store import MemoryFilter, MemoryStore
from ui import idle_merge
from ui.controller import Controller


@pytest.fixture(autouse=True)
def quick_idle(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(idle_merge, "IDLE_MS", 50)
    monkeypatch.setattr(idle_merge, "NEXT_STEP_MS", 5)


def test_writes_are_merged_once_the_window_is_idle(qtbot: QtBot, tmp_path: Path) -> None:
    path = build_host_db(tmp_path / "context.db")
    store = MemoryStore.open(path)
    if not query(path, "SELECT 1 FROM sqlite_master WHERE name = 'mdash_search'"):
        pytest.skip("this SQLite has no FTS5 trigram tokenizer")
    for number in range(12):  # each its own transaction and index segment
        store.edit(1, f"Works mostly in Python, revision {number} about kubernetes")
    assert merge_work(path) >= 2
    controller = Controller(store)
    with qtbot.waitSignal(controller.memoriesLoaded, timeout=10_000):
        controller.refresh()
    assert controller.idle_merge.pending
    qtbot.waitUntil(lambda: not controller.idle_merge.pending and not controller.runner.busy, timeout=10_000)
    assert merge_work(path) < 2
    assert store.list_ids(MemoryFilter(search="kubernetes")) == [1]
    controller.runner.wait_for_done()
    store.close()


def test_a_read_only_window_never_merges(qtbot: QtBot, tmp_path: Path) -> None:
    path = build_host_db(tmp_path / "context.db")
    MemoryStore.open(path).close()
    store = MemoryStore.open(path, read_only=True)
    controller = Controller(store)
    with qtbot.waitSignal(controller.memoriesLoaded, timeout=10_000):
        controller.refresh()
    assert not controller.idle_merge.pending
    controller.runner.wait_for_done()
    store.close()
