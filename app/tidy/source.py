"""The memories the tidy finder looks at, read through the store: the active ones, as the agent sees
them (a dismissed or archived memory costs no tokens and contradicts nothing the agent reads).

User memories come as one list; project memories (the host's `memories` table) as one scope per
project and category (`app.tidy.scoped`), for one project or for every one.
"""

from __future__ import annotations

from sqlalchemy import Connection, inspect

from app.core.models.filters import MemoryFilter
from app.store import MemoryStore
from app.store.project.model import INJECTED_STATUSES, ProjectMemory
from app.store.project.projects import Project, list_projects
from app.store.project.reads import fetch_project
from app.store.project.tables import memories
from app.tidy.model import TidyItem
from app.tidy.scoped import Scope


class UnknownProject(LookupError):
    """No project has that identity or display name, or more than one has that name."""


def active_items(store: MemoryStore) -> list[TidyItem]:
    """Every active memory as a `TidyItem` (id, content, sources, promotion time), in listing order."""
    memories = store.list_memories(MemoryFilter(status="active"))
    return [TidyItem(memory.id, memory.content, memory.sources, memory.promoted_at) for memory in memories]


def pick_project(projects: list[Project], wanted: str) -> Project:
    """The project whose identity (`git:…`, `dir:…`, a path) or display name is `wanted`."""
    by_identity = [project for project in projects if project.identity == wanted]
    if by_identity:
        return by_identity[0]
    named = [project for project in projects if project.display_name == wanted]
    if len(named) == 1:
        return named[0]
    if named:
        identities = ", ".join(project.identity for project in named)
        raise UnknownProject(f"more than one project is called {wanted!r}: {identities}; name its identity")
    raise UnknownProject(f"no project with memories is called {wanted!r}")


def _item(memory: ProjectMemory) -> TidyItem:
    source = (f"session:{memory.source_session_id}",) if memory.source_session_id else ()
    return TidyItem(memory.id, memory.content, source, memory.created_at)


def _projects(conn: Connection) -> list[Project]:
    """The projects with memories; none in a file of a host too old to keep project memories."""
    return list_projects(conn) if inspect(conn).has_table(memories.name) else []


def project_names(store: MemoryStore) -> list[tuple[str, str]]:
    """Every project with memories as (display name, identity), by display name."""
    with store.read_snapshot() as conn:
        return [(project.display_name, project.identity) for project in _projects(conn)]


def project_scopes(store: MemoryStore, project: str | None = None) -> list[Scope]:
    """The active (or permanent) project memories, one scope per project and category, projects by
    display name; only the project `project` names when given (`UnknownProject` if none)."""
    with store.read_snapshot() as conn:
        projects = _projects(conn)
        if project is not None:
            projects = [pick_project(projects, project)]
        scopes = []
        for chosen in projects:
            by_category: dict[str, list[TidyItem]] = {}
            for memory in fetch_project(conn, chosen.key):
                if memory.status in INJECTED_STATUSES:
                    by_category.setdefault(memory.category, []).append(_item(memory))
            scopes += [
                Scope(chosen.identity, chosen.display_name, category, tuple(items))
                for category, items in sorted(by_category.items())
            ]
    return scopes
