"""The dashboard's own tables: revisions, what it has seen, expiry, sources, review runs, meta.

Revision ID: 0001
Revises:
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

# Ids and epoch-millisecond instants: BIGINT on PostgreSQL (its INTEGER is 32-bit), INTEGER on SQLite
# (64-bit already, and a rowid alias only when spelled INTEGER): SQLite's SQL is as this revision first
# wrote it.
INT64 = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "mdash_revisions",
        sa.Column("id", INT64, primary_key=True, autoincrement=True),
        sa.Column("memory_id", INT64, nullable=False),
        sa.Column("changed_at", INT64, nullable=False),
        sa.Column("kind", sa.Text, nullable=False),
        sa.Column("source", sa.Text, nullable=False),
        sa.Column("run_id", sa.Text),
        sa.Column("candidate_ids", sa.Text, nullable=False, server_default="[]"),
        sa.Column("previous_content", sa.Text),
        sa.Column("new_content", sa.Text),
        sa.Column("previous_status", sa.Text),
        sa.Column("new_status", sa.Text),
        sa.Column("detail", sa.Text),
    )
    op.create_index("ix_mdash_revisions_memory", "mdash_revisions", ["memory_id", "changed_at", "id"])
    op.create_index("ix_mdash_revisions_run", "mdash_revisions", ["run_id"])
    op.create_table(
        "mdash_seen",
        sa.Column("memory_id", INT64, primary_key=True, autoincrement=False),
        sa.Column("content", sa.Text, nullable=False),
        sa.Column("status", sa.Text, nullable=False),
        sa.Column("updated_at", INT64, nullable=False),
        sa.Column("first_seen_at", INT64, nullable=False),
        sa.Column("baseline_rewritten_at", INT64),
    )
    op.create_table(
        "mdash_expiry",
        sa.Column("memory_id", INT64, primary_key=True, autoincrement=False),
        sa.Column("expires_at", INT64, nullable=False),
        sa.Column("set_at", INT64, nullable=False),
    )
    op.create_index("ix_mdash_expiry_at", "mdash_expiry", ["expires_at"])
    op.create_table(
        "mdash_memory_sources",
        sa.Column("memory_id", INT64, primary_key=True, autoincrement=False),
        sa.Column("source", sa.Text, primary_key=True),
        sa.Column("added_at", INT64, nullable=False),
    )
    op.create_table(
        "mdash_review_runs",
        sa.Column("run_id", sa.Text, primary_key=True),
        sa.Column("applied_at", INT64, nullable=False),
        sa.Column("holder", sa.Text),
        sa.Column("summary", sa.Text, nullable=False),
    )
    op.create_table(
        "mdash_meta",
        sa.Column("key", sa.Text, primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
    )


def downgrade() -> None:
    for table in (
        "mdash_meta",
        "mdash_review_runs",
        "mdash_memory_sources",
        "mdash_expiry",
        "mdash_seen",
        "mdash_revisions",
    ):
        op.drop_table(table)
