"""The writers: every change to a memory, each writing its revision, composable in one transaction.

Each function takes a `WriteContext` (a connection inside `BEGIN IMMEDIATE` and one `now`), so the
review can apply a whole verdict in one transaction through the same helpers the dashboard uses.
The store's facade opens the transaction, bumps the profile version once, and commits.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from sqlalchemy import Connection, bindparam, delete, insert, select, update

from app.core.clock import format_instant
from app.core.errors import ExpiryRequiredError, InvalidInputError, NotFoundError
from app.core.models import KEEP as KEEP  # re-exported: `MemoryStore` names it
from app.core.models import Candidate, Keep, MemoryStatus, RevisionKind, RevisionSource
from app.core.provenance import (
    ORIGIN_MANUAL,
    ORIGIN_UPDATE,
    ProvenanceEntry,
    host_can_read,
    merged_provenance_json,
    parse_candidate_ids,
    serialize_candidate_ids,
    serialize_provenance,
    union_ids,
)
from app.core.text_input import content_problem, text_problem
from app.core.trust import MEMORY_SOURCE_USER_EDIT
from app.store.observe.batch import catch_up, catch_up_rows
from app.store.read.reads import chunks, fetch_candidates, fetch_row, fetch_rows
from app.store.read.rows import HostRow
from app.store.schema.tables import (
    expiry,
    user_memories,
    user_memory_candidates,
)
from app.store.write.revision_log import (
    UPDATE_SEEN,
    WriteContext,
    add_own_source,
    add_revision,
    add_revisions,
    inserted_id,
    mark_seen,
    revision_values,
)

m = user_memories.c
# Built once (see revision_log): the values come as parameters; an UPDATE sets the columns they name.
INSERT_MEMORY = insert(user_memories)
UPDATE_MEMORY = update(user_memories).where(m.id == bindparam("b_id"))
PREVIOUS_PROVENANCE = "previous_provenance"  # a rewrite's detail: the provenance list it replaced


def validate_content(content: str) -> str:
    """The one content rule (`app.core.text_input.content_problem`), for every writer of a memory's text."""
    problem = content_problem(content)
    if problem is not None:
        raise InvalidInputError(f"content {problem}")
    return content


def validate_reason(reason: str | None) -> str | None:
    """A dismissal's reason is kept in its revision and exported: it must be storable text too."""
    problem = text_problem(reason) if reason else None
    if problem is not None:
        raise InvalidInputError(f"the reason {problem}")
    return reason


def next_updated_at(now: int, previous: int) -> int:
    """Never backwards, never standing still, even with a clock behind the row."""
    return max(now, previous + 1)


def require_all(ctx: WriteContext, memory_ids: Sequence[int]) -> list[int]:
    """The ids a command acts on, repeats dropped, every one a memory: else nothing is written (a write
    of many is all or nothing)."""
    wanted = list(dict.fromkeys(memory_ids))
    if not wanted:
        raise InvalidInputError("no memory selected; nothing was changed")
    present: set[int] = set()
    for part in chunks(wanted):
        present.update(int(i) for i in ctx.conn.execute(select(m.id).where(m.id.in_(part))).scalars())
    missing = [f"#{item}" for item in wanted if item not in present]
    if len(missing) == 1 and len(wanted) == 1:
        raise NotFoundError(f"memory {missing[0]} does not exist")
    if missing:
        shown = ", ".join(missing[:10]) + (f" and {len(missing) - 10:,} more" if len(missing) > 10 else "")
        raise NotFoundError(f"memory {shown} does not exist; nothing was changed")
    return wanted


def require_row(ctx: WriteContext, memory_id: int) -> HostRow:
    """The row about to be written, after recording any outside change to it that no read has seen."""
    row = fetch_row(ctx.conn, memory_id)
    if row is None:
        raise NotFoundError(f"memory #{memory_id} does not exist")
    catch_up(ctx, row)
    return row


def provenance_entries(
    ids: Sequence[int], pool: Mapping[int, Candidate], origin: str, added_at: int
) -> list[ProvenanceEntry]:
    return [
        ProvenanceEntry(
            candidate_id=pool[item].id,
            session_id=pool[item].session_id,
            compartment_start=pool[item].compartment_start,
            compartment_end=pool[item].compartment_end,
            origin=origin,
            added_at=added_at,
        )
        for item in ids
        if item in pool
    ]


def load_pool(conn: Connection, ids: Iterable[int]) -> dict[int, Candidate]:
    return {candidate.id: candidate for candidate in fetch_candidates(conn, ids)}


def promote(
    ctx: WriteContext,
    candidate_ids: Sequence[int],
    content: str,
    *,
    source: str = RevisionSource.DASHBOARD,
    origin: str = ORIGIN_MANUAL,
    run_id: str | None = None,
    pool: Mapping[int, Candidate] | None = None,
    consume: bool = True,
) -> int:
    """A new active memory from candidates, with provenance the host can read; then consume them."""
    ids, _ = union_ids((), candidate_ids)
    if not ids:
        raise InvalidInputError("promote needs at least one candidate id")
    found = dict(pool) if pool is not None else load_pool(ctx.conn, ids)
    missing = [item for item in ids if item not in found]
    if missing:
        raise NotFoundError(
            f"candidate {', '.join(f'#{i}' for i in missing)} not in the pool (consumed or pruned)"
        )
    entries = provenance_entries(ids, found, origin, ctx.now)
    memory_id = insert_memory(ctx, content, ids, entries, source=source, run_id=run_id)
    if consume:
        consume_candidates(ctx, ids)
    return memory_id


def insert_memory(
    ctx: WriteContext,
    content: str,
    ids: Sequence[int],
    entries: Sequence[ProvenanceEntry],
    *,
    source: str,
    run_id: str | None = None,
    detail: Mapping[str, Any] | None = None,
) -> int:
    """A new active memory as the host writes a promotion: one `now` for promoted_at, created_at and
    updated_at; its create revision."""
    validate_content(content)
    result = ctx.conn.execute(
        INSERT_MEMORY,
        {
            "content": content,
            "status": MemoryStatus.ACTIVE,
            "promoted_at": ctx.now,
            "source_candidate_ids": serialize_candidate_ids(ids),
            "source_candidate_provenance": serialize_provenance(entries),
            "created_at": ctx.now,
            "updated_at": ctx.now,
        },
    )
    memory_id = inserted_id(result)
    add_revision(
        ctx,
        memory_id,
        RevisionKind.CREATE,
        source,
        run_id=run_id,
        candidate_ids=ids,
        new_content=content,
        new_status=MemoryStatus.ACTIVE,
        detail=detail,
    )
    mark_seen(ctx, memory_id)
    ctx.profile_changed = True
    return memory_id


def update_content(
    ctx: WriteContext,
    memory_id: int,
    content: str,
    appended_candidate_ids: Sequence[int] = (),
    *,
    run_id: str | None = None,
    source: str = RevisionSource.DASHBOARD,
    pool: Mapping[int, Candidate] | None = None,
    detail: Mapping[str, Any] | None = None,
) -> int | None:
    """Rewrite a memory's content, accumulating the appended candidates' ids and provenance.

    Returns the revision id, or None when nothing would change (same content, no new ids).
    """
    validate_content(content)
    row = require_row(ctx, memory_id)
    ids, added = union_ids(parse_candidate_ids(row.source_candidate_ids), appended_candidate_ids)
    if content == row.content and not added:
        return None
    found = dict(pool) if pool is not None else load_pool(ctx.conn, added)
    entries = provenance_entries(added, found, ORIGIN_UPDATE, ctx.now)
    previous = row.source_candidate_provenance
    if entries and (previous is None or not host_can_read(previous)):
        # Kept where the merged list cannot give it back: unreadable to the host (the merged one drops it),
        # or NULL ("unknown": a run undo writes it again, not an empty list).
        detail = {**(detail or {}), PREVIOUS_PROVENANCE: previous}
    updated_at = next_updated_at(ctx.now, row.updated_at)
    ctx.conn.execute(
        UPDATE_MEMORY,
        {
            "b_id": memory_id,
            "content": content,
            "updated_at": updated_at,
            "source_candidate_ids": serialize_candidate_ids(ids),
            "source_candidate_provenance": merged_provenance_json(row.source_candidate_provenance, entries),
        },
    )
    revision_id = add_revision(
        ctx,
        memory_id,
        RevisionKind.CONTENT,
        source,
        run_id=run_id,
        candidate_ids=added,
        previous_content=row.content,
        new_content=content,
        detail=detail,
        changed_at=updated_at,
    )
    mark_seen(ctx, memory_id)
    ctx.profile_changed = True
    return revision_id


def set_status(
    ctx: WriteContext,
    memory_id: int,
    status: str,
    *,
    source: str = RevisionSource.DASHBOARD,
    run_id: str | None = None,
    reason: str | None = None,
) -> int | None:
    """Dismiss or reactivate one memory (`set_statuses` of one id): its revision id, or None when it
    already had that status."""
    return set_statuses(ctx, [memory_id], status, source=source, run_id=run_id, reason=reason).get(memory_id)


def set_statuses(
    ctx: WriteContext,
    memory_ids: Sequence[int],
    status: str,
    *,
    source: str = RevisionSource.DASHBOARD,
    run_id: str | None = None,
    reason: str | None = None,
) -> dict[int, int]:
    """Dismiss or reactivate: a status revision each; like the host's dismiss, `updated_at` moves too.
    Rows that already have the status are left alone. Batched (a statement per kind of change, not per
    memory): 10,000 selected cards are one person's one click. Returns memory id -> its new revision."""
    validate_reason(reason)
    rows = fetch_rows(ctx.conn, memory_ids)
    if len(rows) < len(set(memory_ids)):
        found = {row.id for row in rows}
        raise NotFoundError(f"memory #{next(i for i in memory_ids if i not in found)} does not exist")
    catch_up_rows(ctx, rows)
    moving = [row for row in rows if row.status != status]
    if not moving:
        return {}
    changes = [(row, next_updated_at(ctx.now, row.updated_at)) for row in moving]
    ctx.conn.execute(
        UPDATE_MEMORY, [{"b_id": row.id, "status": status, "updated_at": at} for row, at in changes]
    )
    revision_ids = add_revisions(
        ctx,
        [
            revision_values(
                row.id,
                RevisionKind.STATUS,
                source,
                changed_at=at,
                run_id=run_id,
                previous_content=row.content,
                new_content=row.content,
                previous_status=row.status,
                new_status=status,
                detail={"reason": reason} if reason else None,
            )
            for row, at in changes
        ],
    )
    ctx.conn.execute(UPDATE_SEEN, [{"b_id": row.id} for row in moving])
    ctx.profile_changed = True
    return {row.id: revision_id for row, revision_id in zip(moving, revision_ids, strict=True)}


def add_memory(ctx: WriteContext, content: str) -> int:
    """A memory a person wrote: written as the host writes a promotion, of no candidates, origin
    `manual` (in its revision) and its one source `user:dashboard` (trusted)."""
    memory_id = insert_memory(
        ctx,
        content,
        (),
        (),
        source=RevisionSource.DASHBOARD,
        detail={"origin": ORIGIN_MANUAL, "memory_source": MEMORY_SOURCE_USER_EDIT},
    )
    add_own_source(ctx, memory_id, MEMORY_SOURCE_USER_EDIT)
    return memory_id


def set_expiry(
    ctx: WriteContext, memory_id: int, expires_at: int | None, *, source: str = RevisionSource.DASHBOARD
) -> int | None:
    """Set or clear when a memory stops being recalled; the host row is untouched (until the sweep)."""
    row = require_row(ctx, memory_id)
    previous = ctx.conn.execute(select(expiry.c.expires_at).where(expiry.c.memory_id == memory_id)).scalar()
    if previous == expires_at:
        return None
    ctx.conn.execute(delete(expiry).where(expiry.c.memory_id == memory_id))
    if expires_at is not None:
        ctx.conn.execute(insert(expiry).values(memory_id=memory_id, expires_at=expires_at, set_at=ctx.now))
    # The host row is untouched, so the profile the host injects is too: no version bump (it would make the
    # host re-render the profile and lose its prompt cache). The sweep's dismissal bumps it when due.
    return add_revision(
        ctx,
        memory_id,
        RevisionKind.EXPIRY,
        source,
        previous_content=row.content,
        new_content=row.content,
        detail={"previous_expires_at": previous, "expires_at": expires_at},
    )


def reactivate(
    ctx: WriteContext,
    memory_id: int,
    new_expiry: int | Keep | None = KEEP,
    *,
    source: str = RevisionSource.DASHBOARD,
) -> int | None:
    """Make a memory active again; an expired one needs a new expiry (in the future) or None for never."""
    require_row(ctx, memory_id)
    current = ctx.conn.execute(select(expiry.c.expires_at).where(expiry.c.memory_id == memory_id)).scalar()
    if isinstance(new_expiry, Keep):
        if current is not None and current <= ctx.now:
            raise ExpiryRequiredError(
                f"memory #{memory_id} expired at {format_instant(current)}; "
                "give it a new expiry or none (never) to reactivate it"
            )
    else:
        if new_expiry is not None and new_expiry <= ctx.now:
            raise InvalidInputError(f"the new expiry {format_instant(new_expiry)} has already passed")
        set_expiry(ctx, memory_id, new_expiry, source=source)
    return set_status(ctx, memory_id, MemoryStatus.ACTIVE, source=source)


def consume_candidates(ctx: WriteContext, candidate_ids: Iterable[int]) -> int:
    """Delete candidates from the pool (the host's meaning of "consumed"); returns how many went."""
    ids = list(dict.fromkeys(candidate_ids))
    removed = 0
    for part in chunks(ids):
        removed += ctx.conn.execute(
            delete(user_memory_candidates).where(user_memory_candidates.c.id.in_(part))
        ).rowcount
    return removed
