"""The switch between "About you" (the user memories, the default) and each project's memories: a list
of choices shared by the pickers (one above the user cards, one above a project's), read the first time
a picker is opened or focused, so the window's launch reads nothing of the projects.

Each project is named as `store.project.projects()` names it, with its memory count; a path that is not
UTF-8 is marked ⚠, a project the host's own module manages says it is read-only. The pickers keep a
width of their own (set before any project is listed), so filling them moves nothing on screen.

This module imports no store module at load (a launch does not load SQLAlchemy for it)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QFocusEvent, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QComboBox, QWidget

from app.present.plural import counted
from ui.widgets.plain_tip import plain_tip

if TYPE_CHECKING:
    from app.store import Project

ABOUT_YOU = "About you"
PROJECT_ROLE = Qt.ItemDataRole.UserRole + 1  # the item's `Project` (None: About you)
PICKER_CHARS = 22  # the picker's width, in characters: fixed, so listing projects reflows nothing
PICKER_MIN_CHARS = 10  # the least it is given, in a column narrowed by hand


def project_label(project: Project) -> str:
    """`beta (12)`, `⚠ <path with U+FFFD> (3)` for a path that is not UTF-8, `… · read-only`."""
    mark = "⚠ " if project.oddity else ""
    owned = " · read-only" if project.read_only_reason else ""
    return f"{mark}{project.display_name} ({project.memory_count:,}){owned}"


def project_tip(project: Project) -> str:
    """The identity (the host's text: escaped, as Qt would read markup in a tooltip), counts and notes."""
    counts = f"{counted(project.memory_count, 'memory')}, {counted(project.session_count, 'session')}"
    lines = [project.identity, counts]
    lines += [note for note in (project.oddity, project.read_only_reason) if note]
    return plain_tip("\n".join(lines))


class ProjectChoices(QObject):
    """The choices every picker shows: About you, then the projects (read once asked, `want`)."""

    loaded = Signal()

    def __init__(self, read: Callable[[Callable[[Sequence[Project]], None]], None], parent: QObject) -> None:
        super().__init__(parent)
        self._read = read  # reads the projects off the GUI thread, then calls back
        self.model = QStandardItemModel(self)
        self.state = "unread"  # unread, reading, read
        self.current: Project | None = None  # what the pickers show as picked
        self._generation = 0  # moved by each reset: a read of the database before is dropped
        self.reset()

    def reset(self) -> None:
        """Another database: only About you, the projects read again when asked."""
        self.model.clear()
        self.model.appendRow(QStandardItem(ABOUT_YOU))
        self.state = "unread"
        self.current = None
        self._generation += 1

    def want(self) -> None:
        if self.state == "unread":
            self.state = "reading"
            generation = self._generation
            self._read(lambda projects: self._fill(projects) if generation == self._generation else None)

    def _fill(self, projects: Sequence[Project]) -> None:
        self.model.removeRows(1, self.model.rowCount() - 1)
        for project in projects:
            item = QStandardItem(project_label(project))
            item.setData(project, PROJECT_ROLE)
            item.setToolTip(project_tip(project))
            self.model.appendRow(item)
        self.state = "read"
        self.loaded.emit()

    def row_of(self, project: Project | None) -> int:
        if project is None:
            return 0
        for row in range(1, self.model.rowCount()):
            shown = self.model.item(row).data(PROJECT_ROLE)
            if shown is not None and shown.key == project.key:
                return row
        return 0


class ProjectPicker(QComboBox):
    """One picker over the shared choices; `chosen` says what a person picked (None: About you)."""

    chosen = Signal(object)  # Project | None

    def __init__(self, choices: ProjectChoices, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.choices = choices
        self.setModel(choices.model)
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.setMinimumContentsLength(PICKER_CHARS)
        # Narrower only when the column is: its filters, not the picker, set how narrow that can be.
        self.setMinimumWidth(self.fontMetrics().averageCharWidth() * PICKER_MIN_CHARS)
        self.setAccessibleName("Whose memories: about you or a project's")
        self.setToolTip("Whose memories to show: about you, or a project's (Ctrl+Shift+P)")
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self._popup_wanted = False
        self.activated.connect(self._activated)
        choices.loaded.connect(self._loaded)

    def focusInEvent(self, event: QFocusEvent) -> None:
        self.choices.want()  # keys may walk the projects: list them
        super().focusInEvent(event)

    def showPopup(self) -> None:
        if self.choices.state != "read":
            self._popup_wanted = True  # shown once the projects are listed
            self.choices.want()
            return
        super().showPopup()

    def _loaded(self) -> None:
        self.show_choice(self.choices.current)  # the rows moved under it
        if self._popup_wanted and self.isVisible():
            self._popup_wanted = False
            super().showPopup()

    def _activated(self, row: int) -> None:
        self.chosen.emit(self.itemData(row, PROJECT_ROLE))

    def show_choice(self, project: Project | None) -> None:
        """Show `project` as picked without saying so (`chosen` is for a person's pick); every picker
        shows it once the projects are listed."""
        self.choices.current = project
        if project is not None:
            self.choices.want()
        self.blockSignals(True)
        self.setCurrentIndex(self.choices.row_of(project))
        self.blockSignals(False)
