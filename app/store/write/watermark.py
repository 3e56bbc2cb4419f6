"""Keeping the digest's watermark (`app.store.read.digest`): the person's last look, in `mdash_meta`."""

from __future__ import annotations

from sqlalchemy import Connection, delete, insert

from app.core.models.digest import Watermark
from app.store.read.digest import WATERMARK_AT, WATERMARK_REVISION
from app.store.schema.tables import meta


def save_watermark(conn: Connection, mark: Watermark) -> None:
    """Replace the stored look with `mark` (inside the caller's write transaction)."""
    conn.execute(delete(meta).where(meta.c.key.in_([WATERMARK_AT, WATERMARK_REVISION])))
    conn.execute(
        insert(meta),
        [
            {"key": WATERMARK_AT, "value": str(mark.at)},
            {"key": WATERMARK_REVISION, "value": str(mark.revision_id)},
        ],
    )
