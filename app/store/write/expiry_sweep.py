"""Expiry reaching the host: the sweep dismisses every active memory whose expiry has passed.

Setting an expiry lives in the dashboard's tables and does not change the host row, but the host reads
only its own row; so once the instant passes, the sweep dismisses the memory (a status revision with
source `expiry`) and the profile version moves, and the host stops injecting it.
"""

from __future__ import annotations

from sqlalchemy import Connection, and_, select

from app.core.clock import format_instant
from app.core.models import MemoryStatus, RevisionSource
from app.store.schema.tables import expiry, user_memories
from app.store.write.revision_log import WriteContext
from app.store.write.writes import set_status


def due_ids(conn: Connection, now: int) -> list[int]:
    """Active memories whose expiry has passed (a read: the sweep writes only when this is not empty)."""
    query = (
        select(user_memories.c.id)
        .join(expiry, expiry.c.memory_id == user_memories.c.id)
        .where(and_(user_memories.c.status == MemoryStatus.ACTIVE, expiry.c.expires_at <= now))
        .order_by(user_memories.c.id)
    )
    return [int(row[0]) for row in conn.execute(query)]


def sweep(ctx: WriteContext) -> list[int]:
    """Dismiss what has expired; returns the ids dismissed."""
    dismissed = []
    for memory_id in due_ids(ctx.conn, ctx.now):
        at = ctx.conn.execute(select(expiry.c.expires_at).where(expiry.c.memory_id == memory_id)).scalar_one()
        set_status(
            ctx,
            memory_id,
            MemoryStatus.DISMISSED,
            source=RevisionSource.EXPIRY,
            reason=f"expired at {format_instant(at)}",
        )
        dismissed.append(memory_id)
    return dismissed
