"""A memory's revisions, newest first: when, source, what changed, run id, the candidate ids it added."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTreeWidget, QTreeWidgetItem, QWidget

from app.core.card import candidate_summary
from app.core.clock import format_instant
from app.core.models import Revision, RevisionKind
from app.core.timefmt import relative
from ui.widgets.plain_tip import plain_tip

HEADERS = ("When", "Source", "Change", "Run", "Candidates")
_KIND_WORDS: dict[str, str] = {
    RevisionKind.CREATE: "created",
    RevisionKind.CONTENT: "content",
    RevisionKind.STATUS: "status",
    RevisionKind.DELETE: "deleted",
}
REVISION_ROLE = Qt.ItemDataRole.UserRole + 1


def change_text(revision: Revision) -> str:
    if revision.kind == RevisionKind.STATUS:
        return f"{revision.previous_status or '?'} → {revision.new_status or '?'}"
    if revision.kind == RevisionKind.CONTENT and revision.detail.get("restored_from") is not None:
        return f"restored from {revision.detail['restored_from']}"
    return _KIND_WORDS.get(revision.kind, revision.kind)


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
            shown, full = candidate_summary(revision.candidate_ids)
            item = QTreeWidgetItem(
                [
                    relative(revision.changed_at, now),
                    revision.source,
                    change_text(revision),
                    short_run(revision.run_id),
                    shown,
                ]
            )
            item.setData(0, REVISION_ROLE, revision)
            item.setToolTip(0, format_instant(revision.changed_at))
            item.setToolTip(3, plain_tip(revision.run_id or "no run id"))
            item.setToolTip(4, f"candidates added: {full}" if full else "no candidates added")
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
        items = (self.topLevelItem(row) for row in range(self.topLevelItemCount()))
        values = (item.data(0, REVISION_ROLE) for item in items if item is not None)
        return [value for value in values if isinstance(value, Revision)]

    def current_revision(self) -> Revision | None:
        item = self.currentItem()
        value = item.data(0, REVISION_ROLE) if item is not None else None
        return value if isinstance(value, Revision) else None

    def _current_changed(self, current: QTreeWidgetItem | None, _previous: QTreeWidgetItem | None) -> None:
        self.revisionSelected.emit(self.current_revision())
