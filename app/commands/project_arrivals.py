"""The project memories an import brought in, as its log entry keeps them (`Arrival`), and their way out
and back: the undo of the import deletes them the host's way, its redo brings them back with their ids
(`store.project_edits.delete` / `bring_back`).

Unlike the import's user memories (refused as a whole when one changed since), each project memory is
judged on its own: the host's historian and dreamer rewrite, merge and archive them all the time, and
one it moved must not keep the others in. A memory that no longer says what the import left (its text,
category and status, `ProjectState.same_as`: the rule of every project undo) is left as it is, one the
host deleted since is skipped, and the step says so, one sentence each; the others are taken back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from app.commands.payload import PayloadError, as_dict, as_int, exact_keys
from app.commands.project import ProjectState
from app.store.project.removal import Cell
from app.store.project.tables import memories

if TYPE_CHECKING:
    from app.store import MemoryStore

_COLUMNS = frozenset(column.name for column in memories.c) - {"id"}


@dataclass(frozen=True, slots=True)
class Arrival:
    """One project memory an import wrote: its id, its state then, and its row (without the id)."""

    memory_id: int
    state: ProjectState
    row: dict[str, Cell]

    def to_json(self) -> dict[str, Any]:
        return {"id": self.memory_id, "state": self.state.to_json(), "row": self.row}

    @classmethod
    def from_json(cls, value: object, where: str) -> Arrival:
        data = as_dict(value, where)
        exact_keys(data, {"id", "state", "row"}, where)
        row = as_dict(data["row"], f"{where}.row")
        for name, cell in row.items():
            if name not in _COLUMNS:
                raise PayloadError(f"{where}.row names no column of the host's memories: {name[:40]!r}")
            if cell is not None and type(cell) not in (int, str):
                raise PayloadError(f"{where}.row.{name} is not a number, text or null")
        return cls(as_int(data["id"], f"{where}.id"), ProjectState.from_json(data["state"], where), row)


def arrivals(store: MemoryStore, memory_ids: Sequence[int]) -> tuple[Arrival, ...]:
    """The import's project memories as it left them (read inside its write)."""
    found = store.project.many(memory_ids)
    rows = store.project_edits.rows(memory_ids)
    made = []
    for memory_id in memory_ids:
        row = {name: cell for name, cell in rows[memory_id].items() if name != "id"}
        made.append(Arrival(memory_id, ProjectState.of(found[memory_id]), row))
    return tuple(made)


def _moved(memory_id: int, back: bool) -> str:
    if back:
        return f"project memory #{memory_id} changed since it was imported, so Undo left it as it is"
    # Left by the undo as the host had changed it, or a row the host made since with its id.
    return (
        f"project memory #{memory_id} is not as the import left it (the host changed it, or gave its id"
        " to another), so Redo left it as it is"
    )


def take_back(store: MemoryStore, arrived: Sequence[Arrival], *, back: bool) -> list[str]:
    """Undo (`back`: delete them) or redo (bring them back), inside the caller's write; what was left
    as it was, one sentence per memory."""
    current = store.project.many([item.memory_id for item in arrived])
    said: list[str] = []
    wanted: list[Arrival] = []
    for item in arrived:
        memory = current.get(item.memory_id)
        if memory is None:
            if back:
                said.append(f"project memory #{item.memory_id} was deleted since it was imported")
            else:
                wanted.append(item)
        elif not item.state.same_as(memory):
            said.append(_moved(item.memory_id, back))
        elif back:  # a redo finds the ones its undo left where they are
            wanted.append(item)
    if back:
        done = store.project_edits.delete([item.memory_id for item in wanted])
    else:
        done = store.project_edits.bring_back({item.memory_id: item.row for item in wanted})
    return said + done.refused
