"""The command log: the changes a person made (window or CLI), each with what its undo and redo need.

Revision ID: 0010_command_log
Revises: 0009_pg_trgm_search
Create Date: 2027-01-12

Only a table of ours (`app.store.schema.tables.command_log`). `state` is `done` or `undone`; the index
finds the newest done entry and the oldest undone one without a scan. A store that cannot migrate
(read-only) reads an empty log and undoes nothing.

The SQL is frozen here, as this revision wrote it.
"""

from alembic import op

revision = "0010_command_log"
down_revision = "0009_pg_trgm_search"
branch_labels = None
depends_on = None

UPGRADE = (
    "CREATE TABLE mdash_command_log (id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL,"
    " label TEXT NOT NULL, payload TEXT NOT NULL, made_at INTEGER NOT NULL, origin TEXT NOT NULL,"
    " state TEXT NOT NULL, changed_at INTEGER NOT NULL)",
    "CREATE INDEX ix_mdash_command_log_state ON mdash_command_log (state, id)",
)
UPGRADE_POSTGRESQL = (
    "CREATE TABLE mdash_command_log (id BIGSERIAL NOT NULL PRIMARY KEY, kind TEXT NOT NULL,"
    " label TEXT NOT NULL, payload TEXT NOT NULL, made_at BIGINT NOT NULL, origin TEXT NOT NULL,"
    " state TEXT NOT NULL, changed_at BIGINT NOT NULL)",
    "CREATE INDEX ix_mdash_command_log_state ON mdash_command_log (state, id)",
)
DOWNGRADE = (
    "DROP INDEX ix_mdash_command_log_state",
    "DROP TABLE mdash_command_log",
)


def upgrade() -> None:
    bind = op.get_bind()
    for statement in UPGRADE_POSTGRESQL if bind.dialect.name == "postgresql" else UPGRADE:
        bind.exec_driver_sql(statement)


def downgrade() -> None:
    bind = op.get_bind()
    for statement in DOWNGRADE:
        bind.exec_driver_sql(statement)
