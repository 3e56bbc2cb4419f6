"""The dashboard's own search index of memory contents (FTS5 trigram over `mdash_seen`), where SQLite has it.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-02

Only our tables: a virtual table, triggers on `mdash_seen` and a fill mark in `mdash_meta`. The index is
filled afterwards in short steps (`app.store.search.index.fill_step`), never in this transaction.
"""

from alembic import op

from app.store.search import index as search_index

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    bind = op.get_bind()
    if search_index.supported(bind):
        search_index.create(bind)


def downgrade() -> None:
    bind = op.get_bind()
    for trigger in ("mdash_seen_search_insert", "mdash_seen_search_delete", "mdash_seen_search_update"):
        bind.exec_driver_sql(f"DROP TRIGGER IF EXISTS {trigger}")
    bind.exec_driver_sql(f"DROP TABLE IF EXISTS {search_index.SEARCH_TABLE}")
    bind.exec_driver_sql(f"DELETE FROM mdash_meta WHERE key = '{search_index.UPTO_KEY}'")
