"""The steps the host takes around a change to a project memory, each one statement on the caller's
connection (inside its transaction): the `memory_mutation_log` row its renderer reads, the project's
`project_memory_epoch` bump, the embeddings a content change makes stale, and which of the columns
the host added over time this file has.

Each step copies `project_path` (and the category) from the memory's own row with a subquery, never
from what we decoded of it, so a path that is not valid UTF-8 is logged and bumped byte for byte.
"""

from __future__ import annotations

from sqlalchemy import Connection, ScalarSelect, delete, insert, inspect, literal, select, update

from app.store.project.tables import memories, memory_embeddings, memory_mutation_log
from app.store.schema.tables import project_state

m = memories.c

# The host's mutation types (its CHECK on memory_mutation_log.mutation_type).
UPDATE = "update"
ARCHIVE = "archive"
SUPERSEDED = "superseded"
DELETE = "delete"


def present_columns(conn: Connection) -> frozenset[str]:
    """The `memories` columns this file has (older hosts lack the later ones)."""
    return frozenset(column["name"] for column in inspect(conn).get_columns(memories.name))


def project_path_of(memory_id: int) -> ScalarSelect[object]:
    return select(m.project_path).where(m.id == memory_id).scalar_subquery()


def log_mutation(
    conn: Connection,
    memory_id: int,
    mutation_type: str,
    now: int,
    *,
    superseded_by: int | None = None,
    with_content: bool = False,
) -> None:
    """One `memory_mutation_log` row about the memory as it stands now: its project and category, and
    its content when `with_content` (an update's new text, so call it after the UPDATE)."""
    log = memory_mutation_log.c
    source = select(
        m.project_path,
        literal(mutation_type),
        m.id,
        literal(superseded_by, type_=log.superseded_by_id.type),
        m.category,
        m.content if with_content else literal(None, type_=log.new_content.type),
        literal(now, type_=log.queued_at.type),
    ).where(m.id == memory_id)
    columns = [
        "project_path",
        "mutation_type",
        "target_memory_id",
        "superseded_by_id",
        "category",
        "new_content",
    ]
    conn.execute(insert(memory_mutation_log).from_select([*columns, "queued_at"], source))


def bump_epoch(conn: Connection, memory_id: int, now: int) -> None:
    """The memory's project's `project_memory_epoch` moves by one (its row made if it has none), so the
    host stops serving what it rendered before. Update first, insert when no row moved, as
    `revision_log.bump_profile_version` does: the same on every dialect."""
    state = project_state.c
    path = project_path_of(memory_id)
    moved = conn.execute(
        update(project_state)
        .where(state.project_path == path)
        .values(project_memory_epoch=state.project_memory_epoch + 1, updated_at=now)
    )
    if moved.rowcount == 0:
        source = select(m.project_path, literal(1), literal(0), literal(now, type_=state.updated_at.type))
        columns = ["project_path", "project_memory_epoch", "project_user_profile_version", "updated_at"]
        conn.execute(insert(project_state).from_select(columns, source.where(m.id == memory_id)))


def drop_embeddings(conn: Connection, memory_id: int) -> None:
    """The memory's embeddings, stale once its text changed (the host's backfill makes new ones)."""
    conn.execute(delete(memory_embeddings).where(memory_embeddings.c.memory_id == memory_id))
