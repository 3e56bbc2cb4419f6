"""Writes of the window that act on many memories, or on none yet: the selection's dismiss, reactivate,
delete, expiry and restore (one store call each, one transaction, one Undo), a new memory, trust marks
and retiring a source's contributions.

Each runs through the controller's serial runner like every other write; the listing then refreshes (not
observed), which re-reads the cards on screen.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from app.core.errors import ExpiryRequiredError
from app.core.models import KEEP, Memory
from ui.runtime import undo as undo_ops
from ui.runtime.controller import Controller

if TYPE_CHECKING:
    from app.store import MemoryStore


def count_word(count: int) -> str:
    return f"{count:,} memor{'y' if count == 1 else 'ies'}"


class BulkWrites:
    def __init__(self, controller: Controller) -> None:
        self.controller = controller

    def _write(
        self,
        work: Callable[[MemoryStore], list[int]],
        undo: Callable[[list[int]], undo_ops.UndoEntry],
        verb: str,
        on_error: Callable[[BaseException], None] | None = None,
    ) -> None:
        def done(changed: list[int]) -> None:
            entry = undo(changed) if changed else None
            self.controller.set_undo(
                entry, f"{verb} {count_word(len(changed))}" + (" (Ctrl+Z undoes it)" if changed else "")
            )

        self.controller.write(work, done, on_error)

    def dismiss(self, ids: Sequence[int]) -> None:
        chosen = list(ids)
        self._write(lambda s: s.dismiss(chosen), undo_ops.after_dismiss_many, "Dismissed")

    def reactivate(
        self,
        ids: Sequence[int],
        new_expiry: int | object | None = KEEP,
        *,
        on_expiry_required: Callable[[ExpiryRequiredError], None] | None = None,
    ) -> None:
        chosen = list(ids)
        before: list[Memory] = []

        def work(store: MemoryStore) -> list[int]:
            before.extend(store.get_many(chosen, deleted=False))
            return store.reactivate(chosen, new_expiry)

        def failed(exc: BaseException) -> None:
            if isinstance(exc, ExpiryRequiredError) and on_expiry_required is not None:
                on_expiry_required(exc)
            else:
                self.controller.report(exc)

        self._write(
            work, lambda changed: undo_ops.after_reactivate_many(changed, before), "Reactivated", failed
        )

    def delete(self, ids: Sequence[int]) -> None:
        chosen = list(ids)

        def done(deleted: list[int]) -> None:  # the listing that follows the write drops their cards
            self.controller.set_undo(
                undo_ops.after_delete_many(deleted),
                f"Deleted {count_word(len(deleted))} (Ctrl+Z brings them back)",
            )

        self.controller.write(lambda s: s.delete(chosen), done)

    def set_expiry(self, ids: Sequence[int], expires_at: int | None) -> None:
        chosen: list[int] = list(ids)
        before: list[Memory] = []

        def work(store: MemoryStore) -> list[int]:
            before.extend(store.get_many(chosen, deleted=False))
            return store.set_expiry(chosen, expires_at)

        self._write(
            work, lambda changed: undo_ops.after_expiry_many(changed, before), "Changed the expiry of"
        )

    def restore_deleted(self, ids: Sequence[int]) -> None:
        """Deleted memories back from the trash, each from its latest delete revision."""
        chosen = list(ids)
        self._write(lambda s: s.restore(chosen), undo_ops.after_restore_many, "Restored")

    def add(self, content: str, on_saved: Callable[[Memory], None] | None = None) -> None:
        def done(memory: Memory) -> None:
            self.controller.changed(memory, f"Added #{memory.id}", undo_ops.after_add(memory))
            if on_saved is not None:
                on_saved(memory)

        self.controller.write(lambda s: s.add(content), done)

    def set_trust(self, source: str, trust: str) -> None:
        """A mark on a source; a read-only store keeps it in memory, so this is not a refused write."""
        store = self.controller.store

        def done(_marks: dict[str, str]) -> None:
            shown = "has no mark" if trust == "default" else f"is marked {trust}"
            self.controller.message.emit(f"{source} {shown}")
            self.controller.refresh(observe=False)

        self.controller.runner.submit(lambda: store.set_trust(source, trust), done, self.controller.report)

    def contributions(self, source: str, done: Callable[[tuple[list[Memory], list[Memory]]], None]) -> None:
        """Everything a source contributed (only source, one of several), read off the GUI thread."""
        store = self.controller.store
        self.controller.runner.submit(lambda: store.contributions(source), done, self.controller.report)
