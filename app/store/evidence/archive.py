"""The evidence archive (`mdash_evidence`): every candidate copied before the host deletes it.

A look finds only the candidates new since the last one, by id. The host's candidate table is
`AUTOINCREMENT`: an id is never handed out twice, and every new row's id is above every id ever used, so
everything above the archive's highest id is new and everything at or below it was archived (each pass
archives everything above that watermark, never a chosen few). A table without `AUTOINCREMENT` (another
host, an older file) may hand a deleted row's id to a new one: there each pass compares ids with the
archive instead (an anti-join over the pool). An id already archived keeps its first words.

Rows are copied by SQL (`INSERT … SELECT`), so odd cells (NULL, numbers, blobs, invalid UTF-8) are kept
exactly as the host held them; reading them back goes through `build_candidate`, which escapes them.
Nothing here writes to the host's tables. A read-only store keeps its archive in memory (`MemoryArchive`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from sqlalchemy import BigInteger, Connection, bindparam, exists, func, insert, inspect, literal, select

from app.core.models.evidence import Evidence
from app.core.text_input import INT64_MAX, INT64_MIN
from app.store.read.reads import SELECT_CANDIDATES, chunks
from app.store.read.rows import CANDIDATE_COLUMNS, build_candidate
from app.store.schema.tables import counts_ids_up, evidence, user_memory_candidates

c = user_memory_candidates.c
e = evidence.c
HOST_COLUMNS = CANDIDATE_COLUMNS[1:]  # the archived copy's columns, past the id


def archive_exists(conn: Connection) -> bool:
    return inspect(conn).has_table(evidence.name)


def ids_never_reused(conn: Connection) -> bool:
    """Whether the host's candidate table is `AUTOINCREMENT` (ids only grow; see the module docstring)."""
    return counts_ids_up(conn, user_memory_candidates)


_WATERMARK = select(func.coalesce(func.max(e.candidate_id), INT64_MIN)).scalar_subquery()
_UNARCHIVED = ~exists().where(e.candidate_id == c.id)


_NEW = {True: c.id > _WATERMARK, False: _UNARCHIVED}  # by whether ids only grow
# Built once (see revision_log on statement building): every look runs one.
_HAS_NEW = {
    monotonic: select(literal(1)).select_from(user_memory_candidates).where(condition).limit(1)
    for monotonic, condition in _NEW.items()
}
_COPY_COLUMNS = ["candidate_id", *HOST_COLUMNS, "first_seen_at"]
_ARCHIVE_NEW = {
    monotonic: insert(evidence).from_select(
        _COPY_COLUMNS,
        select(c.id, *(c[name] for name in HOST_COLUMNS), bindparam("b_now", type_=BigInteger)).where(
            condition
        ),
    )
    for monotonic, condition in _NEW.items()
}


def has_new(conn: Connection, monotonic: bool) -> bool:
    """Whether any candidate is not archived yet (a read: one index probe when ids only grow)."""
    return conn.execute(_HAS_NEW[monotonic]).first() is not None


def archive_new(conn: Connection, now: int, monotonic: bool) -> int:
    """Inside a write transaction: copy every candidate not archived yet; returns how many."""
    return int(conn.execute(_ARCHIVE_NEW[monotonic], {"b_now": now}).rowcount or 0)


def _wanted(ids: Iterable[int]) -> list[int]:
    """Ids a query can take (a memory's ids come from the host's JSON, which has no 64-bit limit)."""
    return [item for item in dict.fromkeys(ids) if INT64_MIN <= item <= INT64_MAX]


_SELECT_ARCHIVED = select(e.candidate_id, *(e[name] for name in HOST_COLUMNS), e.first_seen_at)


def fetch_evidence(conn: Connection, ids: Iterable[int]) -> dict[int, Evidence]:
    """The archived copies of `ids` (those the archive has)."""
    found: dict[int, Evidence] = {}
    for part in chunks(_wanted(ids)):
        for row in conn.execute(_SELECT_ARCHIVED.where(e.candidate_id.in_(part))):
            archived_at = row[-1] if type(row[-1]) is int else 0
            found[int(row[0])] = Evidence.of(build_candidate(tuple(row[:-1])), archived_at)
    return found


@dataclass
class MemoryArchive:
    """A read-only store's archive: candidates seen by this process, kept while the app runs."""

    kept: dict[int, Evidence] = field(default_factory=dict)
    watermark: int | None = None  # the highest id archived anywhere (the stored table included)

    def look(self, conn: Connection, now: int, monotonic: bool, stored: bool) -> int:
        """Keep the candidates new since the last look; returns how many."""
        if self.watermark is None and stored:
            self.watermark = conn.execute(select(func.max(e.candidate_id))).scalar()
        query = SELECT_CANDIDATES
        if monotonic and self.watermark is not None:
            query = query.where(c.id > self.watermark)
        fresh = [build_candidate(row) for row in conn.execute(query)]
        stored_ids = (
            set(fetch_evidence(conn, [item.id for item in fresh])) if stored and not monotonic else set()
        )
        added = 0
        for candidate in fresh:
            if candidate.id not in self.kept and candidate.id not in stored_ids:
                self.kept[candidate.id] = Evidence.of(candidate, now)
                added += 1
            self.watermark = max(candidate.id, self.watermark or candidate.id)
        return added

    def find(self, ids: Sequence[int]) -> dict[int, Evidence]:
        return {item: self.kept[item] for item in ids if item in self.kept}
