"""The past of project memories: each one's revisions, its blame, and a project as of an instant, over the
project revision log (`app.store.project.revisions`) with the user memories' machinery where both need
the same (`blame.build_blame`, `as_of.known_at`, `as_of.recorded_first_seen`).

As of an instant T, a project shows what the host would have injected then. A memory's state at T is
its row now with every change after T undone: the first revision after T holds the row before it
(`previous_row`, with `previous_content` and `previous_status`); a memory without a revision after T is
as it is now. A memory first created after T (its first revision after T creates it, or the host's
`created_at` is after T while nothing was recorded of it by then) is absent, and so is one deleted at
or before T. A memory the dashboard first saw after T, with no revision at or before T, has an unknown
state then: it is listed as unknown, never guessed. The host's rule and order then pick what it
injected: `status IN ('active','permanent')`, `expires_at` null or after T, ordered by category, then
`updated_at` descending, then id.

Blame's evidence of a project revision is none: the host's rows name one source session, shown with the
memory, not candidates per revision.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, bindparam, inspect, select

from app.core.models import Revision, RevisionKind
from app.core.models.blame import Blame
from app.core.text_input import tolerant_json_loads
from app.store.past import as_of as as_of_read
from app.store.past import blame as blame_read
from app.store.project import revisions as project_log
from app.store.project.model import ProjectMemory
from app.store.project.reads import CHUNK, ProjectKey, fetch_memory, fetch_project
from app.store.project.tables import memories
from app.store.read.host_cells import text_value
from app.store.schema.tables import project_revisions, project_seen

r = project_revisions.c


@dataclass(frozen=True, slots=True)
class ProjectMemoryAsOf:
    """One project memory at `at`: as it was then (`memory`), or unknown then (`memory` None, `known`
    False: the dashboard first saw it at `unknown_before`)."""

    memory_id: int
    at: int
    known: bool
    memory: ProjectMemory | None
    exists_now: bool
    unknown_before: int | None = None

    @property
    def injected(self) -> bool:
        return self.memory is not None and self.memory.injectable_at(self.at)

    def to_json(self) -> dict[str, Any]:
        # An unknown state has every field of a memory, each null: the same shape, nothing guessed.
        fields = _UNKNOWN if self.memory is None else memory_fields(self.memory)
        return {
            **fields,
            "id": self.memory_id,
            "as_of": self.at,
            "known": self.known,
            "injected": self.injected,
            "exists_now": self.exists_now,
            "unknown_before": self.unknown_before,
        }


def memory_fields(memory: ProjectMemory) -> dict[str, Any]:
    """A project memory's fields as JSON (its oddities as a list)."""
    fields = dataclasses.asdict(memory)
    fields["oddities"] = list(memory.oddities)
    return fields


def has_log(conn: Connection) -> bool:
    """Whether the project revision log and seen copy exist (an older store's tables may not have them)."""
    found = inspect(conn)
    return found.has_table(project_revisions.name) and found.has_table(project_seen.name)


def has_memories(conn: Connection) -> bool:
    """Whether the file has the host's `memories` table (an older host, the embedded store: no)."""
    return inspect(conn).has_table(memories.name)


_UNKNOWN: dict[str, Any] = {field.name: None for field in dataclasses.fields(ProjectMemory)}


def history(conn: Connection, memory_id: int) -> list[Revision]:
    """A project memory's revisions, oldest first."""
    return project_log.fetch_history(conn, memory_id)


def blame(conn: Connection, memory_id: int, revisions: Sequence[Revision], logged: bool) -> Blame | None:
    """Each sentence (or line) of a project memory with the revision that wrote it (None: no such memory,
    now or in the log; `logged`: whether the log exists)."""
    current = fetch_memory(conn, memory_id) if has_memories(conn) else None
    if current is None and not revisions:
        return None
    first_seen = (
        as_of_read.recorded_first_seen(conn, memory_id, project_seen, project_revisions) if logged else None
    )
    text = None if current is None else current.content
    return blame_read.build_blame(memory_id, revisions, text, first_seen, {})


@dataclass(frozen=True, slots=True)
class _Logged:
    """One revision, as the as-of needs it."""

    memory_id: int
    changed_at: int
    kind: str
    previous_row: dict[str, Any] | None
    previous_content: str | None
    previous_status: str | None
    detail: str | None


# One seek of the index by project (its order too: no sort), whatever the size of the whole log.
LOGGED_BY_PROJECT = (
    select(r.memory_id, r.changed_at, r.kind, r.previous_row, r.previous_content, r.previous_status, r.detail)
    .where(r.project_path == bindparam("b_path"))
    .order_by(r.memory_id, r.changed_at, r.id)
)


def _logged(conn: Connection, key: ProjectKey) -> dict[int, list[_Logged]]:
    """The project's revisions by memory, oldest first (deleted memories' too: the log keeps the path)."""
    path = key if isinstance(key, str) else text_value(key)
    found: dict[int, list[_Logged]] = {}
    for memory_id, changed_at, kind, row, content, status, detail in conn.execute(
        LOGGED_BY_PROJECT, {"b_path": path}
    ):
        parsed = tolerant_json_loads(row) if isinstance(row, str) else None
        found.setdefault(int(memory_id), []).append(
            _Logged(
                int(memory_id),
                int(changed_at),
                str(kind),
                parsed if isinstance(parsed, dict) else None,
                None if content is None else text_value(content),
                None if status is None else text_value(status),
                detail if isinstance(detail, str) else None,
            )
        )
    return found


def _first_seen(conn: Connection, ids: Iterable[int]) -> dict[int, int]:
    wanted = list(ids)
    found: dict[int, int] = {}
    for start in range(0, len(wanted), CHUNK):
        part = wanted[start : start + CHUNK]
        query = select(project_seen.c.memory_id, project_seen.c.first_seen_at).where(
            project_seen.c.memory_id.in_(part)
        )
        found.update((int(mid), int(at)) for mid, at in conn.execute(query) if type(at) is int)
    return found


_ROW_FIELDS = frozenset(project_log.TRACKED)


def _undone(now: ProjectMemory | None, memory_id: int, change: _Logged) -> ProjectMemory | None:
    """The memory as it was before `change` (None: nothing to rebuild it from)."""
    values: dict[str, Any] = {}
    if change.previous_row is not None:
        values = {key: value for key, value in change.previous_row.items() if key in _ROW_FIELDS}
    if change.previous_content is not None:
        values["content"] = change.previous_content
    if change.previous_status is not None:
        values["status"] = change.previous_status
    if now is None:
        if "content" not in values:
            return None
        return _from_values(memory_id, values)
    try:
        return dataclasses.replace(now, **values)
    except TypeError:
        return None


def _from_values(memory_id: int, values: dict[str, Any]) -> ProjectMemory:
    """A deleted memory rebuilt from what its delete revision kept (other fields empty)."""
    return ProjectMemory(
        id=memory_id,
        project_path="",
        category=str(values.get("category") or ""),
        content=str(values["content"]),
        normalized_hash="",
        importance=values.get("importance"),
        scope=str(values.get("scope") or ""),
        shareable=bool(values.get("shareable")),
        source_session_id=None,
        source_type=None,
        seen_count=None,
        retrieval_count=None,
        first_seen_at=0,
        created_at=0,
        updated_at=int(values.get("updated_at") or 0),
        last_seen_at=0,
        last_retrieved_at=None,
        status=str(values.get("status") or ""),
        expires_at=values.get("expires_at"),
        verification_status=values.get("verification_status"),
        verified_at=None,
        classified_at=None,
        superseded_by=values.get("superseded_by"),
        merged_from=values.get("merged_from"),
        metadata_json=values.get("metadata_json"),
    )


def _state(
    memory_id: int,
    now_row: ProjectMemory | None,
    logged: Sequence[_Logged],
    first_seen: int | None,
    at: int,
    now: int,
) -> ProjectMemoryAsOf | None:
    """One memory at `at` (None: it did not exist then)."""
    after = next((change for change in logged if change.changed_at > at), None)
    last_at = max((change.changed_at for change in logged if change.changed_at <= at), default=None)
    deleted = next((c.detail for c in logged if c.kind == RevisionKind.DELETE), None)
    first_seen = as_of_read.first_seen_of(first_seen, deleted)
    if after is not None and after.kind == RevisionKind.CREATE:
        return None  # created after `at`
    if after is None and now_row is None:
        return None  # deleted at or before `at`
    exists = now_row is not None
    if not as_of_read.known_at(at, now, first_seen, last_at):
        if now_row is not None and now_row.created_at > at:
            return None  # the host created it after `at`
        return ProjectMemoryAsOf(memory_id, at, False, None, exists, first_seen)
    state = now_row if after is None else _undone(now_row, memory_id, after)
    if state is None:
        return ProjectMemoryAsOf(memory_id, at, False, None, exists, first_seen)
    return ProjectMemoryAsOf(memory_id, at, True, state, exists)


def _host_order(state: ProjectMemoryAsOf) -> tuple[str, int, int]:
    assert state.memory is not None
    return (state.memory.category, -state.memory.updated_at, state.memory_id)


def project_as_of(
    conn: Connection, key: ProjectKey, at: int, now: int, logged: bool
) -> list[ProjectMemoryAsOf]:
    """What the host would have injected for the project at `at`, in its order, then the memories whose
    state then is unknown, by id. `at` after `now` is now; `logged`: whether the log exists (without
    it, only now is known)."""
    at = min(at, now)
    current = {memory.id: memory for memory in fetch_project(conn, key)}
    changes = _logged(conn, key) if logged else {}
    ids = sorted(set(current) | set(changes))
    seen_at = _first_seen(conn, ids) if logged else {}
    states = [
        found
        for memory_id in ids
        if (
            found := _state(
                memory_id, current.get(memory_id), changes.get(memory_id, ()), seen_at.get(memory_id), at, now
            )
        )
        is not None
    ]
    injected = sorted((state for state in states if state.known and state.injected), key=_host_order)
    return injected + [state for state in states if not state.known]
