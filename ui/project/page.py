"""`ProjectPage`: one project's memories in the main window: the filters, the picker and the listing's
title (in the user page's places), the cards (a model over the project's rows, painted at one height)
and the selected memory's detail; the edits through the window's undo stack. A project the host's
module manages, or a store that is read-only, is shown read-only, saying why, with no writer enabled.

The details of a selection (links, history) are read one memory at a time: while a read runs, only the
newest selection waits for it, so a burst of J presses reads the memory it stops on, not each one."""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise
from typing import TYPE_CHECKING, cast

from PySide6.QtCore import QItemSelectionModel, QModelIndex, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QListView,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from app.core.screening import make_visible
from app.present.plural import noun
from app.store import ACTIVE, Project, ProjectMemory
from ui.project.actions import ProjectActions
from ui.project.asking import ask_category, ask_content, ask_reason
from ui.project.delegate import ProjectCardDelegate
from ui.project.detail import ProjectDetail
from ui.project.filters import ProjectFilters, ProjectView, matches
from ui.project.model import ID_ROLE, ProjectCardModel
from ui.project.picker import ProjectChoices, ProjectPicker
from ui.project.reads import ProjectReads, ProjectRows
from ui.project.texts import counts_words
from ui.runtime.controller import Controller
from ui.widgets.labels import ElidedLabel
from ui.widgets.plain_tip import plain_tip

if TYPE_CHECKING:
    from PySide6.QtWidgets import QInputDialog

    from app.core.models import Revision
    from app.store import ProjectMemoryAsOf, ProjectMemoryLinks
    from ui.project.past import ProjectPastView


class ProjectPage(QWidget):
    countsChanged = Signal(str)  # the status bar's counts: shown, injected now, archived
    pastToggled = Signal()  # the project's past shown or left: the window's writers follow

    def __init__(
        self, controller: Controller, choices: ProjectChoices, now: Callable[[], int], parent: QWidget
    ) -> None:
        super().__init__(parent)
        self.controller = controller
        self._now = now
        self.project: Project | None = None
        self.rows: list[ProjectMemory] = []
        self.read_only_reason: str | None = None
        self.dialog: QInputDialog | None = None  # the question open now, if any
        self._reading: int | None = None  # the memory whose details are being read
        self._wanted: int | None = None  # the newest selection, waiting for that read
        self._select_after: int | None = None  # a memory to select once its project is listed
        self.past_view: ProjectPastView | None = None  # As of…: built when first asked for
        # The controller's child: a read still running when the window goes delivers to a live sender.
        self.reads = ProjectReads(controller, controller)
        self.acts = ProjectActions(self)
        self.picker = ProjectPicker(choices, self)
        self.title = ElidedLabel(parent=self)  # a long read-only reason is cut, never widens the column
        self.filters = ProjectFilters(self)
        self.model = ProjectCardModel(self)
        self.list = QListView(self)
        self.list.setModel(self.model)
        self.list.setItemDelegate(ProjectCardDelegate(now, self.list))
        self.list.setUniformItemSizes(True)  # one height: no row is laid out to show another
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.list.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.list.setAccessibleName("Project memories")
        self.list.addActions(self.acts.all)
        self.list.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        self.detail = ProjectDetail(now, self)
        self._lay_out()
        self._connect()
        self.acts.enable_for(None, None)

    def _lay_out(self) -> None:
        header = QHBoxLayout()
        header.setContentsMargins(8, 6, 8, 0)
        header.addWidget(self.picker)
        header.addWidget(self.title, 1)
        left = QWidget(self)
        column = QVBoxLayout(left)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        column.addWidget(self.filters)  # as the user page: its filters, then the picker and title
        column.addLayout(header)
        column.addWidget(self.list, 1)
        splitter = QSplitter(Qt.Orientation.Horizontal, self)
        splitter.addWidget(left)
        splitter.addWidget(self.detail)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        splitter.setSizes([600, 500])  # as the user cards and their panel
        self.splitter = splitter
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(splitter)
        for before, after in pairwise([*self.filters.fields(), self.picker, self.list]):
            QWidget.setTabOrder(before, after)

    def _connect(self) -> None:
        r, a, c = self.reads, self.acts, self.controller
        r.rowsLoaded.connect(self._rows_loaded)
        r.linksLoaded.connect(self._links_loaded)
        r.historyLoaded.connect(self._history_loaded)
        r.blameLoaded.connect(self.detail.set_blame)
        self.detail.blameWanted.connect(r.load_blame)
        c.projectMemoryChanged.connect(self._memory_changed)
        c.revisionLoaded.connect(self.detail.set_revision)
        self.detail.revisionWanted.connect(c.load_revision)
        self.detail.linkClicked.connect(self.open_memory)
        self.filters.changed.connect(self._apply)
        self.filters.search.returnPressed.connect(lambda: self.list.setFocus(Qt.FocusReason.OtherFocusReason))
        self.list.selectionModel().currentChanged.connect(
            lambda current, _old: self._current_changed(current)
        )
        self.list.doubleClicked.connect(lambda _index: self.edit())
        a.edit.triggered.connect(self.edit)
        a.category.triggered.connect(self.change_category)
        a.archive.triggered.connect(self.archive)
        a.restore.triggered.connect(self.restore)
        a.next.triggered.connect(lambda: self._move(1))
        a.previous.triggered.connect(lambda: self._move(-1))

    # -- the listing -----------------------------------------------------------------------------------

    def show_project(self, project: Project) -> None:
        """List `project`'s memories (read off the GUI thread); the filters start over for another one."""
        self.leave_past()
        if self.project is None or project.key != self.project.key:
            self.filters.clear()
            self.model.clear()
            self.rows = []
        self.project = project
        self.picker.show_choice(project)
        self.title.setText(f"Reading {make_visible(project.display_name)}…")
        self.reads.load_rows(project)

    def reload(self) -> None:
        if self.project is not None:
            self.reads.load_rows(self.project)

    def _rows_loaded(self, found: ProjectRows) -> None:
        if self.project is None or found.key != self.project.key:
            return  # another project was picked since
        self.rows, self.read_only_reason = found.rows, found.read_only_reason
        self.filters.set_values((row.category for row in self.rows), (row.status for row in self.rows))
        if self._select_after is not None:
            self._unhide(self._select_after)
        self._apply(self.filters.current())

    def _apply(self, view: ProjectView) -> None:
        current = self.current_id()
        shown = matches(self.rows, view)
        self.model.set_listing(shown)
        total = len(self.rows)
        name = make_visible(self.project.display_name) if self.project is not None else ""
        counted = f"{len(shown):,} of {total:,}" if len(shown) != total else f"{total:,}"
        memories = f"{counted} {noun(total, 'memory')}"  # 1 of 3 memories, 1 memory
        owned = f" · read-only: {self.read_only_reason}" if self.read_only_reason else ""
        self.title.setText(memories)  # the detail says why it is read-only: once, whole
        self.title.setToolTip(plain_tip(f"{memories} of {name}{owned}"))
        self.countsChanged.emit(counts_words(shown, self.rows, self._now()))
        wanted, self._select_after = self._select_after, None
        for memory_id in (wanted, current):
            if memory_id is not None and self.select_id(memory_id):
                return
        if shown:
            self.select_id(shown[0].id)
        else:
            self._current_changed(QModelIndex())

    # -- as of: the project at an instant, read-only ---------------------------------------------------

    @property
    def past(self) -> ProjectPastView:
        """The view of the project's past, built the first time it is asked for."""
        if self.past_view is None:
            from ui.project.past import ProjectPastView

            self.past_view = ProjectPastView(self)
            self.past_view.left.connect(self.leave_past)
            self.reads.pastLoaded.connect(self._past_loaded)
            cast(QVBoxLayout, self.layout()).addWidget(self.past_view)
        return self.past_view

    @property
    def looking_back(self) -> bool:
        return self.past_view is not None and self.past_view.isVisible()

    def look_back(self, at: int) -> None:
        """What the host injected for the project shown at `at` (read off the GUI thread), in place of
        its memories now until the person leaves."""
        if self.project is None:
            return
        self.past.begin(at, make_visible(self.project.display_name))
        self.splitter.hide()
        self.past.show()
        self.past.list.setFocus(Qt.FocusReason.OtherFocusReason)
        self.reads.load_past(self.project, at)
        self.pastToggled.emit()

    def _past_loaded(self, at: int, states: list[ProjectMemoryAsOf]) -> None:
        name = make_visible(self.project.display_name) if self.project is not None else ""
        self.past.set_states(at, states, name)

    def leave_past(self) -> None:
        if self.past_view is None:
            return
        self.past_view.hide()
        self.past_view.at = None  # a listing still on its way is dropped
        self.splitter.show()
        self.list.setFocus(Qt.FocusReason.OtherFocusReason)
        self.pastToggled.emit()

    # -- the selection ---------------------------------------------------------------------------------

    def current_id(self) -> int | None:
        index = self.list.currentIndex()
        return int(index.data(ID_ROLE)) if index.isValid() else None

    def current_memory(self) -> ProjectMemory | None:
        memory_id = self.current_id()
        return self.model.memory(memory_id) if memory_id is not None else None

    def select_id(self, memory_id: int) -> bool:
        row = self.model.row_of(memory_id)
        if row is None:
            return False
        index = self.model.index(row)
        flags = QItemSelectionModel.SelectionFlag.ClearAndSelect
        self.list.selectionModel().setCurrentIndex(index, flags)
        self.list.scrollTo(index)
        return True

    def open_memory(self, memory_id: int) -> None:
        """A link's memory selected: listed under no filter if one hides it; in another project, or gone,
        the status bar says so."""
        if not self.select_id(memory_id) and self._unhide(memory_id):
            self._select_after = memory_id
            self._apply(self.filters.current())

    def select_when_listed(self, memory_id: int) -> None:
        """The listing asked for last selects `memory_id` once it arrives, a filter hiding it cleared."""
        self._select_after = memory_id

    def _unhide(self, memory_id: int) -> bool:
        """Clear the filters if they hide `memory_id`, the status bar saying so; False (said there too) if
        the project holds no such memory."""
        held = [row for row in self.rows if row.id == memory_id]
        if not held:
            self.controller.message.emit(
                f"Project memory #{memory_id} is not in this project (or no longer exists)"
            )
        elif not matches(held, self.filters.current()):
            self.filters.clear()
            self.controller.message.emit(f"All of this project's memories listed, to show #{memory_id}")
        return bool(held)

    def _move(self, step: int) -> None:
        row = self.list.currentIndex().row() + step
        if 0 <= row < self.model.rowCount():
            self.select_id(self.model.ids[row])

    def _current_changed(self, index: QModelIndex) -> None:
        memory = self.model.memory(int(index.data(ID_ROLE))) if index.isValid() else None
        shown = self.detail.memory
        self.detail.show_memory(memory, self.read_only_reason)
        self.acts.enable_for(memory, self.read_only_reason)
        if memory is not None and memory != shown:  # another memory, or this one moved (a rewrite seen)
            self._want_details(memory.id)

    def _want_details(self, memory_id: int) -> None:
        if self._reading is not None:
            self._wanted = memory_id  # read once the running read arrives
            return
        self._reading, self._wanted = memory_id, None
        self.reads.load_details(memory_id)

    def _links_loaded(self, memory_id: int, links: ProjectMemoryLinks | None) -> None:
        self.detail.set_links(memory_id, links)

    def _history_loaded(self, memory_id: int, revisions: list[Revision]) -> None:
        self.detail.set_history(memory_id, revisions)
        self._reading = None
        wanted, self._wanted = self._wanted, None
        if wanted is not None and wanted != memory_id:
            self._want_details(wanted)

    def _memory_changed(self, memory: ProjectMemory) -> None:
        """A write, an undo or a redo of a project memory: its card, its detail and its history again.
        A card the write moves out of the filters leaves the listing (the next card is selected in its
        place), and one an undo moves back in returns, as the user memories' cards do."""
        self.rows = [memory if row.id == memory.id else row for row in self.rows]
        self.filters.set_values((row.category for row in self.rows), (row.status for row in self.rows))
        listed = self.model.row_of(memory.id)
        if (listed is not None) != bool(matches([memory], self.filters.current())) and any(
            row.id == memory.id for row in self.rows
        ):
            if listed is not None and self.current_id() == memory.id:
                following = self.model.ids[listed + 1 : listed + 2] or self.model.ids[listed - 1 : listed]
                self._select_after = following[0] if following else None
            self._apply(self.filters.current())
            return
        self.model.update_rows([memory])
        self.countsChanged.emit(
            counts_words(matches(self.rows, self.filters.current()), self.rows, self._now())
        )
        if self.detail.memory is not None and self.detail.memory.id == memory.id:
            self.detail.show_memory(memory, self.read_only_reason)
            self.acts.enable_for(memory, self.read_only_reason)
            self._want_details(memory.id)

    # -- the writes ------------------------------------------------------------------------------------

    def edit(self) -> None:
        memory = self.current_memory()
        if memory is None or not self.acts.edit.isEnabled():
            return

        def answered(text: str) -> None:
            from app.commands.project import EditProjectContent

            self.reads.change(EditProjectContent(memory.id, text), f"Saved project memory #{memory.id}")

        self.dialog = ask_content(self, memory.id, memory.content, answered)

    def change_category(self) -> None:
        memory = self.current_memory()
        if memory is None or not self.acts.category.isEnabled():
            return
        known = [row.category for row in self.rows]

        def answered(text: str) -> None:
            from app.commands.project import ChangeProjectCategory

            note = f"Moved project memory #{memory.id} to {text}"
            self.reads.change(ChangeProjectCategory(memory.id, text.strip()), note)

        self.dialog = ask_category(self, memory.id, memory.category, known, answered)

    def archive(self) -> None:
        memory = self.current_memory()
        if memory is None or not self.acts.archive.isEnabled():
            return

        def answered(reason: str) -> None:
            from app.commands.project import ArchiveProjectMemory

            command = ArchiveProjectMemory(memory.id, reason.strip() or None)
            self.reads.change(command, f"Archived project memory #{memory.id}")

        self.dialog = ask_reason(self, memory.id, answered)

    def restore(self) -> None:
        memory = self.current_memory()
        if memory is None or not self.acts.restore.isEnabled():
            return
        from app.commands.project import RestoreProjectMemory

        self.reads.change(RestoreProjectMemory(memory.id, ACTIVE), f"Restored project memory #{memory.id}")
