"""The cards' traffic with the controller: their rows, asked for a page at a time as they are painted
(`rowsWanted` → `fetch_rows`) and removed with a memory; and their links, asked for the same way (one
small query per page of cards, `Controller.load_card_links`), asked again after a write for the memories
it wrote and those linked with them, and forgotten with a new listing. A click on a link, on a card or in
the history panel, selects the memory it names (`open_card`: one the filter hides is listed under All,
and the status bar says so)."""

from __future__ import annotations

from typing import Protocol, cast

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QWidget

from app.core.models import Memory
from ui.cards.card_list import CardList
from ui.cards.listing import Listing
from ui.cards.model import MemoryListModel
from ui.history.panel import HistoryPanel
from ui.runtime.controller import Controller


class CardWindow(Protocol):
    """What the wiring needs of the main window (`MainWindow` is one)."""

    model: MemoryListModel
    list: CardList
    panel: HistoryPanel
    controller: Controller

    def open_card(self, memory_id: int) -> None: ...

    def window(self) -> QWidget: ...


class CardWiring(QObject):
    """A child of the window: the controller's signals reach it only while the window lives (a
    controller can outlive its window)."""

    def __init__(self, window: CardWindow) -> None:
        super().__init__(window.window())
        self.model, self.cards = window.model, window.list
        controller = window.controller
        self.model.rowsWanted.connect(controller.fetch_rows)
        controller.rowsLoaded.connect(self.model.update_rows)
        controller.rowsFailed.connect(self.model.forget_pending)
        controller.memoryRemoved.connect(self.model.remove_id)
        self.model.linksWanted.connect(controller.load_card_links)
        controller.cardLinksLoaded.connect(self.model.set_links)
        controller.linksLoaded.connect(window.panel.set_links)
        for changed in (controller.memoryChanged, controller.memoryRemoved, controller.memoriesLoaded):
            changed.connect(self.forget)
        self.cards.card_delegate.linkClicked.connect(window.open_card)
        window.panel.links.linkOpened.connect(window.open_card)

    def forget(self, changed: object = None) -> None:
        """A memory was written (or removed from the listing): ask again for its links and those of the
        cards linked with it (a new link's other end comes with the answer). Never a repaint of every
        card, nor the view's layout run early to know which are on screen: that was most of a merge's
        paint. A new listing forgets them all; the cards it paints ask for theirs."""
        if changed is None or isinstance(changed, Listing):
            self.model.forget_links()
            return
        memory_id = changed.id if isinstance(changed, Memory) else int(cast(int, changed))
        ids = [memory_id, *self.model.linked_to(memory_id)]
        self.model.forget_links(ids)
        self.model.want_links(ids)


def connect_cards(window: CardWindow) -> CardWiring:
    return CardWiring(window)
