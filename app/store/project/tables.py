"""SQLAlchemy Core descriptions of the host's project-memory tables, exactly as its schema (version 80)
declares them: never created or altered by us (the host makes them; a test builds them from the host's
own DDL). Their own `MetaData`, apart from the user-memory tables in `app.store.schema.tables`.

Columns the host added over time (`shareable` in v44, `classified_at` in v48, the mural cue columns in
v65 and v75) are cleared by a content edit only where the file has them (`write_steps.present_columns`).
"""

from __future__ import annotations

from sqlalchemy import Column, MetaData, Table, Text

from app.store.schema.tables import INT64

project_metadata = MetaData()

memories = Table(
    "memories",
    project_metadata,
    Column("id", INT64, primary_key=True),
    Column("project_path", Text, nullable=False),
    Column("category", Text, nullable=False),
    Column("content", Text, nullable=False),
    Column("normalized_hash", Text, nullable=False),
    Column("importance", INT64),
    Column("scope", Text, nullable=False),
    Column("shareable", INT64, nullable=False),
    Column("source_session_id", Text),
    Column("source_type", Text),
    Column("seen_count", INT64),
    Column("retrieval_count", INT64),
    Column("first_seen_at", INT64, nullable=False),
    Column("created_at", INT64, nullable=False),
    Column("updated_at", INT64, nullable=False),
    Column("last_seen_at", INT64, nullable=False),
    Column("last_retrieved_at", INT64),
    Column("status", Text),
    Column("expires_at", INT64),
    Column("verification_status", Text),
    Column("verified_at", INT64),
    Column("classified_at", INT64),
    Column("superseded_by_memory_id", INT64),
    Column("merged_from", Text),
    Column("metadata_json", Text),
    Column("mural_cue", Text),
    Column("mural_cue_hash", Text),
    Column("mural_cue_at", INT64),
    Column("mural_cue_rejection_count", INT64, nullable=False),
)

memory_embeddings = Table(
    "memory_embeddings",
    project_metadata,
    Column("memory_id", INT64, primary_key=True),
    Column("model_id", Text, primary_key=True),
)

# Its other columns are the host's; we only ever delete a memory's rows (the host's foreign key would
# cascade them, but no connection of ours turns SQLite's foreign keys on).
memory_verifications = Table(
    "memory_verifications",
    project_metadata,
    Column("memory_id", INT64, primary_key=True),
    Column("file_path", Text, primary_key=True),
)

memory_mutation_log = Table(
    "memory_mutation_log",
    project_metadata,
    Column("id", INT64, primary_key=True),
    Column("project_path", Text, nullable=False),
    Column("mutation_type", Text, nullable=False),  # CHECK: archive, delete, update, superseded
    Column("target_memory_id", INT64, nullable=False),
    Column("superseded_by_id", INT64),
    Column("category", Text),
    Column("new_content", Text),
    Column("queued_at", INT64, nullable=False),
)

session_projects = Table(
    "session_projects",
    project_metadata,
    Column("session_id", Text, primary_key=True),
    Column("harness", Text, primary_key=True),
    Column("project_path", Text, nullable=False),
    Column("updated_at", INT64, nullable=False),
)

workspace_members = Table(
    "workspace_members",
    project_metadata,
    Column("workspace_id", INT64, primary_key=True),
    Column("project_path", Text, primary_key=True),
    Column("display_name", Text, nullable=False),
    Column("display_path", Text, nullable=False),
    Column("added_at", INT64, nullable=False),
)

authority_managed = Table(
    "authority_managed",
    project_metadata,
    Column("project_path", Text, primary_key=True),
    Column("context_store_uuid", Text, nullable=False),
    Column("marked_at", INT64, nullable=False),
)

authority_repair_pending = Table(
    "authority_repair_pending",
    project_metadata,
    Column("project_path", Text, primary_key=True),
    Column("started_at", INT64, nullable=False),
)

# The mural cue columns a content edit clears (the host resets the rejection count to 0, the rest to NULL).
MURAL_CUE_COLUMNS = ("mural_cue", "mural_cue_hash", "mural_cue_at")
MURAL_REJECTION_COLUMN = "mural_cue_rejection_count"
