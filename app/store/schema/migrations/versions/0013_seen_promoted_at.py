"""The seen copy keeps each memory's `promoted_at`, in an index of ours: the listing's first page in order.

Revision ID: 0013_seen_promoted_at
Revises: 0012_project_revisions_by_path
Create Date: 2027-02-09

Only our tables. The default listing (status, newest promotion first) ordered the host's rows by
`promoted_at`, which no index of the host's covers: SQLite read every active row of the wide host table
and sorted it. The host's table may not get an index (the fence), so `mdash_seen` keeps a copy of each
row's `promoted_at`, filled here from the host's rows in one statement, with an index on
`(promoted_at, memory_id)` that the first page walks (`app.store.read.first_page`).

On SQLite the column has no declared type: it keeps the host's value exactly as stored (the host's
column is INTEGER but holds whatever was written: NULL, reals, text, blobs), so the index orders the
copies as the host's `ORDER BY promoted_at` orders the rows. PostgreSQL's host table is typed: BIGINT.

`seen_through` in `mdash_meta` (SQLite only, where the first page uses the copy): every host row with an
id up to it has its copy (ids only grow there); the rows above it are read from the host's table.

The SQL is frozen here, as this revision wrote it.
"""

from alembic import op

revision = "0013_seen_promoted_at"
down_revision = "0012_project_revisions_by_path"
branch_labels = None
depends_on = None

_FILL = (
    "UPDATE mdash_seen SET promoted_at ="
    " (SELECT user_memories.promoted_at FROM user_memories WHERE user_memories.id = mdash_seen.memory_id)"
)
_INDEX = "CREATE INDEX ix_mdash_seen_promoted ON mdash_seen (promoted_at, memory_id)"
UPGRADE = (
    "ALTER TABLE mdash_seen ADD COLUMN promoted_at",
    _FILL,
    _INDEX,
    "INSERT INTO mdash_meta (key, value) SELECT 'seen_through', CAST(coalesce("
    "(SELECT min(u.id) - 1 FROM user_memories u"
    " WHERE NOT EXISTS (SELECT 1 FROM mdash_seen s WHERE s.memory_id = u.id)),"
    " (SELECT max(id) FROM user_memories), 0) AS TEXT)",
)
UPGRADE_POSTGRESQL = ("ALTER TABLE mdash_seen ADD COLUMN promoted_at BIGINT", _FILL, _INDEX)
DOWNGRADE = (
    "DELETE FROM mdash_meta WHERE key = 'seen_through'",
    "DROP INDEX ix_mdash_seen_promoted",
    "ALTER TABLE mdash_seen DROP COLUMN promoted_at",
)


def upgrade() -> None:
    bind = op.get_bind()
    for statement in UPGRADE_POSTGRESQL if bind.dialect.name == "postgresql" else UPGRADE:
        bind.exec_driver_sql(statement)


def downgrade() -> None:
    bind = op.get_bind()
    for statement in DOWNGRADE:
        bind.exec_driver_sql(statement)
