"""The export file's project-memory section: every row of the host's `memories` table as the app reads it
(`ProjectMemory`), in the shape `app.transfer.project_format` documents and reads back.

Rows are read project by project (`projects.list_projects`), so a path that is not UTF-8 is found by its
raw bytes and carried as `project_path_hex` beside its text; a row the reader marked keeps its notes as
`oddities`. A database without the table (the embedded store, an older host) exports none.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, inspect

from app.store.project.model import PROJECT_COLUMNS, ProjectMemory
from app.store.project.projects import list_projects
from app.store.project.reads import fetch_project
from app.store.project.tables import memories

# The fields exported, each under its column's name: every column the app reads but the host's own
# derived ones (`normalized_hash`, computed again on import; `classified_at`), and `superseded_by`, which
# is exported apart as `superseded_by_memory_id` (an id to renumber).
NOT_EXPORTED = ("normalized_hash", "classified_at", "superseded_by_memory_id")
EXPORTED_FIELDS = tuple(name for name in PROJECT_COLUMNS if name not in NOT_EXPORTED)


def project_memory_json(memory: ProjectMemory, raw_path: bytes | None = None) -> dict[str, Any]:
    item: dict[str, Any] = {name: getattr(memory, name) for name in EXPORTED_FIELDS}
    item["superseded_by_memory_id"] = memory.superseded_by
    if raw_path is not None:
        item["project_path_hex"] = raw_path.hex()
    if memory.oddities:
        item["oddities"] = list(memory.oddities)
    return item


def exported_project_memories(conn: Connection) -> list[dict[str, Any]]:
    """Every project memory of the database, in id order (none when it has no `memories` table)."""
    if memories.name not in inspect(conn).get_table_names():
        return []
    items: list[dict[str, Any]] = []
    for project in list_projects(conn):
        raw = project.key if isinstance(project.key, bytes) else None
        items += [project_memory_json(memory, raw) for memory in fetch_project(conn, project.key)]
    return sorted(items, key=lambda item: int(item["id"]))
