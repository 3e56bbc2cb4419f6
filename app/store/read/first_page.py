"""The listing's first page by promotion, walked along our index of `promoted_at` instead of sorted.

Ordering the host's rows by `promoted_at` means reading that column from every row of the wide host
table and sorting (no index of the host's covers it, and we may not add one: the fence). `mdash_seen`
keeps a copy of each row's `promoted_at` (revision 0013_seen_promoted_at) in an index on
`(promoted_at, memory_id)`: the first `limit` copies in order are read from it, each joined with its
host row (the host's status decides whether it is listed; a row the host deleted drops out), and merged
with the host's rows above the `seen_through` mark (those without a copy yet: new since the last look;
ids only grow, so every row under the mark has one) in the listing's exact order.

SQLite only: a server's sequence hands out ids that commit out of order, so no mark can stand for every
row under it. A copy follows its row at each look (the host writes `promoted_at` once, at promotion):
between looks the order is the one last seen, as the rest of the first screen is.
"""

from __future__ import annotations

from sqlalchemy import Connection, Select, exists, select, union_all

from app.core.models.filters import MemoryFilter
from app.store.read.query import status_predicate
from app.store.schema.tables import counts_ids_up, seen, user_memories
from app.store.write.revision_log import SEEN_THROUGH

# The statuses that are a predicate on the host's row alone (no expiry, no revision to look up).
HOST_ROW_STATUSES = frozenset({"active", "dismissed", "other", "all"})

m, s = user_memories.c, seen.c


def walks_index(flt: MemoryFilter) -> bool:
    """Whether the listing's first page can be read along the index: by promotion, filtered by the
    host row's status only."""
    plain = not (flt.search.strip() or flt.source or flt.trust)
    return (
        plain
        and flt.sort == "promoted"
        and flt.status in HOST_ROW_STATUSES
        and flt.since is None
        and (flt.until is None)
    )


def ids_only_grow(conn: Connection) -> bool:
    """Whether the host's memory ids only grow (see `counts_ids_up`)."""
    return counts_ids_up(conn, user_memories)


def select_first_page(conn: Connection, flt: MemoryFilter, now: int, limit: int) -> Select[int] | None:
    """The first `limit` ids of the listing `flt` (one that `walks_index`) along our index; None where
    the mark is missing (a store at an older revision: the caller reads the host's order)."""
    through = conn.execute(SEEN_THROUGH).scalar()
    if through is None:
        return None
    status = status_predicate(flt.status, now, True)
    copy_order = (
        [s.promoted_at.desc(), s.memory_id.desc()] if flt.descending else [s.promoted_at, s.memory_id]
    )
    copies = (
        select(s.memory_id.label("id"), s.promoted_at.label("promoted"))
        # Each copy's row looked up by its key as the walk reaches it (a join would let the planner
        # start from the host's status index and sort every row it finds).
        .where(s.memory_id <= through, exists().where(m.id == s.memory_id, status))
        .order_by(*copy_order)
        .limit(limit)  # the walk along the index stops here
        .subquery()
    )
    newer = select(m.id, m.promoted_at).where(m.id > through, status)  # a range of rowids
    both = union_all(select(copies.c.id, copies.c.promoted), newer).subquery()
    order = [both.c.promoted.desc(), both.c.id.desc()] if flt.descending else [both.c.promoted, both.c.id]
    return select(both.c.id).order_by(*order).limit(limit)
