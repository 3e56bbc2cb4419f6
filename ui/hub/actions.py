"""The hub window's actions (one QAction each, shortcut in its tooltip) and its menus.

The two that act on the selected card take their shortcut only while the card list itself has focus (not
the toolbar that shows them, where the search field is), so typing in the search field never dismisses
anything.
"""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QMainWindow

from ui.actions.make import ON_CARD_LIST, StdKey, keys, make_action

COPY_TIP = (
    "Copy to this machine: the selected copy (else the newest) becomes a new active memory in the local "
    "database, a manual promotion whose provenance names its machine"
)
DISMISS_TIP = (
    "Dismiss on every machine: a request queued in the hub; each machine dismisses its copy when it "
    "next publishes"
)


class HubActions:
    def __init__(self, parent: QObject) -> None:
        on_list = ON_CARD_LIST
        self.copy_here = make_action(parent, "Copy to this machine", COPY_TIP, keys("Ctrl+Shift+C"), on_list)
        self.dismiss_everywhere = make_action(
            parent, "Dismiss on every machine…", DISMISS_TIP, keys("Ctrl+D"), on_list
        )
        self.next = make_action(parent, "Next card", "Select the next card", keys("J", "Alt+Down"), on_list)
        self.previous = make_action(
            parent, "Previous card", "Select the previous card", keys("K", "Alt+Up"), on_list
        )
        self.refresh = make_action(parent, "Refresh", "Read the hub again", keys(StdKey.Refresh, "F5"))
        self.find = make_action(
            parent, "Find", "Show only cards whose text holds the words", keys(StdKey.Find)
        )
        self.open_hub = make_action(
            parent, "Open hub…", "Open another hub (a PostgreSQL URL)", keys("Ctrl+Shift+H")
        )
        self.close = make_action(parent, "Close", "Close the hub window", keys(StdKey.Close))
        self.copy_here.setIconText("Copy here")
        self.dismiss_everywhere.setIconText("Dismiss everywhere")

    def set_local(self, local: str | None) -> None:
        """Copy to this machine's tooltip names the local database it writes to (or that there is none)."""
        where = f"writes to {local}" if local else "no writable local database is open"
        keys_ = self.copy_here.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
        tip = f"{COPY_TIP}; {where} ({keys_})"
        self.copy_here.setToolTip(tip)
        self.copy_here.setStatusTip(tip)

    @property
    def card_actions(self) -> list[QObject]:
        return [self.copy_here, self.dismiss_everywhere, self.next, self.previous]


def build_hub_menus(window: QMainWindow, acts: HubActions) -> None:
    bar = window.menuBar()
    file_menu = bar.addMenu("&File")
    file_menu.addAction(acts.open_hub)
    file_menu.addSeparator()
    file_menu.addAction(acts.close)
    memory = bar.addMenu("&Memory")
    memory.addAction(acts.copy_here)
    memory.addAction(acts.dismiss_everywhere)
    view = bar.addMenu("&View")
    for action in (acts.find, acts.refresh, acts.next, acts.previous):
        view.addAction(action)
    for menu in (file_menu, memory, view):
        menu.setToolTipsVisible(True)
