"""The memory contract's reads (seed 001): the profile the agent is shown, and `recall`.

Every shape goes through `injected_predicate`, so an expired memory is absent from all of them from
its expiry instant on, whatever else the query selects. The best-match order ranks raw host cells in
Python, so they are read as `rows` reads them (a blob content, a text `updated_at` rank, not raise).
"""

from __future__ import annotations

from typing import Literal

from sqlalchemy import Connection, select

from app.store.kinds import USER_MEMORIES, MemoryKind
from app.store.read.host_cells import text_value, time_value
from app.store.read.query import injected_predicate, search_predicate
from app.store.schema.tables import user_memories

RecallOrder = Literal["recent", "relevance"]
RECALL_ORDERS: tuple[RecallOrder, ...] = ("recent", "relevance")
m = user_memories.c


def profile_ids(conn: Connection, now: int, own: bool, kind: MemoryKind = USER_MEMORIES) -> list[int]:
    """What the host injects, in its order (the kind's: user memories by promoted_at, id), minus what
    has expired."""
    table = kind.table
    query = select(table.c[kind.id_column]).where(injected_predicate(now, own, kind))
    query = query.order_by(*kind.injection_order())
    return [int(row[0]) for row in conn.execute(query)]


def relevance(content: str, terms: list[str]) -> int:
    text = content.casefold()
    return sum(text.count(term.casefold()) for term in terms)


def recall_ids(
    conn: Connection,
    now: int,
    own: bool,
    *,
    search: str = "",
    limit: int | None = None,
    order: RecallOrder = "recent",
) -> list[int]:
    """Memories the agent may recall: every search word must occur; newest first or best match first."""
    query = select(m.id, m.content, m.updated_at).where(injected_predicate(now, own))
    if search.strip():
        query = query.where(search_predicate(search))
    if order == "recent" or not search.strip():
        query = query.order_by(m.updated_at.desc(), m.id.desc())
        if limit is not None:
            query = query.limit(limit)
        return [int(row[0]) for row in conn.execute(query)]
    terms = [term.removeprefix("#") for term in search.split()]
    scored = sorted(
        conn.execute(query),
        key=lambda row: (relevance(text_value(row[1]), terms), time_value(row[2]), row[0]),
        reverse=True,
    )
    ids = [int(row[0]) for row in scored]
    return ids if limit is None else ids[:limit]
