"""The revision log inside a write transaction: revisions, what the store has seen, profile version.

Every writer and the observer of outside rewrites share these helpers. What the store has seen of a row
(`mdash_seen`) is always copied from the host row by SQL, never through Python: the comparison that finds
outside changes is SQLite's own (`IS NOT`), and a value that Python cannot hand back byte for byte (a
BLOB, or invalid UTF-8 decoded with replacement characters) must not look changed on every look.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    BigInteger,
    Connection,
    CursorResult,
    bindparam,
    cast,
    exists,
    func,
    insert,
    select,
    update,
)

from app.core.provenance import serialize_candidate_ids
from app.store.schema.tables import memory_sources, meta, project_state, revisions, seen, user_memories

GLOBAL_PROJECT = "__global__"

# Built once: a writer runs these once per row, and building a statement per call (`.values(...)`, a
# new cache key) cost more than executing it (a 1,000-row verdict spent ~40% of its time there).
INSERT_REVISION = insert(revisions)
_host = user_memories.c


def _host_value(column: str) -> Any:
    """The host row's value of `column`, as a subquery: copied inside SQLite, exactly as stored."""
    return select(_host[column]).where(_host.id == bindparam("b_id")).scalar_subquery()


# Parameters: b_id, and for a first sighting b_now (first_seen_at) and b_baseline (baseline_rewritten_at).
INSERT_SEEN = insert(seen).from_select(
    ["memory_id", "content", "status", "updated_at", "promoted_at", "first_seen_at", "baseline_rewritten_at"],
    select(
        _host.id,
        _host.content,
        _host.status,
        _host.updated_at,
        _host.promoted_at,
        bindparam("b_now", type_=BigInteger),
        bindparam("b_baseline", type_=BigInteger),
    ).where(_host.id == bindparam("b_id")),
)
UPDATE_SEEN = (
    update(seen)
    .where(seen.c.memory_id == bindparam("b_id"))
    .values(
        content=_host_value("content"),
        status=_host_value("status"),
        updated_at=_host_value("updated_at"),
        promoted_at=_host_value("promoted_at"),
    )
)
# `mdash_meta`'s mark under which every host row has its copy in `mdash_seen` (0013_seen_promoted_at):
# the first page reads the copies up to it and the host's rows above it (`app.store.read.first_page`).
SEEN_THROUGH_KEY = "seen_through"
SEEN_THROUGH = select(cast(meta.c.value, BigInteger)).where(meta.c.key == SEEN_THROUGH_KEY)
_FIRST_UNSEEN = (
    select(_host.id)
    .where(_host.id > bindparam("b_through"), ~exists().where(seen.c.memory_id == _host.id))
    .order_by(_host.id)
    .limit(1)
)
_LAST_HOST_ID = select(func.max(_host.id))
_MOVE_SEEN_THROUGH = update(meta).where(meta.c.key == SEEN_THROUGH_KEY).values(value=bindparam("b_value"))


@dataclass
class WriteContext:
    """One write transaction: its connection, its instant, and what it changed."""

    conn: Connection
    now: int
    touched: set[int] = field(default_factory=set)
    revision_ids: list[int] = field(default_factory=list)
    profile_changed: bool = False


def inserted_id(result: CursorResult[Any]) -> int:
    key = result.inserted_primary_key
    assert key is not None
    return int(key[0])


@dataclass(frozen=True, slots=True)
class SeenRow:
    content: str
    status: str
    updated_at: int


_NO_IDS = serialize_candidate_ids(())  # most revisions add no candidates: serialized once


def revision_values(
    memory_id: int,
    kind: str,
    source: str,
    *,
    changed_at: int,
    run_id: str | None = None,
    candidate_ids: Sequence[int] = (),
    previous_content: str | None = None,
    new_content: str | None = None,
    previous_status: str | None = None,
    new_status: str | None = None,
    detail: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """One `mdash_revisions` row's values (for `add_revisions`)."""
    return {
        "memory_id": memory_id,
        "changed_at": changed_at,
        "kind": kind,
        "source": source,
        "run_id": run_id,
        "candidate_ids": serialize_candidate_ids(candidate_ids) if candidate_ids else _NO_IDS,
        "previous_content": previous_content,
        "new_content": new_content,
        "previous_status": previous_status,
        "new_status": new_status,
        "detail": json.dumps(dict(detail), sort_keys=True) if detail else None,
    }


_LAST_REVISION = select(func.max(revisions.c.id))


def add_revisions(ctx: WriteContext, rows: Sequence[dict[str, Any]]) -> list[int]:
    """Insert revisions (`revision_values`) in one executemany; their ids, in order. The ids are read back
    as those above the largest before: inside `BEGIN IMMEDIATE` nobody else inserts, and SQLite numbers
    the rows of one executemany in order (a RETURNING in parameter order costs one statement per row)."""
    if not rows:
        return []
    if len(rows) == 1:
        ids = [inserted_id(ctx.conn.execute(INSERT_REVISION, rows[0]))]
    else:
        last = ctx.conn.execute(_LAST_REVISION).scalar() or 0
        ctx.conn.execute(INSERT_REVISION, list(rows))
        query = select(revisions.c.id).where(revisions.c.id > last).order_by(revisions.c.id)
        ids = [int(item) for item in ctx.conn.execute(query).scalars()]
        assert len(ids) == len(rows), "revisions inserted by someone else inside our write transaction"
    ctx.revision_ids.extend(ids)
    ctx.touched.update(int(row["memory_id"]) for row in rows)
    return ids


def add_revision(
    ctx: WriteContext, memory_id: int, kind: str, source: str, *, changed_at: int | None = None, **fields: Any
) -> int:
    """One revision (the fields of `revision_values`), at `ctx.now` unless `changed_at` says when."""
    values = revision_values(
        memory_id, kind, source, changed_at=ctx.now if changed_at is None else changed_at, **fields
    )
    return add_revisions(ctx, [values])[0]


def mark_seen(ctx: WriteContext, memory_id: int) -> None:
    """After our write to a host row: record what the row now is (copied from it), so our own write is
    never mistaken for an outside rewrite."""
    done = ctx.conn.execute(UPDATE_SEEN, {"b_id": memory_id})
    if done.rowcount == 0:
        insert_seen(ctx, [{"b_id": memory_id, "b_now": ctx.now, "b_baseline": None}])


def insert_seen(ctx: WriteContext, rows: Sequence[Mapping[str, Any]]) -> None:
    """First copies of host rows (`INSERT_SEEN`'s parameters), then the `seen_through` mark moved up
    past them."""
    ctx.conn.execute(INSERT_SEEN, list(rows))
    advance_seen_through(ctx.conn)


def advance_seen_through(conn: Connection) -> None:
    """Move the `seen_through` mark up to the first host row above it that has no copy yet (one by our
    writers, above a row of the host's that nobody observed yet, leaves it below that row). SQLite only,
    where the mark exists: its ids only grow, so no row ever appears under the mark without its copy."""
    if conn.dialect.name != "sqlite":
        return
    through = conn.execute(SEEN_THROUGH).scalar()
    if through is None:
        return
    unseen = conn.execute(_FIRST_UNSEEN, {"b_through": through}).scalar()
    top = int(unseen) - 1 if unseen is not None else conn.execute(_LAST_HOST_ID).scalar()
    if top is not None and int(top) > int(through):
        conn.execute(_MOVE_SEEN_THROUGH, {"b_value": str(int(top))})


def add_own_source(ctx: WriteContext, memory_id: int, source: str) -> None:
    exists = ctx.conn.execute(
        select(memory_sources.c.source).where(
            memory_sources.c.memory_id == memory_id, memory_sources.c.source == source
        )
    ).first()
    if exists is None:
        ctx.conn.execute(insert(memory_sources).values(memory_id=memory_id, source=source, added_at=ctx.now))


def bump_profile_version(conn: Connection, now: int) -> None:
    """The host re-renders the profile it injects only when this version moves."""
    done = conn.execute(
        update(project_state)
        .where(project_state.c.project_path == GLOBAL_PROJECT)
        .values(project_user_profile_version=project_state.c.project_user_profile_version + 1, updated_at=now)
    )
    if done.rowcount == 0:
        conn.execute(
            insert(project_state).values(
                project_path=GLOBAL_PROJECT,
                project_memory_epoch=0,
                project_user_profile_version=1,
                updated_at=now,
            )
        )
