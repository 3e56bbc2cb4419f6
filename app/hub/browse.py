"""Reading a hub for the window: its cards (`app.hub.cards`) first without their texts, then a page of
texts at a time in listing order, so the first screen is read before the rest; a text search.

`HubBrowser` holds one connection, used by one thread at a time (the window's worker). Every read is a
snapshot of its own (committed after), so the next one sees what machines published meanwhile. The
listing reads digests of the texts, not the texts: a hub of tens of thousands of memories groups in one
short query. A hub that is down, or drops the connection, is a `HubError` with the server's words.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

import psycopg

from app.core.hub_layout import HOLDS_A_HUB, MACHINES, MEMORIES, REQUESTS, REVISIONS
from app.hub.cards import (
    CardCounts,
    HubCard,
    Key,
    MachineCopy,
    card_counts,
    group_cards,
    link_of_detail,
    link_of_provenance,
    with_texts,
)
from app.hub.connect import HubError, connect_hub, hub_location
from app.hub.schema.tables import require_schema
from app.store.connect.server import unreachable_message

T = TypeVar("T")

_MACHINES = f"SELECT machine FROM {MACHINES} ORDER BY machine"
_COPIES = f"""
SELECT m.machine, m.memory_id, m.status, m.updated_at, md5(m.content),
  EXISTS (SELECT 1 FROM {REQUESTS} q WHERE q.machine = m.machine AND q.memory_id = m.memory_id
          AND q.kind = 'dismiss' AND q.applied_at IS NULL),
  CASE WHEN strpos(m.source_candidate_provenance, 'synced_from') > 0 THEN m.source_candidate_provenance END
FROM {MEMORIES} m
"""
_COPIED = (
    f"SELECT machine, memory_id, detail FROM {REVISIONS}"
    " WHERE kind = 'create' AND strpos(detail, 'copied_from') > 0"
)
_TEXTS = f"""
SELECT m.machine, m.memory_id, m.content FROM {MEMORIES} m
JOIN unnest(%s::text[], %s::bigint[]) AS k(machine, memory_id)
  ON m.machine = k.machine AND m.memory_id = k.memory_id
"""
_MATCHING = f"SELECT machine, memory_id FROM {MEMORIES} WHERE strpos(lower(content), lower(%s)) > 0"
PAGE_CARDS = 60  # cards whose texts one read fetches: more than a screen
LIST_PAGE_CARDS = 2_000  # the same for `hub list`, which reads every text


@dataclass(frozen=True, slots=True)
class HubListing:
    """The hub's cards in listing order (texts not read yet), its machines and counts."""

    cards: list[HubCard]
    machines: tuple[str, ...]
    counts: CardCounts


class HubBrowser:
    """A connection to one hub, for reading its cards; `close` when done."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.location = hub_location(url)
        self._conn: psycopg.Connection[Any] | None = None

    def _run(self, read: Callable[[psycopg.Connection[Any]], T]) -> T:
        if self._conn is None or self._conn.closed:
            self._conn = connect_hub(self.url)
        try:
            try:
                return read(self._conn)
            finally:
                if not self._conn.closed:
                    self._conn.rollback()
        except psycopg.Error as exc:
            self.close()  # a connection that failed is not used again: the next read reconnects
            raise HubError(unreachable_message(self.location, exc)) from exc

    def is_hub(self) -> bool:
        """Whether the database holds a hub: set up by `hub setup`, or an older version's tables (then
        the listing says what to do)."""
        return self._run(lambda conn: _holds_a_hub(conn))

    def listing(self) -> HubListing:
        """Every card of the hub, without texts. A database without the hub's tables is an error."""
        return self._run(self._listing)

    def _listing(self, conn: psycopg.Connection[Any]) -> HubListing:
        require_schema(conn, self.location)
        machines = tuple(str(row[0]) for row in conn.execute(_MACHINES))
        copies: list[MachineCopy] = []
        links: list[tuple[Key, Key]] = []
        for machine, memory_id, status, updated, digest, pending, provenance in conn.execute(
            _COPIES
        ).fetchall():
            copy = MachineCopy(str(machine), int(memory_id), str(status), int(updated), str(digest), pending)
            copies.append(copy)
            source = link_of_provenance(provenance)
            if source is not None:
                links.append((copy.key, source))
        for machine, memory_id, detail in conn.execute(_COPIED).fetchall():
            source = link_of_detail(detail)
            if source is not None:
                links.append(((str(machine), int(memory_id)), source))
        cards = group_cards(copies, links, machines)
        return HubListing(cards, machines, card_counts(cards, machines))

    def texts(self, cards: Sequence[HubCard]) -> list[HubCard]:
        """The cards with their copies' texts (one query for the lot)."""
        keys = [c.key for card in cards for c in card.copies]
        rows = self._run(
            lambda conn: conn.execute(_TEXTS, ([k[0] for k in keys], [k[1] for k in keys])).fetchall()
        )
        texts = {(str(machine), int(memory_id)): str(content) for machine, memory_id, content in rows}
        return [with_texts(card, texts) for card in cards]

    def matching(self, needle: str) -> set[Key]:
        """The copies whose text holds `needle` (case-insensitive): a card matches if any copy does."""
        rows = self._run(lambda conn: conn.execute(_MATCHING, (needle,)).fetchall())
        return {(str(machine), int(memory_id)) for machine, memory_id in rows}

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None


def _holds_a_hub(conn: psycopg.Connection[Any]) -> bool:
    row = conn.execute(HOLDS_A_HUB).fetchone()
    return bool(row and row[0])


def first_screen(browser: HubBrowser) -> tuple[HubListing, list[HubCard]]:
    """The listing and the texts of its first page: what the window paints first."""
    listing = browser.listing()
    return listing, browser.texts(listing.cards[:PAGE_CARDS])


@dataclass(frozen=True, slots=True)
class FirstScreen:
    """`first_screen` being read in a thread of its own, on its own browser: started before Qt is
    imported, so the hub's work overlaps with that. The window's worker takes the result
    (`Future.result` waits for the thread, so the browser is never used by two threads at once)."""

    browser: HubBrowser
    future: Future[tuple[HubListing, list[HubCard]]]

    @classmethod
    def start(cls, url: str) -> FirstScreen:
        browser = HubBrowser(url)
        pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hub first screen")
        future = pool.submit(first_screen, browser)
        pool.shutdown(wait=False)
        return cls(browser, future)


def every_card(url: str) -> tuple[HubListing, list[HubCard]]:
    """Every card of the hub at `url` with its texts (`hub list`), read a page at a time."""
    browser = HubBrowser(url)
    try:
        listing = browser.listing()
        cards: list[HubCard] = []
        for start in range(0, len(listing.cards), LIST_PAGE_CARDS):
            cards += browser.texts(listing.cards[start : start + LIST_PAGE_CARDS])
        return listing, cards
    finally:
        browser.close()


def is_hub_url(url: str) -> bool:
    """Whether `url` names a PostgreSQL database holding a hub; False for any other URL. A server that
    cannot be reached is a `HubError` (the same words the store's own open would give)."""
    try:
        browser = HubBrowser(url)
    except HubError:
        return False
    try:
        return browser.is_hub()
    finally:
        browser.close()
