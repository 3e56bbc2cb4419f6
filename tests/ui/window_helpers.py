"""Driving the real main window in tests: build it on a store, wait for the controller to go quiet."""

from __future__ import annotations

from concurrent.futures import Future
from pathlib import Path

from PySide6.QtCore import QSettings, QSize, QTimer
from pytestqt.qtbot import QtBot

from app.core.clock import ManualClock
from app.core.models import Memory
from app.store import MemoryStore
from tests.support.hostdb import HOUR
from ui.runtime.controller import Controller
from ui.window.main_window import MainWindow


def shown_window(qtbot: QtBot, store: MemoryStore, tmp_path: Path, *, watch: bool = False) -> MainWindow:
    """A window over `store`, 1200x800, shown, its settings its own; nothing listed yet."""
    settings = QSettings(str(tmp_path / "window.ini"), QSettings.Format.IniFormat)
    window = MainWindow(Controller(store), settings=settings, watch=watch)
    qtbot.addWidget(window, before_close_func=lambda w: w.controller.runner.wait_for_done(10_000))
    window.resize(1200, 800)
    window.show()
    return window


def make_window(qtbot: QtBot, store: MemoryStore, tmp_path: Path, *, watch: bool = False) -> MainWindow:
    window = shown_window(qtbot, store, tmp_path, watch=watch)
    controller = window.controller
    with qtbot.waitSignal(controller.memoriesLoaded, timeout=10_000):
        controller.refresh()
    controller.load_candidates()
    settle(qtbot, window)
    return window


def edited_store(host_db: str | Path, clock: ManualClock) -> MemoryStore:
    """The seed's store after its first look, #4 edited in the dashboard an hour later and rewritten by
    the review an hour after that (run-5, candidate 151); the clock an hour past the review."""
    store = MemoryStore.open(host_db, clock=clock)
    store.observe()
    clock.advance(HOUR)
    store.edit(4, "Lives in Berlin (CET)\nWorks remotely.")
    clock.advance(HOUR)
    store.update_content(
        4, "Lives in Berlin (CET)\nWorks remotely.\nRuns pytest -q.", [151], run_id="run-5", source="review"
    )
    clock.advance(HOUR)
    return store


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


def select_oldest_revision(qtbot: QtBot, window: MainWindow, at_least: int) -> None:
    """Wait for `at_least` revisions in the history panel, then select the oldest one."""
    revisions = window.panel.revisions
    qtbot.waitUntil(lambda: revisions.topLevelItemCount() >= at_least, timeout=10_000)
    oldest = revisions.topLevelItem(revisions.topLevelItemCount() - 1)
    assert oldest is not None
    revisions.setCurrentItem(oldest)


def with_older_revision_selected(qtbot: QtBot, store: MemoryStore, tmp_path: Path) -> MainWindow:
    """Memory 5 edited twice, its window open with the oldest of those revisions selected (Restore on)."""
    store.edit(5, "Prefers pnpm v2")
    store.edit(5, "Prefers pnpm v3")
    window = make_window(qtbot, store, tmp_path)
    select(qtbot, window, 5)
    select_oldest_revision(qtbot, window, 2)
    qtbot.waitUntil(window.panel.restore_button.isEnabled, timeout=10_000)
    return window


def open_queue(qtbot: QtBot, window: MainWindow, ids: list[int] | None = None) -> None:
    """Open the review queue, wait for the seed's six candidates, and select `ids`."""
    window.acts.review_queue.trigger()
    qtbot.waitUntil(lambda: window.queue.table.topLevelItemCount() == 6, timeout=10_000)
    if ids:
        window.queue.select_ids(ids)


def saved_window(qtbot: QtBot, store: MemoryStore, tmp_path: Path, size: QSize) -> QSettings:
    """The settings a window of `size` leaves when it closes: its panels split 300/500, its toolbar hidden."""
    settings = QSettings(str(tmp_path / "saved.ini"), QSettings.Format.IniFormat)
    window = MainWindow(Controller(store), settings=settings, watch=False)
    qtbot.addWidget(window, before_close_func=lambda w: w.controller.runner.wait_for_done(10_000))
    window.resize(size)
    window.show()
    qtbot.waitExposed(window)
    window.splitter.setSizes([300, 500])
    window.toolbar.hide()
    window.save_state()
    window.close()
    return settings


def reopened(qtbot: QtBot, store: MemoryStore, settings: QSettings) -> MainWindow:
    """A window built on saved settings, as a launch builds it (hidden, its size its own)."""
    window = MainWindow(Controller(store), settings=settings, watch=False)
    qtbot.addWidget(window, before_close_func=lambda w: w.controller.runner.wait_for_done(10_000))
    return window


def give_up_later(waited: Future[str], ms: int = 10_000) -> None:
    """A wait nobody answered is settled after `ms`: the test then fails on what it expected, not hangs."""

    def give_up() -> None:
        if not waited.done():
            waited.set_result("unanswered")

    QTimer.singleShot(ms, give_up)
