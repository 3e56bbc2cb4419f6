"""The history panel asks for a memory's history before it fills in the memory's details, so the store
reads while the window's thread works."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from app.store import MemoryFilter, MemoryStore
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
