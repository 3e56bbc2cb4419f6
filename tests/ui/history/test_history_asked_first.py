"""The history panel asks for a memory's history before it fills in the memory's details, so the store
reads while the window's thread works."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from app.store import MemoryFilter, MemoryStore
from tests.ui.window_helpers import make_window, select, settle
from ui.history.panel import HistoryPanel


def test_the_history_is_asked_for_before_the_details_are_shown(qtbot: QtBot, store: MemoryStore) -> None:
    first, second = store.get_many(store.list_ids(MemoryFilter(status="all"))[:2])
    panel = HistoryPanel(store.now)
    qtbot.addWidget(panel)
    titles: list[str] = []
    panel.historyWanted.connect(lambda _memory_id: titles.append(panel.title.text()))
    with qtbot.waitSignal(panel.historyWanted, timeout=5_000):
        panel.show_memory(first)
    panel.set_history(first.id, [])
    with qtbot.waitSignal(panel.historyWanted, timeout=5_000):
        panel.show_memory(second)
    assert titles[1] == f"Memory #{first.id}"  # asked while the first memory's details were shown
    assert panel.title.text() == f"Memory #{second.id}"


def test_after_a_save_the_history_is_read_before_the_counts(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path
) -> None:
    """The write's result asks for the edited memory's history in the same turn, so its read is queued
    ahead of the counts the write asks for (the one store thread would read the counts first)."""
    window = make_window(qtbot, store, tmp_path)
    memory = select(qtbot, window, 5)
    arrived: list[str] = []
    window.controller.historyLoaded.connect(lambda memory_id, _rows: arrived.append(f"history {memory_id}"))
    window.controller.countsChanged.connect(lambda _counts: arrived.append("counts"))
    with qtbot.waitSignal(window.controller.countsChanged, timeout=10_000):
        window.controller.edit(memory, "Prefers pnpm, always")  # what the dialog's Save does
    settle(qtbot, window)
    assert arrived[:2] == ["history 5", "counts"]
    assert window.panel.revisions.revisions()[0].new_content == "Prefers pnpm, always"
