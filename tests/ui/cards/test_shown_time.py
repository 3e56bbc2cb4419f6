"""Relative times in the window: a card and the side panel beside it count from one instant, read once
when something is shown and again when the minute turns, so they never say 11m and 10m at once."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QStyleOptionViewItem
from pytestqt.qtbot import QtBot

from app.core.clock import ManualClock
from app.store import MemoryStore
from tests.ui.window_helpers import make_window, select, settle
from ui.window.main_window import MainWindow

MINUTE = 60_000


def card_meta_line(window: MainWindow, memory_id: int) -> str:
    """The meta line the card of `memory_id` paints (`active · promoted … · updated 10m ago · …`)."""
    row = window.model.row_of(memory_id)
    assert row is not None
    index = window.model.index(row, 0)
    option = QStyleOptionViewItem()
    window.list.initViewItemOption(option)
    option.rect = window.list.visualRect(index)
    layout, _ = window.list.card_delegate._layout(option, index)
    return "·".join(text for _, _, text in layout.meta)


def updated(text: str) -> str:
    parts = (part.strip() for part in text.replace("\n", "·").split("·"))
    return next(part for part in parts if part.startswith("updated"))


def test_the_card_and_the_panel_say_the_same_relative_time(
    qtbot: QtBot, store: MemoryStore, clock: ManualClock, tmp_path: Path
) -> None:
    store.edit(5, "Prefers pnpm, always")
    clock.advance(10 * MINUTE + 30_000)
    window = make_window(qtbot, store, tmp_path)
    select(qtbot, window, 5)
    qtbot.waitUntil(lambda: "updated" in window.panel.meta.text(), timeout=10_000)
    assert updated(window.panel.meta.text()) == updated(card_meta_line(window, 5)) == "updated 10m ago"
    clock.advance(40_000)  # the eleventh minute begins before the window's minute turns
    assert updated(card_meta_line(window, 5)) == updated(window.panel.meta.text()) == "updated 10m ago"
    window.minute.timeout.emit()  # the window's minute turns: both move on together
    assert updated(card_meta_line(window, 5)) == updated(window.panel.meta.text()) == "updated 11m ago"
    settle(qtbot, window)
