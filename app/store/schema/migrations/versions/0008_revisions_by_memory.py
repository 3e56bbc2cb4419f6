"""The revisions by memory: `mdash_revisions (memory_id, changed_at, id, kind, previous_status)`.

Revision ID: 0008_revisions_by_memory
Revises: 0007_revisions_by_time
Create Date: 2026-12-03

Only our tables. The past ("as of" an instant) looks up, for each memory changed since that instant,
its first revision after it (and whether that revision created the memory) and its first revision
after it that moved its status or expiry. With the kind and the previous status in the memory's index,
each of those is a seek in the index alone, with no read of the revision's row (whose texts make it
wide). It replaces `ix_mdash_revisions_memory` (memory_id, changed_at, id), whose every use it serves:
its columns lead this one, in the same order.

The SQL is frozen here, as this revision wrote it; it is the same on SQLite and PostgreSQL.
"""

from alembic import op

revision = "0008_revisions_by_memory"
down_revision = "0007_revisions_by_time"
branch_labels = None
depends_on = None

UPGRADE = (
    "CREATE INDEX ix_mdash_revisions_by_memory"
    " ON mdash_revisions (memory_id, changed_at, id, kind, previous_status)",
    "DROP INDEX ix_mdash_revisions_memory",
)
DOWNGRADE = (
    "CREATE INDEX ix_mdash_revisions_memory ON mdash_revisions (memory_id, changed_at, id)",
    "DROP INDEX ix_mdash_revisions_by_memory",
)


def upgrade() -> None:
    bind = op.get_bind()
    for statement in UPGRADE:
        bind.exec_driver_sql(statement)


def downgrade() -> None:
    bind = op.get_bind()
    for statement in DOWNGRADE:
        bind.exec_driver_sql(statement)
