"""The side panel: the selected memory's full content, provenance, revisions newest first, and the
diff of the selected revision, with `Restore this version`.

Content is untrusted: it is shown as plain text with hidden characters made visible. A selection is
shown, and its history asked for, at once when the previous history read has arrived; while one is
still being read, only the latest selection waits, until that read arrives (or `DEBOUNCE_MS`, should
it never come): a burst of J/K presses reads one history at a time, and no fixed wait is added when the
store keeps up. A history that arrives for a memory no longer selected is dropped.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, cast

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from app.core.models import Memory, Revision
from app.present.card import card_meta, expiry_line, shown_source, sources_line
from ui.cards.parts import panel_warnings
from ui.diff.slot import DiffSlot
from ui.history.blame_view import BlameView
from ui.history.history_tabs import HistoryTabs
from ui.history.provenance_table import ProvenanceTable
from ui.history.revision_table import RevisionTable
from ui.history.revision_view import no_revisions_text, restorable, show_change, take_revision
from ui.widgets.labels import boxed, empty_or_details, plain_label, tint, title_label
from ui.widgets.link_label import LinkLabel
from ui.widgets.long_text import SHOWN_CHARS, LongTextView
from ui.widgets.plain_tip import plain_tip
from ui.widgets.shown_time import ShownTime
from ui.widgets.theme import Tone, badge_colors, muted_text

if TYPE_CHECKING:
    from app.core.models.blame import Blame

DEBOUNCE_MS = 120  # the longest a selection waits for the history read still running
_NOTHING = object()  # no selection waiting to be shown
TRUST_WORDS = {"trusted": "Trusted", "semi": "Semi-trusted", "untrusted": "Untrusted"}


NOTHING_SELECTED = "Select a memory to see its content, provenance and history."
READING = "Reading memory #{}…"  # its card is selected, its row not read yet (a jump far down the list)


class HistoryPanel(QWidget):
    # Ids as Python objects: a host id can be any 64-bit integer, a Signal(int) carries 32 bits.
    historyWanted = Signal(object)  # memory id
    revisionWanted = Signal(object)  # revision id: one listed without its texts was selected
    restoreRequested = Signal(object, object)  # Memory, revision id
    blameWanted = Signal(object)  # memory id: the Blame tab is shown for it

    def __init__(self, now: Callable[[], int], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._now = now
        self._memory: Memory | None = None
        self.history_memory_id: int | None = None  # whose revisions are shown
        self._wanted_revision: tuple[int, int] | None = None  # (memory, revision) to select when listed
        self._pending: Memory | object | None = _NOTHING
        self._pending_id: int | None = None  # with no memory pending: the selected card still being read
        self._reading: int | None = None  # the memory whose history was asked for and has not arrived
        self._read_only_reason: str | None = None
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._apply_pending)
        self._stack, self.empty = empty_or_details(self, NOTHING_SELECTED, self._build_details())
        if isinstance(now, ShownTime):
            now.moved.connect(lambda: self._fill_times(self._memory))

    def _build_details(self) -> QWidget:
        page = QWidget(self)
        self.title = title_label()
        self.meta = plain_label()
        self.warning = plain_label()
        self._tint()
        self.content_box = LongTextView(page)  # the start of a long text, with "Show all"
        self.content = self.content_box.view
        self.content.setAccessibleName("Memory content")
        self.sources = plain_label()
        self.links = LinkLabel(page)  # "merged from #6, #7": filled when the memory's links are read
        self.links.setAccessibleName("Links to other memories")
        self.provenance = ProvenanceTable(self._now, page)
        self.revisions = RevisionTable(self._now, page)
        self.provenance.evidenceArrived.connect(
            lambda found: self.revisions.set_evidence(found, self.provenance.candidate_ids)
        )
        self.revisions.revisionSelected.connect(self._show_revision)
        self.revision_summary = plain_label()
        self.diff = DiffSlot(page)
        self.restore_button = QPushButton("Restore this version", page)
        self.restore_button.clicked.connect(self._restore_clicked)
        self.restore_button.setAccessibleName("Restore this version")
        top = QWidget(page)
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        for widget in (self.title, self.meta, self.warning, self.content_box, self.sources, self.links):
            top_layout.addWidget(widget)
        splitter = QSplitter(Qt.Orientation.Vertical, page)
        splitter.setChildrenCollapsible(False)
        splitter.addWidget(top)
        splitter.addWidget(boxed("Provenance", self.provenance))
        splitter.addWidget(boxed("History", self._history_tabs(page)))
        diff_box = boxed("Change", self.revision_summary, self.diff)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.restore_button)
        cast(QVBoxLayout, diff_box.layout()).addLayout(buttons)
        splitter.addWidget(diff_box)
        em = self.fontMetrics().height()
        splitter.setSizes([em * 9, em * 8, em * 8, em * 16])
        self.splitter = splitter
        layout = QVBoxLayout(page)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(splitter)
        return page

    def _history_tabs(self, page: QWidget) -> HistoryTabs:
        """The revisions, and Blame: which revision wrote each sentence (read when its tab is shown)."""
        self.blame = BlameView(self._now, page)
        self.history_tabs = HistoryTabs(
            self.revisions,
            self.blame,
            "Which revision wrote each sentence, and on what evidence (Ctrl+B)",
            lambda: None if self._memory is None else self._memory.id,
            page,
        )
        self.history_tabs.blameWanted.connect(self.blameWanted)
        return self.history_tabs

    def show_blame(self) -> None:
        self.history_tabs.show_blame()

    def _want_blame(self) -> None:
        self.history_tabs.want_blame()

    def set_blame(self, memory_id: int, blame: Blame) -> None:
        self.history_tabs.set_blame(memory_id, blame)

    def _tint(self) -> None:
        tint(self.meta, muted_text(self.palette()))
        tint(self.warning, badge_colors(self.palette(), Tone.RED).foreground)

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange and hasattr(self, "meta"):
            self._tint()  # the system switched between light and dark

    # -- what is shown ---------------------------------------------------------------------------------

    @property
    def memory(self) -> Memory | None:
        return self._memory

    def show_memory(self, memory: Memory | None, *, reading: int | None = None) -> None:
        """Shown at once unless a history read is still running; then the last of a burst waits for it.
        `reading`: with no memory, the id of the selected card whose row has not been read yet (the
        panel says so, never "Select a memory" while a card is selected)."""
        if memory is not None and self._reading == memory.id and memory == self._memory:
            self._pending = _NOTHING  # this very memory is shown and its history is being read
            return
        self._pending, self._pending_id = memory, reading if memory is None else None
        if self._reading is None:
            self._timer.start(0)  # the next event-loop turn: the selections of one turn show once
        elif not self._timer.isActive():
            self._timer.start(DEBOUNCE_MS)  # a bound on the wait, not restarted by every key

    def _apply_pending(self) -> None:
        self._timer.stop()
        pending, self._pending = self._pending, _NOTHING
        if pending is _NOTHING:
            return
        memory = cast(Memory | None, pending)
        changed_id = memory is None or self._memory is None or memory.id != self._memory.id
        self._memory = memory
        if memory is None:
            reading = self._pending_id
            self.empty.setText(NOTHING_SELECTED if reading is None else READING.format(reading))
            self._stack.setCurrentIndex(0)
            return
        if changed_id:
            self.revisions.set_revisions([])
        self._reading = memory.id
        self.historyWanted.emit(memory.id)  # first: the store reads while the details are filled in
        self._fill(memory)
        self._stack.setCurrentIndex(1)

    def want_revision(self, memory_id: int, revision_id: int) -> None:
        """Select revision `revision_id` (its diff shown) once memory `memory_id`'s history is listed; at
        once when it is listed already (the Runs window's link to a change)."""
        if self.history_memory_id == memory_id and self.revisions.select_revision(revision_id):
            return
        self._wanted_revision = (memory_id, revision_id)

    def _fill_times(self, memory: Memory | None) -> None:
        """The header's relative times ("updated 10m ago"), counted from the shown instant."""
        if memory is not None:
            expiry = expiry_line(memory, self._now())
            self.meta.setText(card_meta(memory, self._now()) + (f"\n{expiry}" if expiry else ""))

    def update_memory(self, memory: Memory) -> None:
        """The shown memory changed in the store (an edit, a rewrite): refresh it and its history.

        At once when no history read is running: a write's result arrives as one event, and asking for
        the history in this very turn queues its read before what the write asks for next (the counts)."""
        if self._memory is not None and memory.id == self._memory.id:
            self.show_memory(memory)
            if self._reading is None:
                self._apply_pending()

    def _fill(self, memory: Memory) -> None:
        if isinstance(self._now, ShownTime):
            self._now.tick()  # the cards count from the instant this memory is shown at, too
        self.title.setText(f"Memory #{memory.id}")
        self.links.hide()  # until this memory's links are read
        self._fill_times(memory)
        found = panel_warnings(memory, SHOWN_CHARS)
        self.warning.setVisible(bool(found))
        self.warning.setText("\n".join(found))
        self.content_box.set_text(memory.content)
        trust = TRUST_WORDS.get(memory.trust, memory.trust)
        self.sources.setText(f"{trust} · sources: {sources_line(memory.sources)}")
        self.sources.setToolTip(
            plain_tip(
                "Sources (trust is the weakest one's):\n"
                + "\n".join(shown_source(source) for source in memory.sources)
                + "".join(f"\n{reason}" for reason in memory.trust_reasons)
            )
        )
        self.provenance.set_memory(memory)
        self._update_restore()

    def set_links(self, memory_id: int, phrases: Sequence[str]) -> None:
        """The shown memory's links both ways ("merged into #12"); those of another memory are dropped."""
        if self._memory is not None and memory_id == self._memory.id:
            self.links.set_phrases(phrases)

    def set_history(self, memory_id: int, revisions: Sequence[Revision]) -> None:
        if memory_id == self._reading:
            self._reading = None
        if self._pending is not _NOTHING:
            self._apply_pending()  # the selection that waited for this read: shown, its read asked for
            return  # this history is superseded (a later read of the same memory follows)
        if self._memory is None or memory_id != self._memory.id:
            return  # superseded: another memory is selected now
        self.history_memory_id = memory_id
        self.revisions.set_revisions(revisions)
        wanted, self._wanted_revision = self._wanted_revision, None
        if wanted is not None and wanted[0] == memory_id:
            self.revisions.select_revision(wanted[1])
        self._want_blame()  # the history moved (a write, a rewrite seen): so may the blame shown
        if not revisions:
            self.revision_summary.setText(no_revisions_text(self._memory))
            caption = "As first seen" if self._memory.rewritten else "As promoted"
            self.diff.show_texts(self._memory.content, self._memory.content, caption)

    def _show_revision(self, revision: Revision | None) -> None:
        self._update_restore()
        if revision is None:
            return
        content = self._memory.content if self._memory is not None else ""
        show_change(revision, self.revision_summary, self.diff, content, self.revisionWanted.emit)

    def set_revision(self, revision: Revision) -> None:
        """A revision read with its texts: shown if it is still the selected one."""
        current = take_revision(self.revisions, revision)
        if current is not None:
            self._show_revision(current)

    def set_read_only(self, reason: str | None) -> None:
        self._read_only_reason = reason
        self._update_restore()

    def _update_restore(self) -> None:
        revision = self.revisions.current_revision()
        ok = restorable(revision, self._memory) and self._read_only_reason is None
        self.restore_button.setEnabled(ok)
        if self._read_only_reason is not None:
            tip = f"Read-only: {self._read_only_reason}"
        elif ok:
            tip = "Make the content after this revision current again (writes a new revision)"
        else:
            tip = "Select a revision whose content differs from the current one"
        self.restore_button.setToolTip(tip)

    def _restore_clicked(self) -> None:
        revision = self.revisions.current_revision()
        if revision is not None and self._memory is not None:
            self.restoreRequested.emit(self._memory, revision.id)
