"""The search index on PostgreSQL: a trigram index (`pg_trgm`, GIN) over our own copy of the contents.

Revision ID: 0009_pg_trgm_search
Revises: 0008_revisions_by_memory
Create Date: 2026-12-03

Only our tables: the index is on `mdash_seen.content`, the store's record of every memory as last seen
(never on the host's `user_memories`, which the host fingerprints). PostgreSQL keeps it in step by itself.
On SQLite this revision does nothing (its index is 0002's FTS5 table).

`CREATE EXTENSION` needs the right to create it (PostgreSQL 13+ lets a database's owner, or anyone with
CREATE on it, create `pg_trgm`, a trusted extension) and the extension's files on the server (Debian:
part of the `postgresql` package). Without either, the revision still succeeds and makes nothing: the
search scans, as before. Both statements run under a savepoint, so a refusal leaves the migration's
transaction usable.

The SQL is frozen here, as this revision wrote it.
"""

from alembic import op

revision = "0009_pg_trgm_search"
down_revision = "0008_revisions_by_memory"
branch_labels = None
depends_on = None

UPGRADE_POSTGRESQL = (
    "CREATE EXTENSION IF NOT EXISTS pg_trgm",
    "CREATE INDEX ix_mdash_seen_content_trgm ON mdash_seen USING gin (content gin_trgm_ops)",
)
DOWNGRADE_POSTGRESQL = ("DROP INDEX IF EXISTS ix_mdash_seen_content_trgm",)  # the extension may serve others


def upgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name != "postgresql":
        return
    try:
        with bind.begin_nested():
            for statement in UPGRADE_POSTGRESQL:
                bind.exec_driver_sql(statement)
    except Exception:  # no right to create the extension, or not installed: no index, the search scans
        return


def downgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name != "postgresql":
        return
    for statement in DOWNGRADE_POSTGRESQL:
        bind.exec_driver_sql(statement)
