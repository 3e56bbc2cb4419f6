"""Recording many observed changes at once: one multi-row insert of revisions, batched `mdash_seen` changes.

One multi-row insert of revisions and batched `mdash_seen` changes, without one statement per memory:
a host review that rewrote 1,000 memories is recorded in a handful of statements (the revision ids come
back in parameter order). `catch_up` runs the same path for the one row a writer is about to change.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import insert

from app.provenance import serialize_candidate_ids
from app.store.models import KIND_CONTENT, KIND_CREATE, KIND_STATUS, SOURCE_OBSERVED
from app.store.revision_log import INSERT_SEEN, UPDATE_SEEN, SeenRow, WriteContext, load_seen
from app.store.rows import HostRow, looks_rewritten
from app.store.tables import revisions

NO_IDS = serialize_candidate_ids(())


def _revision(row: HostRow, kind: str, **values: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "memory_id": row.id,
        "changed_at": row.updated_at,
        "kind": kind,
        "source": SOURCE_OBSERVED,
        "run_id": None,
        "candidate_ids": NO_IDS,
        "previous_content": None,
        "new_content": None,
        "previous_status": None,
        "new_status": None,
        "detail": None,
    }
    base.update(values)
    return base


def _observed(row: HostRow, before: SeenRow) -> dict[str, Any] | None:
    """The `observed` revision for a row we saw before, if its content or status moved."""
    status_moved = before.status != row.status
    if before.content != row.content:
        return _revision(
            row,
            KIND_CONTENT,
            previous_content=before.content,
            new_content=row.content,
            previous_status=before.status if status_moved else None,
            new_status=row.status if status_moved else None,
        )
    if status_moved:
        return _revision(
            row,
            KIND_STATUS,
            previous_content=row.content,
            new_content=row.content,
            previous_status=before.status,
            new_status=row.status,
        )
    return None


def record_rows(
    ctx: WriteContext, rows: Sequence[HostRow], before: Mapping[int, SeenRow], tracking: bool
) -> None:
    """Rows that moved (seen before) or are new to us: their revisions and the new `mdash_seen` baseline."""
    new_revisions: list[dict[str, Any]] = []
    moved: list[dict[str, Any]] = []
    first_seen: list[dict[str, Any]] = []
    for row in rows:
        previous = before.get(row.id)
        if previous is not None:
            revision = _observed(row, previous)
            moved.append(
                {
                    "b_id": row.id,
                    "b_content": row.content,
                    "b_status": row.status,
                    "b_updated": row.updated_at,
                }
            )
        else:
            rewritten = looks_rewritten(row.status, row.promoted_at, row.updated_at)
            first_seen.append(
                {
                    "memory_id": row.id,
                    "content": row.content,
                    "status": row.status,
                    "updated_at": row.updated_at,
                    "first_seen_at": ctx.now,
                    "baseline_rewritten_at": row.updated_at if rewritten else None,
                }
            )
            revision = None
            if tracking and not rewritten:
                revision = _revision(
                    row,
                    KIND_CREATE,
                    new_content=row.content,
                    new_status=row.status,
                    changed_at=row.promoted_at,
                )
        if revision is not None:
            new_revisions.append(revision)
    if first_seen:
        ctx.conn.execute(INSERT_SEEN, first_seen)
    if moved:
        ctx.conn.execute(UPDATE_SEEN, moved)
    if new_revisions:
        statement = insert(revisions).returning(revisions.c.id, sort_by_parameter_order=True)
        ids = [int(item) for item in ctx.conn.execute(statement, new_revisions).scalars()]
        ctx.revision_ids.extend(ids)
        ctx.touched.update(int(item["memory_id"]) for item in new_revisions)


def catch_up(ctx: WriteContext, row: HostRow) -> None:
    """Before our write to `row`: record the host's unseen change to it, or its baseline if never seen.

    Without this a host rewrite that no read had noticed yet would be folded into our own revision.
    """
    before = load_seen(ctx.conn, row.id)
    if before is None:
        record_rows(ctx, [row], {}, tracking=False)
    elif before.updated_at != row.updated_at or before.status != row.status:
        record_rows(ctx, [row], {row.id: before}, tracking=False)
