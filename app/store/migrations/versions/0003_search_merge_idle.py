"""The search index merges its segments when the window is idle, not inside every write.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-03

Only our table: FTS5's persistent `automerge` option of `mdash_search` (where the index exists) is set to 0;
`app.store.search_index.merge_step` does that work later, in short transactions of its own.
"""

from alembic import op

from app.store import search_index

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    bind = op.get_bind()
    if search_index.exists(bind):
        search_index.set_automerge(bind, 0)


def downgrade() -> None:
    bind = op.get_bind()
    if search_index.exists(bind):
        search_index.set_automerge(bind, 4)
