"""The dashboard's own search index of memory contents (FTS5 trigram over `mdash_seen`), where SQLite has it.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-02

Only our tables: a virtual table, triggers on `mdash_seen` and a fill mark in `mdash_meta`. The index is
filled afterwards in short steps (`app.store.search.index.fill_step`), never in this transaction.

The SQL is frozen here, as this revision wrote it: the live search module may change, this may not.
"""

from alembic import op
from sqlalchemy import Connection

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

PROBE = "CREATE VIRTUAL TABLE temp.mdash_search_probe USING fts5(x, tokenize='trigram')"
CREATE_INDEX = (
    "CREATE VIRTUAL TABLE mdash_search USING fts5(content, content='mdash_seen',"
    " content_rowid='memory_id', tokenize='trigram', detail=none)"
)
# The index kept in step inside every write, for the rows filled so far (0003 replaces these triggers;
# its downgrade brings them back, from its own copy).
TRIGGERS = (
    "CREATE TRIGGER mdash_seen_search_insert AFTER INSERT ON mdash_seen WHEN new.memory_id <="
    " (SELECT CAST(value AS INTEGER) FROM mdash_meta WHERE key = 'search_indexed_upto')"
    " BEGIN INSERT INTO mdash_search(rowid, content) VALUES (new.memory_id, new.content); END",
    "CREATE TRIGGER mdash_seen_search_delete AFTER DELETE ON mdash_seen WHEN old.memory_id <="
    " (SELECT CAST(value AS INTEGER) FROM mdash_meta WHERE key = 'search_indexed_upto')"
    " BEGIN INSERT INTO mdash_search(mdash_search, rowid, content)"
    " VALUES ('delete', old.memory_id, old.content); END",
    "CREATE TRIGGER mdash_seen_search_update AFTER UPDATE OF content ON mdash_seen WHEN old.memory_id <="
    " (SELECT CAST(value AS INTEGER) FROM mdash_meta WHERE key = 'search_indexed_upto')"
    " AND old.content IS NOT new.content BEGIN"
    " INSERT INTO mdash_search(mdash_search, rowid, content) VALUES ('delete', old.memory_id, old.content);"
    " INSERT INTO mdash_search(rowid, content) VALUES (new.memory_id, new.content); END",
)
FILL_MARK = "INSERT OR REPLACE INTO mdash_meta (key, value) VALUES ('search_indexed_upto', '0')"
DROP = (
    "DROP TRIGGER IF EXISTS mdash_seen_search_insert",
    "DROP TRIGGER IF EXISTS mdash_seen_search_delete",
    "DROP TRIGGER IF EXISTS mdash_seen_search_update",
    "DROP TABLE IF EXISTS mdash_search",
    "DELETE FROM mdash_meta WHERE key = 'search_indexed_upto'",
)


def _supported(bind: Connection) -> bool:
    """FTS5 with the trigram tokenizer (SQLite 3.34+) on this connection; no index elsewhere."""
    if bind.dialect.name != "sqlite":
        return False
    try:
        bind.exec_driver_sql(PROBE)
    except Exception:
        return False
    bind.exec_driver_sql("DROP TABLE temp.mdash_search_probe")
    return True


def upgrade() -> None:
    bind = op.get_bind()
    if _supported(bind):
        for statement in (CREATE_INDEX, *TRIGGERS, FILL_MARK):
            bind.exec_driver_sql(statement)


def downgrade() -> None:
    bind = op.get_bind()
    for statement in DROP:
        bind.exec_driver_sql(statement)
