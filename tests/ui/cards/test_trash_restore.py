"""The trash has its own Restore button where a person looks: above the deleted memories' cards, shown
only while the Deleted filter lists them, enabled with a deleted memory selected, restoring the whole
selection in one write (one Undo), reachable by Tab."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.store import MemoryStore
from tests.support.hostdb import query
from tests.ui.window_helpers import make_window, select, settle


def test_the_trash_shows_a_restore_button_that_brings_the_selection_back(
    qtbot: QtBot, store: MemoryStore, host_db: Path, tmp_path: Path
) -> None:
    store.delete([1, 4])
    window = make_window(qtbot, store, tmp_path)
    button = window.title_row.restore
    assert not button.isVisible()  # Active: nothing to restore
    window.filters.set_status("deleted")
    qtbot.waitUntil(lambda: sorted(window.model.ids) == [1, 4], timeout=10_000)
    assert button.isVisible() and button.text() == "Restore"
    select(qtbot, window, 4)
    assert button.isEnabled()
    window.list.setFocus()
    qtbot.keyClick(window.list, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: list(window.model.ids) == [], timeout=10_000)
    assert query(host_db, "SELECT id, status FROM user_memories WHERE id IN (1, 4) ORDER BY id") == [
        (1, "active"),
        (4, "active"),
    ]
    assert window.acts.undo.text() == "Undo restore of 2 memories"
    assert not button.isEnabled()  # the trash is empty: nothing selected
    window.filters.set_status("active")
    qtbot.waitUntil(lambda: not button.isVisible(), timeout=10_000)
    settle(qtbot, window)


def test_tab_reaches_the_restore_button_from_the_cards(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path
) -> None:
    store.delete([4])
    window = make_window(qtbot, store, tmp_path)
    window.filters.set_status("deleted")
    qtbot.waitUntil(lambda: list(window.model.ids) == [4], timeout=10_000)
    select(qtbot, window, 4)
    window.activateWindow()
    window.list.setFocus()
    qtbot.waitUntil(window.list.hasFocus, timeout=10_000)
    qtbot.keyClick(window.list, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is window.title_row.restore
    settle(qtbot, window)
