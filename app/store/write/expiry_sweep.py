"""Expiry reaching the host: the sweep dismisses every active memory whose expiry has passed.

Setting an expiry lives in the dashboard's tables and does not change the host row, but the host reads
only its own row; so once the instant passes, the sweep dismisses the memory (a status revision with
source `expiry`) and the profile version moves, and the host stops injecting it.
"""

from __future__ import annotations

from typing import Final

from sqlalchemy import Connection, and_, select

from app.core.clock import format_instant
from app.core.errors import ExpiryRequiredError, InvalidInputError
from app.core.models import SOURCE_DASHBOARD, SOURCE_EXPIRY, STATUS_ACTIVE, STATUS_DISMISSED
from app.store.schema.tables import expiry, user_memories
from app.store.write.revision_log import WriteContext
from app.store.write.writes import require_row, set_expiry, set_status


class _Keep:
    def __repr__(self) -> str:
        return "KEEP"


KEEP: Final = _Keep()


def due_ids(conn: Connection, now: int) -> list[int]:
    """Active memories whose expiry has passed (a read: the sweep writes only when this is not empty)."""
    query = (
        select(user_memories.c.id)
        .join(expiry, expiry.c.memory_id == user_memories.c.id)
        .where(and_(user_memories.c.status == STATUS_ACTIVE, expiry.c.expires_at <= now))
        .order_by(user_memories.c.id)
    )
    return [int(row[0]) for row in conn.execute(query)]


def sweep(ctx: WriteContext) -> list[int]:
    """Dismiss what has expired; returns the ids dismissed."""
    dismissed = []
    for memory_id in due_ids(ctx.conn, ctx.now):
        at = ctx.conn.execute(select(expiry.c.expires_at).where(expiry.c.memory_id == memory_id)).scalar_one()
        set_status(
            ctx, memory_id, STATUS_DISMISSED, source=SOURCE_EXPIRY, reason=f"expired at {format_instant(at)}"
        )
        dismissed.append(memory_id)
    return dismissed


def reactivate(
    ctx: WriteContext,
    memory_id: int,
    new_expiry: int | _Keep | None = KEEP,
    *,
    source: str = SOURCE_DASHBOARD,
) -> int | None:
    """Make a memory active again; an expired one needs a new expiry (in the future) or None for never."""
    require_row(ctx, memory_id)
    current = ctx.conn.execute(select(expiry.c.expires_at).where(expiry.c.memory_id == memory_id)).scalar()
    if isinstance(new_expiry, _Keep):
        if current is not None and current <= ctx.now:
            raise ExpiryRequiredError(
                f"memory #{memory_id} expired at {format_instant(current)}; "
                "give it a new expiry or none (never) to reactivate it"
            )
    else:
        if new_expiry is not None and new_expiry <= ctx.now:
            raise InvalidInputError(f"the new expiry {format_instant(new_expiry)} has already passed")
        set_expiry(ctx, memory_id, new_expiry, source=source)
    return set_status(ctx, memory_id, STATUS_ACTIVE, source=source)
