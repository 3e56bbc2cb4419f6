"""Writes of the window that act on many memories, or on none yet: the selection's dismiss, reactivate,
delete, expiry and restore (one command each, one transaction, one Undo), a new memory, trust marks
and retiring a source's contributions.

Each is a command of the log (`app.commands`, through `UndoHistory.execute`), run on the controller's
serial runner like every other write; the listing then refreshes (not observed), which re-reads the cards
on screen.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from app.commands.status import Dismiss, Reactivate, SetExpiry
from app.core.errors import ExpiryRequiredError
from app.core.models import KEEP, Memory, Revision
from ui.runtime.controller import Controller

if TYPE_CHECKING:
    from app.commands.base import Command

# The commands that make or delete memories, and trust marks, load SQLAlchemy: each is imported where it
# is used, once the first cards were painted.


def count_word(count: int) -> str:
    return f"{count:,} memor{'y' if count == 1 else 'ies'}"


def _ids(result: Memory | Revision | list[int]) -> list[int]:
    """What a command on many ids returned: those that changed."""
    return result if isinstance(result, list) else []


class BulkWrites:
    def __init__(self, controller: Controller) -> None:
        self.controller = controller

    def _write(
        self,
        command: Command[Any],
        verb: str,
        on_error: Callable[[BaseException], None] | None = None,
        undo_says: str = " (Ctrl+Z undoes it)",
    ) -> None:
        def done(result: Memory | Revision | list[int]) -> None:
            changed = _ids(result)
            self.controller.message.emit(
                f"{verb} {count_word(len(changed))}" + (undo_says if changed else "")
            )

        self.controller.undo_history.execute(command, done, on_error)

    def dismiss(self, ids: Sequence[int], *, retire: str = "") -> None:
        self._write(Dismiss(list(ids), retire=retire), "Dismissed")

    def reactivate(
        self,
        ids: Sequence[int],
        new_expiry: int | object | None = KEEP,
        *,
        on_expiry_required: Callable[[ExpiryRequiredError], None] | None = None,
    ) -> None:
        def failed(exc: BaseException) -> None:
            if isinstance(exc, ExpiryRequiredError) and on_expiry_required is not None:
                on_expiry_required(exc)
            else:
                self.controller.report(exc)

        self._write(Reactivate(list(ids), new_expiry), "Reactivated", failed)

    def delete(self, ids: Sequence[int], *, retire: str = "") -> None:
        from app.commands.presence import Delete

        # The listing that follows the write drops their cards.
        self._write(Delete(list(ids), retire=retire), "Deleted", undo_says=" (Ctrl+Z brings them back)")

    def set_expiry(self, ids: Sequence[int], expires_at: int | None) -> None:
        self._write(SetExpiry(list(ids), expires_at), "Changed the expiry of")

    def restore_deleted(self, ids: Sequence[int]) -> None:
        """Deleted memories back from the trash, each from its latest delete revision."""
        from app.commands.presence import RestoreDeleted

        self._write(RestoreDeleted(list(ids)), "Restored")

    def add(self, content: str, on_saved: Callable[[Memory], None] | None = None) -> None:
        from app.commands.presence import Add

        def done(memory: Memory) -> None:
            self.controller.changed(memory, f"Added #{memory.id}")
            if on_saved is not None:
                on_saved(memory)

        self.controller.undo_history.execute(Add(content), done)

    def set_trust(self, source: str, trust: str) -> None:
        """A mark on a source (a command of the log); a read-only store keeps it in memory, so this is not
        a refused write."""
        from app.commands.other import Trust
        from app.commands.runner import execute

        store = self.controller.store

        def done(_marks: dict[str, str]) -> None:
            shown = "has no mark" if trust == "default" else f"is marked {trust}"
            self.controller.message.emit(f"{source} {shown}")
            self.controller.refresh(observe=False)
            self.controller.undo_history.reload()

        command = Trust(source, trust)
        self.controller.runner.submit(lambda: execute(store, command, "window"), done, self.controller.report)

    def contributions(self, source: str, done: Callable[[tuple[list[Memory], list[Memory]]], None]) -> None:
        """Everything a source contributed (only source, one of several), read off the GUI thread."""
        store = self.controller.store
        self.controller.runner.submit(lambda: store.contributions(source), done, self.controller.report)
