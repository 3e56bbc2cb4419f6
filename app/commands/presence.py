"""Commands that make memories exist or not: add, promote, import, copy from another machine, delete, and
bring deleted memories back from the trash.

A memory that came to exist is deleted by the undo (a `delete` revision; the host stops injecting it, as
after its own dashboard deletes one), refused if it changed since; the redo brings it back from that
delete, with the same id. A deleted memory comes back by the undo and is deleted again by the redo.
The project memories an import brought in go and come back the host's way, each on its own
(`app.commands.project_arrivals`).
Candidates a promotion consumed stay consumed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from app.commands.base import MemoryChange
from app.commands.payload import as_list
from app.commands.project_arrivals import Arrival, arrivals, take_back
from app.commands.state import changes_between, states
from app.core.models import Memory, Revision
from app.core.models.imports import ImportResult
from app.store.write.synced import MachineMemory
from app.transfer.export_format import ExportFile

if TYPE_CHECKING:
    from app.store import MemoryStore

NOT_RESURRECTED = "the memory is deleted, its candidates stay used; Restore in its history brings it back"


class _Appearing(MemoryChange[Memory]):
    """One new memory, made by the store's writer `_make`."""

    def _make(self, store: MemoryStore) -> Memory:
        raise NotImplementedError

    def do(self, store: MemoryStore) -> Memory:
        memory = self._make(store)
        self.changes = changes_between([memory.id], {}, states(store, [memory.id], text=True))
        return memory


class Add(_Appearing):
    kind: ClassVar[str] = "add"
    verb = "added"

    def __init__(self, content: str) -> None:
        super().__init__()
        self.content = content

    def _make(self, store: MemoryStore) -> Memory:
        return store.add(self.content)

    def label(self) -> str:
        return f"new memory {self.what()}"


class Promote(_Appearing):
    kind: ClassVar[str] = "promote"
    verb = "promoted"
    note: ClassVar[str] = NOT_RESURRECTED

    def __init__(self, candidate_ids: Sequence[int], content: str | None = None) -> None:
        super().__init__()
        self.candidate_ids, self.content = list(candidate_ids), content

    def _make(self, store: MemoryStore) -> Memory:
        return store.promote(self.candidate_ids, self.content)

    def label(self) -> str:
        return f"promotion of {self.what()}"


class CopyFromMachine(_Appearing):
    kind: ClassVar[str] = "hub-pull"
    verb = "copied"

    def __init__(self, memory: MachineMemory) -> None:
        super().__init__()
        self.memory = memory

    def _make(self, store: MemoryStore) -> Memory:
        return store.copy_from_machine(self.memory)

    def label(self) -> str:
        return f"copy of {self.what()} from another machine"


class Import(MemoryChange[ImportResult]):
    """An export file merged in: its user memories as any memories that came to exist, its project
    memories (`project_arrivals`) each taken back and brought back on its own."""

    kind: ClassVar[str] = "import"
    verb = "imported"

    def __init__(self, export: ExportFile, file_label: str) -> None:
        super().__init__()
        self.export, self.file_label = export, file_label
        self.projects: tuple[Arrival, ...] = ()
        self.said: list[str] = []  # what the last undo or redo left as it was

    def do(self, store: MemoryStore) -> ImportResult:
        result = store.import_export(self.export, self.file_label)
        ids = [item.memory_id for item in result.imported]
        self.changes = changes_between(ids, {}, states(store, ids, text=True))
        if result.projects is not None and result.projects.imported:
            self.projects = arrivals(store, [item.memory_id for item in result.projects.imported])
        return result

    def undo(self, store: MemoryStore) -> None:
        super().undo(store)  # the user memories first: refused as a whole, before any project one goes
        self.said = take_back(store, self.projects, back=True)

    def redo(self, store: MemoryStore) -> None:
        super().redo(store)
        self.said = take_back(store, self.projects, back=False)

    def step_note(self, back: bool) -> str:
        return "; ".join(self.said)

    def changed_anything(self) -> bool:
        return bool(self.changes or self.projects)

    def label(self) -> str:
        count = len(self.projects)
        projects = f"{count:,} project memor{'y' if count == 1 else 'ies'}"
        if not self.projects:
            return f"import of {self.what()}"
        return f"import of {self.what()} and {projects}" if self.changes else f"import of {projects}"

    def payload(self) -> dict[str, Any]:
        return {**super().payload(), "projects": [item.to_json() for item in self.projects]}

    @classmethod
    def load(cls, payload: dict[str, Any]) -> Import:
        # An entry written before imports carried project memories holds only `changes`.
        rest = dict(payload)
        projects = as_list(rest.pop("projects", []), "projects")
        command = super().load(rest)
        command.projects = tuple(Arrival.from_json(item, f"projects[{i}]") for i, item in enumerate(projects))
        command.said = []
        return command


class Delete(MemoryChange[Revision | list[int]]):
    kind: ClassVar[str] = "delete"
    verb = "deleted"

    def __init__(
        self, memory_ids: int | Sequence[int], *, expected: Memory | None = None, retire: str = ""
    ) -> None:
        super().__init__()
        self.asked, self.expected, self.retire = memory_ids, expected, retire
        self.ids = [memory_ids] if isinstance(memory_ids, int) else list(dict.fromkeys(memory_ids))

    def do(self, store: MemoryStore) -> Revision | list[int]:
        before = states(store, self.ids, text=True)
        if isinstance(self.asked, int):
            result: Revision | list[int] = store.delete(self.asked, expected=self.expected)
        else:
            result = store.delete(self.asked)
        self.changes = changes_between(self.ids, before, {})
        return result

    def label(self) -> str:
        return f"delete of {self.what()}" + (f" (retire {self.retire})" if self.retire else "")


class RestoreDeleted(MemoryChange[list[int]]):
    """Deleted memories back from the trash (each from its latest delete revision)."""

    kind: ClassVar[str] = "restore-deleted"
    verb = "restored"

    def __init__(self, memory_ids: Sequence[int]) -> None:
        super().__init__()
        self.ids = list(dict.fromkeys(memory_ids))

    def do(self, store: MemoryStore) -> list[int]:
        restored = store.restore(self.ids)
        self.changes = changes_between(restored, {}, states(store, restored, text=True))
        return restored

    def label(self) -> str:
        return f"restore of {self.what()}"
