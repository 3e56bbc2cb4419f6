"""The revision log inside a write transaction: revisions, what the store has seen, profile version.

Every writer and the observer of outside rewrites share these helpers.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, CursorResult, bindparam, insert, select, update

from app.provenance import serialize_candidate_ids
from app.store.tables import memory_sources, project_state, revisions, seen

GLOBAL_PROJECT = "__global__"

# Built once: a writer runs these once per row, and building a statement per call (`.values(...)`, a
# new cache key) cost more than executing it (a 1,000-row verdict spent ~40% of its time there).
INSERT_REVISION = insert(revisions)
INSERT_SEEN = insert(seen)
UPDATE_SEEN = (
    update(seen)
    .where(seen.c.memory_id == bindparam("b_id"))
    .values(content=bindparam("b_content"), status=bindparam("b_status"), updated_at=bindparam("b_updated"))
)
SELECT_SEEN = select(seen.c.content, seen.c.status, seen.c.updated_at).where(
    seen.c.memory_id == bindparam("b_id")
)


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


def add_revision(
    ctx: WriteContext,
    memory_id: int,
    kind: str,
    source: str,
    *,
    run_id: str | None = None,
    candidate_ids: Sequence[int] = (),
    previous_content: str | None = None,
    new_content: str | None = None,
    previous_status: str | None = None,
    new_status: str | None = None,
    detail: Mapping[str, Any] | None = None,
    changed_at: int | None = None,
) -> int:
    result = ctx.conn.execute(
        INSERT_REVISION,
        {
            "memory_id": memory_id,
            "changed_at": ctx.now if changed_at is None else changed_at,
            "kind": kind,
            "source": source,
            "run_id": run_id,
            "candidate_ids": serialize_candidate_ids(candidate_ids),
            "previous_content": previous_content,
            "new_content": new_content,
            "previous_status": previous_status,
            "new_status": new_status,
            "detail": json.dumps(dict(detail), sort_keys=True) if detail else None,
        },
    )
    revision_id = inserted_id(result)
    ctx.revision_ids.append(revision_id)
    ctx.touched.add(memory_id)
    return revision_id


def mark_seen(ctx: WriteContext, memory_id: int, content: str, status: str, updated_at: int) -> None:
    """Record what the row now is, so our own write is never mistaken for an outside rewrite."""
    done = ctx.conn.execute(
        UPDATE_SEEN, {"b_id": memory_id, "b_content": content, "b_status": status, "b_updated": updated_at}
    )
    if done.rowcount == 0:
        ctx.conn.execute(
            INSERT_SEEN,
            {
                "memory_id": memory_id,
                "content": content,
                "status": status,
                "updated_at": updated_at,
                "first_seen_at": ctx.now,
            },
        )


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


def load_seen(conn: Connection, memory_id: int) -> SeenRow | None:
    row = conn.execute(SELECT_SEEN, {"b_id": memory_id}).first()
    return SeenRow(row[0], row[1], row[2]) if row is not None else None
