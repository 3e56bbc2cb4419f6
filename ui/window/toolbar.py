"""The main window's toolbar: the filters, then the actions as icons in groups (write, undo, review).

Designed to fit: at 1024 pixels wide every button shows, with no overflow (») menu to hide Undo or the
review behind; the buttons are icons with tooltips (the menus name them in words), so a label that
changes ("Undo dismiss of #5", "Review queue (5)") never changes the toolbar's width. Refresh, which
a watched file rarely needs, lives in the View menu (F5).
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMainWindow, QToolBar

from ui.actions.window import WindowActions
from ui.cards.filter_bar import FilterBar
from ui.widgets.action_icons import apply_action_icons

ICON_SIZE = 18
SEARCH_MIN_WIDTH = 160


def toolbar_groups(acts: WindowActions) -> list[list[QAction]]:
    """The toolbar's actions, group by group."""
    return [
        [acts.new_memory],
        [acts.edit, acts.dismiss, acts.reactivate, acts.delete, acts.expiry],
        [acts.undo],
        [acts.review_queue, acts.run_review],
    ]


def build_toolbar(window: QMainWindow, filters: FilterBar, acts: WindowActions) -> QToolBar:
    toolbar = QToolBar("Main", window)
    toolbar.setObjectName("mainToolbar")
    toolbar.setMovable(False)
    toolbar.setFloatable(False)
    toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonIconOnly)
    toolbar.setIconSize(QSize(ICON_SIZE, ICON_SIZE))
    apply_action_icons(acts, window.palette())
    filters.search.setMinimumWidth(SEARCH_MIN_WIDTH)
    toolbar.addWidget(filters)
    for group in toolbar_groups(acts):
        toolbar.addSeparator()
        for action in group:
            toolbar.addAction(action)
    window.addToolBar(toolbar)
    return toolbar
