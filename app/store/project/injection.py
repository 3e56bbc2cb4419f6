"""What the host injects for a project at an instant, by its own rule (storage-memory.ts,
getMemoriesByProject): `status IN ('active','permanent') AND (expires_at IS NULL OR expires_at > now)`,
ordered by category, then `updated_at` descending, then id.

The same SQL runs here, so an odd row is selected (or not) exactly as the host's query selects it;
categories compare as bytes, as SQLite's BINARY collation does (`COLLATE "C"` on PostgreSQL).
"""

from __future__ import annotations

from sqlalchemy import Connection, or_

from app.store.project.model import INJECTED_STATUSES, ProjectMemory, project_memory
from app.store.project.reads import ProjectKey, project_is, select_memories
from app.store.project.tables import memories

m = memories.c


def injected(conn: Connection, key: ProjectKey, now: int) -> list[ProjectMemory]:
    """The project's memories the host would inject at `now` (epoch ms), in its order."""
    category = m.category if conn.dialect.name == "sqlite" else m.category.collate("C")
    statement = (
        select_memories()
        .where(
            project_is(key),
            m.status.in_(INJECTED_STATUSES),
            or_(m.expires_at.is_(None), m.expires_at > now),
        )
        .order_by(category, m.updated_at.desc(), m.id)
    )
    return [project_memory(row) for row in conn.execute(statement)]
