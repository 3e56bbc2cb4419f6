"""Undo of the last action, where it is cheap: each writer's inverse as a plain store call.

Delete → restore from the delete revision; edit and restore → edit back (refused if the memory moved
since, so an undo never overwrites someone else's rewrite); dismiss ↔ reactivate; expiry → the old expiry;
a new memory → deleted. An action on many memories is one entry, undone as one write of many.

A promotion is undone by deleting the memory it made (the store's delete: a `delete` revision, and the
host stops injecting it, as after the host's own dashboard deletes one; Restore brings it back). A merge
is undone by putting the memory's text back. In both, the candidates stay consumed: the host deleted
them from its pool when they were used, and writing them back would invent rows the host never made.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from app.core.errors import ConflictError
from app.core.models import Memory, MemoryStatus, Revision
from app.store.read.host_cells import notes_column

if TYPE_CHECKING:
    from app.store import MemoryStore


@dataclass(frozen=True, slots=True)
class UndoEntry:
    label: str  # "Undo delete of #5"
    memory_id: int
    run: Callable[[MemoryStore], object]
    note: str = ""  # what the undo leaves as it is, said once it is done


def after_promote(memory: Memory) -> UndoEntry:
    """Delete the promoted memory, unless it changed since (a rewrite is never thrown away by an undo)."""
    memory_id = memory.id

    def run(store: MemoryStore) -> Revision:
        try:
            return store.delete(memory_id, expected=memory)
        except ConflictError as exc:
            raise ConflictError(
                f"Memory #{memory_id} changed since it was promoted, so Undo left it as it is "
                "(Delete removes it).",
                exc.current,
            ) from exc

    return UndoEntry(
        f"Undo promotion of #{memory_id}",
        memory_id,
        run,
        "the memory is deleted, its candidates stay used; Restore in its history brings it back",
    )


def after_merge(before: Memory, after: Memory) -> UndoEntry:
    content = after_content_change(before, after)
    return UndoEntry(
        f"Undo merge into #{before.id}", before.id, content.run, "the text is back; the candidates stay used"
    )


def after_delete(revision: Revision) -> UndoEntry:
    memory_id, revision_id = revision.memory_id, revision.id
    return UndoEntry(
        f"Undo delete of #{memory_id}", memory_id, lambda store: store.restore(memory_id, revision_id)
    )


def after_content_change(before: Memory, after: Memory, verb: str = "edit") -> UndoEntry:
    def run(store: MemoryStore) -> Memory:
        return store.edit(before.id, before.content, expected=after)

    return UndoEntry(f"Undo {verb} of #{before.id}", before.id, run)


def after_dismiss(before: Memory) -> UndoEntry:
    def run(store: MemoryStore) -> Memory:
        return store.reactivate(before.id)

    return UndoEntry(f"Undo dismiss of #{before.id}", before.id, run)


def after_reactivate(before: Memory) -> UndoEntry:
    def run(store: MemoryStore) -> Memory:
        store.put_back({before.id: (_status_as_it_was(before), before.expires_at)})
        return store.get(before.id, observe=False)

    return UndoEntry(f"Undo reactivate of #{before.id}", before.id, run)


def after_expiry(before: Memory) -> UndoEntry:
    def run(store: MemoryStore) -> Memory:
        store.put_back({before.id: (_status_back(before), before.expires_at)})
        return store.get(before.id, observe=False)

    return UndoEntry(f"Undo expiry change of #{before.id}", before.id, run)


def _status_as_it_was(before: Memory) -> str:
    """Dismissed, or the host's own status; but a status cell that was not text is shown in a form the
    host never wrote (U+FFFD, a description): that one is not written back, the memory is dismissed."""
    return MemoryStatus.DISMISSED if notes_column(before.oddities, "status") else before.status


def _status_back(before: Memory) -> MemoryStatus | None:
    """Active again if it was (a new expiry already passed dismissed it); any other status left as is."""
    return MemoryStatus.ACTIVE if before.status == MemoryStatus.ACTIVE else None


# -- many memories at once: one entry undoes the whole action -------------------------------------------


def _many(verb: str, ids: Sequence[int], run: Callable[[MemoryStore], object]) -> UndoEntry:
    count = len(ids)
    what = f"#{ids[0]}" if count == 1 else f"{count:,} memories"
    return UndoEntry(f"Undo {verb} of {what}", ids[0] if ids else 0, run)


def after_dismiss_many(changed: Sequence[int]) -> UndoEntry:
    ids = list(changed)
    return _many("dismiss", ids, lambda store: store.reactivate(ids))


def after_reactivate_many(changed: Sequence[int], before: Sequence[Memory]) -> UndoEntry:
    """Each memory the reactivation was asked for back as it was, status and expiry, in one write (one
    already active whose expiry the reactivation set included)."""
    back = {memory.id: (_status_as_it_was(memory), memory.expires_at) for memory in before}
    return _many("reactivate", list(changed), lambda store: store.put_back(back))


def after_delete_many(deleted: Sequence[int]) -> UndoEntry:
    ids = list(deleted)
    return _many("delete", ids, lambda store: store.restore(ids))


def after_restore_many(restored: Sequence[int]) -> UndoEntry:
    ids = list(restored)
    return _many("restore", ids, lambda store: store.delete(ids))


def after_expiry_many(changed: Sequence[int], before: Sequence[Memory]) -> UndoEntry:
    """The old expiries back, in one write; those the new one dismissed at once are active again."""
    wanted = set(changed)
    back = {memory.id: (_status_back(memory), memory.expires_at) for memory in before if memory.id in wanted}
    return _many("expiry change", list(changed), lambda store: store.put_back(back))


def after_add(memory: Memory) -> UndoEntry:
    memory_id = memory.id
    return UndoEntry(f"Undo new memory #{memory_id}", memory_id, lambda store: store.delete(memory_id))
