"""The main window's keyboard path, wired once the window is built.

- Tab follows what is on screen: the search field and the lists beside it, the filter row under them,
  the cards, then the side panel (the panel's own order is its layout's).
- Enter in the search or source field applies it and goes on to the cards, so J/K and the card keys act
  next; Find (Ctrl+F) comes back to the search field with its text selected.
- Restore this version is disabled once its revision is the memory's text, and Qt then hands the focus
  on to the next widget in the Tab order (a text field, where Ctrl+Z undoes typing, not the restore):
  the focus goes back to the history list first, where the person chose the revision.
"""

from __future__ import annotations

from itertools import pairwise

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QWidget

from ui.cards.card_list import CardList
from ui.cards.filter_bar import FilterBar
from ui.history.panel import HistoryPanel


def install_keyboard(filters: FilterBar, cards: CardList, panel: HistoryPanel, find: QAction) -> None:
    chain = [*filters.fields(), cards]
    for before, after in pairwise(chain):
        QWidget.setTabOrder(before, after)
    filters.submitted.connect(lambda: cards.setFocus(Qt.FocusReason.OtherFocusReason))
    find.triggered.connect(lambda: focus_search(filters))
    panel.restoreRequested.connect(lambda *_: panel.revisions.setFocus(Qt.FocusReason.OtherFocusReason))


def focus_search(filters: FilterBar) -> None:
    filters.search.setFocus(Qt.FocusReason.ShortcutFocusReason)
    filters.search.selectAll()
