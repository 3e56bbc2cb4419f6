"""The projects a person can pick: every `project_path` identity that has memories, with a name to show.

The host keys a project by an identity (`git:<root commit>`, `dir:<path>`, or a plain path on older
rows). The name shown is the one the host itself shows where it has one (`workspace_members.
display_name`), else the last part of a path-like identity, else the identity; `session_projects` says
how many of the host's sessions worked in it. A path that is not valid UTF-8 keeps its raw bytes as its
key (`reads.ProjectKey`) and is shown with U+FFFD, marked.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import Connection, LargeBinary, cast, func, select

from app.store.project.authority import managed_projects
from app.store.project.reads import ProjectKey
from app.store.project.tables import memories, session_projects, workspace_members
from app.store.read.host_cells import text_note, text_value

m = memories.c
PATH_PREFIXES = ("dir:", "path:")  # identities that end in a folder's path


@dataclass(frozen=True, slots=True)
class Project:
    key: ProjectKey  # what selects its memories (`reads.project_is`)
    identity: str  # the identity as text (U+FFFD for bytes that are not UTF-8)
    display_name: str
    memory_count: int
    session_count: int
    read_only_reason: str | None = None  # the host's native module owns it (`authority`)
    oddity: str | None = None


def display_name(identity: str, named: Mapping[str, str]) -> str:
    """The host's own name for the project, else the last part of its path, else the identity."""
    if identity in named:
        return named[identity]
    path = identity
    for prefix in PATH_PREFIXES:
        if identity.startswith(prefix):
            path = identity[len(prefix) :]
    if "/" in path or "\\" in path:
        last = path.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1]
        return last or identity
    return identity


def _counts(conn: Connection, key: Any) -> dict[object, int]:
    rows = conn.execute(select(key, func.count()).group_by(key))
    return {row[0]: int(row[1]) for row in rows}


def list_projects(conn: Connection) -> list[Project]:
    """Every project that has memories, by display name (then identity)."""
    on_sqlite = conn.dialect.name == "sqlite"
    raw = cast(m.project_path, LargeBinary) if on_sqlite else m.project_path
    counts = conn.execute(select(m.project_path, raw, func.count()).group_by(m.project_path)).all()
    sessions = _counts(conn, session_projects.c.project_path)
    named = {
        text_value(row[0]): text_value(row[1])
        for row in conn.execute(select(workspace_members.c.project_path, workspace_members.c.display_name))
    }
    owned = managed_projects(conn)
    found: dict[ProjectKey, Project] = {}
    for path, raw_bytes, count in counts:
        plain = type(path) is str
        identity = text_value(path)
        key: ProjectKey = path if plain else bytes(raw_bytes)
        note = None if plain else text_note("project_path", path)
        if key in found:  # text that is not UTF-8 and a blob of the same bytes: one project (`project_is`)
            found[key] = replace(found[key], memory_count=found[key].memory_count + int(count))
            continue
        found[key] = Project(
            key=key,
            identity=identity,
            display_name=display_name(identity, named) if plain else identity,
            memory_count=int(count),
            session_count=sessions.get(path, 0) if plain else 0,
            read_only_reason=owned.get(path) if plain else None,
            oddity=note,
        )
    return sorted(found.values(), key=lambda project: (project.display_name.casefold(), project.identity))
