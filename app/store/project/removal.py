"""Taking project memories out of the host's `memories` table and putting them back, the host's way
(storage-memory.ts), on the caller's connection inside the caller's write transaction: what the undo and
the redo of an import do to the project memories it brought in.

- `delete`: per memory, a `delete` row in `memory_mutation_log` (written while the row is there: it
  copies the project and category from it), the memory's `memory_embeddings` and `memory_verifications`
  rows (the host's foreign keys cascade them; no connection of ours turns SQLite's on), then the row;
  each project's `project_memory_epoch` bumped once, so the host renders it afresh.
- `reinsert`: the rows as `row_cells` read them, with their ids; no mutation log row (the host writes
  none for an insert: its log's CHECK has no such type), each project's epoch bumped once, and on
  PostgreSQL the identity moved past the ids given back.

Both refuse per memory, before their first statement, and say why in one sentence each (`Outcome`): a
memory of a project the host's native module owns (its guard triggers would abort the statement), one
already gone, an id the host has used again since, a text its project already holds in that category
(the table's UNIQUE would abort the insert). The others are written.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from sqlalchemy import Connection, insert, inspect, select
from sqlalchemy import delete as delete_rows

from app.core.incoming_checks import quoted
from app.store.connect.server import is_server
from app.store.project import write_steps
from app.store.project.authority import managed_projects, read_only_reason
from app.store.project.hashing import normalized_hash
from app.store.project.model import ProjectMemory
from app.store.project.reads import fetch_memories
from app.store.project.tables import memories, memory_verifications
from app.store.read.reads import chunks
from app.store.write.importer import move_identity

m = memories.c
Cell = int | str | None
Row = Mapping[str, Cell]


@dataclass
class Outcome:
    """What a `delete` or `reinsert` did: the memories written (before a delete, after an insert) and a
    sentence for each one it left as it was."""

    written: list[ProjectMemory] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)


def row_cells(conn: Connection, memory_ids: Sequence[int]) -> dict[int, dict[str, Cell]]:
    """The rows of `memory_ids`, every column this file has, by id: what `reinsert` puts back. Only
    numbers and text are kept (a cell of another kind is left to the column's default)."""
    if not memory_ids:
        return {}  # a file may have no `memories` table at all
    present = write_steps.present_columns(conn)
    columns = [column for column in memories.c if column.name in present]
    found: dict[int, dict[str, Cell]] = {}
    for part in chunks(sorted(set(memory_ids))):
        for row in conn.execute(select(*columns).where(m.id.in_(part))):
            cells = row._asdict()
            found[int(cells["id"])] = {
                name: value for name, value in cells.items() if value is None or type(value) in (int, str)
            }
    return found


def _bump_each_project(conn: Connection, memory_ids: Sequence[int], now: int) -> None:
    """One epoch bump per project among `memory_ids` (their rows must be there)."""
    first: dict[object, int] = {}
    for part in chunks(memory_ids):
        for memory_id, path in conn.execute(select(m.id, m.project_path).where(m.id.in_(part))):
            first.setdefault(path, int(memory_id))
    for memory_id in first.values():
        write_steps.bump_epoch(conn, memory_id, now)


def delete(conn: Connection, memory_ids: Sequence[int], now: int) -> Outcome:
    """The memories of `memory_ids` deleted as the host deletes one (see the module docstring)."""
    outcome = Outcome()
    found = fetch_memories(conn, memory_ids)
    for memory_id in dict.fromkeys(memory_ids):
        memory = found.get(memory_id)
        if memory is None:
            outcome.refused.append(f"project memory #{memory_id} is gone already: nothing to delete")
            continue
        reason = read_only_reason(conn, memory_id)
        if reason is not None:
            outcome.refused.append(f"project memory #{memory_id} is read-only: {reason}; left as it is")
        else:
            outcome.written.append(memory)
    ids = [memory.id for memory in outcome.written]
    _bump_each_project(conn, ids, now)
    verifications = memory_verifications.name in inspect(conn).get_table_names()
    for memory_id in ids:
        write_steps.log_mutation(conn, memory_id, write_steps.DELETE, now)
        write_steps.drop_embeddings(conn, memory_id)
        if verifications:
            conn.execute(
                delete_rows(memory_verifications).where(memory_verifications.c.memory_id == memory_id)
            )
        conn.execute(delete_rows(memories).where(m.id == memory_id))
    return outcome


def _reinsert_problem(conn: Connection, memory_id: int, row: Row, owned: Mapping[object, str]) -> str | None:
    """Why `row` cannot come back here, or None."""
    path, category, content = row.get("project_path"), row.get("category"), row.get("content")
    if path in owned:
        return f"is of project {quoted(str(path), 200)}, read-only here: {owned[path]}"
    if conn.execute(select(m.id).where(m.id == memory_id)).first() is not None:
        return "has its id taken by another memory since"
    if not isinstance(content, str):
        return "has no text to come back with"
    same = select(m.id).where(
        m.project_path == path, m.category == category, m.normalized_hash == normalized_hash(content)
    )
    existing = conn.execute(same.limit(1)).scalar()
    if existing is not None:
        return f"has its text in its project and category again since, as #{existing}"
    return None


def reinsert(conn: Connection, rows: Mapping[int, Row], now: int) -> Outcome:
    """The rows put back, each with its id (the key; see the module docstring)."""
    outcome = Outcome()
    present = write_steps.present_columns(conn)
    owned = managed_projects(conn)
    ids: list[int] = []
    for memory_id, row in rows.items():
        problem = _reinsert_problem(conn, memory_id, row, owned)
        if problem is not None:
            outcome.refused.append(f"project memory #{memory_id} {problem}; it was not brought back")
            continue
        values: dict[str, Cell] = {name: value for name, value in row.items() if name in present}
        values["id"] = memory_id
        values["normalized_hash"] = normalized_hash(str(row["content"]))  # the host's rule, never carried
        conn.execute(insert(memories).values(values))
        ids.append(memory_id)
    if ids and is_server(conn):
        move_identity(conn, max(ids), memories.name)
    _bump_each_project(conn, ids, now)
    found = fetch_memories(conn, ids)
    outcome.written = [found[memory_id] for memory_id in ids]
    return outcome
