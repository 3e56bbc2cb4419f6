"""SQLAlchemy Core tables: the host's (never altered; created only in a new file) and the dashboard's own.

The dashboard's own tables all start with `mdash_` and are created by its migrations only. Every id and
millisecond instant is `INT64`: 64-bit on every dialect (BIGINT on PostgreSQL, where `INTEGER` is
32-bit; SQLite's INTEGER is already 64-bit and a rowid alias only when spelled INTEGER).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import BigInteger, Column, Connection, Index, Integer, MetaData, Table, Text
from sqlalchemy.types import NullType

INT64 = BigInteger().with_variant(Integer(), "sqlite")

host_metadata = MetaData()

user_memories = Table(
    "user_memories",
    host_metadata,
    Column("id", INT64, primary_key=True),
    Column("content", Text, nullable=False),
    Column("status", Text, nullable=False),
    Column("promoted_at", INT64, nullable=False),
    Column("source_candidate_ids", Text),
    Column("source_candidate_provenance", Text),
    Column("created_at", INT64, nullable=False),
    Column("updated_at", INT64, nullable=False),
)

user_memory_candidates = Table(
    "user_memory_candidates",
    host_metadata,
    Column("id", INT64, primary_key=True),
    Column("content", Text, nullable=False),
    Column("session_id", Text, nullable=False),
    Column("source_compartment_start", INT64),
    Column("source_compartment_end", INT64),
    Column("created_at", INT64, nullable=False),
)

dream_state = Table(
    "dream_state",
    host_metadata,
    Column("key", Text, primary_key=True),
    Column("value", Text, nullable=False),
)

project_state = Table(
    "project_state",
    host_metadata,
    Column("project_path", Text, primary_key=True),
    Column("project_memory_epoch", INT64, nullable=False),
    Column("project_user_profile_version", INT64, nullable=False),
    Column("updated_at", INT64, nullable=False),
)

HOST_TABLES = ("user_memories", "user_memory_candidates", "dream_state", "project_state")
FENCED_TABLES = ("user_memories", "user_memory_candidates")

own_metadata = MetaData()

VERSION_TABLE = "mdash_alembic_version"


def revision_columns(*extra: Column[Any]) -> list[Column[Any]]:
    """A revision log's columns (the user memories' and the project memories' logs share them), with
    `extra` after `changed_at`."""
    return [
        Column("id", INT64, primary_key=True, autoincrement=True),
        Column("memory_id", INT64, nullable=False),
        *extra,
        Column("changed_at", INT64, nullable=False),
        Column("kind", Text, nullable=False),
        Column("source", Text, nullable=False),
        Column("run_id", Text),
        Column("candidate_ids", Text, nullable=False, server_default="[]"),
        Column("previous_content", Text),
        Column("new_content", Text),
        Column("previous_status", Text),
        Column("new_status", Text),
        Column("detail", Text),
    ]


revisions = Table(
    "mdash_revisions",
    own_metadata,
    *revision_columns(),
    # 0008_revisions_by_memory: a memory's revisions in order, with what the past needs of each.
    Index("ix_mdash_revisions_by_memory", "memory_id", "changed_at", "id", "kind", "previous_status"),
    Index("ix_mdash_revisions_run", "run_id"),
    Index("ix_mdash_revisions_by_time", "changed_at", "memory_id", "id", "kind"),  # 0007_revisions_by_time
)

# What the store last saw of each memory, to notice rewrites made outside the dashboard.
seen = Table(
    "mdash_seen",
    own_metadata,
    Column("memory_id", INT64, primary_key=True, autoincrement=False),
    Column("content", Text, nullable=False),
    Column("status", Text, nullable=False),
    Column("updated_at", INT64, nullable=False),
    Column("first_seen_at", INT64, nullable=False),
    # The row as first seen: was it already rewritten before the dashboard tracked it, and when.
    Column("baseline_rewritten_at", INT64),
    # 0013_seen_promoted_at: the host's value as stored (untyped on SQLite), in an index the listing's
    # first page walks in the host's order (`app.store.read.first_page`).
    Column("promoted_at", BigInteger().with_variant(NullType(), "sqlite")),
    Index("ix_mdash_seen_promoted", "promoted_at", "memory_id"),
)

expiry = Table(
    "mdash_expiry",
    own_metadata,
    Column("memory_id", INT64, primary_key=True, autoincrement=False),
    Column("expires_at", INT64, nullable=False),
    Column("set_at", INT64, nullable=False),
    Index("ix_mdash_expiry_at", "expires_at"),
)

# Sources the host's provenance cannot hold (e.g. `user:dashboard`), in the order they were added.
memory_sources = Table(
    "mdash_memory_sources",
    own_metadata,
    Column("memory_id", INT64, primary_key=True, autoincrement=False),
    Column("source", Text, primary_key=True),
    Column("added_at", INT64, nullable=False),
)

# Review runs already applied, so re-applying a verdict with the same run id is a no-op.
review_runs = Table(
    "mdash_review_runs",
    own_metadata,
    Column("run_id", Text, primary_key=True),
    Column("applied_at", INT64, nullable=False),
    Column("holder", Text),
    Column("summary", Text, nullable=False),
)

meta = Table(
    "mdash_meta",
    own_metadata,
    Column("key", Text, primary_key=True),
    Column("value", Text, nullable=False),
)

# A person's marks on sources (revision 0004_trust_marks): `trust` is "trusted" or "untrusted".
trust_marks = Table(
    "mdash_trust_marks",
    own_metadata,
    Column("source", Text, primary_key=True),
    Column("trust", Text, nullable=False),
    Column("set_at", INT64, nullable=False),
)

# Tables a store reads only when present: one that could not migrate (read-only) does without them.
OPTIONAL_OWN_TABLES = ("mdash_trust_marks",)
OWN_TABLES = tuple(name for name in own_metadata.tables if name not in OPTIONAL_OWN_TABLES)

# The evidence archive (revision 0006_evidence): a copy of every candidate the dashboard saw, taken before the
# host deletes it. Its own metadata, so a store whose tables predate it still reads everything else. The
# host's columns are untyped (no affinity): each value is kept exactly as the host's row held it.
archive_metadata = MetaData()
evidence = Table(
    "mdash_evidence",
    archive_metadata,
    Column("candidate_id", INT64, primary_key=True, autoincrement=False),
    Column("content"),
    Column("session_id"),
    Column("source_compartment_start"),
    Column("source_compartment_end"),
    Column("created_at"),
    Column("first_seen_at", INT64, nullable=False),
)

# The command log (revision 0010_command_log): every change a person made through the dashboard (the
# window or the CLI), with what its undo and redo need (`payload`, JSON), as one linear undo/redo stack:
# `state` is `done` or `undone`, and every undone entry is newer than every done one. Its own metadata, as
# the archive's: a store whose tables predate it reads everything else, and its log is empty.
command_log_metadata = MetaData()
command_log = Table(
    "mdash_command_log",
    command_log_metadata,
    Column("id", INT64, primary_key=True, autoincrement=True),
    Column("kind", Text, nullable=False),
    Column("label", Text, nullable=False),
    Column("payload", Text, nullable=False),
    Column("made_at", INT64, nullable=False),
    Column("origin", Text, nullable=False),
    Column("state", Text, nullable=False),
    Column("changed_at", INT64, nullable=False),
    Index("ix_mdash_command_log_state", "state", "id"),
)

# Links between memories (revision 0011_links_and_project_history): what a merge, a supersession or a
# resolved contradiction made of them, kept after both rows move on. `memory_kind` is a `MemoryKind.name`
# ("user", "project"): ids are unique only within a kind. `relation` reads from `from_id` to `to_id`:
# `merged_into` (from the absorbed memory to the one kept), `supersedes` (from the new to the old),
# `resolved_contradiction` (from the memory kept to the one it contradicted). `made_by` names the change
# that made it (`command:<log id>`, `run:<run id>`); undoing that change deletes the row.
links_metadata = MetaData()
links = Table(
    "mdash_links",
    links_metadata,
    Column("id", INT64, primary_key=True, autoincrement=True),
    Column("memory_kind", Text, nullable=False),
    Column("from_id", INT64, nullable=False),
    Column("to_id", INT64, nullable=False),
    Column("relation", Text, nullable=False),
    Column("made_at", INT64, nullable=False),
    Column("made_by", Text, nullable=False),
    Column("detail", Text),
    Index("ix_mdash_links_from", "memory_kind", "from_id"),
    Index("ix_mdash_links_to", "memory_kind", "to_id"),
    Index("ix_mdash_links_made_by", "made_by"),
)

# The history of project memories (the host's `memories` table), apart from user memories' (their ids
# overlap). Same shape as `mdash_revisions` plus the project and a snapshot of the row's other fields
# before and after (`previous_row`, `new_row`: JSON of `app.store.project.revisions.TRACKED`), which is
# what an as-of of a project needs (category, status, expiry, `updated_at` decide what the host injected).
project_history_metadata = MetaData()
project_revisions = Table(
    "mdash_project_revisions",
    project_history_metadata,
    *revision_columns(Column("project_path", Text, nullable=False)),
    Column("previous_row", Text),
    Column("new_row", Text),
    Index("ix_mdash_project_revisions_by_memory", "memory_id", "changed_at", "id"),
    Index("ix_mdash_project_revisions_by_time", "changed_at", "memory_id", "id"),
    Index("ix_mdash_project_revisions_run", "run_id"),
    # A project as of an instant (revision 0012_project_revisions_by_path): its revisions, by memory.
    Index("ix_mdash_project_revisions_by_project", "project_path", "memory_id", "changed_at", "id"),
)

# What the store last saw of each project memory, to notice rewrites made outside the dashboard. The
# host's cells are kept as they were (untyped on SQLite, as `mdash_evidence`), so a comparison `IS NOT`
# catches any change, even one within the same millisecond.
project_seen = Table(
    "mdash_project_seen",
    project_history_metadata,
    Column("memory_id", INT64, primary_key=True, autoincrement=False),
    Column("project_path"),
    Column("category"),
    Column("content"),
    Column("status"),
    Column("updated_at"),
    Column("expires_at"),
    Column("superseded_by_memory_id"),
    Column("merged_from"),
    Column("first_seen_at", INT64, nullable=False),
    Column("baseline_rewritten_at", INT64),
)


def counts_ids_up(conn: Connection, table: Table) -> bool:
    """Whether this is SQLite and the host made `table` `AUTOINCREMENT`: a deleted id never comes back and
    a new row's id is above every id the table ever held."""
    if conn.dialect.name != "sqlite":
        return False
    sql = conn.exec_driver_sql(
        "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (table.name,)
    ).scalar()
    return isinstance(sql, str) and "AUTOINCREMENT" in sql.upper()
