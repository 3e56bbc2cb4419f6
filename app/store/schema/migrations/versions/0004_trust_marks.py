"""Trust marks: a person marks a source (`session:ses_abc`) or a whole scheme (`session:`) trusted or
untrusted.

Revision ID: 0004_trust_marks
Revises: 0003
Create Date: 2026-12-03

Only a table of ours; a store that cannot migrate (read-only) keeps its marks in memory.
"""

import sqlalchemy as sa
from alembic import op

revision = "0004_trust_marks"
down_revision = "0003"
branch_labels = None
depends_on = None


INT64 = sa.BigInteger().with_variant(sa.Integer(), "sqlite")  # epoch ms: 64-bit on PostgreSQL


def upgrade() -> None:
    op.create_table(
        "mdash_trust_marks",
        sa.Column("source", sa.Text, primary_key=True),
        sa.Column("trust", sa.Text, nullable=False),
        sa.Column("set_at", INT64, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("mdash_trust_marks")
