"""The view of the past's reads, run in the controller's worker (plain `app/` calls, no Qt).

First the first screen (`first_page`): the highest ids of the memories the host promoted at or before
the instant (`MemoryStore.first_ids_as_of`: host ids grow with promotion, so about the newest), and those
memories' states then (`MemoryStore.as_of` of those ids alone). Then the whole past (`whole_past`):
every memory's state then, newest promoted first (`listing_order`), which adds the memories deleted
since and drops any the first screen listed that did not exist then. A future instant is now.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from app.core.models import REWRITE_THRESHOLD_MS, Revision
from ui.cards.listing import EXPIRING_OR_EXPIRED

if TYPE_CHECKING:
    from app.core.models.as_of import MemoryAsOf
    from app.store import MemoryStore


@dataclass(frozen=True, slots=True)
class PastListing:
    at: int  # the instant shown (epoch ms)
    asked: int  # the instant asked for: after `at` when it was in the future (which is now)
    states: list[MemoryAsOf]  # in listing order
    complete: bool  # False: the first screen only, the whole past follows
    texts: list[str] = field(default_factory=list)  # `folded`: each state's text then, casefolded
    shown_to_agent: int = 0  # how many of `states` the agent was shown then
    unknown: int = 0  # how many of `states` are unknown then
    # The history (`history_until`) of the memory the first screen selects, read with it: (id, history).
    first_history: tuple[int, list[Revision]] | None = None

    @property
    def future(self) -> bool:
        return self.asked > self.at


def listing_order(
    states: Iterable[MemoryAsOf], sort: str = "promoted", descending: bool = True
) -> list[MemoryAsOf]:
    """In the toolbar's order as it reads then: by promotion (default: newest first), or by the last
    recorded change by then (`updated`; a memory never changed by then, by its promotion); then by id.
    A memory whose promotion time is unknown counts as the oldest."""

    def when(state: MemoryAsOf) -> int:
        changed = state.changed_at if sort == "updated" else None
        return changed if changed is not None else (state.promoted_at or 0)

    return sorted(states, key=lambda state: (when(state), state.memory_id), reverse=descending)


def first_page(store: MemoryStore, asked: int, rows: int, prefer: int | None = None) -> PastListing:
    """The first `rows` memories of the past listing (fewer: those that did not exist then), and the
    history of the one selected first: memory `prefer` (the card selected now) when it is listed, else
    the first. Not listed among the first: it is read too, so that it can be selected at once."""
    at = min(asked, store.now())
    ids = store.first_ids_as_of(at, rows)
    wanted = [*ids, prefer] if prefer is not None and prefer not in ids else ids
    found = {state.memory_id: state for state in store.as_of(at, wanted)}
    states = [found[i] for i in wanted if i in found]
    selected = prefer if prefer in found else (states[0].memory_id if states else None)
    history = (selected, history_until(store, selected, at)) if selected is not None else None
    return PastListing(at, asked, states, False, folded(states), *_counted(states), first_history=history)


def whole_past(store: MemoryStore, asked: int) -> PastListing:
    at = min(asked, store.now())
    states = listing_order(store.as_of(at))
    return PastListing(at, asked, states, True, folded(states), *_counted(states))


def _counted(states: Sequence[MemoryAsOf]) -> tuple[int, int]:
    """How many the agent was shown then, and how many are unknown then (counted off the GUI thread)."""
    return sum(1 for state in states if state.injected), sum(1 for state in states if not state.known)


def history_until(store: MemoryStore, memory_id: int, at: int) -> list[Revision]:
    """A memory's revisions at or before `at`, newest first; the newest with its texts (its diff is
    shown first), the others' read when one is selected."""
    revisions = [rev for rev in store.history(memory_id, texts=False) if rev.changed_at <= at]
    revisions.reverse()
    if revisions and not revisions[0].texts_loaded:
        revisions[0] = store.revision(revisions[0].id)
    return revisions


def folded(states: Sequence[MemoryAsOf]) -> list[str]:
    """Each state's text then in any case (`str.casefold`), for `kept`: folded once, off the GUI thread."""
    return [(state.content or "").casefold() for state in states]


def kept(
    states: Sequence[MemoryAsOf], texts: Sequence[str], status: str, words: Sequence[str]
) -> list[MemoryAsOf]:
    """The states the toolbar's filter keeps, in order: their status then (`all`; `active`,
    `dismissed`, expiring or expired, as they were then; `rewritten`: changed since their promotion by
    then, a change of text, status or expiry alike; `deleted` since) and every word of the search
    (casefolded) in their text then (`texts`, from `folded`), or `#id`. A memory whose state then is
    unknown is kept by every status (it may have been any; its card says it is unknown), `deleted`
    deciding on whether it exists now. One pass per condition: 100,000 states at a keystroke."""
    rows = (
        list(range(len(states)))
        if status == "all"
        else [row for row, state in enumerate(states) if _status_matches(state, status)]
    )
    for number, word in enumerate(words):
        if word.startswith("#"):
            rows = [row for row in rows if word in texts[row] or word == f"#{states[row].memory_id}"]
        elif number == 0 and status == "all":  # the common case, a pass over the texts alone
            rows = [row for row, text in enumerate(texts) if word in text]
        else:
            rows = [row for row in rows if word in texts[row]]
    return [states[row] for row in rows]


def _status_matches(state: MemoryAsOf, status: str) -> bool:
    if status == "deleted":
        return not state.exists_now
    if not state.known or state.status == status:
        return True
    if status == EXPIRING_OR_EXPIRED:
        return state.expires_at is not None
    if status == "rewritten":
        promoted, changed = state.promoted_at, state.changed_at
        return promoted is not None and changed is not None and changed - promoted > REWRITE_THRESHOLD_MS
    return False
