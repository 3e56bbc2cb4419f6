"""The evidence archive: a copy of every candidate the dashboard sees, kept after the host deletes it.

Revision ID: 0006_evidence
Revises: 0004_trust_marks
Create Date: 2026-12-03

Only our tables. The host's columns are declared without a type (no affinity), so SQLite keeps each value
exactly as the host's row held it: a number in `content`, a blob session, a text timestamp. `first_seen_at`
is when the dashboard first archived the row. An index on `mdash_revisions.changed_at` lets the Runs view
find the outside rewrites inside a host run's window without scanning every revision.

The SQL is frozen here, as this revision wrote it.
"""

from alembic import op

revision = "0006_evidence"
down_revision = "0004_trust_marks"
branch_labels = None
depends_on = None

UPGRADE = (
    "CREATE TABLE mdash_evidence (candidate_id INTEGER NOT NULL PRIMARY KEY, content, session_id,"
    " source_compartment_start, source_compartment_end, created_at, first_seen_at INTEGER NOT NULL)",
    "CREATE INDEX ix_mdash_revisions_changed ON mdash_revisions (changed_at)",
)
# PostgreSQL's host tables are typed (app.store.connect.server), so the copy is typed too.
UPGRADE_POSTGRESQL = (
    "CREATE TABLE mdash_evidence (candidate_id BIGINT NOT NULL PRIMARY KEY, content TEXT, session_id TEXT,"
    " source_compartment_start BIGINT, source_compartment_end BIGINT, created_at BIGINT,"
    " first_seen_at BIGINT NOT NULL)",
    "CREATE INDEX ix_mdash_revisions_changed ON mdash_revisions (changed_at)",
)
DOWNGRADE = (
    "DROP INDEX ix_mdash_revisions_changed",
    "DROP TABLE mdash_evidence",
)


def upgrade() -> None:
    bind = op.get_bind()
    for statement in UPGRADE_POSTGRESQL if bind.dialect.name == "postgresql" else UPGRADE:
        bind.exec_driver_sql(statement)


def downgrade() -> None:
    bind = op.get_bind()
    for statement in DOWNGRADE:
        bind.exec_driver_sql(statement)
