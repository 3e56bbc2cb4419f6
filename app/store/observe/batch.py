"""Recording many observed changes at once: one multi-row insert of revisions, batched `mdash_seen` changes.

One multi-row insert of revisions and batched `mdash_seen` changes, without one statement per memory:
a host review that rewrote 1,000 memories is recorded in a handful of statements (the revision ids come
back in parameter order). `catch_up` runs the same path for the one row a writer is about to change.

Whether a row moved is SQLite's comparison of `mdash_seen` with the host row (`IS NOT`, content included),
never Python's: the host may rewrite a row within the millisecond of its last write, leaving `updated_at`
as it was, and a value Python cannot hand back byte for byte (a BLOB, invalid UTF-8) must compare as what
it is. The new baseline is copied from the host row by SQL for the same reason (`revision_log`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Select, bindparam, insert, select

from app.core.models import RevisionKind, RevisionSource
from app.core.provenance import serialize_candidate_ids
from app.store.read.reads import chunks
from app.store.read.rows import HostRow, looks_rewritten
from app.store.schema.tables import revisions, seen, user_memories
from app.store.write.revision_log import UPDATE_SEEN, SeenRow, WriteContext, insert_seen

NO_IDS = serialize_candidate_ids(())
m = user_memories.c


@dataclass(frozen=True, slots=True)
class Before:
    """What `mdash_seen` held of a row, and which of its values the host row no longer has."""

    seen: SeenRow
    content_moved: bool
    status_moved: bool
    updated_moved: bool
    promoted_moved: bool  # no revision of its own (the host writes it once): the copy follows it

    @property
    def moved(self) -> bool:
        return self.content_moved or self.status_moved or self.updated_moved or self.promoted_moved


def _seen_against_host() -> Select[Any]:
    """Seen rows beside SQLite's verdicts on them; a row the host no longer has differs in every value."""
    return select(
        seen.c.memory_id,
        seen.c.content,
        seen.c.status,
        seen.c.updated_at,
        seen.c.content.is_distinct_from(m.content),
        seen.c.status.is_distinct_from(m.status),
        seen.c.updated_at.is_distinct_from(m.updated_at),
        seen.c.promoted_at.is_distinct_from(m.promoted_at),
    ).select_from(seen.outerjoin(user_memories, m.id == seen.c.memory_id))


# Built once: `catch_up` runs it for every row a writer changes (see revision_log on statement building).
_ONE_BEFORE = _seen_against_host().where(seen.c.memory_id == bindparam("b_id"))


def _before(row: Any) -> Before:
    return Before(SeenRow(row[1], row[2], row[3]), bool(row[4]), bool(row[5]), bool(row[6]), bool(row[7]))


def load_before(conn: Connection, ids: Sequence[int]) -> dict[int, Before]:
    """The seen rows of `ids` (those we have), each with what moved since."""
    found = {}
    for part in chunks(ids):
        query = _seen_against_host().where(seen.c.memory_id.in_(part))
        for row in conn.execute(query):
            found[int(row[0])] = _before(row)
    return found


def _revision(row: HostRow, kind: str, **values: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "memory_id": row.id,
        "changed_at": row.updated_at,
        "kind": kind,
        "source": RevisionSource.OBSERVED,
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


def _observed(row: HostRow, before: Before) -> dict[str, Any] | None:
    """The `observed` revision for a row we saw before, if its content or status moved."""
    was = before.seen
    if before.content_moved:
        return _revision(
            row,
            RevisionKind.CONTENT,
            previous_content=was.content,
            new_content=row.content,
            previous_status=was.status if before.status_moved else None,
            new_status=row.status if before.status_moved else None,
        )
    if before.status_moved:
        return _revision(
            row,
            RevisionKind.STATUS,
            previous_content=row.content,
            new_content=row.content,
            previous_status=was.status,
            new_status=row.status,
        )
    return None


def record_rows(
    ctx: WriteContext, rows: Sequence[HostRow], before: Mapping[int, Before], tracking: bool
) -> None:
    """Rows that moved (seen before) or are new to us: their revisions and the new `mdash_seen` baseline."""
    new_revisions: list[dict[str, Any]] = []
    moved: list[dict[str, Any]] = []
    first_seen: list[dict[str, Any]] = []
    for row in rows:
        previous = before.get(row.id)
        if previous is not None:
            revision = _observed(row, previous)
            moved.append({"b_id": row.id})
        else:
            rewritten = looks_rewritten(row.promoted_at, row.updated_at)
            first_seen.append(
                {"b_id": row.id, "b_now": ctx.now, "b_baseline": row.updated_at if rewritten else None}
            )
            revision = None
            if tracking and not rewritten:
                revision = _revision(
                    row,
                    RevisionKind.CREATE,
                    new_content=row.content,
                    new_status=row.status,
                    changed_at=row.promoted_at,
                )
        if revision is not None:
            new_revisions.append(revision)
    if first_seen:
        insert_seen(ctx, first_seen)
    if moved:
        ctx.conn.execute(UPDATE_SEEN, moved)
    if new_revisions:
        statement = insert(revisions).returning(revisions.c.id, sort_by_parameter_order=True)
        ids = [int(item) for item in ctx.conn.execute(statement, new_revisions).scalars()]
        ctx.revision_ids.extend(ids)
        ctx.touched.update(int(item["memory_id"]) for item in new_revisions)


def catch_up_rows(ctx: WriteContext, rows: Sequence[HostRow]) -> None:
    """`catch_up` for many rows at once (a few statements, not a few per row)."""
    if len(rows) == 1:
        catch_up(ctx, rows[0])
        return
    before = load_before(ctx.conn, [row.id for row in rows])
    stale = [row for row in rows if row.id not in before or before[row.id].moved]
    if stale:
        record_rows(ctx, stale, {row.id: before[row.id] for row in stale if row.id in before}, tracking=False)


def catch_up(ctx: WriteContext, row: HostRow) -> None:
    """Before our write to `row`: record the host's unseen change to it, or its baseline if never seen.

    Without this a host rewrite that no read had noticed yet (one that left `updated_at` as it was, too)
    would be folded into our own revision, which would then start from the host's text.
    """
    found = ctx.conn.execute(_ONE_BEFORE, {"b_id": row.id}).first()
    if found is None:
        record_rows(ctx, [row], {}, tracking=False)
    elif (before := _before(found)).moved:
        record_rows(ctx, [row], {row.id: before}, tracking=False)
