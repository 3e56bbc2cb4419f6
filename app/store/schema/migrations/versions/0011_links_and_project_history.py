"""Links between memories, and the history of project memories.

Revision ID: 0011_links_and_project_history
Revises: 0010_command_log
Create Date: 2027-02-02

Only tables of ours (`app.store.schema.tables`: `links`, `project_revisions`, `project_seen`).
`mdash_links` keeps what a merge, a supersession or a resolved contradiction made of two memories, with
the change that made it. `mdash_project_revisions` and `mdash_project_seen` are the revision log and the
last-seen copy of the host's `memories` rows, apart from the user memories' (ids overlap between the two
tables). The seen copy's host cells are untyped on SQLite (kept exactly as the host held them, as
`mdash_evidence`); PostgreSQL's host tables are typed, so there they are typed too. A store that cannot
migrate (read-only) reads no links and keeps project observations in memory.

The SQL is frozen here, as this revision wrote it.
"""

from alembic import op

revision = "0011_links_and_project_history"
down_revision = "0010_command_log"
branch_labels = None
depends_on = None

_INDEXES = (
    "CREATE INDEX ix_mdash_links_from ON mdash_links (memory_kind, from_id)",
    "CREATE INDEX ix_mdash_links_to ON mdash_links (memory_kind, to_id)",
    "CREATE INDEX ix_mdash_links_made_by ON mdash_links (made_by)",
    "CREATE INDEX ix_mdash_project_revisions_by_memory"
    " ON mdash_project_revisions (memory_id, changed_at, id)",
    "CREATE INDEX ix_mdash_project_revisions_by_time ON mdash_project_revisions (changed_at, memory_id, id)",
    "CREATE INDEX ix_mdash_project_revisions_run ON mdash_project_revisions (run_id)",
)
UPGRADE = (
    "CREATE TABLE mdash_links (id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, memory_kind TEXT NOT NULL,"
    " from_id INTEGER NOT NULL, to_id INTEGER NOT NULL, relation TEXT NOT NULL, made_at INTEGER NOT NULL,"
    " made_by TEXT NOT NULL, detail TEXT)",
    "CREATE TABLE mdash_project_revisions (id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,"
    " memory_id INTEGER NOT NULL, project_path TEXT NOT NULL, changed_at INTEGER NOT NULL,"
    " kind TEXT NOT NULL, source TEXT NOT NULL, run_id TEXT, candidate_ids TEXT DEFAULT '[]' NOT NULL,"
    " previous_content TEXT,"
    " new_content TEXT, previous_status TEXT, new_status TEXT, detail TEXT, previous_row TEXT, new_row TEXT)",
    "CREATE TABLE mdash_project_seen (memory_id INTEGER NOT NULL PRIMARY KEY, project_path, category,"
    " content, status, updated_at, expires_at, superseded_by_memory_id, merged_from,"
    " first_seen_at INTEGER NOT NULL,"
    " baseline_rewritten_at INTEGER)",
    *_INDEXES,
)
UPGRADE_POSTGRESQL = (
    "CREATE TABLE mdash_links (id BIGSERIAL NOT NULL PRIMARY KEY, memory_kind TEXT NOT NULL,"
    " from_id BIGINT NOT NULL, to_id BIGINT NOT NULL, relation TEXT NOT NULL, made_at BIGINT NOT NULL,"
    " made_by TEXT NOT NULL, detail TEXT)",
    "CREATE TABLE mdash_project_revisions (id BIGSERIAL NOT NULL PRIMARY KEY,"
    " memory_id BIGINT NOT NULL, project_path TEXT NOT NULL, changed_at BIGINT NOT NULL, kind TEXT NOT NULL,"
    " source TEXT NOT NULL, run_id TEXT, candidate_ids TEXT DEFAULT '[]' NOT NULL, previous_content TEXT,"
    " new_content TEXT, previous_status TEXT, new_status TEXT, detail TEXT, previous_row TEXT, new_row TEXT)",
    "CREATE TABLE mdash_project_seen (memory_id BIGINT NOT NULL PRIMARY KEY, project_path TEXT,"
    " category TEXT, content TEXT, status TEXT, updated_at BIGINT, expires_at BIGINT,"
    " superseded_by_memory_id BIGINT,"
    " merged_from TEXT, first_seen_at BIGINT NOT NULL, baseline_rewritten_at BIGINT)",
    *_INDEXES,
)
DOWNGRADE = (
    "DROP TABLE mdash_project_seen",
    "DROP TABLE mdash_project_revisions",
    "DROP TABLE mdash_links",
)


def upgrade() -> None:
    bind = op.get_bind()
    for statement in UPGRADE_POSTGRESQL if bind.dialect.name == "postgresql" else UPGRADE:
        bind.exec_driver_sql(statement)


def downgrade() -> None:
    bind = op.get_bind()
    for statement in DOWNGRADE:
        bind.exec_driver_sql(statement)
