"""One listing read for the window: the ids a filter selects, the rows to show first, and the counts.

Runs in a worker thread (plain `app/` calls, no Qt).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from app.core.models import Counts, Memory
from app.core.models.filters import STATUS_FILTERS, MemoryFilter, SortKey, StatusFilter, TrustFilter

if TYPE_CHECKING:
    from app.store import MemoryStore

EXPIRING_OR_EXPIRED: StatusFilter = "expiring_or_expired"
_STATUSES: dict[str, StatusFilter] = {status: status for status in STATUS_FILTERS}
FIRST_PAGE = 200  # the ids a first page holds
FIRST_ROWS = 40  # the rows a first page reads: more cards than a tall screen shows


@dataclass(frozen=True, slots=True)
class ViewFilter:
    """What the toolbar selects: a store status filter (`expiring_or_expired` among them), search text,
    sort, a source and a trust."""

    status: str = "active"
    search: str = ""
    sort: SortKey = "promoted"
    descending: bool = True
    source: str = ""  # a source or scheme (`session:`), already read by `app.core.trust.parse_source`
    trust: TrustFilter = ""
    since: int | None = None  # promoted at or after (epoch ms)

    def store_filter(self, status: StatusFilter) -> MemoryFilter:
        return MemoryFilter(
            status=status,
            search=self.search,
            sort=self.sort,
            descending=self.descending,
            source=self.source,
            trust=self.trust,
            since=self.since,
        )


@dataclass(frozen=True, slots=True)
class Listing:
    filter: ViewFilter
    ids: list[int]  # every id the filter selects, or only the first page of them (`complete` False)
    rows: list[Memory]  # the first page plus the rows the view already held, refreshed
    counts: Counts | None  # None on a first page: the complete listing counts
    total: int | None  # how many ids the filter selects (None: a search's first page, not counted yet)

    @property
    def complete(self) -> bool:
        return len(self.ids) == self.total


def _store_filter(flt: ViewFilter) -> MemoryFilter:
    return flt.store_filter(_STATUSES.get(flt.status, "all"))


def load_listing(
    store: MemoryStore, flt: ViewFilter, wanted: Sequence[int], first: int, *, observe: bool = True
) -> Listing:
    """The listing, with outside rewrites recorded first (`observe`) unless told not to: a quick first
    paint before the real listing skips that."""
    if observe:
        store.observe()
    ids = store.list_ids(_store_filter(flt))
    present = set(ids)
    rows_for = list(dict.fromkeys([*ids[:first], *(i for i in wanted if i in present)]))
    return Listing(flt, ids, store.get_many(rows_for), store.counts(), len(ids))


def load_first_page(
    store: MemoryStore,
    flt: ViewFilter,
    first: int,
    rows: int,
    order: Sequence[int] | None = None,
    go_on: Callable[[], bool] = lambda: True,
) -> Listing:
    """The first screen of a listing, fast: its first `first` ids (not observed), the rows of the first
    `rows` of them (a screenful; the model asks for the others when they are painted) and how many it
    holds (a search's size only once the complete listing has counted it: `total` None until then).
    The status counts come with the complete listing.

    At 100,000 memories producing every id in order takes longer than the whole first screen should;
    the complete listing follows (see `Controller.refresh`) and extends this one. `order`: the ids of
    this filter without its search, as last listed; a search the index does not narrow looks for its
    hits along them (`MemoryStore.first_hits`, stopped when `go_on()` turns False) instead of ordering
    every row again.
    """
    store_filter = _store_filter(flt)
    hits = store.first_hits(store_filter, order, first, go_on) if order is not None else None
    if hits is not None:
        return Listing(flt, hits, store.get_many(hits[:rows]), None, None)
    ids, total = store.first_ids(store_filter, first)
    return Listing(flt, ids, store.get_many(ids[:rows]), None, total)


def without_search(flt: ViewFilter) -> ViewFilter:
    """The same listing with no search: the order a search's first screen walks."""
    return replace(flt, search="")
