"""Merging memories: one command, one write, one profile bump (`MergeMemories`); and the same for the
memories of one project (`MergeProjectMemories`, the host's way: `app.store.project.merging`).

The kept memory gets the merged text (its revision's evidence: the others' candidates), the others are
dismissed, and a `merged_into` link goes from each of them to the kept one, made by the command's log
entry (a kept project memory's `merged_from` names them too, as the host records a merge). Its undo
writes the kept memory's text (and `merged_from`) back, reactivates the others and drops the links,
refused if any of them changed since (`app.commands.state`); its redo makes the merge again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from app.commands.base import Command, MemoryChange
from app.commands.payload import (
    PayloadError,
    as_dict,
    as_ids,
    as_int,
    as_list,
    as_opt_str,
    as_str,
    exact_keys,
)
from app.commands.state import Change, State, changes_between, states
from app.core.models import Memory
from app.core.models.links import Relation
from app.store.links import add_link, drop_links_made_by
from app.store.project import merging as project_merging
from app.store.project.service import PROJECT_KIND

if TYPE_CHECKING:
    from app.store import MemoryStore

USER_KIND = "user"  # `USER_MEMORIES.name`, as `mdash_links.memory_kind` names the kind
# Which member each merged sentence came from, or how to find that out: the window hands over the way,
# found by `do` on the write's thread, not on the window's before the write is even asked for.
Sentences = Sequence[tuple[str, int]] | Callable[[], Sequence[tuple[str, int]]]
LINEAGE_KEYS = {"merged_from_before", "merged_from_after"}  # a project merge's `merged_from`, both ways


def _link(store: MemoryStore, kind: str, kept: int, absorbed: Sequence[int], made_by: str) -> None:
    with store.write() as ctx:
        for memory_id in absorbed:
            add_link(ctx, kind, memory_id, kept, Relation.MERGED_INTO, made_by)


def _unlink(store: MemoryStore, made_by: str) -> None:
    with store.write() as ctx:
        drop_links_made_by(ctx, made_by)


class MergeMemories(MemoryChange[list[Memory]]):
    kind: ClassVar[str] = "merge-memories"
    verb = "merged"
    note: ClassVar[str] = "the texts and statuses are back; the kept memory keeps the evidence it was given"

    def __init__(self, kept: int, absorbed: Sequence[int], content: str, sentences: Sentences = ()) -> None:
        super().__init__()
        self.kept, self.absorbed = kept, list(dict.fromkeys(absorbed))
        self.content, self.sentences = content, sentences

    def do(self, store: MemoryStore) -> list[Memory]:
        """The merged memories as they are now, the kept one first (a window shows them again)."""
        ids = [self.kept, *self.absorbed]
        sentences = self.sentences() if callable(self.sentences) else self.sentences
        before = states(store, ids, text=True)
        store.merge_memories(self.kept, self.absorbed, self.content, sentences)
        after = store.get_many(ids, deleted=False)  # read once: the states after, and what is shown
        self.changes = changes_between(ids, before, {m.id: State.of(m, text=True) for m in after})
        return after

    def logged_as(self, store: MemoryStore, entry_id: int) -> None:
        super().logged_as(store, entry_id)
        _link(store, USER_KIND, self.kept, self.absorbed, self.made_by)

    def undo(self, store: MemoryStore) -> None:
        super().undo(store)
        _unlink(store, self.made_by)

    def redo(self, store: MemoryStore) -> None:
        super().redo(store)
        _link(store, USER_KIND, self.kept, self.absorbed, self.made_by)

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


class MergeProjectMemories(Command[int]):
    """Memories of one project merged into one: the kept one edited, the others superseded by it."""

    kind: ClassVar[str] = "merge-project-memories"
    memory_kind: ClassVar[str] = PROJECT_KIND

    def __init__(
        self, kept: int, absorbed: Sequence[int], content: str, sentences: Sequence[tuple[str, int]] = ()
    ) -> None:
        self.kept, self.absorbed = kept, list(dict.fromkeys(absorbed))
        self.content, self.sentences = content, list(sentences)
        self.state: project_merging.ProjectMergeState | None = None

    def do(self, store: MemoryStore) -> int:
        with store.write() as ctx:
            self.state = project_merging.merge(ctx, self.kept, self.absorbed, self.content, self.sentences)
        return self.kept

    def logged_as(self, store: MemoryStore, entry_id: int) -> None:
        super().logged_as(store, entry_id)
        _link(store, PROJECT_KIND, self.kept, self.absorbed, self.made_by)

    def _step(self, store: MemoryStore, *, back: bool) -> None:
        assert self.state is not None
        with store.write() as ctx:
            project_merging.unmerge(ctx, self.state, back=back)
            if back:
                drop_links_made_by(ctx, self.made_by)
            else:
                _link(store, PROJECT_KIND, self.kept, self.absorbed, self.made_by)

    def undo(self, store: MemoryStore) -> None:
        self._step(store, back=True)

    def redo(self, store: MemoryStore) -> None:
        self._step(store, back=False)

    def memory_ids(self) -> tuple[int, ...]:
        return (self.kept, *self.absorbed)

    def label(self) -> str:
        return f"merge of {len(self.absorbed) + 1} project memories into #{self.kept}"

    def payload(self) -> dict[str, Any]:
        assert self.state is not None
        return {
            "kept": self.kept,
            "text_before": self.state.text_before,
            "text_after": self.state.text_after,
            "statuses_before": {str(i): status for i, status in self.state.statuses_before.items()},
            "merged_from_before": self.state.merged_from_before,
            "merged_from_after": self.state.merged_from_after,
        }

    @classmethod
    def load(cls, payload: dict[str, Any]) -> MergeProjectMemories:
        keys = {"kept", "text_before", "text_after", "statuses_before"}
        # A merge logged before merges wrote `merged_from` has no lineage: its undo leaves that column be.
        exact_keys(payload, keys if keys == set(payload) else keys | LINEAGE_KEYS, "the payload")
        kept = as_int(payload["kept"], "kept")
        statuses: dict[int, str] = {}
        for key, status in as_dict(payload["statuses_before"], "statuses_before").items():
            if not key.isdigit():
                raise PayloadError(f"statuses_before names {key[:20]!r}, not a memory id")
            statuses[as_int(int(key), "statuses_before")] = as_str(status, f"statuses_before[{key}]")
        if not statuses or kept in statuses:
            raise PayloadError("a merge's payload names no memory merged into another")
        text_before = as_str(payload["text_before"], "text_before")
        text_after = as_str(payload["text_after"], "text_after")
        command = cls(kept, list(statuses), text_after)
        lineage = [as_opt_str(payload.get(key), key) for key in ("merged_from_before", "merged_from_after")]
        command.state = project_merging.ProjectMergeState(kept, text_before, text_after, statuses, *lineage)
        return command
