"""Merging user memories: one command, one write, one profile bump (`MergeMemories`).

The kept memory gets the merged text (its revision's evidence: the others' candidates), the others are
dismissed, and a `merged_into` link goes from each of them to the kept one, made by the command's log
entry. Its undo writes the kept memory's text back, reactivates the others and drops the links, refused
if any of them changed since (`app.commands.state`); its redo makes the merge again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from app.commands.base import MemoryChange
from app.commands.payload import PayloadError, as_ids, as_int, as_list, exact_keys
from app.commands.state import Change, changes_between, states
from app.core.models import Memory
from app.core.models.links import Relation
from app.store.links import add_link, drop_links_made_by

if TYPE_CHECKING:
    from app.store import MemoryStore

USER_KIND = "user"  # `USER_MEMORIES.name`, as `mdash_links.memory_kind` names the kind


class MergeMemories(MemoryChange[Memory]):
    kind: ClassVar[str] = "merge-memories"
    verb = "merged"
    note: ClassVar[str] = "the texts and statuses are back; the kept memory keeps the evidence it was given"

    def __init__(
        self, kept: int, absorbed: Sequence[int], content: str, sentences: Sequence[tuple[str, int]] = ()
    ) -> None:
        super().__init__()
        self.kept, self.absorbed = kept, list(dict.fromkeys(absorbed))
        self.content, self.sentences = content, list(sentences)

    def do(self, store: MemoryStore) -> Memory:
        ids = [self.kept, *self.absorbed]
        before = states(store, ids, text=True)
        store.merge_memories(self.kept, self.absorbed, self.content, self.sentences)
        self.changes = changes_between(ids, before, states(store, ids, text=True))
        return store.get(self.kept)

    def logged_as(self, store: MemoryStore, entry_id: int) -> None:
        super().logged_as(store, entry_id)
        self._link(store)

    def _link(self, store: MemoryStore) -> None:
        with store.write() as ctx:
            for memory_id in self.absorbed:
                add_link(ctx, USER_KIND, memory_id, self.kept, Relation.MERGED_INTO, self.made_by)

    def undo(self, store: MemoryStore) -> None:
        super().undo(store)
        with store.write() as ctx:
            drop_links_made_by(ctx, self.made_by)

    def redo(self, store: MemoryStore) -> None:
        super().redo(store)
        self._link(store)

    def label(self) -> str:
        return f"merge of {len(self.absorbed) + 1} memories into #{self.kept}"

    def payload(self) -> dict[str, Any]:
        return {**super().payload(), "kept": self.kept, "absorbed": list(self.absorbed)}

    @classmethod
    def load(cls, payload: dict[str, Any]) -> MergeMemories:
        exact_keys(payload, {"changes", "kept", "absorbed"}, "the payload")
        command = cls(as_int(payload["kept"], "kept"), as_ids(payload["absorbed"], "absorbed"), "")
        items = as_list(payload["changes"], "changes")
        command.changes = tuple(Change.from_json(item, f"changes[{i}]") for i, item in enumerate(items))
        if not command.absorbed or command.kept in command.absorbed:
            raise PayloadError("a merge's payload names no memory merged into another")
        return command
