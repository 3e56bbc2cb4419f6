"""Writes no longer index contents themselves: changed memories wait in `mdash_search_pending`.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-03

Only our tables (where the search index exists): the three triggers on `mdash_seen` now note a changed
memory and the text the index holds for it (the first note of a memory keeps that text: later ones are
ignored until it is indexed); `app.store.search.index.index_pending_step` indexes them later, in short
transactions the window runs when idle. The downgrade indexes whatever is pending first.

The SQL is frozen here, as this revision wrote it: the live search module may change, this may not.
"""

from alembic import op
from sqlalchemy import Connection

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

DROP_TRIGGERS = (
    "DROP TRIGGER IF EXISTS mdash_seen_search_insert",
    "DROP TRIGGER IF EXISTS mdash_seen_search_delete",
    "DROP TRIGGER IF EXISTS mdash_seen_search_update",
)
UPGRADE = (
    *DROP_TRIGGERS,
    "CREATE TABLE mdash_search_pending (memory_id INTEGER PRIMARY KEY, indexed TEXT)",
    "CREATE TRIGGER mdash_seen_search_insert AFTER INSERT ON mdash_seen WHEN new.memory_id <="
    " (SELECT CAST(value AS INTEGER) FROM mdash_meta WHERE key = 'search_indexed_upto')"
    " BEGIN INSERT OR IGNORE INTO mdash_search_pending VALUES (new.memory_id, NULL); END",
    "CREATE TRIGGER mdash_seen_search_delete AFTER DELETE ON mdash_seen WHEN old.memory_id <="
    " (SELECT CAST(value AS INTEGER) FROM mdash_meta WHERE key = 'search_indexed_upto')"
    " BEGIN INSERT OR IGNORE INTO mdash_search_pending VALUES (old.memory_id, old.content); END",
    "CREATE TRIGGER mdash_seen_search_update AFTER UPDATE OF content ON mdash_seen WHEN old.memory_id <="
    " (SELECT CAST(value AS INTEGER) FROM mdash_meta WHERE key = 'search_indexed_upto')"
    " AND old.content IS NOT new.content"
    " BEGIN INSERT OR IGNORE INTO mdash_search_pending VALUES (old.memory_id, old.content); END",
)
# Down: every pending change indexed (the old entry out with the text it was made from, the current
# text in), then revision 0002's triggers, exactly as 0002 wrote them.
DOWNGRADE = (
    "INSERT INTO mdash_search(mdash_search, rowid, content) SELECT 'delete', memory_id, indexed"
    " FROM mdash_search_pending WHERE indexed IS NOT NULL",
    "INSERT INTO mdash_search(rowid, content) SELECT memory_id, content FROM mdash_seen"
    " WHERE memory_id IN (SELECT memory_id FROM mdash_search_pending)",
    *DROP_TRIGGERS,
    "DROP TABLE mdash_search_pending",
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


def _has_index(bind: Connection) -> bool:
    if bind.dialect.name != "sqlite":
        return False
    found = bind.exec_driver_sql("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'mdash_search'")
    return found.first() is not None


def upgrade() -> None:
    bind = op.get_bind()
    if _has_index(bind):
        for statement in UPGRADE:
            bind.exec_driver_sql(statement)


def downgrade() -> None:
    bind = op.get_bind()
    if _has_index(bind):
        for statement in DOWNGRADE:
            bind.exec_driver_sql(statement)
