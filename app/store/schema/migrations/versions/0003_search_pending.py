"""Writes no longer index contents themselves: changed memories wait in `mdash_search_pending`.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-03

Only our tables (where the search index exists): the three triggers on `mdash_seen` now note a changed
memory and the text the index holds for it; `app.store.search.index.index_pending_step` indexes them
later, in short transactions the window runs when idle. The downgrade indexes whatever is pending first.
"""

from alembic import op

from app.store.search import index as search_index

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    bind = op.get_bind()
    if search_index.exists(bind):
        search_index.create_pending(bind)


def downgrade() -> None:
    bind = op.get_bind()
    if search_index.exists(bind):
        search_index.drop_pending(bind)
