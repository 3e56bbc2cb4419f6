"""The search index on PostgreSQL: a `pg_trgm` GIN index over `mdash_seen.content` (migration 0009).

It plays the part SQLite's FTS5 table plays (`index`), with less to do: PostgreSQL keeps a GIN index in
step inside every write, so nothing is filled afterwards and no change waits. It indexes our own copy
of the contents, never the host's table (the fence); the store uses it only while it knows that copy
matches the host (its change watch, `server_watch`), and only for a selective term. The index narrows
the memories to those whose copy holds the term (`ILIKE`, which the trigram index answers); the host's
own `content ILIKE` stays in the query, so the rows are exactly the scan's. Where the migration could
not create the extension, there is no index and every search scans.
"""

from __future__ import annotations

from sqlalchemy import ColumnElement, Connection, func, literal, select, text

from app.store.schema.tables import seen, user_memories
from app.store.search.text_match import contains_text

INDEX_NAME = "ix_mdash_seen_content_trgm"
_EXISTS = text("SELECT 1 FROM pg_indexes WHERE schemaname = current_schema() AND indexname = :name")


def exists(conn: Connection) -> bool:
    return conn.execute(_EXISTS, {"name": INDEX_NAME}).first() is not None


def _holding(term: str) -> ColumnElement[bool]:
    return contains_text(seen.c.content, term)


def hits_below(conn: Connection, term: str, cap: int) -> bool:
    """Whether fewer than `cap` memories' copies hold `term` (a count stopped at `cap`)."""
    capped = select(literal(1)).select_from(seen).where(_holding(term)).limit(cap)
    return conn.execute(select(func.count()).select_from(capped.subquery())).scalar_one() < cap


def matching_ids(term: str) -> ColumnElement[bool]:
    """`id IN (memories whose copy in mdash_seen holds term)`, for the host table's `id` column."""
    return user_memories.c.id.in_(select(seen.c.memory_id).where(_holding(term)))
