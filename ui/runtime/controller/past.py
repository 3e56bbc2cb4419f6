"""The controller's view of the past (As of…): the memories as they were at an instant, first screen
first, and a memory's revisions up to then (`ui.past.listing`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ui.cards.listing import FIRST_ROWS
from ui.past import listing as past
from ui.past.listing import PastListing
from ui.runtime.controller.base import NOW, ControllerBase

if TYPE_CHECKING:
    pass


class ControllerPast(ControllerBase):
    def load_as_of(self, asked: int, prefer: int | None = None) -> None:
        """The memories as they were at `asked` (a future instant is now): the first screen first, with
        the history of the memory it selects (`prefer`, the card selected now, if it existed then), then
        every memory (`ui.past.listing`), once the window asks for it (`read_whole_past`: when the first
        screen is painted, so that the long read does not compete with that paint). A later request, or
        leaving the past (`leave_as_of`), drops what is not read yet."""
        self._as_of_token += 1
        token, store = self._as_of_token, self.store

        def current() -> bool:  # read in the worker: a superseded listing is skipped, not read
            return token == self._as_of_token

        def first() -> PastListing | None:
            return past.first_page(store, asked, FIRST_ROWS, prefer) if current() else None

        def shown(listing: PastListing | None) -> None:
            if listing is None or not current():
                return
            if listing.first_history is not None:
                memory_id, history = listing.first_history
                self._past_histories[(memory_id, listing.at)] = history
            self.asOfLoaded.emit(listing)

        self._past_histories.clear()
        self._run(first, shown, priority=NOW)
        self._whole_past = lambda: self._run(
            lambda: past.whole_past(store, asked) if current() else None, shown
        )

    def read_whole_past(self) -> None:
        """Read every memory of the past asked for last (once; see `load_as_of`)."""
        read, self._whole_past = self._whole_past, None
        if read is not None:
            read()

    def leave_as_of(self) -> None:
        """The past is no longer looked at: what of it is still to be read is not read."""
        self._as_of_token += 1
        self._past_histories.clear()
        self._whole_past = None

    def load_history_as_of(self, memory_id: int, at: int) -> None:
        """A memory's revisions at or before `at`, newest first (`pastHistoryLoaded`); the first screen's
        first memory's was read with it."""
        kept = self._past_histories.get((memory_id, at))
        if kept is not None:
            self.pastHistoryLoaded.emit(memory_id, at, kept)
            return
        store = self.store
        self._run(
            lambda: past.history_until(store, memory_id, at),
            lambda found: self.pastHistoryLoaded.emit(memory_id, at, found),
            priority=NOW,
        )
