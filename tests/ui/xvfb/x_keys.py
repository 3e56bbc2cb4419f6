"""The keyboard path under a real X server (run by `test_real_display.py` in a pytest session of its own
with QT_QPA_PLATFORM=xcb: Qt picks its platform once per process). Keys go in through the window system's
side of Qt (`QTest.keyClick` on the active window's QWindow: the shortcut map, then the focus widget), with
the platform's own key bindings (X11's: its Delete is also Ctrl+D) and Fusion's painting of the focus."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractButton, QApplication, QDialog, QMessageBox, QWidget
from pytestqt.qtbot import QtBot

from app.core.models import MemoryStatus
from app.store import MemoryStore
from tests.ui.every_window import CASES, Case, each_window, openers, shown
from tests.ui.shortcut_clashes import clashes
from tests.ui.window_helpers import make_window, select, settle, with_older_revision_selected
from ui.widgets.dialog_keys import DialogKeys
from ui.widgets.theme import apply_theme
from ui.window.main_window import MainWindow

pytestmark = pytest.mark.skipif(
    os.environ.get("QT_QPA_PLATFORM") != "xcb",
    reason="needs a real X server (tests/ui/xvfb/test_real_display.py)",
)
CTRL = Qt.KeyboardModifier.ControlModifier
NONE = Qt.KeyboardModifier.NoModifier


@pytest.fixture(autouse=True, params=["light", "dark"])
def theme(request: pytest.FixtureRequest, qapp: QApplication) -> str:
    apply_theme(qapp, request.param)
    return str(request.param)


def press(key: Qt.Key, modifiers: Qt.KeyboardModifier = NONE) -> None:
    """One key on the active window, through its QWindow (as the window system delivers keys)."""
    active = QApplication.activeWindow()
    assert active is not None, "no active window"
    handle = active.windowHandle()
    assert handle is not None
    QTest.keyClick(handle, key, modifiers)


def focused() -> QWidget:
    widget = QApplication.focusWidget()
    assert widget is not None
    return widget


def image(widget: QWidget) -> QImage:
    return widget.grab().toImage()


def next_in_chain(widget: QWidget) -> QWidget:
    following = widget.nextInFocusChain()
    assert following is not None
    return following


def focus_stops(qtbot: QtBot, window: QWidget, presses: int = 40) -> list[str]:
    """Tab round `window` once; each widget Tab lands on must look different with the focus than
    without it. Returns the stops that do not (by type and accessible name)."""
    start = focused()
    blind: list[str] = []
    for _ in range(presses):
        before = focused()
        following = next_in_chain(before)
        candidates = [following]
        while following is not before and not (
            following.isVisible()
            and following.isEnabled()
            and following.focusPolicy() & Qt.FocusPolicy.TabFocus
        ):
            following = next_in_chain(following)
            candidates.append(following)
        unfocused = {id(w): image(w) for w in candidates}
        press(Qt.Key.Key_Tab)
        now = focused()
        assert now.window() is window
        if id(now) in unfocused and image(now) == unfocused[id(now)]:
            text = now.text() if isinstance(now, QAbstractButton) else ""
            blind.append(f"{type(now).__name__} {now.accessibleName() or text!r}")
        if now is start:
            break
    return blind


def test_no_two_actions_share_a_key_with_x11s_bindings(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path
) -> None:
    window = make_window(qtbot, store, tmp_path)
    shown(qtbot, window)
    select(qtbot, window, 5)
    window.list.setFocus()
    assert clashes(window) == []
    for name, opened in each_window(qtbot, window):
        assert clashes(opened) == [], name
    shown(qtbot, window)
    window.list.setFocus()
    press(Qt.Key.Key_D, CTRL)  # Dismiss: it was claimed by Delete too, and did nothing
    qtbot.waitUntil(lambda: (m := window.model.memory(5)) is not None and m.status == MemoryStatus.DISMISSED)
    settle(qtbot, window)


def test_every_focus_stop_of_the_window_paints_its_focus(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path
) -> None:
    window = with_older_revision_selected(qtbot, store, tmp_path)  # Restore enabled: one stop more
    shown(qtbot, window)
    window.filters.search.setFocus(Qt.FocusReason.TabFocusReason)
    assert focus_stops(qtbot, window) == []
    settle(qtbot, window)


def test_every_focus_stop_of_every_dialog_paints_its_focus(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path
) -> None:
    window = make_window(qtbot, store, tmp_path)
    shown(qtbot, window)
    blind: dict[str, list[str]] = {}
    for name, opened in each_window(qtbot, window):
        found = focus_stops(qtbot, opened)
        if found:
            blind[name] = found
    assert not blind, "\n".join(f"{name}: {', '.join(stops)}" for name, stops in blind.items())
    settle(qtbot, window)


def walked(qtbot: QtBot, window: MainWindow, case: Case) -> QDialog:
    shown(qtbot, window)
    dialog = shown(qtbot, openers(qtbot, window)[case.opener]())
    assert isinstance(dialog, QDialog)
    case.type_in(qtbot, dialog)
    return dialog


@pytest.mark.parametrize("case", CASES, ids=[case.opener for case in CASES])
def test_every_dialog_saves_and_cancels_by_keys(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path, case: Case
) -> None:
    window = make_window(qtbot, store, tmp_path)
    select(qtbot, window, 5)
    dialog = walked(qtbot, window, case)
    press(Qt.Key.Key_Escape)  # typed: asks; Esc again keeps editing
    keys = dialog.findChild(DialogKeys)
    assert isinstance(keys, DialogKeys)
    qtbot.waitUntil(lambda: keys.question is not None and QApplication.activeWindow() is keys.question)
    box = keys.question
    assert box is not None
    press(Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not box.isVisible())
    shown(qtbot, dialog)  # no window manager here hands the focus back to the dialog: a desktop's does
    assert dialog.isVisible() and keys.question is None
    press(Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: isinstance(QApplication.activeWindow(), QMessageBox))
    press(Qt.Key.Key_D)  # Discard
    qtbot.waitUntil(lambda: not dialog.isVisible())
    settle(qtbot, window)
    assert not case.saved(window)
    dialog = walked(qtbot, window, case)
    press(Qt.Key.Key_Return, CTRL)
    qtbot.waitUntil(lambda: not dialog.isVisible(), timeout=10_000)
    qtbot.waitUntil(lambda: case.saved(window), timeout=10_000)
    window.leave_as_of()
    settle(qtbot, window)


def test_the_window_keys_under_x(qtbot: QtBot, store: MemoryStore, tmp_path: Path) -> None:
    """Enter in the search goes to the cards, J/K walk them, Restore then Ctrl+Z undoes it."""
    window = with_older_revision_selected(qtbot, store, tmp_path)
    shown(qtbot, window)
    press(Qt.Key.Key_F, CTRL)
    assert focused() is window.filters.search
    press(Qt.Key.Key_Return)
    assert focused() is window.list and window.commands.edit_dialog is None
    window.panel.revisions.setFocus(Qt.FocusReason.MouseFocusReason)
    window.panel.restore_button.setFocus(Qt.FocusReason.TabFocusReason)
    press(Qt.Key.Key_Space)  # Restore this version
    qtbot.waitUntil(lambda: (m := window.model.memory(5)) is not None and m.content == "Prefers pnpm v2")
    qtbot.waitUntil(lambda: not window.panel.restore_button.isEnabled())
    assert focused() is window.panel.revisions
    press(Qt.Key.Key_Z, CTRL)
    qtbot.waitUntil(lambda: (m := window.model.memory(5)) is not None and m.content == "Prefers pnpm v3")
    window.list.setFocus()
    before = window.list.current_id()
    press(Qt.Key.Key_J)
    assert window.list.current_id() != before
    settle(qtbot, window)
