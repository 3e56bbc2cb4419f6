"""What a command knows of each memory it changed: its state before and after, and the way between them.

A `State` is what a person sees of a memory that a command may change: its text (only for commands that
change text), its status and its expiry; None is a memory that does not exist (deleted, or not made yet).
An undo walks each memory from its state after the command back to its state before; a redo walks the
other way. Both are guarded first: every memory must still be in the state the step starts from, or
nothing is written and the person is told which memory changed since (an undo never overwrites someone
else's change). The time alone is not compared: an undo or redo of a later command writes the same text
and status again at a new time, and what the memory says is what a step must not overwrite.

Candidates a promotion or a merge consumed stay consumed either way: the host deleted them from its pool,
and writing them back would invent rows the host never made.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from app.commands.payload import PayloadError, as_dict, as_int, as_opt_int, as_opt_str, as_str
from app.core.errors import ConflictError, InvalidInputError
from app.core.models import Memory, MemoryStatus, RevisionSource
from app.store.read.host_cells import notes_column

if TYPE_CHECKING:
    from app.store import MemoryStore


@dataclass(frozen=True, slots=True)
class State:
    """A memory as a command left it or found it. `content` None: the command does not change text (its
    steps neither compare nor write it). `odd_status`: the status cell was not text (shown in a form the
    host never wrote), so a step writes `dismissed` there, never the shown form."""

    status: str
    expires_at: int | None
    content: str | None = None
    odd_status: bool = False

    @classmethod
    def of(cls, memory: Memory, *, text: bool) -> State:
        odd = notes_column(memory.oddities, "status")
        return cls(memory.status, memory.expires_at, memory.content if text else None, odd)

    def writable_status(self) -> str:
        return MemoryStatus.DISMISSED if self.odd_status else self.status

    def same_as(self, memory: Memory) -> bool:
        """The memory says what this state says (its text only where this state holds one)."""
        if (memory.status, memory.expires_at) != (self.status, self.expires_at):
            return False
        return self.content is None or memory.content == self.content

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"status": self.status, "expires_at": self.expires_at}
        if self.content is not None:
            data["content"] = self.content
        if self.odd_status:
            data["odd_status"] = True
        return data

    @classmethod
    def from_json(cls, value: object, where: str) -> State | None:
        if value is None:
            return None
        data = as_dict(value, where)
        unknown = set(data) - {"status", "expires_at", "content", "odd_status"}
        if unknown:
            raise PayloadError(f"{where} has unknown keys {sorted(unknown)}")
        odd = data.get("odd_status", False)
        if not isinstance(odd, bool):
            raise PayloadError(f"{where}.odd_status is not true or false")
        return cls(
            as_str(data.get("status"), f"{where}.status"),
            as_opt_int(data.get("expires_at"), f"{where}.expires_at"),
            as_opt_str(data.get("content"), f"{where}.content"),
            odd,
        )


@dataclass(frozen=True, slots=True)
class Change:
    """One memory's way: `before` and `after` the command (None: it did not exist)."""

    memory_id: int
    before: State | None
    after: State | None

    def to_json(self) -> dict[str, Any]:
        before = self.before.to_json() if self.before else None
        after = self.after.to_json() if self.after else None
        return {"id": self.memory_id, "before": before, "after": after}

    @classmethod
    def from_json(cls, value: object, where: str) -> Change:
        data = as_dict(value, where)
        if set(data) != {"id", "before", "after"}:
            raise PayloadError(f"{where} must hold exactly id, before and after")
        before = State.from_json(data["before"], f"{where}.before")
        after = State.from_json(data["after"], f"{where}.after")
        if before is None and after is None:
            raise PayloadError(f"{where} goes from nothing to nothing")
        return cls(as_int(data["id"], f"{where}.id"), before, after)


def states(store: MemoryStore, ids: Sequence[int], *, text: bool) -> dict[int, State]:
    """The memories of `ids` that exist, as states (read inside the caller's write: what it sees)."""
    return {memory.id: State.of(memory, text=text) for memory in store.get_many(ids, deleted=False)}


def changes_between(
    ids: Iterable[int], before: Mapping[int, State], after: Mapping[int, State]
) -> tuple[Change, ...]:
    """The memories of `ids` whose state moved, in the order given."""
    found = [Change(i, before.get(i), after.get(i)) for i in dict.fromkeys(ids)]
    return tuple(change for change in found if change.before != change.after)


def walk(store: MemoryStore, changes: Sequence[Change], *, back: bool, verb: str, written_by: str) -> None:
    """Inside the caller's write: every memory from one state to the other (`back`: after → before),
    refused as a whole (`ConflictError`) if one is no longer in the state the step starts from. `verb`
    says what the command did ("edited"), for the refusal; `written_by` is `edit` (text written as a
    person's edit) or `restore` (as a restore revision)."""
    ways = [(c.memory_id, c.after, c.before) if back else (c.memory_id, c.before, c.after) for c in changes]
    current = {m.id: m for m in store.get_many([i for i, _, _ in ways], deleted=False)}
    for memory_id, start, _ in ways:
        _expect(memory_id, start, current.get(memory_id), verb, back)
    gone = [i for i, start, end in ways if start is not None and end is None]
    back_again = [i for i, start, end in ways if start is None and end is not None]
    if gone:
        store.delete(gone)
    if back_again:
        store.restore(back_again)
    put: dict[int, tuple[str | None, int | None]] = {}
    for memory_id, start, end in ways:
        if start is None or end is None:
            continue
        if end.content is not None and end.content != start.content:
            _write_text(store, memory_id, end.content, written_by)
        status = end.writable_status() if end.status != start.status else None
        if status is not None or end.expires_at != start.expires_at:
            put[memory_id] = (status, end.expires_at)
    if put:
        store.put_back(put)


def _write_text(store: MemoryStore, memory_id: int, content: str, written_by: str) -> None:
    if written_by == "edit":
        store.edit(memory_id, content)
    else:
        store.update_content(memory_id, content, source=RevisionSource.RESTORE)


def _expect(memory_id: int, start: State | None, memory: Memory | None, verb: str, back: bool) -> None:
    step = "Undo" if back else "Redo"
    if start is None:
        if memory is not None:
            raise ConflictError(
                f"memory #{memory_id} exists again since it was {verb}, so {step} left it as it is", memory
            )
        return
    if memory is None:
        raise InvalidInputError(
            f"memory #{memory_id} was deleted since it was {verb}, so {step} changed nothing "
            "(Restore in its history brings it back)"
        )
    if not start.same_as(memory):
        raise ConflictError(
            f"Memory #{memory_id} changed since it was {verb}, so {step} left it as it is"
            + (" (Delete removes it)" if verb == "promoted" else ""),
            memory,
        )
