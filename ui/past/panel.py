"""The view of the past's detail panel: the selected memory's text then, its facts then (status, expiry,
whether the agent was shown it, "unknown before <first seen>", deleted since), and its history up to
the instant shown (the revisions at or before it, newest first); selecting one shows its diff.

Read-only: nothing here writes. The history is asked for with `historyWanted` and arrives with
`set_history`; one that arrives for another memory or instant than the one shown is dropped.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QSplitter, QVBoxLayout, QWidget

from app.core.clock import format_instant
from app.core.models import Revision
from ui.diff.slot import DiffSlot
from ui.history.revision_table import RevisionTable
from ui.history.revision_view import show_change, take_revision
from ui.past.cards import expiry_words, status_badge
from ui.widgets.labels import empty_or_details, plain_label, section_label, tint, title_label
from ui.widgets.long_text import LongTextView
from ui.widgets.theme import muted_text

if TYPE_CHECKING:
    from app.core.models.as_of import MemoryAsOf


def facts_text(state: MemoryAsOf) -> str:
    """The panel's facts of one memory then, a line each."""
    if not state.known:
        return f"{state.unknown_note}: the dashboard has no record of it then, so nothing is guessed."
    status = status_badge(state).text
    injected = "shown to the agent" if state.injected else "not shown to the agent"
    lines = [f"{status} then · {injected}"]
    expiry = expiry_words(state)
    if expiry is not None and state.expires_at is not None:
        lines.append(f"{expiry} ({format_instant(state.expires_at)})")
    if state.changed_at is not None and state.changed_at != state.promoted_at:
        lines.append(f"last recorded change {format_instant(state.changed_at)}")
    if state.promoted_at is not None:
        lines.append(f"promoted {format_instant(state.promoted_at)}")
    if not state.exists_now:
        lines.append("deleted since")
    return "\n".join(lines)


class PastPanel(QWidget):
    historyWanted = Signal(object, object)  # memory id, the instant shown
    revisionWanted = Signal(object)  # revision id: one listed without its texts was selected

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.at = 0
        self.state: MemoryAsOf | None = None
        self.history_memory_id: int | None = None  # whose revisions are listed
        self._stack, self.empty = empty_or_details(
            self, "Select a memory to see it as it was then.", self._build_details()
        )

    def _build_details(self) -> QWidget:
        page = QWidget(self)
        self.title = title_label()
        self.facts = plain_label()
        self.facts.setAccessibleName("Facts then")
        tint(self.facts, muted_text(self.palette()))
        self.content_box = LongTextView(page)
        self.content = self.content_box.view
        self.content.setAccessibleName("Memory content then")
        self.history_title = section_label("History")
        self.revisions = RevisionTable(lambda: self.at, page)
        self.revisions.setAccessibleName("History up to the instant shown")
        self.revisions.setAccessibleDescription(
            "This memory's revisions at or before the instant shown, newest first; select one to see its diff"
        )
        self.revisions.revisionSelected.connect(self._show_revision)
        self.revision_summary = plain_label()
        self.diff = DiffSlot(page)
        top = QWidget(page)
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        for widget in (self.title, self.facts, self.content_box):
            top_layout.addWidget(widget)
        history = QWidget(page)
        history_layout = QVBoxLayout(history)
        history_layout.setContentsMargins(0, 10, 0, 0)
        history_layout.addWidget(self.history_title)
        history_layout.addWidget(self.revisions)
        change = QWidget(page)
        change_layout = QVBoxLayout(change)
        change_layout.setContentsMargins(0, 10, 0, 0)
        change_layout.addWidget(section_label("Change"))
        change_layout.addWidget(self.revision_summary)
        change_layout.addWidget(self.diff)
        splitter = QSplitter(Qt.Orientation.Vertical, page)
        splitter.setChildrenCollapsible(False)
        for part in (top, history, change):
            splitter.addWidget(part)
        em = self.fontMetrics().height()
        splitter.setSizes([em * 12, em * 9, em * 16])
        layout = QVBoxLayout(page)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(splitter)
        return page

    def show_state(self, state: MemoryAsOf | None) -> None:
        """Show one memory as it was (None: nothing selected); its history up to then is asked for."""
        changed = (
            state is None
            or self.state is None
            or (state.memory_id, state.at)
            != (
                self.state.memory_id,
                self.state.at,
            )
        )
        self.state = state
        if state is None:
            self._stack.setCurrentIndex(0)
            return
        self.at = state.at
        self.title.setText(f"Memory #{state.memory_id} as of {format_instant(state.at)}")
        self.facts.setText(facts_text(state))
        self.content_box.set_text(state.content or "" if state.known else state.unknown_note)
        self.history_title.setText(f"History up to {format_instant(state.at)}")
        self._stack.setCurrentIndex(1)
        if changed:
            self.history_memory_id = None
            self.revisions.set_revisions([])
            self.revision_summary.setText("Reading its history…")
            self.historyWanted.emit(state.memory_id, state.at)

    def set_history(self, memory_id: int, at: int, revisions: Sequence[Revision]) -> None:
        """Revisions of `memory_id` at or before `at`, newest first: shown if that is what is shown."""
        state = self.state
        if state is None or (state.memory_id, state.at) != (memory_id, at):
            return  # superseded: another memory or instant is shown now
        self.history_memory_id = memory_id
        self.revisions.set_revisions(revisions)
        if not revisions:
            self.revision_summary.setText(
                f"No revision recorded up to {format_instant(at)}"
                + ("." if state.known else f": {state.unknown_note}.")
            )
            text = state.content or ""
            self.diff.show_texts(text, text, "As it was then")

    def _show_revision(self, revision: Revision | None) -> None:
        if revision is None:
            return
        content = self.state.content if self.state is not None and self.state.content else ""
        show_change(revision, self.revision_summary, self.diff, content, self.revisionWanted.emit)

    def set_revision(self, revision: Revision) -> None:
        """A revision read with its texts: shown if it is still the selected one."""
        current = take_revision(self.revisions, revision)
        if current is not None:
            self._show_revision(current)
