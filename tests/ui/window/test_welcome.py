"""An empty store says how to start: write a memory (through the window's New memory action, once it has
one), open the host's database (directly when it is in its usual place), any file, or the demo."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QAction
from pytestqt.qtbot import QtBot

from app.core.clock import ManualClock
from app.core.paths import host_database_path
from app.store import MemoryStore
from tests.conftest import REVIEW_TIME
from tests.support.hostdb import build_host_db
from tests.ui.window_helpers import make_window, settle


def test_an_empty_store_offers_each_way_to_start(qtbot: QtBot, tmp_path: Path) -> None:
    host = host_database_path()
    host.parent.mkdir(parents=True)
    build_host_db(host)  # the host's own file, in its usual place, with the seed's memories
    store = MemoryStore.open(build_host_db(tmp_path / "empty.db", seed=False), clock=ManualClock(REVIEW_TIME))
    try:
        window = make_window(qtbot, store, tmp_path)
        welcome = window.welcome
        qtbot.waitUntil(lambda: window.pages.currentWidget() is welcome)
        assert "File → Open database…" in welcome.text.text()
        assert welcome.open_button.isVisible() and welcome.demo_button.isVisible()
        assert welcome.host_button.isVisible() and str(host) in welcome.host_button.toolTip()
        # The hook for writing a first memory: shown only for a window that has the action.
        new_memory = getattr(window.acts, "new_memory", None)
        assert welcome.new_button.isVisible() == (new_memory is not None)
        written: list[bool] = []
        action = QAction("New memory…", window)
        action.setToolTip("Write a memory yourself (Ctrl+N)")
        action.triggered.connect(lambda: written.append(True))
        welcome.set_new_memory_action(action)
        assert welcome.new_button.isVisible() and welcome.new_button.text() == "New memory…"
        assert "New memory…" in welcome.text.text()
        welcome.new_button.click()
        assert written == [True]
        with qtbot.waitSignal(window.controller.storeChanged, timeout=10_000):
            welcome.host_button.click()
        qtbot.waitUntil(lambda: window.pages.currentWidget() is window.splitter, timeout=10_000)
        assert window.controller.store.location == str(host)
        settle(qtbot, window)
        window.close()
    finally:
        store.close()
