"""The links table (`mdash_links`): add a link inside a write, drop those a change made when it is undone
(or those of memories deleted), and read one memory's links both ways. A store whose tables predate the
table reads no links."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from sqlalchemy import Connection, delete, insert, inspect, or_, select

from app.core.models.links import Link, Relation
from app.store.read.reads import chunks
from app.store.schema.tables import links
from app.store.write.revision_log import WriteContext, inserted_id

c = links.c
RUN_MADE_BY = "run:"  # `made_by` of a link a review run made, before its run id


def present(conn: Connection) -> bool:
    return inspect(conn).has_table(links.name)


def add_link(
    ctx: WriteContext,
    memory_kind: str,
    from_id: int,
    to_id: int,
    relation: Relation,
    made_by: str,
    detail: Mapping[str, Any] | None = None,
) -> int:
    """One link, made by `made_by` (`command:<id>`, `run:<id>`), at the write's instant."""
    values = {
        "memory_kind": memory_kind,
        "from_id": from_id,
        "to_id": to_id,
        "relation": relation.value,
        "made_at": ctx.now,
        "made_by": made_by,
        "detail": json.dumps(dict(detail), sort_keys=True) if detail else None,
    }
    return inserted_id(ctx.conn.execute(insert(links).values(**values)))


def drop_links_made_by(ctx: WriteContext, made_by: str) -> int:
    """Undoing a change: the links it made go with it; how many."""
    return ctx.conn.execute(delete(links).where(c.made_by == made_by)).rowcount


def drop_links_of(ctx: WriteContext, memory_kind: str, memory_ids: Iterable[int]) -> int:
    """Deleting memories: every link with one of them at either end goes (it would name a row that is
    gone, or a later one given the same id); how many."""
    wanted = list(dict.fromkeys(memory_ids))
    if not wanted or not present(ctx.conn):
        return 0
    dropped = 0
    for part in chunks(wanted):
        ends = or_(c.from_id.in_(part), c.to_id.in_(part))
        dropped += ctx.conn.execute(delete(links).where(c.memory_kind == memory_kind, ends)).rowcount
    return dropped


def _link(row: Any) -> Link:
    return Link(
        id=int(row.id),
        memory_kind=str(row.memory_kind),
        from_id=int(row.from_id),
        to_id=int(row.to_id),
        relation=str(row.relation),
        made_at=int(row.made_at),
        made_by=str(row.made_by),
    )


def links_of(
    conn: Connection, memory_kind: str, memory_ids: Iterable[int], *, stored: bool | None = None
) -> dict[int, list[Link]]:
    """Every link touching each of `memory_ids` (either end), oldest first; a memory without links is
    absent. `stored`: whether the table exists, when the caller knows (`Database.links_stored`, read
    once at open); else the catalogue is asked."""
    wanted = list(dict.fromkeys(memory_ids))
    found: dict[int, list[Link]] = {}
    if not wanted or not (present(conn) if stored is None else stored):
        return found
    seen: set[int] = set()
    for part in chunks(wanted):
        query = (
            select(links)
            .where(c.memory_kind == memory_kind, or_(c.from_id.in_(part), c.to_id.in_(part)))
            .order_by(c.made_at, c.id)
        )
        for row in conn.execute(query):
            link = _link(row)
            if link.id in seen:
                continue
            seen.add(link.id)
            for end in (link.from_id, link.to_id):
                if end in wanted:
                    found.setdefault(end, []).append(link)
    return found
