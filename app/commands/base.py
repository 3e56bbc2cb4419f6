"""A command: one user-facing change, with `do`, `undo` and `redo`, and what its log entry keeps.

`do` runs once, inside the write the runner (`app.commands.runner`) opened, and records what undo and redo
need (`payload`, JSON). A command read back from the log (`load`) has only that record: it can be undone
and redone, not done. Most commands change memories and keep their states before and after
(`MemoryChange`, stepping through `app.commands.state.walk`); a few keep something else (a trust mark).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from app.commands.payload import as_list, exact_keys
from app.commands.state import Change, walk

if TYPE_CHECKING:
    from app.store import MemoryStore

T = TypeVar("T")
C = TypeVar("C", bound="Command[Any]")


class Command(ABC, Generic[T]):
    kind: ClassVar[str]  # its name in the log (`app.commands.registry`)
    logged: ClassVar[bool] = True  # False: nothing to take back (discarded candidates); never in the log
    note: ClassVar[str] = ""  # what an undo leaves as it is, said once it is done
    memory_kind: ClassVar[str] = "user"  # whose ids `memory_ids` are: user or project memories
    entry_id: int | None = None  # its log entry, once logged (what it made is recorded as made by it)

    @abstractmethod
    def do(self, store: MemoryStore) -> T:
        """The change, the first time (inside the runner's write); what the store's writer returned."""

    @abstractmethod
    def undo(self, store: MemoryStore) -> None:
        """Take the change back (inside the runner's write), or refuse with a message and write nothing."""

    @abstractmethod
    def redo(self, store: MemoryStore) -> None:
        """Make the change again after its undo, guarded as the undo is."""

    @abstractmethod
    def label(self) -> str:
        """What it did, after `do`, for a menu and a list: "edit of #5", "dismiss of 3 memories"."""

    @abstractmethod
    def payload(self) -> dict[str, Any]:
        """What undo and redo need, as JSON (after `do`)."""

    @classmethod
    @abstractmethod
    def load(cls: type[C], payload: dict[str, Any]) -> C:
        """The command as its log entry's payload (read strictly: `app.commands.payload`) describes it."""

    def changed_anything(self) -> bool:
        """Whether `do` changed anything: a command that changed nothing is not logged."""
        return True

    def logged_as(self, store: MemoryStore, entry_id: int) -> None:
        """Once its log entry exists, inside the same write: a command whose records name their maker
        (`command:<id>`, the links a merge makes) writes them here."""
        self.entry_id = entry_id

    @property
    def made_by(self) -> str:
        """How what it made names it: `command:<log id>`."""
        return f"command:{self.entry_id}"

    def memory_ids(self) -> tuple[int, ...]:
        """The memories its steps write (a window shows them again after an undo or redo)."""
        return ()

    def step_note(self, back: bool) -> str:
        """What the undo (`back`) or redo just made leaves as it is, said once it is done."""
        return self.note if back else ""


class MemoryChange(Command[T]):
    """A change to memories, kept as each memory's state before and after (`app.commands.state`)."""

    verb: ClassVar[str] = "changed"  # past participle, for a refusal: "changed since it was edited"
    written_by: ClassVar[str] = "edit"  # how a step writes text back: a person's edit, or a restore
    text: ClassVar[bool] = True  # whether its states hold the memory's text

    def __init__(self) -> None:
        self.changes: tuple[Change, ...] = ()

    def undo(self, store: MemoryStore) -> None:
        walk(store, self.changes, back=True, verb=self.verb, written_by=self.written_by)

    def redo(self, store: MemoryStore) -> None:
        walk(store, self.changes, back=False, verb=self.verb, written_by=self.written_by)

    def payload(self) -> dict[str, Any]:
        return {"changes": [change.to_json() for change in self.changes]}

    @classmethod
    def load(cls: type[C], payload: dict[str, Any]) -> C:
        exact_keys(payload, {"changes"}, "the payload")
        changes = as_list(payload["changes"], "changes")
        command = cls.__new__(cls)  # a record to undo and redo: the arguments `do` took are not kept
        assert isinstance(command, MemoryChange)
        MemoryChange.__init__(command)
        command.changes = tuple(Change.from_json(item, f"changes[{i}]") for i, item in enumerate(changes))
        return command

    def changed_anything(self) -> bool:
        return bool(self.changes)

    def memory_ids(self) -> tuple[int, ...]:
        return tuple(change.memory_id for change in self.changes)

    def what(self) -> str:
        """`#5` or `3 memories`: what a label names."""
        ids = self.memory_ids()
        return f"#{ids[0]}" if len(ids) == 1 else f"{len(ids):,} memories"
