"""The review queue: pending candidates (content, session, compartments, age) with multi-select, to
promote as one memory, merge into an existing memory, or discard; and `Run review`.

Ctrl+Enter in the text promotes, Enter in the merge box merges (else the dialog's default button, Promote,
would take it). Esc, as in any QDialog, only hides the queue: the queue lives as long as its window,
so the text typed is still there when it is shown again, and nothing is thrown away to ask about.

Candidate content is untrusted: shown as plain text with hidden characters made visible. The table is
built only while the queue is shown, and only when the candidates changed: thousands of rows cost the
GUI thread hundreds of milliseconds, which a hidden queue must not take at every outside change.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence, QShortcut, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.core.clock import format_instant
from app.core.models import Candidate
from app.core.provenance import compartment_span
from app.present.card import shown_word
from app.present.timefmt import relative
from ui.cards.layout import card_text
from ui.history.provenance_table import SESSION_CHARS
from ui.review.controller import ReviewController
from ui.widgets.id_box import MemoryIdBox
from ui.widgets.labels import plain_label
from ui.widgets.plain_tip import plain_tip

HEADERS = ("Candidate", "Content", "Session", "Compartments", "Age")
ID_ROLE = Qt.ItemDataRole.UserRole + 1
PROMOTE_KEYS = ("Ctrl+Return", "Ctrl+Enter")
MERGE_KEYS = ("Return", "Enter")


def compartment_text(candidate: Candidate) -> str:
    return compartment_span(candidate.compartment_start, candidate.compartment_end)


class ReviewQueue(QDialog):
    def __init__(
        self,
        review: ReviewController,
        run_review: QAction,
        now: Callable[[], int],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.review = review
        self._now = now
        self._candidates: dict[int, Candidate] = {}
        self._latest = review.controller.candidates  # the candidates last read (None: not yet)
        self._shown: list[Candidate] | None = None  # the candidates the table was built from
        self._text_edited = False
        self.setWindowTitle("Review queue")
        self.resize(900, 560)
        self.summary = plain_label("Reading the pending candidates…")
        self.table = QTreeWidget(self)
        self.table.setHeaderLabels(HEADERS)
        self.table.setRootIsDecorated(False)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.setAlternatingRowColors(True)
        self.table.setTabKeyNavigation(False)  # Tab leaves the table in one press; arrows move inside it
        self.table.setAccessibleName("Pending candidates")
        header = self.table.header()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setStretchLastSection(False)
        self.table.itemSelectionChanged.connect(self._selection_changed)
        self.text = QPlainTextEdit(self)
        self.text.setPlaceholderText(
            "The new memory's text (defaults to the selected candidates joined into one line)"
        )
        self.text.setMaximumHeight(110)
        self.text.setAccessibleName("Text of the promoted memory")
        self.text.setTabChangesFocus(True)
        self.text.textChanged.connect(self._text_changed)
        self.promote_button = QPushButton("Promote as one memory", self)
        self.promote_button.setToolTip(
            "One new memory from the selected candidates, with the text above (Ctrl+Enter in the text)"
        )
        self.promote_button.clicked.connect(self.promote)
        for key in PROMOTE_KEYS:  # a disabled button's click does nothing: no candidate, read-only
            shortcut = QShortcut(QKeySequence(key), self.text, context=Qt.ShortcutContext.WidgetShortcut)
            shortcut.activated.connect(self.promote_button.click)
        self.target = MemoryIdBox(self)
        self.target.setToolTip("The memory to merge the selected candidates into")
        self.target.setAccessibleName("Memory to merge into")
        self.merge_button = QPushButton("Merge into", self)
        self.merge_button.setToolTip(
            "Append the selected candidates to an existing memory (text and provenance)"
        )
        self.merge_button.clicked.connect(self.merge)
        for key in MERGE_KEYS:
            shortcut = QShortcut(QKeySequence(key), self.target, context=Qt.ShortcutContext.WidgetShortcut)
            shortcut.activated.connect(self.merge_button.click)
        self.discard_button = QPushButton("Discard", self)
        self.discard_button.setToolTip("Remove the selected candidates from the pool without using them")
        self.discard_button.clicked.connect(self.discard)
        self.run_button = QPushButton(run_review.text(), self)
        self.run_button.setToolTip(run_review.toolTip())
        self.run_button.clicked.connect(run_review.trigger)
        row = QHBoxLayout()
        for widget in (self.promote_button, self.merge_button, self.target, self.discard_button):
            row.addWidget(widget)
        row.addStretch(1)
        row.addWidget(self.run_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.table, 1)
        layout.addWidget(QLabel("Text of the promoted memory:"))
        layout.addWidget(self.text)
        layout.addLayout(row)
        self.last_run = plain_label(review.last_run)  # a run before this queue was opened too
        layout.addWidget(self.last_run)
        review.controller.candidatesLoaded.connect(self.set_candidates)
        review.controller.candidatesFailed.connect(self._candidates_failed)
        review.lastRunChanged.connect(self.last_run.setText)
        review.reviewFinished.connect(lambda _result: self._selection_changed())
        self._selection_changed()

    def set_candidates(self, candidates: Sequence[Candidate]) -> None:
        """Candidates read: the table follows now if shown and changed, else when it is next shown."""
        self._latest = list(candidates)
        if self.isVisible() and self._latest != self._shown:
            self._build_table()

    def _candidates_failed(self, message: str) -> None:
        if self._latest is None:  # else the table shows the candidates last read
            self.summary.setText(
                f"The pending candidates could not be read: {message}. Refresh (F5) tries again."
            )

    def showEvent(self, event: QShowEvent) -> None:
        if self._latest is not None and self._latest != self._shown:
            self._build_table()
        super().showEvent(event)

    def _build_table(self) -> None:
        candidates = self._shown = self._latest or []
        selected = set(self.selected_ids())
        self._candidates = {candidate.id: candidate for candidate in candidates}
        self.table.clear()
        now = self._now()
        for candidate in candidates:
            content = card_text(candidate.content)  # its start: a host row can be megabytes long
            item = QTreeWidgetItem(
                [
                    f"#{candidate.id}",
                    content,
                    shown_word(candidate.session_id, SESSION_CHARS),
                    compartment_text(candidate),
                    relative(candidate.created_at, now),
                ]
            )
            item.setData(0, ID_ROLE, candidate.id)
            item.setToolTip(1, plain_tip(content))
            item.setToolTip(4, format_instant(candidate.created_at))
            self.table.addTopLevelItem(item)
            item.setSelected(candidate.id in selected)
        count = len(candidates)
        self.summary.setText(
            f"{count} pending candidate{'s' if count != 1 else ''}. Select one or more (Ctrl/Shift+click)."
            if count
            else "No pending candidates: the host adds them as it notices things in your sessions."
        )
        self._selection_changed()

    def selected_ids(self) -> list[int]:
        rows = sorted(self.table.selectedItems(), key=self.table.indexOfTopLevelItem)
        return [int(item.data(0, ID_ROLE)) for item in rows]

    def select_ids(self, ids: Sequence[int]) -> None:
        wanted = set(ids)
        for index in range(self.table.topLevelItemCount()):
            item = self.table.topLevelItem(index)
            if item is not None:
                item.setSelected(int(item.data(0, ID_ROLE)) in wanted)

    def _default_text(self) -> str:
        return "\n".join(self._candidates[i].content for i in self.selected_ids() if i in self._candidates)

    def _selection_changed(self) -> None:
        ids = self.selected_ids()
        writable = not self.review.controller.read_only
        for button in (self.promote_button, self.merge_button, self.discard_button):
            button.setEnabled(bool(ids) and writable)
        self.run_button.setEnabled(writable and not self.review.running)
        if not self._text_edited or not self.text.toPlainText().strip():
            self.text.blockSignals(True)
            self.text.setPlainText(self._default_text())
            self.text.blockSignals(False)
            self._text_edited = False

    def _text_changed(self) -> None:
        self._text_edited = True

    def promote(self) -> None:
        ids = self.selected_ids()
        text = self.text.toPlainText()
        if not ids or not text.strip():
            return
        content = None if text == self._default_text() else text
        self._text_edited = False
        self.review.promote(ids, content)

    def merge(self) -> None:
        ids = self.selected_ids()
        if ids and self.target.value():
            self.review.merge(self.target.value(), ids)

    def discard(self) -> None:
        ids = self.selected_ids()
        if ids:
            self.review.discard(ids)
