"""A person's trust marks on sources, kept in `mdash_trust_marks` (no profile bump: the host injects
memories whatever their trust)."""

from __future__ import annotations

from sqlalchemy import delete, insert

from app.core.trust import DEFAULT_MARK
from app.store.schema.tables import trust_marks
from app.store.write.revision_log import WriteContext


def set_mark(ctx: WriteContext, source: str, trust: str) -> None:
    """Mark `source` (or a scheme) `trust`; `default` removes the mark."""
    ctx.conn.execute(delete(trust_marks).where(trust_marks.c.source == source))
    if trust != DEFAULT_MARK:
        ctx.conn.execute(insert(trust_marks).values(source=source, trust=trust, set_at=ctx.now))
