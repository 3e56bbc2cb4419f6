"""`MemoryQueries`: what memories there are: listings, one memory, counts, the profile, recall,
candidates, sources and the trust marks.

Memories are built from the host's rows, the dashboard's own facts (the trash for deleted ones) and the
person's marks (`app.store.keeping`: stored, or kept by a read-only store).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from sqlalchemy import Connection, Select, func, select

from app.core.errors import NotFoundError
from app.core.models import Candidate, Counts, Memory, MemoryStatus
from app.core.models.filters import MemoryFilter
from app.store.database import Database
from app.store.kinds import USER_MEMORIES, MemoryKind
from app.store.read.first_page import ids_only_grow, select_first_page, walks_index
from app.store.read.query import count_by_status, is_expired, select_among, select_first_hits, select_ids
from app.store.read.reads import chunks, fetch_candidates, fetch_own_facts, fetch_rows
from app.store.read.recall import RecallOrder, profile_ids, recall_ids
from app.store.read.rows import build_memories
from app.store.read.sources import judged_trust, split_contributions
from app.store.read.trash import fetch_deleted_rows
from app.store.schema.tables import user_memories, user_memory_candidates
from app.store.search.upkeep import SearchIndex

# A search the index does not narrow looks for its first screen among this many times as many of the
# listing's first ids (without the search) before it scans every row: a term in one memory of 8 or more
# fills a screen there.
FIRST_WINDOW = 8
FIRST_HITS_CHUNK = 500  # ids per query of `first_hits`


class MemoryQueries:
    def __init__(self, db: Database, search: SearchIndex, kind: MemoryKind = USER_MEMORIES) -> None:
        self._db = db
        self._search = search
        self._kind = kind
        self._ids_grow: bool | None = None  # whether the host's ids only grow (`first_page`), once asked

    def memories(self, conn: Connection, ids: Sequence[int], now: int, *, trash: bool = True) -> list[Memory]:
        """The memories of `ids`; with `trash`, ids no longer in the host's table come from the trash
        (status `deleted`, `app.store.read.trash`)."""
        rows = fetch_rows(conn, ids)
        if trash and self._db.own and len(rows) < len(set(ids)):  # ids not in the host's table
            found = {row.id for row in rows}
            deleted = {row.id: row for row in fetch_deleted_rows(conn, [i for i in ids if i not in found])}
            if deleted:
                by_id = {row.id: row for row in rows} | deleted
                rows = [by_id[i] for i in dict.fromkeys(ids) if i in by_id]
        facts = fetch_own_facts(conn, ids) if self._db.own else {}
        self._db.keeping.merge_facts(facts, ids)
        return build_memories(rows, facts, now, self._db.keeping.marks(conn))

    def list_ids(self, flt: MemoryFilter | None = None) -> list[int]:
        """The listing's ids in order."""
        flt = flt or MemoryFilter()
        with self._db.read() as conn:
            ids = list(conn.execute(self._ids_query(conn, flt)).scalars().all())
            return self._of_trust(conn, ids, flt.trust) if flt.trust else ids

    def _of_trust(self, conn: Connection, ids: Sequence[int], trust: str) -> list[int]:
        """The ids whose memory has `trust` (`screened`: untrusted for its content) under the marks; the
        trash's cards are judged as cards (they are not in the host's table)."""
        judged = judged_trust(conn, ids, self._db.keeping.marks(conn), self._db.own)
        missing = [i for i in ids if i not in judged]
        for memory in self.memories(conn, missing, self._db.now()) if missing else ():
            judged[memory.id] = (memory.trust, memory.has_hidden_characters)
        if trust == "screened":
            return [i for i in ids if i in judged and judged[i][1]]
        return [i for i in ids if i in judged and judged[i][0] == trust]

    def first_ids(self, flt: MemoryFilter, limit: int) -> tuple[list[int], int | None]:
        """The first `limit` ids of a listing, without observing, and how many it holds: a first screen
        that waits neither for every id of a large listing nor for the first look at the host's rows.

        A search counts nothing here (its size is None once it fills the screen; the complete listing
        counts it): terms the index narrows are read through it; otherwise the text is matched against
        the listing's first `FIRST_WINDOW * limit` ids, and only a search that leaves the screen short
        there scans every row. A listing without a search is counted (the status index answers)."""
        if flt.trust:  # judged in Python, under the marks: no LIMIT query
            every = self.list_ids(flt)
            return every[:limit], len(every)
        searching = bool(flt.search.strip())
        with self._db.read() as conn:
            indexed = self._search.indexed_terms(conn, flt)
            now = self._db.now()
            if searching and not indexed:
                window = select_first_hits(flt, now, self._db.own, FIRST_WINDOW * limit, limit)
                ids = list(conn.execute(window).scalars().all())
                if len(ids) == limit:
                    return ids, None
            query = select_ids(flt, now, self._db.own, indexed)
            if indexed:  # at most a few thousand hits (`selective_terms`): all of them, no LIMIT, which on
                # PostgreSQL tempts the planner to walk the whole table in listing order, filtering
                every = list(conn.execute(query).scalars().all())
                return every[:limit], (None if len(every) >= limit else len(every))
            walked = self._along_index(conn, flt, now, limit) if not (searching or indexed) else None
            ids = list(conn.execute(query.limit(limit) if walked is None else walked).scalars().all())
            if len(ids) < limit:
                return ids, len(ids)
            if searching:
                return ids, None
            total = conn.execute(select(func.count()).select_from(query.order_by(None).subquery())).scalar()
            return ids, int(total or 0)

    def _along_index(self, conn: Connection, flt: MemoryFilter, now: int, limit: int) -> Select[int] | None:
        """The first page along our index of `promoted_at` (`app.store.read.first_page`), where it
        serves this listing on this database."""
        if not (self._db.own and walks_index(flt)):
            return None
        if self._ids_grow is None:
            self._ids_grow = ids_only_grow(conn)
        return select_first_page(conn, flt, now, limit) if self._ids_grow else None

    def first_hits(
        self, flt: MemoryFilter, order: Sequence[int], limit: int, go_on: Callable[[], bool]
    ) -> list[int] | None:
        """A search's first `limit` hits along `order` (the same listing without the search, as the
        window last read it), `FIRST_HITS_CHUNK` ids per query, in that order; without observing.

        Each query looks up its ids by key and matches only those, so a term in most memories fills a
        screen in a few queries instead of ordering every row first. Between queries `go_on()` may end the
        walk (a newer search superseded this one): the hits found so far are returned. None when the
        search index narrows the search (`first_ids` reads it faster), or for a listing this cannot
        walk (the trash, a trust filter). Ids not in `order` (promoted since it was read) are not found
        here: the complete listing that follows has them."""
        if flt.status == "deleted" or flt.trust or not flt.search.strip():
            return None
        hits: list[int] = []
        with self._db.read() as conn:
            if self._search.indexed_terms(conn, flt):
                return None
            now = self._db.now()
            for chunk in chunks(order, FIRST_HITS_CHUNK):
                found = set(conn.execute(select_among(flt, now, self._db.own, chunk)).scalars())
                hits += [memory_id for memory_id in chunk if memory_id in found]
                if len(hits) >= limit or not go_on():
                    break
        return hits[:limit]

    def _ids_query(self, conn: Connection, flt: MemoryFilter) -> Select[int]:
        return select_ids(flt, self._db.now(), self._db.own, self._search.indexed_terms(conn, flt))

    def get_many(self, ids: Sequence[int], *, deleted: bool = True) -> list[Memory]:
        """Memories by id, in the order given (no observation: callers page through a listing); deleted
        ones from the trash (status `deleted`) unless told not to."""
        with self._db.read() as conn:
            return self.memories(conn, ids, self._db.now(), trash=deleted)

    def list_memories(self, flt: MemoryFilter | None = None) -> list[Memory]:
        return self.get_many(self.list_ids(flt))

    def get(self, memory_id: int) -> Memory:
        found = self.get_many([memory_id], deleted=False)
        if not found:
            raise NotFoundError(f"memory #{memory_id} does not exist")
        return found[0]

    def candidates(self, ids: Sequence[int] | None = None) -> list[Candidate]:
        """The candidates in the pool (or those of `ids`). Observe first (`Observer.observe`) to archive
        each candidate shown before the host can consume or prune it."""
        with self._db.read() as conn:
            return fetch_candidates(conn, ids)

    def counts(self) -> Counts:
        now = self._db.now()
        with self._db.read() as conn:
            by_status: dict[str, int] = {str(s): int(n) for s, n in conn.execute(count_by_status())}
            expired = conn.execute(
                select(func.count()).select_from(user_memories).where(is_expired(now, self._db.own))
            )
            pending = conn.execute(select(func.count()).select_from(user_memory_candidates))
            active = int(by_status.pop(MemoryStatus.ACTIVE, 0))
            dismissed = int(by_status.pop(MemoryStatus.DISMISSED, 0))
            return Counts(
                active,
                dismissed,
                sum(by_status.values()),
                int(expired.scalar_one()),
                int(pending.scalar_one()),
            )

    def profile(self) -> list[Memory]:
        now = self._db.now()
        with self._db.read() as conn:
            return self.memories(conn, profile_ids(conn, now, self._db.own, self._kind), now)

    def recall(
        self, search: str = "", *, limit: int | None = None, order: RecallOrder = "recent"
    ) -> list[Memory]:
        now = self._db.now()
        with self._db.read() as conn:
            ids = recall_ids(conn, now, self._db.own, search=search, limit=limit, order=order)
            return self.memories(conn, ids, now)

    def trust_marks(self) -> dict[str, str]:
        """The person's marks: source (or scheme, `session:`) -> `trusted` or `untrusted`."""
        with self._db.read() as conn:
            return dict(self._db.keeping.marks(conn))

    def contributions(self, source: str) -> tuple[list[Memory], list[Memory]]:
        """Everything `source` (or a whole scheme) contributed, any status: (memories where it is the only
        source, those where it is one of several)."""
        ids = self.list_ids(MemoryFilter(status="all", source=source, sort="id"))
        return split_contributions(self.get_many(ids), source)
