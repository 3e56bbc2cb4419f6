"""The first screen's reads, started as soon as the launch has its store: before Qt and the window are
imported and built, so the database's work (SQLite runs without Python's lock: ordering the rows of a
large listing) overlaps with theirs, and the window finds what its first frame shows already read.

No Qt here (`ui.cli_hooks` starts it before Qt is imported). The modules the reads need come with this
one, on the launch's thread, so the reader does not import what the window imports at the same time.
What a first frame shows is read in one thread, one read after the other (`FirstScreen`): the first
page of cards, the first card's history, links and candidates' words, the counts and the undo log.
The controller takes each part (or the error) with `Future.result()`, which waits for every read of
the thread, so no two threads ever use the store at once.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from app.commands.runner import history as command_log
from app.core.models.evidence import memory_candidate_ids
from ui.cards.listing import FIRST_PAGE, FIRST_ROWS, Listing, ViewFilter, load_first_page

if TYPE_CHECKING:
    from app.commands.log import LogEntry
    from app.core.models import Counts, Revision
    from app.core.models.evidence import Evidence
    from app.core.models.links import Link
    from app.store import MemoryStore

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class FirstScreen:
    """What the window's first frame shows, read before the window is built."""

    listing: Listing  # the first page of the starting filter
    history: tuple[int, list[Revision], list[Link]] | None  # the first card: revisions newest first
    counts: Counts
    undo_log: list[LogEntry]  # the command log, oldest first
    evidence: tuple[list[int], Mapping[int, Evidence]]  # the first card's candidates and their words

    def evidence_of(self, ids: Sequence[int]) -> Mapping[int, Evidence] | None:
        """The words read of exactly these candidates (None: others)."""
        return self.evidence[1] if list(ids) == self.evidence[0] else None

    def history_of(self, memory_id: int) -> tuple[list[Revision], list[Link]] | None:
        """The revisions and links read of `memory_id` (None: another memory's, or none)."""
        if self.history is None or self.history[0] != memory_id:
            return None
        return self.history[1], self.history[2]


def first_part(first: Future[FirstScreen] | None, pick: Callable[[FirstScreen], T | None]) -> T | None:
    """`pick` of the first screen, once its reads are done; None without one, or when they failed (the
    listing, which takes the first screen first, reports why; the part is then read again)."""
    if first is None or first.exception() is not None:
        return None
    return pick(first.result())


def newest_first(store: MemoryStore, memory_id: int) -> list[Revision]:
    """A memory's revisions as the history panel shows them (`Controller.load_history`): newest first,
    without their texts but the newest one's."""
    return list(reversed(store.history(memory_id, texts=False, newest_whole=True)))


def read_first_screen(store: MemoryStore, flt: ViewFilter) -> FirstScreen:
    listing = load_first_page(store, flt, FIRST_PAGE, FIRST_ROWS)
    first = listing.ids[0] if listing.ids else None
    history = None
    if first is not None:
        history = (first, newest_first(store, first), store.links([first]).get(first, []))
    card = next((memory for memory in listing.rows if memory.id == first), None)
    candidates = memory_candidate_ids(card) if card is not None else []
    evidence = (candidates, store.evidence(candidates) if candidates else {})
    return FirstScreen(listing, history, store.counts(), command_log(store), evidence)


def start_first_page(store: MemoryStore, flt: ViewFilter | None = None) -> Future[FirstScreen]:
    """`read_first_screen` of the window's starting filter (`flt`), read in a thread of its own."""
    reader = ThreadPoolExecutor(1, thread_name_prefix="first screen")
    try:
        return reader.submit(read_first_screen, store, flt or ViewFilter())
    finally:
        reader.shutdown(wait=False)  # the thread ends with the reads
