"""The hub window's side panel: the selected card's copies (machine, id, status, last update), its text,
and where machines differ, a diff between two of its versions (`ui.diff.slot.DiffSlot`, computed off the
GUI thread by `app.diff`). The versions to compare are picked in two lists; by default the oldest text
against the newest.

Nothing here sizes from what publishers wrote: the text is shown by the main window's means for a text of
any length (`LongTextView`: its start, `Show all` for the rest, lines cut for the layout), machine names
and statuses are cut with hidden characters visible, lists of machines counted past a few, and the
pickers' width does not follow their items.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFormLayout,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.hub.cards import HubCard, Version
from app.hub.words import copy_list, copy_status, machine_list, machine_name
from app.present.timefmt import relative
from ui.diff.slot import DiffSlot
from ui.widgets.focus_ring import show_focus
from ui.widgets.long_text import LongTextView

COLUMNS = ("Machine", "Id", "Status", "Updated")
TABLE_ROWS = 8  # rows the copies' table is tall; more scroll
PICKER_CHARS = 24  # a picker's width, in characters, whatever its items say


def version_label(number: int, version: Version) -> str:
    return f"Text {number}: {copy_list(version.copies)}"


class HubDetail(QWidget):
    def __init__(self, now: Callable[[], int], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._now = now
        self.card: HubCard | None = None
        self._versions: list[Version] = []
        self.title = QLabel("Select a card to see each machine's copy", self)
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        self.title.setWordWrap(True)
        self.copies = QTableWidget(0, len(COLUMNS), self)
        self.copies.setHorizontalHeaderLabels(list(COLUMNS))
        self.copies.setAccessibleName("Copies of this memory on each machine")
        self.copies.setToolTip("Each machine's copy of this memory and its status there")
        self.copies.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.copies.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.copies.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.copies.verticalHeader().hide()
        self.copies.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.copies.horizontalHeader().setStretchLastSection(True)
        self.text = LongTextView(self)  # it shows its own focus
        self.text.view.setAccessibleName("The memory's text (the same on every machine)")
        show_focus(self.copies)  # a table without a current row shows no focus of its own
        self.older = QComboBox(self)
        self.newer = QComboBox(self)
        self.older.setAccessibleName("Diff from this text")
        self.newer.setAccessibleName("Diff to this text")
        self.older.setToolTip("The text the diff starts from (the machines that hold it)")
        self.newer.setToolTip("The text the diff goes to (the machines that hold it)")
        for combo in (self.older, self.newer):
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(PICKER_CHARS)
        self.diff = DiffSlot(self)
        self.diff.setAccessibleName("Difference between the machines' texts")
        self._build()
        self.older.currentIndexChanged.connect(self._show_diff)
        self.newer.currentIndexChanged.connect(self._show_diff)
        self.show_card(None)

    def _build(self) -> None:
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addWidget(self.title)
        layout.addWidget(self.copies)
        self.pickers = QWidget(self)
        form = QFormLayout(self.pickers)
        form.setContentsMargins(0, 0, 0, 0)
        form.addRow("&From:", self.older)
        form.addRow("&To:", self.newer)
        layout.addWidget(self.pickers)
        layout.addWidget(self.text, 2)
        layout.addWidget(self.diff, 3)

    def show_card(self, card: HubCard | None) -> None:
        """Show `card` (None: nothing selected); a card whose texts are not read yet says so."""
        same = card is not None and self.card is not None and card == self.card
        self.card = card
        if same:
            return
        self._fill_copies(card)
        differs = card is not None and card.loaded and card.differs
        self.pickers.setVisible(differs)
        self.diff.setVisible(differs)
        self.text.setVisible(not differs)
        if card is None:
            self.title.setText("Select a card to see each machine's copy")
            self.text.set_text("")
            return
        where = f"On {len(card.machines)} machine{'s' if len(card.machines) != 1 else ''}"
        missing = f" · not on {machine_list(card.missing)}" if card.missing else ""
        if not card.loaded:
            self.title.setText(f"{where}{missing}")
            self.text.set_text("loading…")
            return
        if not differs:
            self.title.setText(f"{where}{missing} · the same text on each")
            self.text.set_text(card.text)
            return
        self._versions = card.versions()
        self.title.setText(f"{where}{missing} · {len(self._versions)} different texts")
        for combo in (self.older, self.newer):
            combo.blockSignals(True)
            combo.clear()
            for number, version in enumerate(self._versions, 1):
                combo.addItem(version_label(number, version))
            combo.blockSignals(False)
        self.older.setCurrentIndex(len(self._versions) - 1)
        self.newer.setCurrentIndex(0)
        self._show_diff()

    def _fill_copies(self, card: HubCard | None) -> None:
        copies = card.copies if card is not None else ()
        self.copies.setRowCount(len(copies))
        header = self.copies.horizontalHeader().height() + 2 * self.copies.frameWidth()
        row_height = self.copies.verticalHeader().defaultSectionSize()
        self.copies.setFixedHeight(header + min(max(len(copies), 1), TABLE_ROWS) * row_height)
        for row, copy in enumerate(copies):
            cells = (
                machine_name(copy.machine),
                f"#{copy.memory_id}",
                copy_status(copy),
                relative(copy.updated_at, self._now()),
            )
            for column, value in enumerate(cells):
                self.copies.setItem(row, column, QTableWidgetItem(value))

    def _show_diff(self) -> None:
        old, new = self.older.currentIndex(), self.newer.currentIndex()
        if not (0 <= old < len(self._versions) and 0 <= new < len(self._versions)):
            return
        if old == new:
            self.diff.show_message("The same text: pick two different texts to compare.")
            return
        self.diff.show_texts(self._versions[old].content, self._versions[new].content)
