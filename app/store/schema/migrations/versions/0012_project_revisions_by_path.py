"""The project revision log by project: `mdash_project_revisions (project_path, memory_id, changed_at, id)`.

Revision ID: 0012_project_revisions_by_path
Revises: 0011_links_and_project_history
Create Date: 2027-02-05

Only our tables. A project as of an instant reads the log's revisions of one project, by memory and in
time order (`app.store.past.project_past`): without this index that was a scan of the whole log in the
order of the index by memory, reading every project's rows. With the project leading and the order
after it, it is one seek and a walk of that project's entries, with no sort.

(The revision's name fits Alembic's version column, 32 characters on PostgreSQL.)

The SQL is frozen here, as this revision wrote it; it is the same on SQLite and PostgreSQL.
"""

from alembic import op

revision = "0012_project_revisions_by_path"
down_revision = "0011_links_and_project_history"
branch_labels = None
depends_on = None

UPGRADE = (
    "CREATE INDEX ix_mdash_project_revisions_by_project"
    " ON mdash_project_revisions (project_path, memory_id, changed_at, id)",
)
DOWNGRADE = ("DROP INDEX ix_mdash_project_revisions_by_project",)


def upgrade() -> None:
    bind = op.get_bind()
    for statement in UPGRADE:
        bind.exec_driver_sql(statement)


def downgrade() -> None:
    bind = op.get_bind()
    for statement in DOWNGRADE:
        bind.exec_driver_sql(statement)
