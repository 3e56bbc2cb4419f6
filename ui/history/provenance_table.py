"""The provenance of one memory as a table: candidate id, session, compartments, origin, when added.

Ids in `source_candidate_ids` that no provenance entry describes get a "provenance unknown" row, so
the table always lists every candidate the memory claims to come from, in the memory's own order.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidget, QTableWidgetItem, QWidget

from app.core.card import shown_word
from app.core.clock import format_instant
from app.core.models import Memory
from app.core.provenance import compartment_span
from app.core.timefmt import relative
from ui.widgets.plain_tip import plain_tip

SESSION_CHARS = 120
HEADERS = ("Candidate", "Session", "Compartments", "Origin", "Added")


def provenance_rows(memory: Memory, now: int) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """(cells, tooltips) per candidate id, in the memory's order; unknown ones say so."""
    entries = {entry.candidate_id: entry for entry in memory.provenance or ()}
    ordered = list(dict.fromkeys([*memory.source_candidate_ids, *entries]))
    rows: list[tuple[tuple[str, ...], tuple[str, ...]]] = []
    for candidate_id in ordered:
        entry = entries.get(candidate_id)
        if entry is None:
            unknown = "no provenance entry: the session and compartments of this candidate are not recorded"
            rows.append(((f"#{candidate_id}", "provenance unknown", "", "", ""), (unknown,) * 5))
            continue
        added = relative(entry.added_at, now) if entry.added_at is not None else "—"
        added_tip = format_instant(entry.added_at) if entry.added_at is not None else "not recorded"
        # A session id or an origin is a word in the host's rows, but may be anything of any length.
        session, origin = shown_word(entry.session_id, SESSION_CHARS), shown_word(entry.origin)
        cells = (
            f"#{candidate_id}",
            session,
            compartment_span(entry.compartment_start, entry.compartment_end),
            origin,
            added,
        )
        rows.append((cells, ("", entry.session_id, "compartment range", "", added_tip)))
    return rows


class ProvenanceTable(QTableWidget):
    def __init__(self, now: Callable[[], int], parent: QWidget | None = None) -> None:
        super().__init__(0, len(HEADERS), parent)
        self._now = now
        self.setHorizontalHeaderLabels(HEADERS)
        self.verticalHeader().setVisible(False)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setAlternatingRowColors(True)
        self.setShowGrid(False)
        self.setTabKeyNavigation(False)  # Tab leaves the table in one press; arrows move inside it
        self.setAccessibleName("Provenance")
        self.setAccessibleDescription("The candidates this memory came from: session, compartments, origin")
        self.setWordWrap(False)
        header = self.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 4)

    def set_memory(self, memory: Memory | None) -> None:
        rows = provenance_rows(memory, self._now()) if memory is not None else []
        self.setRowCount(len(rows))
        for row, (cells, tips) in enumerate(rows):
            for column, (text, tip) in enumerate(zip(cells, tips, strict=True)):
                item = QTableWidgetItem(text)
                if tip:
                    item.setToolTip(plain_tip(tip))
                self.setItem(row, column, item)
