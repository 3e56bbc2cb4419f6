"""`hub publish`'s project memories: this machine's rows of the host's `memories` table into the hub's
`hub_project_memories`, project by project (`--project P`: that one only), keyed by (machine, id).

Each project is one hub transaction: its rows are sent whole with `COPY` and merged (a row rewritten only
when it differs, so publishing twice changes nothing), and the hub's rows of that project this machine no
longer holds leave it. Publishing every project also takes out the rows of projects this machine no
longer has. A row goes as the app reads it (`app.store.project.model.project_memory`), whatever the host's
cells held: the fields of the export's project section (`app.store.project.exporting`), text cells with
NUL (which PostgreSQL's text cannot hold) as U+FFFD, a project path that is not UTF-8 with its raw bytes
in `project_path_hex`, and what the reader found odd in `oddities`. A store without the host's `memories`
table (the embedded store, an older host) holds no project memories.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import psycopg
from sqlalchemy import Connection

from app.core.errors import InvalidInputError, NotFoundError
from app.core.hub_layout import PROJECT_MEMORIES
from app.hub.local import clean
from app.hub.upsert import Row, copy_rows, merge_statement
from app.present.card import shown_word
from app.store.project.exporting import project_memory_json
from app.store.project.model import PROJECT_COLUMNS as COLUMNS
from app.store.project.model import ProjectMemory
from app.store.project.projects import Project, list_projects
from app.store.project.reads import fetch_project
from app.store.project.service import has_project_table
from app.store.store import MemoryStore

# The hub's columns (but `publisher` and `machine`), each under the export's name for the field.
PROJECT_COLUMNS = (
    "memory_id",
    "project_path",
    "project_path_hex",
    *(name for name in COLUMNS[2:] if name not in ("normalized_hash", "classified_at")),
    "oddities",
)
_TYPES = {
    "memory_id": "bigint",
    "importance": "bigint",
    "shareable": "boolean",
    "seen_count": "bigint",
    "retrieval_count": "bigint",
    "superseded_by_memory_id": "bigint",
}
INCOMING = "pg_temp.hub_incoming_project_memories"
_INCOMING_TABLE = (
    f"CREATE TEMP TABLE IF NOT EXISTS {INCOMING} ("
    + ", ".join(
        f"{name} {_TYPES.get(name, 'bigint' if name.endswith('_at') else 'text')}" for name in PROJECT_COLUMNS
    )
    + ") ON COMMIT DELETE ROWS"
)
MERGE = merge_statement(PROJECT_MEMORIES, INCOMING, PROJECT_COLUMNS, ("memory_id",), update=True)
# The project's rows this batch does not hold (the batch, in the temporary table, is the whole project).
_REMOVE_GONE_OF_PROJECT = (
    f"DELETE FROM {PROJECT_MEMORIES} h WHERE h.machine = %(machine)s AND h.project_path = %(path)s"
    " AND h.project_path_hex IS NOT DISTINCT FROM %(hex)s"
    f" AND NOT EXISTS (SELECT 1 FROM {INCOMING} i WHERE i.memory_id = h.memory_id)"
)
_REMOVE_GONE = (
    f"DELETE FROM {PROJECT_MEMORIES} h WHERE h.machine = %s"
    " AND NOT EXISTS (SELECT 1 FROM unnest(%s::bigint[]) AS k(id) WHERE k.id = h.memory_id)"
)


@dataclass(slots=True)
class ProjectsSent:
    """What a publish did with project memories."""

    projects: int = 0  # projects published
    memories: int = 0  # project memory rows added or changed in the hub
    removed: int = 0  # project memories this machine no longer holds, taken out of the hub


def _hub_value(value: object) -> object:
    return clean(value) if isinstance(value, str) else value


def project_row(memory: ProjectMemory, raw_path: bytes | None = None) -> Row:
    """A project memory as the hub keeps it (`PROJECT_COLUMNS` order)."""
    item: dict[str, Any] = project_memory_json(memory, raw_path)
    item["memory_id"] = item.pop("id")
    item["oddities"] = "; ".join(memory.oddities) if memory.oddities else None
    return tuple(_hub_value(item.get(name)) for name in PROJECT_COLUMNS)


def choose_project(store: MemoryStore, name: str) -> Project:
    """The one local project `name` names (its identity, else its display name); a message otherwise."""
    found = store.project.find_project(name)
    if not found:
        raise NotFoundError(f"this machine has no project {shown_word(name)}; nothing was published")
    if len(found) > 1:
        shown = ", ".join(shown_word(project.identity) for project in found)
        raise InvalidInputError(
            f"{shown_word(name)} names {len(found)} projects ({shown}): name one by its identity;"
            " nothing was published"
        )
    return found[0]


def _send_project(
    hub: psycopg.Connection[Any], machine: str, project: Project, rows: Sequence[Row]
) -> tuple[int, int]:
    """One project's rows merged, and its rows gone here taken out, in one transaction: (rows added or
    changed, rows taken out)."""
    raw = project.key if isinstance(project.key, bytes) else None
    with hub.transaction():
        copy_rows(hub, INCOMING, PROJECT_COLUMNS, rows)
        changed = hub.execute(MERGE, {"machine": machine}).rowcount
        gone = hub.execute(
            _REMOVE_GONE_OF_PROJECT,
            {"machine": machine, "path": clean(project.identity), "hex": None if raw is None else raw.hex()},
        ).rowcount
    return max(changed, 0), max(gone, 0)


def send_projects(
    hub: psycopg.Connection[Any], conn: Connection, machine: str, only: Project | None = None
) -> ProjectsSent:
    """This machine's project memories into the hub from the snapshot `conn`: the project `only`, or
    every project (and the rows of projects gone here taken out)."""
    sent = ProjectsSent()
    hub.execute(_INCOMING_TABLE)
    hub.commit()
    present = has_project_table(conn)
    projects = [only] if only is not None else (list_projects(conn) if present else [])
    held: list[int] = []
    for project in projects:
        raw = project.key if isinstance(project.key, bytes) else None
        rows = [project_row(memory, raw) for memory in fetch_project(conn, project.key)] if present else []
        held += [int(row[0]) for row in rows]
        changed, gone = _send_project(hub, machine, project, rows)
        sent.memories += changed
        sent.removed += gone
        sent.projects += 1
    if only is None:
        with hub.transaction():
            sent.removed += max(hub.execute(_REMOVE_GONE, (machine, held)).rowcount, 0)
    return sent
