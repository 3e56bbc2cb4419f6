"""Deleting a memory and bringing one back: the trash's writers.

A delete removes the host row (and our copy of what we saw of it); its revisions survive it, and the
delete revision keeps the whole row, so a restore puts back the same id as it was. Restoring an older
revision's content is a new revision (`restore`): history is never rewritten.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import delete, insert, select

from app.core.errors import InvalidInputError, NotFoundError
from app.core.models import RevisionKind, RevisionSource
from app.store.past.as_of import FIRST_SEEN, FIRST_SEEN_KEY
from app.store.read.reads import chunks, fetch_revision, fetch_row
from app.store.read.trash import first_recorded, last_deletes, restorable_row
from app.store.schema.tables import expiry, seen, user_memories
from app.store.write.revision_log import WriteContext, add_revision, mark_seen
from app.store.write.writes import next_updated_at, require_row, update_content

m = user_memories.c


def delete_memory(ctx: WriteContext, memory_id: int, *, source: str = RevisionSource.DASHBOARD) -> int:
    """Delete the host row; its revisions survive it, and the delete revision keeps the row for a restore."""
    row = require_row(ctx, memory_id)
    expires_at = ctx.conn.execute(select(expiry.c.expires_at).where(expiry.c.memory_id == memory_id)).scalar()
    snapshot = {
        "row": {
            "content": row.content,
            "status": row.status,
            "promoted_at": row.promoted_at,
            "created_at": row.created_at,
            "updated_at": row.updated_at,
            "source_candidate_ids": row.source_candidate_ids,
            "source_candidate_provenance": row.source_candidate_provenance,
        },
        "expires_at": expires_at,
        # mdash_seen goes with the row: when the dashboard first saw it is kept here (as-of, blame).
        FIRST_SEEN_KEY: ctx.conn.execute(FIRST_SEEN, {"b_id": memory_id}).scalar(),
    }
    ctx.conn.execute(delete(user_memories).where(m.id == memory_id))
    ctx.conn.execute(delete(seen).where(seen.c.memory_id == memory_id))
    ctx.conn.execute(delete(expiry).where(expiry.c.memory_id == memory_id))
    ctx.profile_changed = True
    return add_revision(
        ctx,
        memory_id,
        RevisionKind.DELETE,
        source,
        previous_content=row.content,
        previous_status=row.status,
        detail=snapshot,
    )


def undelete(ctx: WriteContext, memory_id: int, revision_id: int, source: str) -> int:
    """Put a deleted memory back (same id) from the row its delete revision kept, or, for a delete the
    store observed, from its last content and status; refused unless the host can take it
    (`trash.restorable_row`)."""
    revision = fetch_revision(ctx.conn, revision_id)
    if revision is None or revision.memory_id != memory_id or revision.kind != RevisionKind.DELETE:
        raise NotFoundError(f"revision #{revision_id} of memory #{memory_id} cannot bring it back")
    if fetch_row(ctx.conn, memory_id) is not None:
        raise InvalidInputError(f"memory #{memory_id} exists; nothing to bring back")
    snapshot = restorable_row(revision, first_recorded(ctx.conn, memory_id))
    updated_at = next_updated_at(ctx.now, int(snapshot["updated_at"]))
    values = {**snapshot, "id": memory_id, "updated_at": updated_at}
    ctx.conn.execute(insert(user_memories).values(**values))
    expires_at = revision.detail.get("expires_at")
    if isinstance(expires_at, int):
        ctx.conn.execute(insert(expiry).values(memory_id=memory_id, expires_at=expires_at, set_at=ctx.now))
    mark_seen(ctx, memory_id)
    ctx.profile_changed = True
    return add_revision(
        ctx,
        memory_id,
        RevisionKind.CREATE,
        source,
        new_content=snapshot["content"],
        new_status=snapshot["status"],
        detail={"restored_from": revision_id},
        changed_at=updated_at,
    )


def restore_deleted(ctx: WriteContext, memory_ids: Sequence[int], *, source: str) -> list[int]:
    """Bring deleted memories back, each from its latest delete revision (the trash's restore); every id
    must be in the trash, or nothing is written."""
    wanted = list(dict.fromkeys(memory_ids))
    deletes = last_deletes(ctx.conn, wanted)
    present: set[int] = set()
    for part in chunks(wanted):
        present.update(int(i) for i in ctx.conn.execute(select(m.id).where(m.id.in_(part))).scalars())
    refused = [f"#{item}" for item in wanted if item not in deletes or item in present]
    if refused or not wanted:
        shown = ", ".join(refused[:10]) + (f" and {len(refused) - 10:,} more" if len(refused) > 10 else "")
        raise InvalidInputError(
            f"memory {shown or '(none)'} is not deleted: name a revision to restore; nothing was changed"
        )
    return [undelete(ctx, item, deletes[item].id, source) for item in wanted]


def restore(ctx: WriteContext, memory_id: int, revision_id: int, *, source: str) -> int | None:
    """Bring back the content a revision left (a new revision; history is never rewritten)."""
    revision = fetch_revision(ctx.conn, revision_id)
    if revision is None or revision.memory_id != memory_id:
        raise NotFoundError(f"memory #{memory_id} has no revision #{revision_id}")
    if revision.kind == RevisionKind.DELETE or fetch_row(ctx.conn, memory_id) is None:
        return undelete(ctx, memory_id, revision_id, source)
    content = revision.new_content if revision.new_content is not None else revision.previous_content
    if content is None:
        raise InvalidInputError(f"revision #{revision_id} holds no content to restore")
    return update_content(ctx, memory_id, content, source=source, detail={"restored_from": revision_id})
