"""Every editing dialog answers the same keys: Ctrl+Enter (Ctrl+Return, the keypad's Enter, Ctrl+S)
saves, Esc cancels, and Esc asks "Discard your changes?" first once something was typed (Esc again, or
Keep editing, goes back to the text; D discards). Tab leaves a text field instead of typing a tab."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialog, QMessageBox, QWidget
from pytestqt.qtbot import QtBot

from app.store import MemoryStore
from tests.ui.every_window import CASES, Case, openers, shown
from tests.ui.window_helpers import make_window, select, settle
from ui.widgets.dialog_keys import DISCARD_TITLE, DialogKeys
from ui.window.main_window import MainWindow

CTRL = Qt.KeyboardModifier.ControlModifier
SAVE_KEYS = (
    (Qt.Key.Key_Return, CTRL),
    (Qt.Key.Key_Enter, CTRL | Qt.KeyboardModifier.KeypadModifier),
    (Qt.Key.Key_S, CTRL),
)


def opened(qtbot: QtBot, window: MainWindow, name: str) -> QDialog:
    window.activateWindow()
    dialog = shown(qtbot, openers(qtbot, window)[name]())
    assert isinstance(dialog, QDialog) and isinstance(dialog.findChild(DialogKeys), DialogKeys)
    return dialog


def focused() -> QWidget:
    widget = QApplication.focusWidget()
    assert widget is not None
    return widget


def question(qtbot: QtBot, dialog: QDialog) -> QMessageBox:
    keys = dialog.findChild(DialogKeys)
    assert isinstance(keys, DialogKeys)
    qtbot.waitUntil(lambda: keys.question is not None and keys.question.isVisible(), timeout=5_000)
    assert keys.question is not None and keys.question.windowTitle() == DISCARD_TITLE
    return keys.question


@pytest.fixture
def window(qtbot: QtBot, store: MemoryStore, tmp_path: Path) -> MainWindow:
    shown_window = make_window(qtbot, store, tmp_path)
    select(qtbot, shown_window, 5)
    return shown_window


@pytest.mark.parametrize("case", CASES, ids=[case.opener for case in CASES])
@pytest.mark.parametrize("keys", range(len(SAVE_KEYS)), ids=["Ctrl+Return", "Ctrl+Enter", "Ctrl+S"])
def test_ctrl_enter_saves(qtbot: QtBot, window: MainWindow, case: Case, keys: int) -> None:
    dialog = opened(qtbot, window, case.opener)
    case.type_in(qtbot, dialog)
    key, modifiers = SAVE_KEYS[keys]
    qtbot.keyClick(focused(), key, modifiers)
    qtbot.waitUntil(lambda: not dialog.isVisible(), timeout=10_000)
    assert dialog.result() == QDialog.DialogCode.Accepted
    qtbot.waitUntil(lambda: case.saved(window), timeout=10_000)
    window.leave_as_of()
    settle(qtbot, window)


@pytest.mark.parametrize("case", CASES, ids=[case.opener for case in CASES])
def test_esc_asks_before_it_throws_typed_text_away(qtbot: QtBot, window: MainWindow, case: Case) -> None:
    dialog = opened(qtbot, window, case.opener)
    case.type_in(qtbot, dialog)
    qtbot.keyClick(focused(), Qt.Key.Key_Escape)
    box = question(qtbot, dialog)
    qtbot.keyClick(box, Qt.Key.Key_Escape)  # keep editing
    qtbot.waitUntil(lambda: not box.isVisible(), timeout=5_000)
    assert dialog.isVisible()
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    box = question(qtbot, dialog)
    qtbot.keyClick(box, Qt.Key.Key_Return)  # the default keeps editing too
    qtbot.waitUntil(lambda: not box.isVisible(), timeout=5_000)
    assert dialog.isVisible()
    dialog.close()  # the window's close button asks the same
    box = question(qtbot, dialog)
    qtbot.keyClick(box, Qt.Key.Key_D)  # Discard
    qtbot.waitUntil(lambda: not dialog.isVisible(), timeout=5_000)
    assert dialog.result() == QDialog.DialogCode.Rejected
    settle(qtbot, window)
    assert not case.saved(window)


@pytest.mark.parametrize("case", CASES, ids=[case.opener for case in CASES])
def test_esc_on_an_untouched_dialog_closes_it_at_once(qtbot: QtBot, window: MainWindow, case: Case) -> None:
    dialog = opened(qtbot, window, case.opener)
    qtbot.keyClick(focused(), Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not dialog.isVisible(), timeout=5_000)
    keys = dialog.findChild(DialogKeys)
    assert isinstance(keys, DialogKeys) and keys.question is None
    settle(qtbot, window)


def test_tab_in_the_new_memorys_text_moves_on_instead_of_typing_a_tab(
    qtbot: QtBot, window: MainWindow
) -> None:
    dialog = opened(qtbot, window, "new memory")
    editor = dialog.editor  # type: ignore[attr-defined]
    editor.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.keyClicks(editor, "Uses vim")
    qtbot.keyClick(editor, Qt.Key.Key_Tab)
    assert editor.toPlainText() == "Uses vim"
    assert focused() is not editor
    dialog.done(QDialog.DialogCode.Rejected)
    settle(qtbot, window)
