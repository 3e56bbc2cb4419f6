"""Commands that change a memory's text: edit, restore a revision, merge candidates into a memory.

Each keeps the memory's text, status and expiry before and after; its undo writes the text back as a
person's edit, refused if the memory changed since (`app.commands.state`). A restore of a deleted memory
brings the memory back, so its undo deletes it again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, ClassVar

from app.commands.base import MemoryChange
from app.commands.state import changes_between, states
from app.core.models import Memory

if TYPE_CHECKING:
    from app.store import MemoryStore


class _OneMemory(MemoryChange[Memory]):
    """A change to one memory's text, its states read around the store's writer."""

    def _around(self, store: MemoryStore, memory_id: int, write: Callable[[], object]) -> Memory:
        before = states(store, [memory_id], text=True)
        write()
        after = states(store, [memory_id], text=True)
        self.changes = changes_between([memory_id], before, after)
        return store.get(memory_id, observe=False)


class Edit(_OneMemory):
    kind: ClassVar[str] = "edit"
    verb = "edited"

    def __init__(self, memory_id: int, content: str, *, expected: Memory | None = None) -> None:
        super().__init__()
        self.memory_id, self.content, self.expected = memory_id, content, expected

    def do(self, store: MemoryStore) -> Memory:
        return self._around(
            store,
            self.memory_id,
            lambda: store.edit(self.memory_id, self.content, expected=self.expected),
        )

    def label(self) -> str:
        return f"edit of {self.what()}"


class RestoreRevision(_OneMemory):
    kind: ClassVar[str] = "restore"
    verb = "restored"

    def __init__(self, memory_id: int, revision_id: int) -> None:
        super().__init__()
        self.memory_id, self.revision_id = memory_id, revision_id

    def do(self, store: MemoryStore) -> Memory:
        return self._around(store, self.memory_id, lambda: store.restore(self.memory_id, self.revision_id))

    def label(self) -> str:
        return f"restore of {self.what()}"


class Merge(_OneMemory):
    kind: ClassVar[str] = "merge"
    verb = "merged into"
    note: ClassVar[str] = "the text is back; the candidates stay used"

    def __init__(self, memory_id: int, candidate_ids: Sequence[int], content: str | None = None) -> None:
        super().__init__()
        self.memory_id, self.candidate_ids, self.content = memory_id, list(candidate_ids), content

    def do(self, store: MemoryStore) -> Memory:
        return self._around(
            store,
            self.memory_id,
            lambda: store.merge_candidates(self.memory_id, self.candidate_ids, self.content),
        )

    def label(self) -> str:
        return f"merge into {self.what()}"
