"""The hub window's card list: a QListView of uniform cards whose changed data never relays out the list.

QListView's `dataChanged` in ListMode schedules a layout of every row (`ui.cards.card_list` says why that
costs two `rowCount` calls per row); hub cards all have one size and a page of texts never moves a card,
so a change repaints what is on screen and nothing more.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QModelIndex, QPersistentModelIndex
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QAbstractItemView, QListView, QWidget

from ui.hub.delegate import HubCardDelegate
from ui.hub.model import HubCardModel
from ui.widgets.focus_ring import show_focus

AnyIndex = QModelIndex | QPersistentModelIndex


class HubCardList(QListView):
    def __init__(self, model: HubCardModel, now: Callable[[], int], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setModel(model)
        self.setItemDelegate(HubCardDelegate(now, self))
        self.setUniformItemSizes(True)
        self.setVerticalScrollMode(QListView.ScrollMode.ScrollPerPixel)
        self.setFrameShape(QListView.Shape.NoFrame)
        self.viewport().setBackgroundRole(QPalette.ColorRole.Window)  # cards (Base) stand out
        self.setAccessibleName("Hub cards: one memory across machines each")
        show_focus(self)  # frameless, its cards painted by the delegate: the style shows no focus

    def dataChanged(self, first: AnyIndex, last: AnyIndex, roles: Sequence[int] = ()) -> None:
        """The base item view's handling (no layout), then the visible cards repainted."""
        QAbstractItemView.dataChanged(self, first, last, list(roles))
        self.viewport().update()
