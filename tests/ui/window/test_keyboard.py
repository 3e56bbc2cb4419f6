"""The main window's keyboard path (offscreen; `tests/ui/xvfb` walks it again under a real X server): Enter
in the search field goes to the cards and never opens the editor, J/K walk the cards after a filter was
chosen with the mouse, the focus comes back to the history after Restore (so Ctrl+Z undoes it next), and
no two actions of any window share a key."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication, QComboBox, QWidget
from pytestqt.qtbot import QtBot

from app.store import MemoryStore
from tests.ui.every_window import each_window
from tests.ui.shortcut_clashes import clashes
from tests.ui.window_helpers import card_content, make_window, select, settle, with_older_revision_selected
from ui.window.main_window import MainWindow


def focused() -> QWidget:
    widget = QApplication.focusWidget()
    assert widget is not None
    return widget


def active(qtbot: QtBot, window: MainWindow) -> MainWindow:
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=5_000)
    return window


def choose_with_the_mouse(qtbot: QtBot, box: QComboBox, label: str) -> None:
    """Click the list open, then click the entry `label` in its popup."""
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton)
    view = box.view()
    qtbot.waitUntil(view.isVisible, timeout=5_000)
    row = box.findText(label)
    rect = view.visualRect(box.model().index(row, 0))

    def clicked() -> bool:  # the popup ignores a click as soon as it opens (a double-click's time)
        qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
        return not view.isVisible()

    qtbot.waitUntil(clicked, timeout=5_000)
    assert box.currentText() == label


def test_enter_in_the_search_field_goes_to_the_cards_and_never_opens_the_editor(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path
) -> None:
    window = active(qtbot, make_window(qtbot, store, tmp_path))
    select(qtbot, window, 5)
    qtbot.keyClick(window, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)  # Find
    assert focused() is window.filters.search
    qtbot.keyClicks(window.filters.search, "pnpm")
    qtbot.keyClick(window.filters.search, Qt.Key.Key_Return)
    assert window.commands.edit_dialog is None
    assert focused() is window.list
    qtbot.waitUntil(lambda: list(window.model.ids) == [5], timeout=10_000)
    window.filters.status.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.keyClick(window.filters.status, Qt.Key.Key_Return)  # a list of the filter row: nothing either
    assert window.commands.edit_dialog is None
    settle(qtbot, window)


def test_j_and_k_walk_the_cards_after_a_filter_was_chosen_with_the_mouse(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path
) -> None:
    window = active(qtbot, make_window(qtbot, store, tmp_path))
    select(qtbot, window, 5)
    window.list.setFocus()
    for box, label in ((window.filters.status, "All"), (window.filters.trust, "Semi-trusted")):
        choose_with_the_mouse(qtbot, box, label)
        settle(qtbot, window)
        qtbot.waitUntil(lambda: window.list.current_id() is not None, timeout=10_000)
        before = window.list.current_id()
        row = window.model.row_of(before) if before is not None else None
        assert row is not None and row + 1 < window.model.rowCount()
        qtbot.keyClick(focused(), Qt.Key.Key_J)
        assert window.list.current_id() != before, f"J did nothing after choosing {label}"
        qtbot.keyClick(focused(), Qt.Key.Key_K)
        assert window.list.current_id() == before
    settle(qtbot, window)


def test_after_restore_the_focus_is_back_in_the_history_and_ctrl_z_undoes_the_restore(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path
) -> None:
    window = active(qtbot, with_older_revision_selected(qtbot, store, tmp_path))
    button = window.panel.restore_button
    window.panel.revisions.setFocus()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton, pos=QPoint(4, 4))
    qtbot.waitUntil(lambda: card_content(window, 5) == "Prefers pnpm v2", timeout=10_000)
    qtbot.waitUntil(lambda: not button.isEnabled(), timeout=10_000)
    assert focused() is window.panel.revisions
    qtbot.keyClick(focused(), Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: card_content(window, 5) == "Prefers pnpm v3", timeout=10_000)
    settle(qtbot, window)


def test_no_two_actions_of_any_window_share_a_key(qtbot: QtBot, store: MemoryStore, tmp_path: Path) -> None:
    window = active(qtbot, make_window(qtbot, store, tmp_path))
    select(qtbot, window, 5)
    assert clashes(window) == []
    for name, opened in each_window(qtbot, window):
        assert clashes(opened) == [], name
        assert clashes(window) == [], f"the main window, {name} open"
    window.look_back(store.now())  # As of…: the past's own keys (J/K, Esc) beside the window's
    qtbot.waitUntil(lambda: window.looking_back, timeout=10_000)
    assert clashes(window) == []
    window.leave_as_of()
    settle(qtbot, window)
