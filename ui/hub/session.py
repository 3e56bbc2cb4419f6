"""The hub window's controller: reads and actions on the hub off the GUI thread, results as signals.

All hub work runs on one worker thread (`TaskRunner(threads=1)`), so the browser's single connection is
used by one thread at a time and reads land in the order asked. The listing comes first, then the texts
of the first page of cards, then the rest a page at a time (the first screen is painted before the rest
is read). Results of a superseded listing (a refresh asked meanwhile) are dropped by a generation number.

The two actions are the hub library's own (`app.hub.pull.pull` for Copy to this machine,
`app.hub.requests.queue_dismiss_card` for Dismiss on every machine), as the CLI's `hub pull` and
`hub request-dismiss` are. Every failure a person can cause or meet (the hub down, the local database
read-only) is a `failed(text)` message, never a traceback.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from contextlib import AbstractContextManager, closing
from typing import Any

from PySide6.QtCore import QObject, Signal

from app.core.clock import clock_from_env
from app.core.errors import StoreError
from app.core.paths import DatabaseChoice
from app.core.settings import hub_machine_setting, load_settings
from app.hub.browse import PAGE_CARDS, FirstScreen, HubBrowser, HubListing
from app.hub.cards import HubCard, Key
from app.hub.words import machine_name
from app.store import MemoryStore
from ui.runtime.tasks import TaskRunner

log = logging.getLogger(__name__)


def error_text(exc: BaseException) -> str:
    """A failure as a person reads it; anything unforeseen is logged with its traceback."""
    if isinstance(exc, StoreError):
        return exc.message
    log.error("hub window: unexpected error", exc_info=exc)
    return f"Unexpected error ({type(exc).__name__}): {exc}"


class HubSession(QObject):
    """One hub, the local database Copy to this machine writes to, and the worker they run on."""

    listingLoaded = Signal(object)  # HubListing
    pageLoaded = Signal(object)  # list[HubCard] with their texts
    matched = Signal(str, object)  # the needle, set[Key] of the copies whose text holds it
    copied = Signal(str)  # what was done, as a sentence
    dismissQueued = Signal(str)
    failed = Signal(str)

    def __init__(
        self,
        url: str,
        local: DatabaseChoice | None,
        parent: QObject | None = None,
        *,
        first: FirstScreen | None = None,
    ) -> None:
        """`first`: the first screen's read, started before Qt was imported on `first.browser`."""
        super().__init__(parent)
        self.url = url
        self.local = local
        self.browser = first.browser if first is not None else HubBrowser(url)
        self._first = first.future if first is not None else None
        self.runner = TaskRunner(self, threads=1)
        self._generation = 0
        self._unread: list[HubCard] = []

    @property
    def location(self) -> str:
        return self.browser.location

    @property
    def machine(self) -> str:
        """This machine's name in the hub (the settings', else the host name): named in requests."""
        return hub_machine_setting(load_settings())

    def _submit(self, work: Callable[[], Any], done: Callable[[Any], None], priority: int = 0) -> None:
        self.runner.submit(work, done, lambda exc: self.failed.emit(error_text(exc)), priority=priority)

    def load(self) -> None:
        """Read the listing afresh, then its texts page by page (the first time, the first screen's read
        started before the window may have them already)."""
        self._generation += 1
        generation = self._generation
        if self._first is not None:
            first, self._first = self._first, None
            self._submit(first.result, lambda read: self._listed(generation, *read), priority=1)
            return
        self._submit(self.browser.listing, lambda listing: self._listed(generation, listing), priority=1)

    def _listed(self, generation: int, listing: HubListing, page: list[HubCard] | None = None) -> None:
        if generation != self._generation:
            return
        self._unread = list(listing.cards)
        self.listingLoaded.emit(listing)
        if page is not None:
            self._unread = self._unread[len(page) :]
            self.pageLoaded.emit(page)
        self._next_page(generation)

    def _next_page(self, generation: int) -> None:
        if generation != self._generation or not self._unread:
            return
        page, self._unread = self._unread[:PAGE_CARDS], self._unread[PAGE_CARDS:]

        def shown(cards: list[HubCard]) -> None:
            if generation == self._generation:
                self.pageLoaded.emit(cards)
                self._next_page(generation)

        self._submit(lambda: self.browser.texts(page), shown)

    def read_now(self, cards: list[HubCard]) -> None:
        """Texts of cards a person reached before their page came (a jump to the end), read first."""
        wanted = {card.key for card in cards}
        self._unread = [card for card in self._unread if card.key not in wanted]
        generation = self._generation

        def shown(read: list[HubCard]) -> None:
            if generation == self._generation:
                self.pageLoaded.emit(read)

        self._submit(lambda: self.browser.texts(cards), shown, priority=1)

    def search(self, needle: str) -> None:
        self._submit(lambda: self.browser.matching(needle), lambda keys: self.matched.emit(needle, keys))

    def open_local(self) -> AbstractContextManager[MemoryStore]:
        if self.local is None:
            raise StoreError("no local database to copy to: open one in the main window first")
        return closing(MemoryStore.open(self.local, clock=clock_from_env()))

    def copy_here(self, machine: str, memory_id: int) -> None:
        """Copy to this machine: `hub pull MACHINE ID` into the local database."""
        from app.hub.pull import pull

        def done(memory: Any) -> None:
            self.copied.emit(f"Copied {machine_name(machine)} #{memory_id} to this machine as #{memory.id}")

        self._submit(lambda: pull(self.open_local, self.url, machine, memory_id, "window"), done, priority=1)

    def dismiss_everywhere(self, sources: list[Key], reason: str | None = None) -> None:
        """Dismiss on every machine: `hub request-dismiss` for each text of the card."""
        from app.hub.requests import queue_dismiss_card

        here, now = self.machine, clock_from_env().now_ms()

        def done(queued: list[Any]) -> None:
            if not queued:
                self.dismissQueued.emit("Nothing queued: every copy is dismissed or has a request pending")
            else:
                shown = ", ".join(f"{machine_name(item.machine)} #{item.memory_id}" for item in queued)
                self.dismissQueued.emit(
                    f"Dismissal queued for {shown}; each machine applies it on its next publish"
                )

        self._submit(
            lambda: queue_dismiss_card(self.url, sources, requested_on=here, now=now, reason=reason),
            done,
            priority=1,
        )

    def close(self) -> None:
        self._generation += 1
        self.runner.wait_for_done(10_000)
        self.browser.close()
