"""The window's Undo and Redo: a `QUndoStack` over the command log the CLI shares (`app.commands`).

The stack mirrors the log: one `LoggedStep` per entry, its index after the last done one. It is loaded
when the store opens and loaded again after every write and whenever another process changed the file
(a change made with the CLI appears here then), so it survives closing the window. Undo and Redo write
first, through the controller's serial runner (`runner.undo`/`redo`, expecting the entry the stack shows
on top), and move the stack only once the write is made: a refused step shows its message and leaves
the stack as it was. A jump in the history view (`QUndoView`) moves the stack first; each step it asks
for is then written in order, and the stack is loaded again from the log, so a refusal puts it back.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from PySide6.QtCore import QObject, Signal, SignalInstance
from PySide6.QtGui import QUndoCommand, QUndoStack

if TYPE_CHECKING:  # the command log loads SQLAlchemy: imported once the first cards were painted
    from concurrent.futures import Future

    from app.commands.base import Command
    from app.commands.runner import Step
    from app.core.models.command_log import LogEntry
    from app.store import MemoryStore
    from ui.runtime.first_screen import FirstScreen
    from ui.runtime.tasks import TaskRunner

WINDOW = "window"
PROJECT = "project"  # a step's `memory_kind` for the host's project memories (`PROJECT_KIND`)
T = TypeVar("T")
X = TypeVar("X")


def one_result(kind: type[X], done: Callable[[X], None]) -> Callable[[object], None]:
    """`done` for a command on one id, whose writer answers one thing (a memory, a revision) for one id
    and the ids that changed for many."""

    def call(result: object) -> None:
        assert isinstance(result, kind)
        done(result)

    return call


class Writer(Protocol):
    """What the history needs of the window's controller (`ui.runtime.controller.Controller`)."""

    memoryChanged: SignalInstance
    projectMemoryChanged: SignalInstance
    memoryRemoved: SignalInstance
    message: SignalInstance

    @property
    def store(self) -> MemoryStore: ...

    @property
    def runner(self) -> TaskRunner: ...

    def write(
        self,
        work: Callable[[MemoryStore], Any],
        done: Callable[[Any], None],
        on_error: Callable[[BaseException], None] | None = None,
        *,
        relist: bool = True,
    ) -> bool: ...

    def report(self, exc: BaseException) -> None: ...


class LoggedStep(QUndoCommand):
    """One log entry on the stack; its undo and redo ask the history to write them (never while the
    stack is only being loaded or moved after a write)."""

    def __init__(self, history: UndoHistory, entry: LogEntry) -> None:
        super().__init__(entry.label)
        self.entry = entry
        self._history = history

    def undo(self) -> None:
        self._history.asked(self.entry, back=True)

    def redo(self) -> None:
        self._history.asked(self.entry, back=False)


class UndoHistory(QObject):
    changed = Signal()  # the stack was loaded or moved: labels and enabled states may differ

    def __init__(self, controller: Writer, parent: QObject) -> None:
        super().__init__(parent)
        self.controller = controller
        self.stack = QUndoStack(self)
        self._moving = False  # the stack is loaded or moved to match the log: its steps write nothing
        self._entries: list[LogEntry] | None = None
        self._asked = False  # the log was read once (`load_once`)

    # -- what the menu shows ------------------------------------------------------------------------

    @property
    def undo_label(self) -> str:
        return f"Undo {self.stack.undoText()}" if self.stack.canUndo() else ""

    @property
    def redo_label(self) -> str:
        return f"Redo {self.stack.redoText()}" if self.stack.canRedo() else ""

    # -- the log ------------------------------------------------------------------------------------

    def load_once(self, *, priority: int = 0, first: Future[FirstScreen] | None = None) -> None:
        """The log's first read for this store (with the window's first frame, or after a listing);
        `first`: the launch's first screen, which read it before the window was built."""
        if not self._asked:
            self.reload(priority=priority, first=first)

    @property
    def loaded(self) -> bool:
        """The log of this store has been read."""
        return self._entries is not None

    def reload(self, *, priority: int = 0, first: Future[FirstScreen] | None = None) -> None:
        """Read the log (off the GUI thread) and show it, when it differs from what the stack shows."""
        from ui.runtime.first_screen import first_part

        self._asked = True

        def read() -> list[LogEntry]:  # the store: opened on the runner's thread, after a launch
            known = first_part(first, lambda screen: screen.undo_log)
            if known is not None:
                return known
            from app.commands.runner import history

            return history(self.controller.store)

        self.controller.runner.submit(read, self._loaded, self.controller.report, priority=priority)

    def _loaded(self, entries: list[LogEntry]) -> None:
        if entries == self._entries:
            return
        self._entries = entries
        self._moving = True
        try:
            self.stack.clear()
            for entry in entries:
                self.stack.push(LoggedStep(self, entry))
            self.stack.setIndex(sum(1 for entry in entries if entry.done))
        finally:
            self._moving = False
        self.changed.emit()

    def forget(self) -> None:
        """Another database opened: its own log follows (`reload`)."""
        self._loaded([])
        self._entries = None
        self._asked = False

    # -- doing, undoing, redoing --------------------------------------------------------------------

    def execute(
        self,
        command: Command[T],
        done: Callable[[T], None],
        on_error: Callable[[BaseException], None] | None = None,
        *,
        relist: bool = True,
    ) -> bool:
        """Run `command` as a write of the window (logged); the stack shows it before `done` runs."""
        from app.commands.runner import execute, history

        def finish(result: tuple[T, list[LogEntry]]) -> None:
            self._loaded(result[1])
            done(result[0])

        def work(store: MemoryStore) -> tuple[T, list[LogEntry]]:
            return execute(store, command, WINDOW), history(store)

        return self.controller.write(work, finish, on_error, relist=relist)

    def undo(self) -> None:
        self._step(back=True)

    def redo(self) -> None:
        self._step(back=False)

    def _step(self, *, back: bool) -> None:
        index = self.stack.index()
        at = index - 1 if back else index
        if not 0 <= at < self.stack.count():
            return
        step = self.stack.command(at)
        assert isinstance(step, LoggedStep)
        self._write(step.entry, back, move=True)

    def asked(self, entry: LogEntry, *, back: bool) -> None:
        """A step the stack itself took (the history view): write it, then load the log again."""
        if not self._moving:
            self._write(entry, back, move=False)

    def _write(self, entry: LogEntry, back: bool, *, move: bool) -> None:
        from app.commands.runner import history, redo, undo

        def work(store: MemoryStore) -> tuple[Step | None, list[Any], list[LogEntry]]:
            made = undo(store, expect=entry.id) if back else redo(store, expect=entry.id)
            ids = list(made.memory_ids) if made is not None else []
            if made is not None and made.memory_kind == PROJECT:  # the project memories' own ids
                found = [store.project.memory(memory_id) for memory_id in ids]
                return made, [memory for memory in found if memory is not None], history(store)
            return made, store.get_many(ids, deleted=False), history(store)

        def done(result: tuple[Step | None, list[Any], list[LogEntry]]) -> None:
            made, memories, entries = result
            if made is not None and move:
                self._moving = True
                try:
                    self.stack.undo() if back else self.stack.redo()
                finally:
                    self._moving = False
                self.changed.emit()
            self._loaded(entries)
            if made is not None:
                self._shown_again(made, memories, back)

        def failed(exc: BaseException) -> None:
            self.controller.report(exc)
            self._entries = None  # whatever the stack shows now, the log decides
            self.reload()

        self.controller.write(work, done, failed)

    def _shown_again(self, made: Step, memories: list[Any], back: bool) -> None:
        present = {memory.id for memory in memories}
        project = made.memory_kind == PROJECT
        for memory in memories:
            (self.controller.projectMemoryChanged if project else self.controller.memoryChanged).emit(memory)
        for memory_id in made.memory_ids:
            if memory_id not in present and not project:  # a project memory is never deleted here
                self.controller.memoryRemoved.emit(memory_id)
        note = f" ({made.note})" if made.note else ""
        what = made.entry.label[:1].upper() + made.entry.label[1:]
        self.controller.message.emit(f"{what}: {'undone' if back else 'redone'}{note}")
