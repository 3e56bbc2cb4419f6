"""`ProjectReads`: the project page's reads and writes, through the window's controller (its serial
runner, its undo history), with the results as signals on the GUI thread.

A project's memories are read whole, after a look for outside rewrites (so a rewrite's revision is
there before its history is read); the page filters them by itself, so a filter or a search key never
waits for the store. The writes are the commands of `app.commands.project`, on the window's undo stack.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from app.store import Project, ProjectKey, ProjectMemory
from ui.runtime.controller import NOW, Controller

if TYPE_CHECKING:
    from app.commands.project import ProjectChange
    from app.core.models import Revision
    from app.core.models.blame import Blame
    from app.store import MemoryStore


@dataclass(frozen=True, slots=True)
class ProjectRows:
    """A project's memories as read, by id, with its read-only reason (the host's module owns it)."""

    key: ProjectKey
    rows: list[ProjectMemory]
    read_only_reason: str | None


class ProjectReads(QObject):
    projectsLoaded = Signal(object)  # list[Project]
    rowsLoaded = Signal(object)  # ProjectRows
    linksLoaded = Signal(object, object)  # memory id, ProjectMemoryLinks | None
    historyLoaded = Signal(object, object)  # memory id, list[Revision] newest first
    blameLoaded = Signal(object, object)  # memory id, Blame
    pastLoaded = Signal(object, object)  # instant asked for, list[ProjectMemoryAsOf]

    def __init__(self, controller: Controller, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.controller = controller

    def load_projects(self) -> None:
        self.controller.runner.submit(
            lambda: self.controller.store.project.projects(),
            self.projectsLoaded.emit,
            self.controller.report,
            priority=NOW,
        )

    def load_rows(self, project: Project) -> None:
        store = self.controller.store

        def work() -> ProjectRows:
            store.observe()  # an outside rewrite's revision first, then the rows that show it
            from app.store import ProjectFilter

            rows = store.project.memories(ProjectFilter(project=project.key))
            return ProjectRows(project.key, rows, _reason(store, project))

        self.controller.runner.submit(work, self.rowsLoaded.emit, self.controller.report, priority=NOW)

    def load_details(self, memory_id: int) -> None:
        """The memory's links both ways, then its history (newest first)."""
        store = self.controller.store

        def history() -> list[Revision]:
            from app.store import PROJECT_MEMORIES

            return list(reversed(store.history(memory_id, kind=PROJECT_MEMORIES)))

        runner, report = self.controller.runner, self.controller.report
        runner.submit(
            lambda: store.project.with_links(memory_id),
            lambda links: self.linksLoaded.emit(memory_id, links),
            report,
            priority=NOW,
        )
        runner.submit(history, lambda found: self.historyLoaded.emit(memory_id, found), report, priority=NOW)

    def load_blame(self, memory_id: int) -> None:
        """Which revision wrote each sentence of the memory."""
        store = self.controller.store

        def blame() -> Blame:
            from app.store import PROJECT_MEMORIES

            return store.blame(memory_id, kind=PROJECT_MEMORIES)

        c = self.controller
        c.runner.submit(blame, lambda found: self.blameLoaded.emit(memory_id, found), c.report, priority=NOW)

    def load_past(self, project: Project, at: int) -> None:
        """What the host injected for `project` at `at`, in its order, then the memories unknown then."""
        store, c = self.controller.store, self.controller
        c.runner.submit(
            lambda: store.project_as_of(project.key, at),
            lambda found: self.pastLoaded.emit(at, found),
            c.report,
            priority=NOW,
        )

    def change(self, command: ProjectChange, message: str) -> None:
        """Run a project command on the window's undo stack; its memory shown again once written."""
        c = self.controller

        def done(memory: object) -> None:
            if isinstance(memory, ProjectMemory):
                c.projectMemoryChanged.emit(memory)
                c.message.emit(message)

        c.undo_history.execute(command, done, relist=False)


def _reason(store: MemoryStore, project: Project) -> str | None:
    """Why the project is read-only now: the store's own reason, else the host's module owning it."""
    if store.read_only:
        return store.read_only_reason
    return project.read_only_reason
