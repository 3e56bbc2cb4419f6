"""Help → Keyboard shortcuts: every key of the window, read from its QActions when the dialog opens (so
the list cannot drift from what the keys do), plus Tab and Shift+Tab, which move between the panels, and
the keys every editing dialog answers (`ui.widgets.dialog_keys`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QMenu,
    QTableWidget,
    QTableWidgetItem,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from ui.widgets.focus_ring import show_button_focus
from ui.widgets.labels import plain_label

HEADERS = ("Keys", "What it does", "Where")
MOVING = ("Tab · Shift+Tab", "Next / previous panel (each table is left in one press)", "anywhere")
DIALOGS = (
    "Ctrl+Enter · Ctrl+S · Esc",
    "Save / cancel (Esc asks first once something was typed)",
    "in the dialogs you type in",
)
QUEUE = (
    "Ctrl+Enter · Enter",
    "Promote the selected candidates with the text typed · merge them into the memory typed",
    "in the review queue's text · its merge box",
)
_LOCAL = (Qt.ShortcutContext.WidgetShortcut, Qt.ShortcutContext.WidgetWithChildrenShortcut)


@dataclass(frozen=True, slots=True)
class ShortcutRow:
    keys: str
    what: str
    where: str
    action: QAction | None = None


def typeable(key: QKeySequence) -> bool:
    """Not a dedicated key few keyboards have (Help, Find, Open, Undo… as keys of their own, which the
    platform's standard shortcuts include): Qt numbers those from Key_Help on."""
    combinations: Any = key  # indexable in PySide6, not in its stubs
    return all(combinations[i].key().value < Qt.Key.Key_Help.value for i in range(key.count()))


def action_keys(action: QAction) -> str:
    shown = [key for key in action.shortcuts() if typeable(key)] or action.shortcuts()
    return " · ".join(key.toString(QKeySequence.SequenceFormat.NativeText) for key in shown)


def _what(action: QAction) -> str:
    """The action's text without its mnemonic, ellipsis or a count it shows (`Review queue (6)`)."""
    text = action.text().replace("&&", "\0").replace("&", "").replace("\0", "&")
    return re.sub(r" \(\d+\)$", "", text.removesuffix("…"))


def _widgets(action: QAction) -> list[QWidget]:
    """The widgets an action is on, apart from menus and toolbars (which only show it)."""
    found = (item for item in action.associatedObjects() if isinstance(item, QWidget))
    return [widget for widget in found if not isinstance(widget, QMenu | QToolBar)]


def _where(action: QAction) -> str:
    if action.shortcutContext() not in _LOCAL:
        return "anywhere"
    names = [widget.accessibleName() or widget.objectName() for widget in _widgets(action)]
    parent = action.parent()
    if not names and isinstance(parent, QWidget):
        names = [parent.accessibleName() or parent.objectName()]
    shown = [name for name in dict.fromkeys(names) if name]
    return f"in {', '.join(shown)}" if shown else "in its panel"


def window_shortcuts(window: QWidget) -> list[QAction]:
    """The window's actions that have keys: its own and those of the widgets inside it (not those of
    dialogs it opened), each once."""
    found: list[QAction] = []
    for action in window.findChildren(QAction):
        if not action.shortcuts() or action in found:
            continue
        inside = action.parent() is window or any(widget.window() is window for widget in _widgets(action))
        if inside:
            found.append(action)
    return found


def shortcut_rows(window: QWidget) -> list[ShortcutRow]:
    rows = [ShortcutRow(action_keys(a), _what(a), _where(a), a) for a in window_shortcuts(window)]
    rows.sort(key=lambda row: (row.where != "anywhere", row.where, row.what.casefold()))
    return [*rows, ShortcutRow(*MOVING), ShortcutRow(*DIALOGS), ShortcutRow(*QUEUE)]


class ShortcutsDialog(QDialog):
    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self.setWindowTitle("Keyboard shortcuts")
        self.rows = shortcut_rows(window)
        self.table = QTableWidget(len(self.rows), len(HEADERS), self)
        self.table.setHorizontalHeaderLabels(HEADERS)
        self.table.setAccessibleName("Keyboard shortcuts")
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setTabKeyNavigation(False)
        self.table.setWordWrap(False)
        self.table.setShowGrid(False)
        self.table.setAlternatingRowColors(True)
        for number, row in enumerate(self.rows):
            for column, text in enumerate((row.keys, row.what, row.where)):
                item = QTableWidgetItem(text)
                if row.action is not None:
                    item.setToolTip(row.action.statusTip() or row.action.toolTip())
                self.table.setItem(number, column, item)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(
            plain_label("Keys that act on the selected card work while the card list has focus.")
        )
        layout.addWidget(self.table, 1)
        layout.addWidget(buttons)
        self.resize(720, 520)
        show_button_focus(self)
