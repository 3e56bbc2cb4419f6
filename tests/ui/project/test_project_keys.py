"""The project page by keyboard: Switch project… (Ctrl+Shift+P) from anywhere, J/K over the cards, Find
in the project's search, Ctrl+D archives with a reason and Ctrl+Shift+D restores, and no key shared
with another action while a project is shown."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from tests.support.host80 import ALPHA, Seeded
from tests.ui.project.helpers import open_project, select_memory
from tests.ui.shortcut_clashes import clashes
from tests.ui.window_helpers import settle
from ui.window.main_window import MainWindow

CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier


def active(qtbot: QtBot, window: MainWindow) -> None:
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=5_000)


def test_no_key_is_shared_while_a_project_is_shown(qtbot: QtBot, window: MainWindow) -> None:
    assert clashes(window) == []
    open_project(qtbot, window, ALPHA)
    assert clashes(window) == []
    window.projects.choose(None)
    assert clashes(window) == []


def test_the_picker_opens_from_the_keyboard(qtbot: QtBot, window: MainWindow) -> None:
    active(qtbot, window)
    window.list.setFocus()
    qtbot.keyClick(window.list, Qt.Key.Key_P, CTRL | SHIFT)
    picker = window.projects.picker
    assert QApplication.focusWidget() is picker
    qtbot.waitUntil(lambda: picker.view().isVisible(), timeout=10_000)  # once the projects are listed
    assert picker.count() > 1
    picker.hidePopup()


def test_walk_search_archive_and_restore_by_keys(qtbot: QtBot, window: MainWindow, seeded: Seeded) -> None:
    page = open_project(qtbot, window, ALPHA)
    active(qtbot, window)
    first = page.current_id()
    assert first is not None and QApplication.focusWidget() is page.list
    qtbot.keyClick(page.list, Qt.Key.Key_J)
    assert page.current_id() == page.model.ids[1]
    qtbot.keyClick(page.list, Qt.Key.Key_K)
    assert page.current_id() == first
    qtbot.keyClick(page.list, Qt.Key.Key_F, CTRL)
    assert QApplication.focusWidget() is page.filters.search
    qtbot.keyClicks(page.filters.search, "pnpm")
    qtbot.keyClick(page.filters.search, Qt.Key.Key_Return)
    assert QApplication.focusWidget() is page.list and page.model.ids == [seeded.active]
    select_memory(qtbot, page, seeded.active)
    qtbot.keyClick(page.list, Qt.Key.Key_D, CTRL)
    dialog = page.dialog
    assert dialog is not None and dialog.isVisible()
    dialog.setTextValue("moved to bun")
    dialog.accept()
    store = window.controller.store
    qtbot.waitUntil(
        lambda: (page.model.memory(seeded.active) or page.rows[0]).status == "archived", timeout=10_000
    )
    memory = store.project.memory(seeded.active)
    assert (
        memory is not None and memory.status == "archived" and "moved to bun" in (memory.metadata_json or "")
    )
    settle(qtbot, window)
    active(qtbot, window)
    page.list.setFocus()
    assert page.acts.restore.isEnabled()
    qtbot.keyClick(page.list, Qt.Key.Key_D, CTRL | SHIFT)
    qtbot.waitUntil(
        lambda: (page.model.memory(seeded.active) or page.rows[0]).status == "active", timeout=10_000
    )
    settle(qtbot, window)
