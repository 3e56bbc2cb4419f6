"""The revisions by time: a covering index over `mdash_revisions (changed_at, memory_id, id, kind)`.

Revision ID: 0007_revisions_by_time
Revises: 0006_evidence
Create Date: 2026-12-03

Only our tables. The past profile reads every revision after an instant (which memory, which revision,
what kind); with these columns in the index that is a range scan of the index alone, no lookup of each
row. It replaces `ix_mdash_revisions_changed` (changed_at alone), whose every use it serves: the Runs
view's time windows read it by its leading column.

The SQL is frozen here, as this revision wrote it; it is the same on SQLite and PostgreSQL.
"""

from alembic import op

revision = "0007_revisions_by_time"
down_revision = "0006_evidence"
branch_labels = None
depends_on = None

UPGRADE = (
    "CREATE INDEX ix_mdash_revisions_by_time ON mdash_revisions (changed_at, memory_id, id, kind)",
    "DROP INDEX ix_mdash_revisions_changed",
)
DOWNGRADE = (
    "CREATE INDEX ix_mdash_revisions_changed ON mdash_revisions (changed_at)",
    "DROP INDEX ix_mdash_revisions_by_time",
)


def upgrade() -> None:
    bind = op.get_bind()
    for statement in UPGRADE:
        bind.exec_driver_sql(statement)


def downgrade() -> None:
    bind = op.get_bind()
    for statement in DOWNGRADE:
        bind.exec_driver_sql(statement)
