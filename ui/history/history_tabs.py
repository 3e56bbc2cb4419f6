"""`HistoryTabs`: a memory's revisions and its Blame, as tabs, as both history panels (a user memory's and a
project memory's) show them. Blame is read only when its tab is shown (`blameWanted`), and a blamed
sentence, activated, selects the revision that wrote it in the revisions tab."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QTabWidget, QWidget

from app.core.models.blame import Blame
from ui.history.blame_view import BlameView, select_revision
from ui.history.revision_table import RevisionTable


class HistoryTabs(QTabWidget):
    blameWanted = Signal(object)  # memory id: the Blame tab is shown for it

    def __init__(
        self,
        revisions: RevisionTable,
        blame: BlameView,
        blame_tip: str,
        shown_id: Callable[[], int | None],
        parent: QWidget,
    ) -> None:
        super().__init__(parent)
        self.revisions, self.blame = revisions, blame
        self._shown_id = shown_id  # the memory the panel shows now (None: none)
        blame.revisionActivated.connect(self.show_revision_of_blame)
        self.setDocumentMode(True)
        self.addTab(revisions, "Revisions")
        self.addTab(blame, "Blame")
        self.tabBar().setAccessibleName("History view: revisions or blame")
        self.setTabToolTip(1, blame_tip)
        self.currentChanged.connect(lambda _index: self.want_blame())

    def show_blame(self) -> None:
        """The Blame tab, focused (Ctrl+B); Ctrl+B again goes back to the revisions."""
        if self.currentWidget() is self.blame and self.blame.hasFocus():
            self.setCurrentWidget(self.revisions)
            self.revisions.setFocus()
            return
        self.setCurrentWidget(self.blame)
        self.blame.setFocus()

    def want_blame(self) -> None:
        """Ask for the shown memory's blame when the Blame tab is the one shown."""
        memory_id = self._shown_id()
        if self.currentWidget() is self.blame and memory_id is not None:
            if self.blame.memory_id != memory_id:
                self.blame.show_message("Reading who wrote each sentence…")
            self.blameWanted.emit(memory_id)

    def set_blame(self, memory_id: int, blame: Blame) -> None:
        """A blame read for `memory_id`: shown if that memory is still the one shown."""
        if memory_id == self._shown_id():
            self.blame.set_blame(blame)

    def show_revision_of_blame(self, revision_id: int) -> None:
        """A blamed sentence was activated: its revision, selected in the revisions tab, with its diff."""
        if select_revision(self.revisions, revision_id):
            self.setCurrentWidget(self.revisions)
            self.revisions.setFocus()
