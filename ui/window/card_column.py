"""The main window's left column: the filter row above the list's title, the cards (or "No memories
match this filter.")."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, SignalInstance
from PySide6.QtGui import QAction, QPalette
from PySide6.QtWidgets import QStackedWidget, QVBoxLayout, QWidget

from ui.cards.card_list import CardList
from ui.cards.model import MemoryListModel
from ui.cards.trash_restore import TitleRow
from ui.widgets.labels import plain_label, tint
from ui.widgets.theme import muted_text


class CardColumn(QWidget):
    def __init__(
        self,
        model: MemoryListModel,
        now: Callable[[], int],
        card_actions: list[QAction],
        restore_deleted: QAction,
        listings: SignalInstance,
        parent: QWidget,
    ) -> None:
        super().__init__(parent)
        self.list = CardList(model, now, parent)
        self.list.addActions(card_actions)
        self.no_match = plain_label("No memories match this filter.")
        self.no_match.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.cards = QStackedWidget(self)
        self.cards.addWidget(self.list)
        self.cards.addWidget(self.no_match)
        self.header = plain_label(wrap=False)
        self.header.setContentsMargins(14, 8, 8, 2)
        self.retint(parent.palette())
        self.layout_ = QVBoxLayout(self)
        self.layout_.setContentsMargins(0, 0, 0, 0)
        self.layout_.setSpacing(0)
        self.title_row = TitleRow(self.header, restore_deleted, listings, parent)
        self.layout_.addWidget(self.title_row)
        self.layout_.addWidget(self.cards, 1)

    def add_filter_row(self, row: QWidget) -> None:
        """The filters that do not fit in the toolbar, above the list's title."""
        self.layout_.insertWidget(0, row)

    def retint(self, palette: QPalette) -> None:
        """The title in the muted text of `palette` (the window's: the system switched light/dark)."""
        tint(self.header, muted_text(palette))
