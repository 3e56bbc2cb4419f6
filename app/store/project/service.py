"""`ProjectMemories`: the store's service for the host's project memories (its `memories` table), as
`store.project`: the projects to pick from, a project's memories by filter, one memory with its links
both ways, and what the host injects for a project now.

Reads only; the writes are commands (`app.commands`) over `app.store.project.writes`, and the history,
blame and as-of come from the store's history service with the project kind. A file without the host's
`memories` table (an older host, the embedded store) has no projects: every read answers empty.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import Connection, inspect

from app.core.models.links import Link
from app.store.database import Database
from app.store.links import links_of as own_links_of
from app.store.project import links as host_links
from app.store.project.injection import injected
from app.store.project.model import ProjectMemory, project_memory
from app.store.project.projects import Project, list_projects
from app.store.project.reads import (
    ProjectKey,
    fetch_memories,
    fetch_memory,
    project_is,
    select_memories,
)
from app.store.project.tables import memories

PROJECT_KIND = "project"  # the kind's name, in our own tables (`mdash_links.memory_kind`)
m = memories.c


@dataclass(frozen=True, slots=True)
class ProjectFilter:
    """A listing's filter: `None` means any. `search` matches words of the content, case-insensitively."""

    project: ProjectKey | None = None
    category: str | None = None
    status: str | None = None
    search: str | None = None


@dataclass(frozen=True, slots=True)
class ProjectMemoryLinks:
    """One memory with its links: the host's own (supersession, `merged_from`) and ours (`mdash_links`)."""

    memory: ProjectMemory
    host: host_links.Links
    own: tuple[Link, ...]


def has_project_table(conn: Connection) -> bool:
    return inspect(conn).has_table(memories.name)


class ProjectMemories:
    def __init__(self, db: Database) -> None:
        self._db = db

    def projects(self) -> list[Project]:
        with self._db.read() as conn:
            return list_projects(conn) if has_project_table(conn) else []

    def memories(self, wanted: ProjectFilter = ProjectFilter()) -> list[ProjectMemory]:
        """The memories `wanted` selects, by project (its path), then id."""
        with self._db.read() as conn:
            if not has_project_table(conn):
                return []
            query = select_memories()
            if wanted.project is not None:
                query = query.where(project_is(wanted.project))
            if wanted.category is not None:
                query = query.where(m.category == wanted.category)
            if wanted.status is not None:
                query = query.where(m.status == wanted.status)
            rows = [project_memory(row) for row in conn.execute(query.order_by(m.project_path, m.id))]
        if wanted.search:
            words = wanted.search.casefold().split()
            rows = [row for row in rows if all(word in row.content.casefold() for word in words)]
        return rows

    def memory(self, memory_id: int) -> ProjectMemory | None:
        with self._db.read() as conn:
            return fetch_memory(conn, memory_id) if has_project_table(conn) else None

    def many(self, memory_ids: Sequence[int]) -> dict[int, ProjectMemory]:
        """The memories among `memory_ids` that exist, by id."""
        with self._db.read() as conn:
            return fetch_memories(conn, memory_ids) if has_project_table(conn) else {}

    def with_links(self, memory_id: int) -> ProjectMemoryLinks | None:
        """One memory and its links both ways (chains followed to the end, loops and dangling ids said)."""
        with self._db.read() as conn:
            if not has_project_table(conn):
                return None
            memory = fetch_memory(conn, memory_id)
            if memory is None:
                return None
            own = own_links_of(conn, PROJECT_KIND, [memory_id]).get(memory_id, [])
            return ProjectMemoryLinks(memory, host_links.links_of(conn, memory), tuple(own))

    def injected(self, project: ProjectKey, at: int | None = None) -> list[ProjectMemory]:
        """What the host injects for `project` at `at` (now if None), in its order, by its rule."""
        with self._db.read() as conn:
            if not has_project_table(conn):
                return []
            return injected(conn, project, self._db.now() if at is None else at)

    def find_project(self, name: str) -> Sequence[Project]:
        """The projects `name` names: an identity exactly, else a display name (case-insensitive)."""
        projects = self.projects()
        exact = [item for item in projects if item.identity == name]
        if exact:
            return exact
        return [item for item in projects if item.display_name.casefold() == name.casefold()]
