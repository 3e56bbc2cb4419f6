"""Running commands: `execute` (do, and log), `undo` and `redo` (the log's next entry each way), `history`.

Each of them is one write transaction of the store (`MemoryStore.write`): the store's writers join it, the
log's row is written in it too, and the profile version moves at most once. A kill at any moment leaves
either both the change and its log row, or neither. A step refused (the memory changed since, a
malformed entry) writes nothing and leaves the log as it was. A read-only store reads its log and
refuses to undo or redo with the read-only message.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from app.commands import log
from app.commands.base import Command
from app.commands.payload import parse_payload
from app.core.errors import InvalidInputError
from app.core.models.command_log import LogEntry

if TYPE_CHECKING:
    from app.store import MemoryStore

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Step:
    """One undo or redo that was made: its entry (as it was before the step) and the memories it wrote
    (of `memory_kind`: user or project memories)."""

    entry: LogEntry
    memory_ids: tuple[int, ...]
    note: str
    memory_kind: str = "user"


def execute(store: MemoryStore, command: Command[T], origin: str) -> T:
    """Do `command` and log it (when it is logged and changed anything), in one write transaction. A
    read-only store's trust mark is kept in memory by the store: done, not logged."""
    if origin not in log.ORIGINS:
        raise ValueError(f"unknown origin {origin!r}")
    if store.read_only and command.kind == "trust":
        return command.do(store)
    with store.write() as ctx:
        result = command.do(store)
        if command.logged and command.changed_anything():
            command.logged_as(store, log.record(ctx, command, origin))
    return result


def history(store: MemoryStore) -> list[LogEntry]:
    """Every entry, oldest first (on a read-only store too)."""
    with store.read_snapshot() as conn:
        return log.entries(conn)


def undo(store: MemoryStore, *, expect: int | None = None) -> Step | None:
    """Undo the newest done entry (None: nothing to undo). `expect`: the entry the caller shows on top
    of its stack; refused if the log's is another (a change made elsewhere since)."""
    return _step(store, back=True, expect=expect)


def redo(store: MemoryStore, *, expect: int | None = None) -> Step | None:
    """Redo the oldest undone entry (None: nothing to redo); `expect` as for `undo`."""
    return _step(store, back=False, expect=expect)


def _step(store: MemoryStore, *, back: bool, expect: int | None) -> Step | None:
    with store.write() as ctx:
        found = (
            (log.newest_done if back else log.oldest_undone)(ctx.conn) if log.log_exists(ctx.conn) else None
        )
        if found is None:
            return None
        entry, raw = found
        if expect is not None and entry.id != expect:
            raise InvalidInputError(
                f"the undo history changed since it was shown (the next {'undo' if back else 'redo'} is "
                f"now: {entry.label}); nothing was changed"
            )
        command = load_entry(entry, raw)
        command.entry_id = entry.id
        (command.undo if back else command.redo)(store)
        log.mark(ctx, entry.id, done=not back)
    return Step(entry, command.memory_ids(), command.step_note(back), command.memory_kind)


def load_entry(entry: LogEntry, raw: object) -> Command[Any]:
    """The command a log entry describes, its payload read strictly."""
    # Every kind of command loads with the first entry loaded back (an undo, a redo): reading the log,
    # as a first screen does, needs none of them.
    from app.commands.registry import load

    where = f"#{entry.id}"
    return load(entry.kind, parse_payload(raw, where), where)
