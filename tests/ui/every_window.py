"""Every window and dialog the main window opens, one at a time, for the tests that go over all of them
(their keys never clash; under a real X server, every focus stop paints its focus)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from PySide6.QtWidgets import QApplication, QDialog, QWidget
from pytestqt.qtbot import QtBot
from window_helpers import select, settle

from ui.dialogs.as_of import AsOfDialog
from ui.dialogs.hub_settings import HubSettingsDialog
from ui.dialogs.runs import RunsDialog
from ui.window.main_window import MainWindow

UNREACHABLE_HUB = "postgresql+psycopg://nobody@/hub?host=/nonexistent-folder"


def shown(qtbot: QtBot, widget: QWidget) -> QWidget:
    """`widget` shown, exposed and active (the window system's focus is in it)."""
    widget.show()
    widget.raise_()
    widget.activateWindow()
    qtbot.waitExposed(widget)
    qtbot.waitUntil(lambda: QApplication.activeWindow() is widget, timeout=5_000)
    return widget


def _dialog(window: MainWindow, kind: type[QDialog]) -> QDialog:
    found = window.findChild(kind)
    assert isinstance(found, kind), kind.__name__
    return found


def openers(qtbot: QtBot, window: MainWindow) -> dict[str, Callable[[], QWidget]]:
    """How to open each window over `window`, by name; each returns the window opened (not yet shown
    by the test's own means: `each_window` shows and activates it). Memory #5 is selected."""
    commands, acts = window.commands, window.acts

    def edit() -> QWidget:
        acts.edit.trigger()
        assert commands.edit_dialog is not None
        return commands.edit_dialog

    def new() -> QWidget:
        acts.new_memory.trigger()
        assert commands.new_dialog is not None
        return commands.new_dialog

    def expiry() -> QWidget:
        acts.expiry.trigger()
        assert commands.expiry_dialog is not None
        return commands.expiry_dialog

    def preferences() -> QWidget:
        acts.preferences.trigger()
        assert commands.preferences_dialog is not None
        return commands.preferences_dialog

    def shortcuts() -> QWidget:
        acts.shortcuts.trigger()
        assert commands.shortcuts_dialog is not None
        return commands.shortcuts_dialog

    def hub_settings() -> QWidget:
        acts.hub_settings.trigger()
        return _dialog(window, HubSettingsDialog)

    def as_of() -> QWidget:
        acts.as_of.trigger()
        return _dialog(window, AsOfDialog)

    def runs() -> QWidget:
        acts.runs.trigger()
        return _dialog(window, RunsDialog)

    def queue() -> QWidget:
        window.show_queue()
        return window.queue

    def digest() -> QWidget:
        shown: list[QWidget] = []
        window.looks.digestReady.connect(lambda _digest: shown.append(window.digest_dialog))
        acts.digest.trigger()
        qtbot.waitUntil(lambda: bool(shown), timeout=10_000)
        return shown[0]

    def hub() -> QWidget:
        from ui.hub.session import HubSession
        from ui.hub.window import HubWindow

        hub_window = HubWindow(HubSession(UNREACHABLE_HUB, None), window.controller.store.now, window)
        hub_window.setParent(window, hub_window.windowFlags())  # as File → Open hub… makes it
        hub_window.resize(1000, 700)
        return hub_window

    return {
        "edit": edit,
        "new memory": new,
        "expiry": expiry,
        "preferences": preferences,
        "keyboard shortcuts": shortcuts,
        "hub settings": hub_settings,
        "as of": as_of,
        "runs": runs,
        "review queue": queue,
        "since you last looked": digest,
        "hub window": hub,
    }


def each_window(qtbot: QtBot, window: MainWindow) -> Iterator[tuple[str, QWidget]]:
    """Each window over `window`, shown and active in turn, closed before the next (memory #5 selected)."""
    select(qtbot, window, 5)
    for name, open_it in openers(qtbot, window).items():
        window.activateWindow()
        opened = shown(qtbot, open_it())
        yield name, opened
        if isinstance(opened, QDialog):
            opened.done(QDialog.DialogCode.Rejected)  # as Cancel: never asks
        else:
            opened.close()
        settle(qtbot, window)
