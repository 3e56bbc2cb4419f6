"""Commands on the host's project memories: edit the content, change the category, archive (with a
reason), restore. Each is one write through `store.project_edits` (the host's write protocol, a revision
in the project log), logged beside it by the runner, and undone the host's way: an undo of an edit is
an edit back (a new `normalized_hash`, a mutation log row, the epoch bump, the embeddings gone), an undo
of an archive a restore, an undo of a restore an archive (or the supersession the memory had).

Each keeps the memory's `ProjectState` before and after. An undo or redo first checks that the memory
still says what the step starts from (its text, category and status: what a person sees and these
commands change), inside the same write transaction as its writes, or refuses (naming the project
memory) and writes nothing: an undo never overwrites the host's own change. A project the host's
native module owns is refused by the writers before any statement, saying why.
"""

from __future__ import annotations

from abc import abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from app.commands.base import Command
from app.commands.payload import PayloadError, as_dict, as_int, as_opt_int, as_str, exact_keys
from app.core.errors import InvalidInputError, NotFoundError, StoreError
from app.store.project.model import ACTIVE, ARCHIVED, ProjectMemory
from app.store.project.service import PROJECT_KIND
from app.store.project.writes import ProjectWrite
from app.store.read.host_cells import notes_column

if TYPE_CHECKING:
    from app.store import MemoryStore

P = TypeVar("P", bound="ProjectChange")


class ProjectConflictError(StoreError):
    """The project memory changed since the command (the host moved it): the step left it as it is."""

    def __init__(self, message: str, current: ProjectMemory) -> None:
        super().__init__(message)
        self.current = current


@dataclass(frozen=True, slots=True)
class ProjectState:
    """What a command may change of a project memory. `odd_status`: the status cell was not text (shown
    in a form the host never wrote), so a step writes `archived` there, never the shown form."""

    content: str
    category: str
    status: str
    superseded_by: int | None = None
    odd_status: bool = False

    @classmethod
    def of(cls, memory: ProjectMemory) -> ProjectState:
        odd = notes_column(memory.oddities, "status")
        return cls(memory.content, memory.category, memory.status, memory.superseded_by, odd)

    def same_as(self, memory: ProjectMemory) -> bool:
        """The memory says what this state says. The supersession link is not compared: a restore drops
        it, and what a step must not overwrite is what the memory says."""
        return (memory.content, memory.category, memory.status) == (self.content, self.category, self.status)

    def to_json(self) -> dict[str, Any]:
        return {
            "content": self.content,
            "category": self.category,
            "status": self.status,
            "superseded_by": self.superseded_by,
            "odd_status": self.odd_status,
        }

    @classmethod
    def from_json(cls, value: object, where: str) -> ProjectState:
        data = as_dict(value, where)
        exact_keys(data, {"content", "category", "status", "superseded_by", "odd_status"}, where)
        odd = data["odd_status"]
        if not isinstance(odd, bool):
            raise PayloadError(f"{where}.odd_status is not true or false")
        return cls(
            as_str(data["content"], f"{where}.content"),
            as_str(data["category"], f"{where}.category"),
            as_str(data["status"], f"{where}.status"),
            as_opt_int(data["superseded_by"], f"{where}.superseded_by"),
            odd,
        )


def walk(
    store: MemoryStore, memory_id: int, start: ProjectState, end: ProjectState, *, verb: str, back: bool
) -> None:
    """The memory from `start` to `end` through the store's writers, refused (nothing written) if it no
    longer says what `start` says. The check and the writes are one write transaction (the caller's,
    joined, or its own): the host cannot slip a change in between and have it overwritten."""
    with store.write():
        _walk(store, memory_id, start, end, verb=verb, back=back)


def _walk(
    store: MemoryStore, memory_id: int, start: ProjectState, end: ProjectState, *, verb: str, back: bool
) -> None:
    current = store.project.memory(memory_id)  # read on the write's connection, under its lock
    step = "Undo" if back else "Redo"
    if current is None:
        raise InvalidInputError(
            f"project memory #{memory_id} was deleted since it was {verb}, so {step} changed nothing"
        )
    if not start.same_as(current):
        raise ProjectConflictError(
            f"Project memory #{memory_id} changed since it was {verb}, so {step} left it as it is", current
        )
    edits = store.project_edits
    if end.content != start.content:
        edits.edit_content(memory_id, end.content)
    if end.category != start.category:
        edits.change_category(memory_id, end.category)
    if (end.status, end.superseded_by) == (start.status, start.superseded_by):
        return
    status = ARCHIVED if end.odd_status else end.status
    if status != ARCHIVED:
        edits.restore(memory_id, status)
    elif end.superseded_by is not None and end.superseded_by != start.superseded_by:
        _supersede_or_archive(store, memory_id, end.superseded_by)
    else:
        edits.archive(memory_id)


def _supersede_or_archive(store: MemoryStore, memory_id: int, successor_id: int) -> None:
    """The supersession put back; a successor that is gone, or now superseded by this memory (a loop the
    host's rows held), cannot be named again: the memory is archived without it."""
    try:
        store.project_edits.supersede(memory_id, successor_id)
    except (NotFoundError, InvalidInputError):  # refused before its first statement: nothing written
        store.project_edits.archive(memory_id)


class ProjectChange(Command[ProjectMemory]):
    """A change to one project memory, kept as its state before and after."""

    memory_kind: ClassVar[str] = PROJECT_KIND
    verb: ClassVar[str] = "changed"  # for a refusal: "changed since it was edited"
    action: ClassVar[str] = "change"  # for a label: "edit of project memory #5"

    def __init__(self, memory_id: int) -> None:
        self.memory_id = memory_id
        self.before: ProjectState | None = None
        self.after: ProjectState | None = None

    @abstractmethod
    def _write(self, store: MemoryStore) -> ProjectWrite:
        """The change through `store.project_edits`."""

    def do(self, store: MemoryStore) -> ProjectMemory:
        done = self._write(store)
        if done.changed:
            self.before, self.after = ProjectState.of(done.before), ProjectState.of(done.after)
        return done.after

    def undo(self, store: MemoryStore) -> None:
        before, after = self._states()
        walk(store, self.memory_id, after, before, verb=self.verb, back=True)

    def redo(self, store: MemoryStore) -> None:
        before, after = self._states()
        walk(store, self.memory_id, before, after, verb=self.verb, back=False)

    def _states(self) -> tuple[ProjectState, ProjectState]:
        assert self.before is not None and self.after is not None, "undo and redo follow a change"
        return self.before, self.after

    def changed_anything(self) -> bool:
        return self.before is not None and self.before != self.after

    def memory_ids(self) -> tuple[int, ...]:
        return (self.memory_id,)

    def label(self) -> str:
        return f"{self.action} of project memory #{self.memory_id}"

    def payload(self) -> dict[str, Any]:
        before, after = self._states()
        return {"id": self.memory_id, "before": before.to_json(), "after": after.to_json()}

    @classmethod
    def load(cls: type[P], payload: dict[str, Any]) -> P:
        exact_keys(payload, {"id", "before", "after"}, "the payload")
        command = cls.__new__(cls)  # a record to undo and redo: the arguments `do` took are not kept
        ProjectChange.__init__(command, as_int(payload["id"], "id"))
        command.before = ProjectState.from_json(payload["before"], "before")
        command.after = ProjectState.from_json(payload["after"], "after")
        return command


class EditProjectContent(ProjectChange):
    kind: ClassVar[str] = "project_edit"
    verb = "edited"
    action = "edit"

    def __init__(self, memory_id: int, content: str) -> None:
        super().__init__(memory_id)
        self.content = content

    def _write(self, store: MemoryStore) -> ProjectWrite:
        return store.project_edits.edit_content(self.memory_id, self.content)


class ChangeProjectCategory(ProjectChange):
    kind: ClassVar[str] = "project_category"
    verb = "recategorized"
    action = "category change"

    def __init__(self, memory_id: int, category: str) -> None:
        super().__init__(memory_id)
        self.category = category

    def _write(self, store: MemoryStore) -> ProjectWrite:
        return store.project_edits.change_category(self.memory_id, self.category, typed=True)


class ArchiveProjectMemory(ProjectChange):
    kind: ClassVar[str] = "project_archive"
    verb = "archived"
    action = "archive"
    note: ClassVar[str] = "the archive reason stays in its metadata"

    def __init__(self, memory_id: int, reason: str | None = None) -> None:
        super().__init__(memory_id)
        self.reason = reason

    def _write(self, store: MemoryStore) -> ProjectWrite:
        return store.project_edits.archive(self.memory_id, self.reason)


class RestoreProjectMemory(ProjectChange):
    kind: ClassVar[str] = "project_restore"
    verb = "restored"
    action = "restore"

    def __init__(self, memory_id: int, status: str = ACTIVE) -> None:
        super().__init__(memory_id)
        self.status = status

    def _write(self, store: MemoryStore) -> ProjectWrite:
        return store.project_edits.restore(self.memory_id, self.status)


PROJECT_COMMANDS: tuple[type[ProjectChange], ...] = (
    EditProjectContent,
    ChangeProjectCategory,
    ArchiveProjectMemory,
    RestoreProjectMemory,
)
