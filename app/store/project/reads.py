"""Reading project memories: the one SELECT of `PROJECT_COLUMNS`, by id or by project.

A project is named by its `ProjectKey`: the `project_path` text as stored, or, for a path that is not
valid UTF-8 (or a blob) in a SQLite file, its raw bytes, matched as `CAST(project_path AS BLOB)` so that
such a project can still be opened (PostgreSQL text is always UTF-8, so there a key is always text).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import ColumnElement, Connection, LargeBinary, Select, and_, cast, func, select

from app.store.project.model import PROJECT_COLUMNS, ProjectMemory, project_memory
from app.store.project.tables import memories

ProjectKey = str | bytes

m = memories.c
CHUNK = 500  # ids per IN list: far below every engine's limit on parameters


def select_memories() -> Select[Any]:
    return select(*(m[name] for name in PROJECT_COLUMNS))


def project_is(key: ProjectKey) -> ColumnElement[bool]:
    """`memories.project_path` is the project `key` names."""
    if isinstance(key, bytes):
        same_bytes = cast(m.project_path, LargeBinary) == key
        try:
            key.decode("utf-8")
        except UnicodeDecodeError:
            return same_bytes  # text that is not UTF-8 and a blob of the same bytes read alike
        # Bytes that are UTF-8 name a blob: a text cell of the same bytes reads as text, a project of its own.
        return and_(same_bytes, func.typeof(m.project_path) == "blob")
    return m.project_path == key


def fetch_memory(conn: Connection, memory_id: int) -> ProjectMemory | None:
    row = conn.execute(select_memories().where(m.id == memory_id)).first()
    return None if row is None else project_memory(row)


def fetch_memories(conn: Connection, memory_ids: Iterable[int]) -> dict[int, ProjectMemory]:
    """The memories among `memory_ids` that exist, by id."""
    wanted = sorted(set(memory_ids))
    found: dict[int, ProjectMemory] = {}
    for start in range(0, len(wanted), CHUNK):
        chunk = wanted[start : start + CHUNK]
        for row in conn.execute(select_memories().where(m.id.in_(chunk))):
            memory = project_memory(row)
            found[memory.id] = memory
    return found


def fetch_project(conn: Connection, key: ProjectKey) -> list[ProjectMemory]:
    """Every memory of one project, in id order."""
    rows = conn.execute(select_memories().where(project_is(key)).order_by(m.id))
    return [project_memory(row) for row in rows]
