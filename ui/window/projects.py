"""The main window's switch between "About you" (the user memories, shown at launch) and a project's
memories: the picker above the user cards (its choices shared with the project page's), the project
page built the first time a project is picked (its modules imported then), and the way back.

While a project is shown, the user cards' writers are disabled (they act on user memories) and the
toolbar's filters, which list user memories, with them; Undo and Redo stay: one stack for both kinds.
Blame and As of… act on the project shown, and the status bar counts its memories, in the place of the
user memories' counts.
Switch project… (Ctrl+Shift+P) opens the picker shown, from anywhere in the window; Tidy's Show card
opens a project memory's page there, its card selected (`show_memory`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QBoxLayout, QStackedWidget, QWidget

from ui.actions.window import WindowActions
from ui.cards.filter_bar import FilterBar
from ui.project.picker import ProjectChoices, ProjectPicker
from ui.runtime.controller import NOW, Controller

if TYPE_CHECKING:
    from app.store import Project
    from ui.dialogs.as_of import AsOfDialog
    from ui.project.page import ProjectPage
    from ui.window.status_line import StatusLine


class ProjectSwitch:
    def __init__(
        self,
        controller: Controller,
        pages: QStackedWidget,
        user_page: QWidget,
        title_row: QWidget,
        now: Callable[[], int],
    ) -> None:
        self.controller, self.pages, self.user_page, self.now = controller, pages, user_page, now
        self.user_only: list[QWidget | QAction] = []
        self.actions_changed: Callable[[], None] = lambda: None
        self.choices = ProjectChoices(self._read_projects, controller)  # outlives a read in flight
        self.picker = ProjectPicker(self.choices, title_row)
        row = title_row.layout()
        assert isinstance(row, QBoxLayout)
        row.insertWidget(0, self.picker)
        row.setContentsMargins(8, 6, 8, 0)
        self.picker.chosen.connect(self.choose)
        self.built: ProjectPage | None = None
        self.acts: WindowActions | None = None  # the window's, once bound
        self.status: StatusLine | None = None  # the window's, once routed
        self.as_of_dialog: AsOfDialog | None = None  # the last As of… asked for a project
        controller.storeChanged.connect(lambda _store: self._store_changed())
        controller.memoriesLoaded.connect(lambda _listing: self._listed_again())

    def bind(
        self, acts: WindowActions, filters: FilterBar, cards: QWidget, actions_changed: Callable[[], None]
    ) -> None:
        """The window's actions: Switch project… opens the picker, Find the project's search while a
        project is shown; what acts on user memories (and the toolbar's `filters`) is off meanwhile.
        Tab reaches the picker after the filters, before the `cards` below it."""
        QWidget.setTabOrder(filters.fields()[-1], self.picker)
        QWidget.setTabOrder(self.picker, cards)
        a = acts
        self.user_only = [
            a.edit,
            a.dismiss,
            a.reactivate,
            a.delete,
            a.expiry,
            a.new_memory,
            a.restore_deleted,
        ]
        self.user_only.append(filters)
        self.actions_changed = actions_changed
        self.acts = a
        a.pick_project.triggered.connect(self.open_picker)
        a.find.triggered.connect(self._find)

    def route(
        self, acts: WindowActions, status: StatusLine, *, blame: Callable[[], None], as_of: Callable[[], None]
    ) -> None:
        """Blame (Ctrl+B) and As of… act on the project shown, else (`blame`, `as_of`) on the user
        memories; the status bar counts the project's memories while it is shown."""
        self.status = status
        acts.blame.triggered.connect(lambda: self.page.detail.show_blame() if self.shown else blame())
        acts.as_of.triggered.connect(lambda: self.ask_as_of() if self.shown else as_of())

    def ask_as_of(self) -> None:
        """The As of… dialog for the project shown; its instant shown on the project's page."""
        page = self.page
        start = page.past.at if page.looking_back and page.past.at else self.controller.now()
        from ui.dialogs.as_of import AsOfDialog  # its modules load with the first use

        self.as_of_dialog = dialog = AsOfDialog(start, self.pages.window())
        dialog.accepted.connect(lambda: page.look_back(dialog.chosen()))
        dialog.open()

    def _read_projects(self, done: Callable[[Sequence[Project]], None]) -> None:
        c = self.controller
        c.runner.submit(lambda: c.store.project.projects(), done, c.report, priority=NOW)

    @property
    def page(self) -> ProjectPage:
        """The project page, built the first time a project is picked."""
        if self.built is None:
            from ui.project.page import ProjectPage

            self.built = ProjectPage(self.controller, self.choices, self.now, self.pages.window())
            self.built.picker.chosen.connect(self.choose)
            self.built.countsChanged.connect(self._counts_changed)
            self.built.pastToggled.connect(lambda: self.actions_changed())
            self.pages.addWidget(self.built)
        return self.built

    @property
    def shown(self) -> bool:
        return self.built is not None and self.pages.currentWidget() is self.built

    def shown_picker(self) -> ProjectPicker:
        return self.page.picker if self.shown else self.picker

    def open_picker(self) -> None:
        if not self.shown and not self.picker.isVisible():  # the welcome page: the cards, to pick from
            self.pages.setCurrentWidget(self.user_page)
        picker = self.shown_picker()
        picker.setFocus(Qt.FocusReason.ShortcutFocusReason)
        picker.showPopup()

    def choose(self, project: Project | None) -> None:
        """Show `project`'s memories, or (None) the memories about you."""
        self.picker.show_choice(project)
        if project is None:
            self.back()
            return
        page = self.page
        page.show_project(project)
        self.pages.setCurrentWidget(page)
        page.list.setFocus(Qt.FocusReason.OtherFocusReason)
        self.restrict()

    def show_memory(self, identity: str, memory_id: int) -> None:
        """Tidy's Show card for a project memory: the page of the project named `identity` (read again),
        that memory's card selected once it is listed."""
        self._read_projects(lambda projects: self._reveal(projects, identity, memory_id))

    def _reveal(self, projects: Sequence[Project], identity: str, memory_id: int) -> None:
        from app.tidy.source import UnknownProject, pick_project

        try:
            project = pick_project(list(projects), identity)
        except UnknownProject:  # its memories were all deleted since Tidy listed them
            self.controller.message.emit(f"Project memory #{memory_id} no longer exists")
            return
        self.choose(project)
        self.page.select_when_listed(memory_id)

    def back(self) -> None:
        """The memories about you again."""
        self.picker.show_choice(None)
        if self.shown:
            self.pages.setCurrentWidget(self.user_page)
        if self.status is not None:
            self.status.show_project_counts(None)
        self.actions_changed()  # each writer as the selected user memory allows (`restrict`)

    def restrict(self) -> None:
        """After the window enabled its actions for the user card: while a project is shown, what acts
        on user memories is disabled (that card is hidden); the toolbar's filters follow."""
        shown = self.shown
        for item in self.user_only:
            if isinstance(item, QWidget):
                item.setEnabled(not shown)
            elif shown:
                item.setEnabled(False)
        if shown and self.acts is not None and self.page.looking_back:  # the past is read-only
            for action in (*self.acts.writers, self.acts.review_queue, self.acts.runs):
                action.setEnabled(False)

    def _find(self) -> None:
        if self.shown:
            self.page.filters.search.setFocus(Qt.FocusReason.ShortcutFocusReason)
            self.page.filters.search.selectAll()

    def _counts_changed(self, text: str) -> None:
        if self.shown and self.status is not None:
            self.status.show_project_counts(text)

    def _listed_again(self) -> None:
        """The database was read again (F5, another process's commit): the project shown too, so an
        outside rewrite shows on its card and in its history."""
        if self.shown:
            self.page.reload()

    def _store_changed(self) -> None:
        self.choices.reset()
        self.back()
