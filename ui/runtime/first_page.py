"""The first screen's reads (`read_first_screen`): what the window's first frame shows, read in one go
through the store, one read after the other: the first page of cards, the first card's history, links and
candidates' words, the counts and the undo log. A launch runs them in a child process of its own while the
window loads (`ui.runtime.first_screen.read_aside`); the controller takes each part from there.

No Qt here, and nothing of the store imported until a read runs: the launch hands `read_first_screen`
to its child before it has imported the store.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.core.models.evidence import memory_candidate_ids
from ui.cards.listing import FIRST_PAGE, FIRST_ROWS, ViewFilter, load_first_page
from ui.runtime.first_screen import FirstScreen, StoreFacts

if TYPE_CHECKING:
    from app.core.models import Revision
    from app.store import MemoryStore


def newest_first(store: MemoryStore, memory_id: int) -> list[Revision]:
    """A memory's revisions as the history panel shows them (`Controller.load_history`): newest first,
    without their texts but the newest one's."""
    return list(reversed(store.history(memory_id, texts=False, newest_whole=True)))


def read_first_screen(store: MemoryStore, flt: ViewFilter | None = None) -> FirstScreen:
    """The first frame's parts, of the window's starting filter (`flt`: the default one), read from one
    snapshot: the host committing meanwhile never makes the counts, the cards and the first card's
    history disagree."""
    with store.one_read():
        return _read_first_screen(store, flt)


def _read_first_screen(store: MemoryStore, flt: ViewFilter | None) -> FirstScreen:
    listing = load_first_page(store, flt or ViewFilter(), FIRST_PAGE, FIRST_ROWS)
    first = listing.ids[0] if listing.ids else None
    history = None
    if first is not None:
        history = (first, newest_first(store, first), store.links([first]).get(first, []))
    card = next((memory for memory in listing.rows if memory.id == first), None)
    candidates = memory_candidate_ids(card) if card is not None else []
    evidence = (candidates, store.evidence(candidates) if candidates else {})
    from app.commands.runner import (
        history as command_log,
    )  # with the store's modules, in the process that reads

    counts, log = store.counts(), command_log(store)
    return FirstScreen(StoreFacts.of(store), listing, history, counts, log, evidence)
