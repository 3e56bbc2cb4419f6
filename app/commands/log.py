"""The command log's table (`mdash_command_log`): one row per logged command, a linear undo/redo stack.

Every `done` entry is older than every `undone` one: an undo takes the newest done entry, a redo the
oldest undone one, and a new command drops the undone tail (as a `QUndoStack` does). Rows are written
only inside the caller's write transaction, beside the change they describe.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import Connection, delete, insert, inspect, select, update

from app.commands.base import Command
from app.core.models.command_log import DONE, UNDONE, LogEntry
from app.store.schema.tables import command_log
from app.store.write.revision_log import WriteContext

ORIGINS = ("window", "cli")
c = command_log.c


_LISTED = (c.id, c.kind, c.label, c.made_at, c.origin, c.state, c.changed_at)


def _entry(row: Any) -> LogEntry:
    return LogEntry(
        int(row.id),
        str(row.kind),
        str(row.label),
        int(row.made_at),
        str(row.origin),
        row.state == DONE,
        int(row.changed_at),
    )


def log_exists(conn: Connection) -> bool:
    """The table is there (a store a read-only open could not migrate has none: its log is empty)."""
    return inspect(conn).has_table(command_log.name)


def entries(conn: Connection) -> list[LogEntry]:
    """Every entry, oldest first, without payloads."""
    if not log_exists(conn):
        return []
    return [_entry(row) for row in conn.execute(select(*_LISTED).order_by(c.id))]


def newest_done(conn: Connection) -> tuple[LogEntry, object] | None:
    """The entry an undo takes, with its raw payload."""
    query = select(*_LISTED, c.payload).where(c.state == DONE).order_by(c.id.desc()).limit(1)
    row = conn.execute(query).first()
    return (_entry(row), row.payload) if row is not None else None


def oldest_undone(conn: Connection) -> tuple[LogEntry, object] | None:
    """The entry a redo takes, with its raw payload."""
    query = select(*_LISTED, c.payload).where(c.state == UNDONE).order_by(c.id).limit(1)
    row = conn.execute(query).first()
    return (_entry(row), row.payload) if row is not None else None


def record(ctx: WriteContext, command: Command[Any], origin: str) -> int:
    """A new done entry for `command` (after its `do`); the undone tail goes (nothing to redo after a new
    change). Returns its id."""
    ctx.conn.execute(delete(command_log).where(c.state == UNDONE))
    result = ctx.conn.execute(
        insert(command_log).values(
            kind=command.kind,
            label=command.label(),
            payload=json.dumps(command.payload(), ensure_ascii=False, sort_keys=True),
            made_at=ctx.now,
            origin=origin,
            state=DONE,
            changed_at=ctx.now,
        )
    )
    key = result.inserted_primary_key
    assert key is not None
    return int(key[0])


def mark(ctx: WriteContext, entry_id: int, done: bool) -> None:
    ctx.conn.execute(
        update(command_log).where(c.id == entry_id).values(state=DONE if done else UNDONE, changed_at=ctx.now)
    )
