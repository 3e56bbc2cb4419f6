"""A memory's revisions, newest first: its name (`r407`, as Blame says it), when, source, what changed,
run id, the candidate ids it added (their tooltip gives each candidate's words once the evidence
archive's answer arrived: `set_evidence`). The words are `app.present.revision`'s, as the caption's."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTreeWidget, QTreeWidgetItem, QWidget

from app.core.clock import format_instant
from app.core.models import Revision
from app.core.models.evidence import Evidence, evidence_lines
from app.present.card import candidate_summary
from app.present.revision import change_words, revision_name, source_words
from app.present.timefmt import relative
from ui.widgets.plain_tip import plain_tip

HEADERS = ("Revision", "When", "Source", "Change", "Run", "Candidates")
WHEN, RUN, CANDIDATES = 1, 4, 5
REVISION_ROLE = Qt.ItemDataRole.UserRole + 1


def short_run(run_id: str | None) -> str:
    if not run_id:
        return ""
    return run_id if len(run_id) <= 16 else run_id[:14] + "…"


class RevisionTable(QTreeWidget):
    revisionSelected = Signal(object)  # Revision | None

    def __init__(self, now: Callable[[], int], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._now = now
        self.setHeaderLabels(HEADERS)
        self.setRootIsDecorated(False)
        self.setUniformRowHeights(True)
        self.setAlternatingRowColors(True)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setTabKeyNavigation(False)  # Tab leaves the table in one press; arrows move inside it
        self.setAccessibleName("History")
        self.setAccessibleDescription("This memory's revisions, newest first; select one to see its diff")
        header = self.header()
        header.setStretchLastSection(True)
        for column in range(len(HEADERS) - 1):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self.currentItemChanged.connect(self._current_changed)
        self._evidence: dict[int, Evidence | None] = {}  # words by candidate id (None: never archived)

    def _candidates_tip(self, revision: Revision) -> str:
        _, full = candidate_summary(revision.candidate_ids)
        if not full:
            return "no candidates added"
        known = [item for item in revision.candidate_ids if item in self._evidence]
        found = {item: evidence for item, evidence in self._evidence.items() if evidence is not None}
        return "\n".join([f"candidates added: {full}", *evidence_lines(known, found, "")])

    def set_evidence(self, found: Mapping[int, Evidence], asked: Sequence[int]) -> None:
        """The archive's answer for candidate ids `asked` (those missing from `found` were never archived):
        kept, and shown in the candidates' tooltips."""
        self._evidence.update({item: found.get(item) for item in asked})
        for revision, item in self._items():
            item.setToolTip(CANDIDATES, plain_tip(self._candidates_tip(revision)))

    def _items(self) -> list[tuple[Revision, QTreeWidgetItem]]:
        rows = (self.topLevelItem(row) for row in range(self.topLevelItemCount()))
        pairs = ((item.data(0, REVISION_ROLE), item) for item in rows if item is not None)
        return [(value, item) for value, item in pairs if isinstance(value, Revision)]

    def set_revisions(self, revisions: Sequence[Revision]) -> None:
        """Revisions newest first; keeps the selected revision selected when it is still there, unless a
        revision was written since (an edit, a rewrite seen outside): then the newest one is selected."""
        current = self.current_revision()
        listed = {revision.id for revision in self.revisions()}
        if revisions and revisions[0].id not in listed:
            current = None
        self.blockSignals(True)
        self.clear()
        now = self._now()
        keep: QTreeWidgetItem | None = None
        for revision in revisions:
            shown, _ = candidate_summary(revision.candidate_ids)
            item = QTreeWidgetItem(
                [
                    revision_name(revision.id),
                    relative(revision.changed_at, now),
                    source_words(revision),
                    change_words(revision),
                    short_run(revision.run_id),
                    shown,
                ]
            )
            item.setData(0, REVISION_ROLE, revision)
            item.setToolTip(WHEN, format_instant(revision.changed_at))
            item.setToolTip(RUN, plain_tip(revision.run_id or "no run id"))
            item.setToolTip(CANDIDATES, plain_tip(self._candidates_tip(revision)))
            self.addTopLevelItem(item)
            if current is not None and revision.id == current.id:
                keep = item
        self.blockSignals(False)
        target = keep or self.topLevelItem(0)
        if target is not None:
            self.setCurrentItem(target)
        if target is None or keep is None:
            self.revisionSelected.emit(self.current_revision())

    def replace_revision(self, revision: Revision) -> bool:
        """Put a fuller copy of a listed revision (its texts read) in its row; whether it was listed."""
        for row in range(self.topLevelItemCount()):
            item = self.topLevelItem(row)
            listed = item.data(0, REVISION_ROLE) if item is not None else None
            if item is not None and isinstance(listed, Revision) and listed.id == revision.id:
                item.setData(0, REVISION_ROLE, revision)
                return True
        return False

    def revisions(self) -> list[Revision]:
        """The listed revisions, newest first."""
        return [revision for revision, _ in self._items()]

    def select_revision(self, revision_id: int) -> bool:
        """Make a listed revision the current one (its diff is shown); whether it was listed."""
        for revision, item in self._items():
            if revision.id == revision_id:
                self.setCurrentItem(item)
                return True
        return False

    def current_revision(self) -> Revision | None:
        item = self.currentItem()
        value = item.data(0, REVISION_ROLE) if item is not None else None
        return value if isinstance(value, Revision) else None

    def _current_changed(self, current: QTreeWidgetItem | None, _previous: QTreeWidgetItem | None) -> None:
        self.revisionSelected.emit(self.current_revision())
