"""Driving the real main window in tests: build it on a store, wait for the controller to go quiet."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from app.core.models import Memory
from app.store import MemoryStore
from ui.runtime.controller import Controller
from ui.window.main_window import MainWindow


def make_window(qtbot: QtBot, store: MemoryStore, tmp_path: Path, *, watch: bool = False) -> MainWindow:
    settings = QSettings(str(tmp_path / "window.ini"), QSettings.Format.IniFormat)
    controller = Controller(store)
    window = MainWindow(controller, settings=settings, watch=watch)
    qtbot.addWidget(window, before_close_func=lambda w: w.controller.runner.wait_for_done(10_000))
    window.resize(1200, 800)
    window.show()
    with qtbot.waitSignal(controller.memoriesLoaded, timeout=10_000):
        controller.refresh()
    controller.load_candidates()
    settle(qtbot, window)
    return window


def settle(qtbot: QtBot, window: MainWindow) -> None:
    """Wait until every queued store call has delivered its result."""
    qtbot.waitUntil(lambda: not window.controller.runner.busy, timeout=10_000)


def select(qtbot: QtBot, window: MainWindow, memory_id: int) -> Memory:
    qtbot.waitUntil(lambda: window.select_id(memory_id), timeout=10_000)
    qtbot.waitUntil(lambda: window.panel.history_memory_id == memory_id, timeout=10_000)
    memory = window.selected_memory()
    assert memory is not None and memory.id == memory_id
    return memory


def card_content(window: MainWindow, memory_id: int) -> str | None:
    memory = window.model.memory(memory_id)
    return memory.content if memory is not None else None
