"""The main window's page of the past (As of…): every memory as it was at an instant, read-only.

`PastPage` builds the page (`AsOfView`) the first time the past is asked for (not before the first
frame), asks the controller for the past, enters the page when its first screen arrives and leaves it
for the cards of now. The window hands it what it needs: its controller, its page stack with the page
of now, the card list, the filters, and what to do when the actions' state may have changed or the
cards of now are shown again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QStackedWidget, QWidget

from ui.cards.card_list import CardList
from ui.cards.filter_bar import FilterBar
from ui.past.listing import PastListing
from ui.runtime.controller import Controller

if TYPE_CHECKING:
    from ui.past.view import AsOfView


class PastPage:
    def __init__(
        self,
        controller: Controller,
        pages: QStackedWidget,
        now_page: QWidget,
        cards: CardList,
        filters: FilterBar,
        *,
        actions_changed: Callable[[], None],
        back_to_now: Callable[[], None],
    ) -> None:
        self.controller = controller
        self.pages, self.now_page, self.cards, self.filters = pages, now_page, cards, filters
        self.actions_changed, self.back_to_now = actions_changed, back_to_now
        self.built: AsOfView | None = None  # built when the past is first asked for
        controller.asOfLoaded.connect(self._loaded)

    @property
    def view(self) -> AsOfView:
        """The page showing the past, built the first time it is asked for."""
        if self.built is not None:
            return self.built
        from ui.past.view import AsOfView

        c = self.controller
        past = self.built = AsOfView(self.pages.window())
        self.pages.addWidget(past)
        past.left.connect(self.leave)
        past.firstScreenPainted.connect(c.read_whole_past)
        past.panel.historyWanted.connect(c.load_history_as_of)
        c.pastHistoryLoaded.connect(past.panel.set_history)
        past.panel.revisionWanted.connect(c.load_revision)
        c.revisionLoaded.connect(past.panel.set_revision)
        return past

    @property
    def shown(self) -> bool:
        return self.built is not None and self.pages.currentWidget() is self.built

    def ask(self) -> None:
        """The As of… dialog; its instant is shown with `look_back`."""
        start = self.view.at if self.shown and self.view.at else self.controller.now()
        from ui.dialogs.as_of import AsOfDialog  # its modules load with the first use

        dialog = AsOfDialog(start, self.pages.window())
        dialog.accepted.connect(lambda: self.look_back(dialog.chosen()))
        dialog.open()

    def look_back(self, asked: int) -> None:
        """Show the memories as they were at `asked` (a future instant is now), read off the GUI thread:
        the first screen as soon as it is read, then the rest (`_loaded`)."""
        shown = self.view.current_id() if self.shown else self.cards.current_id()
        self.view.begin(asked, shown)
        self.controller.load_as_of(asked, shown)

    def _loaded(self, listing: PastListing) -> None:
        entering = not self.shown
        if entering:
            self.view.set_filter(self.filters.current())  # before the cards: one listing shown
        if not self.view.set_listing(listing):
            return
        if entering:
            self.pages.setCurrentWidget(self.view)
            self.view.list.setFocus()
        self.actions_changed()

    def leave(self) -> None:
        self.controller.leave_as_of()
        if self.built is None:
            return  # never looked back
        self.view.begin(None)  # a listing still on its way is dropped
        if self.shown:
            self.pages.setCurrentWidget(self.now_page)
            self.view.model.clear()  # the past's states are let go
            self.cards.setFocus()
            self.back_to_now()
