"""The window as a launch builds it: over a store it opens later (`StoreLater`), on the runner's thread
after its first frame. What the window does on its own thread before then never opens it there."""

from __future__ import annotations

import threading
from pathlib import Path

from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from app.core.clock import ManualClock
from app.store import MemoryStore
from tests.conftest import REVIEW_TIME
from ui.runtime.controller import Controller
from ui.runtime.first_screen import StoreFacts, StoreLater
from ui.window.main_window import MainWindow


def test_a_card_tooltip_does_not_open_the_store_on_the_gui_thread(
    qtbot: QtBot, host_db: Path, tmp_path: Path
) -> None:
    clock = ManualClock(REVIEW_TIME)
    read = MemoryStore.open(host_db, clock=clock)
    memory = read.get(5)  # promoted from candidates 46, 47 and 48
    read.close()
    opened_on: list[threading.Thread] = []
    stores: list[MemoryStore] = []

    def open_store() -> MemoryStore:
        opened_on.append(threading.current_thread())
        stores.append(MemoryStore.open(host_db, clock=clock))
        return stores[-1]

    later = StoreLater(open_store, clock, StoreFacts(str(host_db), None))
    controller = Controller(later)
    settings = QSettings(str(tmp_path / "window.ini"), QSettings.Format.IniFormat)
    window = MainWindow(controller, settings=settings, watch=False)
    qtbot.addWidget(window, before_close_func=lambda w: w.controller.runner.wait_for_done(10_000))
    tips = window.list.card_delegate.evidence_tips
    assert "being read" in tips.tip(memory, "from candidates")  # a hover right after the first paint
    controller.runner.wait_for_done(10_000)
    assert opened_on and threading.main_thread() not in opened_on  # the words were read off the GUI thread
    for store in stores:
        store.close()
