"""The controller's writes: every change a person makes, through the undo history's commands.

A write updates its one row and the counts; it lists again only when it may move rows in or out of
the current filter, and without observing (what it wrote is known). Every write is refused before it
starts while the store is read-only or its file is gone from under it (`write_refusal`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from app.commands.status import Dismiss, Reactivate, SetExpiry
from app.commands.text import Edit, RestoreRevision
from app.core.errors import ConflictError, ExpiryRequiredError, StoreError
from app.core.models import KEEP, Memory, Revision
from ui.runtime.controller.base import NOW, ControllerBase
from ui.runtime.controller.messages import refused_saying
from ui.runtime.undo_stack import one_result

if TYPE_CHECKING:
    from app.store import MemoryStore, ProjectMemory
    from app.tidy.merge_plan import MergePlan

T = TypeVar("T")


class ControllerWrites(ControllerBase):
    def write(
        self,
        work: Callable[[MemoryStore], T],
        done: Callable[[T], None],
        on_error: Callable[[BaseException], None] | None = None,
        *,
        relist: bool = True,
    ) -> bool:
        """Run a write; then the counts, and a listing (not observed) when `relist`: the write may move
        rows in or out of the filter. Its own row comes with its result (`changed`), not with a listing."""
        self.check_file()  # the watcher may not have told yet: never a write into an unlinked file
        refusal = self.write_refusal
        if refusal is not None:
            self.error.emit(refused_saying(refusal, "Nothing was changed."))
            return False

        def finish(result: T) -> None:
            done(result)  # first: the history read it starts is queued before the listing
            if relist:
                self.refresh(observe=False)
            else:
                self.load_counts()

        self._run(lambda: work(self._writable()), finish, on_error)
        return True

    def _writable(self) -> MemoryStore:
        """The store, for a write asked before its refusal was known (it is kept quiet for reads): said."""
        try:
            return self.store
        except StoreError as exc:
            if exc is not self.refused:
                raise
            raise StoreError(refused_saying(exc.message, "Nothing was changed.")) from exc

    def changed(self, memory: Memory, message: str) -> None:
        self.memoryChanged.emit(memory)
        self.message.emit(message)

    def edit(
        self,
        before: Memory,
        content: str,
        *,
        on_conflict: Callable[[ConflictError], None] | None = None,
        on_saved: Callable[[Memory], None] | None = None,
    ) -> None:
        """Save `content` over `before`; refused (`on_conflict`) if the memory moved since it was read."""

        def done(after: Memory) -> None:
            self.changed(after, f"Saved #{after.id}")
            if on_saved:
                on_saved(after)

        def failed(exc: BaseException) -> None:
            if isinstance(exc, ConflictError) and on_conflict is not None:
                on_conflict(exc)
            else:
                self.report(exc)

        self.undo_history.execute(
            Edit(before.id, content, expected=before), done, failed, relist=self._content_moves_rows()
        )

    def _content_moves_rows(self) -> bool:
        """Whether a change of content may move a row in the current listing, or in or out of it."""
        flt = self.filter
        return bool(flt.search) or flt.sort != "promoted" or flt.status not in ("active", "dismissed", "all")

    def dismiss(self, before: Memory) -> None:
        self.undo_history.execute(
            Dismiss(before.id), one_result(Memory, lambda m: self.changed(m, f"Dismissed #{m.id}"))
        )

    def reactivate(
        self,
        before: Memory,
        new_expiry: int | object | None = KEEP,
        *,
        on_expiry_required: Callable[[ExpiryRequiredError], None] | None = None,
    ) -> None:
        """`new_expiry`: KEEP the current one, None for never, or a future instant (epoch ms)."""
        expiry = new_expiry

        def failed(exc: BaseException) -> None:
            if isinstance(exc, ExpiryRequiredError) and on_expiry_required is not None:
                on_expiry_required(exc)
            else:
                self.report(exc)

        self.undo_history.execute(
            Reactivate(before.id, expiry),
            one_result(Memory, lambda m: self.changed(m, f"Reactivated #{m.id}")),
            failed,
        )

    def set_expiry(self, before: Memory, expires_at: int | None) -> None:
        def done(m: Memory) -> None:
            text = "Cleared the expiry of" if expires_at is None else "Set the expiry of"
            self.changed(m, f"{text} #{m.id}")

        self.undo_history.execute(SetExpiry(before.id, expires_at), one_result(Memory, done))

    def delete(self, before: Memory) -> None:
        def done(_revision: Revision) -> None:
            self.memoryRemoved.emit(before.id)
            self.message.emit(f"Deleted #{before.id} (Ctrl+Z brings it back)")

        from app.commands.presence import Delete

        self.undo_history.execute(Delete(before.id), one_result(Revision, done))

    def restore(self, before: Memory, revision_id: int) -> None:
        self.undo_history.execute(
            RestoreRevision(before.id, revision_id),
            lambda m: self.changed(m, f"Restored #{m.id} from revision {revision_id}"),
            relist=self._content_moves_rows(),
        )

    def merge(self, plan: MergePlan, content: str, done: Callable[[list[Memory]], None]) -> bool:
        """The Tidy dialog's Merge: one command (Ctrl+Z undoes it). The kept card shows its new text; the
        dismissed ones leave a listing of active memories at once (their rows removed) or show their
        new status; the whole listing is read again only where a row may move (a search, a sort by
        time, another status filter): at 100,000 memories that read alone is far over a click's budget."""
        from app.commands.merging import MergeMemories
        from app.tidy.merge_plan import sentence_sources

        status = self.filter.status

        def finished(memories: list[Memory]) -> None:
            for memory in memories:
                if memory.id != plan.kept and status == "active":
                    self.memoryRemoved.emit(memory.id)
                else:
                    self.memoryChanged.emit(memory)
            self.message.emit(f"Merged {len(memories)} memories into #{plan.kept}")
            done(memories)

        # Which member each sentence came from is found with the write, off the window's thread.
        command = MergeMemories(
            plan.kept, plan.absorbed, content, lambda: sentence_sources(content, plan.members, plan.kept)
        )
        relist = self._content_moves_rows() or status not in ("active", "all")
        return self.undo_history.execute(command, finished, relist=relist)

    def merge_project(self, plan: MergePlan, content: str, done: Callable[[int], None]) -> bool:
        """The Tidy dialog's Merge of one project's memories: one command (Ctrl+Z undoes it); each member
        read again and shown on the project page (the kept one's new text, the others archived)."""
        from app.commands.merging import MergeProjectMemories
        from app.tidy.merge_plan import sentence_sources

        sentences = sentence_sources(content, plan.members, plan.kept)
        ids = [member.id for member in plan.members]
        store = self.store

        def shown(memories: list[ProjectMemory]) -> None:
            for memory in memories:
                self.projectMemoryChanged.emit(memory)
            self.message.emit(f"Merged {len(ids)} project memories into #{plan.kept}")
            done(plan.kept)

        def read() -> list[ProjectMemory]:
            return [memory for i in ids if (memory := store.project.memory(i)) is not None]

        def finished(_kept: int) -> None:
            self.runner.submit(read, shown, self.report, priority=NOW)

        command = MergeProjectMemories(plan.kept, plan.absorbed, content, sentences)
        return self.undo_history.execute(command, finished, relist=False)

    def keep_over(self, kept: int, other: int, done: Callable[[Memory], None]) -> bool:
        """The Tidy dialog's Keep this one, for a pair that may contradict: `other` dismissed and linked
        to `kept`, one command (Ctrl+Z undoes it); its row leaves a listing of active memories."""
        from app.commands.resolving import ResolveContradiction

        status = self.filter.status

        def finished(memory: Memory) -> None:
            if status == "active":
                self.memoryRemoved.emit(memory.id)
            else:
                self.memoryChanged.emit(memory)
            self.message.emit(f"Kept #{kept}; dismissed #{other}, which contradicted it")
            done(memory)

        command = ResolveContradiction(kept, other)
        return self.undo_history.execute(command, one_result(Memory, finished), relist=status != "active")

    def undo(self) -> None:
        self.undo_history.undo()

    def redo(self) -> None:
        self.undo_history.redo()

    def sweep(self) -> None:
        """Dismiss what has expired (the window runs this on a timer for writable stores); the window
        lists again only when something was dismissed: a minute's timer never reloads the listing."""
        if self.read_only:
            return

        def done(ids: list[int]) -> None:
            if ids:
                self.message.emit("Expired and dismissed: " + ", ".join(f"#{i}" for i in ids))
                self.refresh(observe=False)

        self._run(self.store.sweep, done)
