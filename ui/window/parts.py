"""What the menus and the commands need of the main window, as a `Protocol`: they import this module,
never `ui.window.main_window` (which imports them), so the window's modules import one way only."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMenuBar, QStatusBar, QWidget

from app.core.models import Memory
from ui.actions.window import WindowActions
from ui.cards.model import MemoryListModel
from ui.review.controller import ReviewController
from ui.runtime.controller import Controller

if TYPE_CHECKING:
    from ui.window.projects import ProjectSwitch


class WindowParts(Protocol):
    """The main window as its menus and commands see it (`MainWindow` is one)."""

    controller: Controller
    review: ReviewController
    model: MemoryListModel
    settings: QSettings
    acts: WindowActions
    projects: ProjectSwitch  # "About you" or a project's page

    def selected_memory(self) -> Memory | None: ...

    def selected_ids(self) -> list[int]:
        """Every selected card's id, in listing order (the writers act on all of them)."""
        ...

    def show_source(self, source: str) -> None:
        """List the memories of one source (the filter bar's source field)."""
        ...

    def select_revision(self, memory_id: int, revision_id: int) -> bool: ...

    def open_card(self, memory_id: int) -> None:
        """Select a memory's card; one the filter hides is shown under All, the search cleared."""
        ...

    def window(self) -> QWidget:
        """The window itself, as the parent of the dialogs and message boxes it opens (Qt's own method)."""
        ...

    def menuBar(self) -> QMenuBar: ...

    def statusBar(self) -> QStatusBar: ...
