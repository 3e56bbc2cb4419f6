"""Every window and dialog the main window opens, one at a time, for the tests that go over all of them
(their keys never clash; under a real X server, every focus stop paints its focus)."""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialog, QInputDialog, QLineEdit, QWidget
from pytestqt.qtbot import QtBot

from app.core.settings import hub_machine_setting, load_settings
from tests.ui.window_helpers import card_content, select, settle
from ui.dialogs.as_of import AsOfDialog
from ui.dialogs.hub_settings import HubSettingsDialog
from ui.dialogs.runs import RunsDialog
from ui.hub.window import HubWindow
from ui.window.main_window import MainWindow

UNREACHABLE_HUB = "postgresql+psycopg://nobody@/hub?host=/nonexistent-folder"
TYPED_HUB = "postgresql://nobody@/hub?host=/nonexistent-folder"


def shown(qtbot: QtBot, widget: QWidget) -> QWidget:
    """`widget` shown, exposed and active (the window system's focus is in it)."""
    widget.show()
    widget.raise_()
    widget.activateWindow()
    qtbot.waitExposed(widget)
    qtbot.waitUntil(lambda: QApplication.activeWindow() is widget, timeout=5_000)
    return widget


def _dialog(window: MainWindow, kind: type[QDialog]) -> QDialog:
    """The newest dialog of `kind` over `window` (one closed before may still be its child)."""
    found = window.findChildren(kind)
    assert found, kind.__name__
    return found[-1]


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

    def open_hub() -> QWidget:
        acts.open_hub.trigger()
        return _dialog(window, QInputDialog)

    def hub() -> QWidget:
        from ui.hub.session import HubSession

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
        "open hub": open_hub,
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
            opened.deleteLater()
        settle(qtbot, window)
    # What these windows left for the cyclic collector is collected here, on the GUI thread: collected
    # on a worker's thread (wherever a collection happens to start), a Qt object aborts the process.
    gc.collect()


# -- the editing dialogs: what to type in each, and how to tell it was saved -------------------------


@dataclass(frozen=True)
class Case:
    """A dialog: what to type in it, and whether what it saves has arrived."""

    opener: str
    type_in: Callable[[QtBot, QDialog], None]
    saved: Callable[[MainWindow], bool]


def typing(text: str, field: str) -> Callable[[QtBot, QDialog], None]:
    def type_in(qtbot: QtBot, dialog: QDialog) -> None:
        widget: QWidget = getattr(dialog, field)
        widget.setFocus(Qt.FocusReason.TabFocusReason)
        qtbot.keyClicks(widget, text)

    return type_in


def later_date(qtbot: QtBot, dialog: QDialog) -> None:
    """A date typed: the custom option, then a year up in its field."""
    option = dialog.group.button(100)  # type: ignore[attr-defined]
    option.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.keyClick(option, Qt.Key.Key_Space)
    field: QWidget = dialog.custom  # type: ignore[attr-defined]
    field.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.keyClick(field, Qt.Key.Key_Up)


def hub_path(qtbot: QtBot, dialog: QDialog) -> None:
    """The rest of an (unreachable) hub's URL, typed after the `postgresql://` the field holds."""
    field = dialog.findChild(QLineEdit)
    assert isinstance(field, QLineEdit) and field.text() == "postgresql://"
    field.setFocus(Qt.FocusReason.TabFocusReason)
    field.end(False)
    qtbot.keyClicks(field, TYPED_HUB.removeprefix("postgresql://"))


def earlier_date(qtbot: QtBot, dialog: QDialog) -> None:
    dialog.when.setFocus(Qt.FocusReason.TabFocusReason)  # type: ignore[attr-defined]
    qtbot.keyClick(dialog.when, Qt.Key.Key_Down)  # type: ignore[attr-defined]


CASES = (
    Case("edit", typing("Always: ", "editor"), lambda w: card_content(w, 5) == "Always: Prefers pnpm"),
    Case("new memory", typing("Uses vim", "editor"), lambda w: "Uses vim" in contents(w)),
    Case("expiry", later_date, lambda w: (m := w.model.memory(5)) is not None and m.expires_at is not None),
    Case("preferences", typing("claude -p", "command"), lambda _w: reviewer() == "claude -p"),
    Case("hub settings", typing("laptop-2", "machine"), lambda _w: machine() == "laptop-2"),
    Case("as of", earlier_date, lambda w: w.looking_back),
    Case("open hub", hub_path, lambda w: any(h.session.url == TYPED_HUB for h in w.findChildren(HubWindow))),
)


def contents(window: MainWindow) -> list[str]:
    return [m.content for i in window.model.ids if (m := window.model.memory(i)) is not None]


def reviewer() -> str | None:
    return load_settings().reviewer_command


def machine() -> str:
    return hub_machine_setting(load_settings())
