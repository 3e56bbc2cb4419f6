"""The provenance of one memory as a table: candidate id, session, compartments, origin, when added, and
the candidate's own words from the evidence archive (its tooltip: the whole text, session and when archived);
a session's context menu marks it trusted or untrusted, lists its memories, or retires them (`sourceAction`).

Ids in `source_candidate_ids` that no provenance entry describes get a "provenance unknown" row, so
the table always lists every candidate the memory claims to come from, in the memory's own order. The
words are read off the GUI thread (`fetch_evidence`, set by the window) and filled in when they arrive;
an id the archive never saw says so ("not archived …").
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager

from PySide6.QtCore import QPoint, Qt, Signal
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QMenu, QTableWidget, QTableWidgetItem, QWidget

from app.core.clock import format_instant
from app.core.models import Memory
from app.core.models.evidence import Evidence, evidence_words, memory_candidate_ids
from app.core.provenance import ProvenanceEntry, compartment_span
from app.present.card import shown_word
from app.present.timefmt import relative
from ui.widgets.plain_tip import plain_tip

SESSION_CHARS = 120
HEADERS = ("Candidate", "Session", "Compartments", "Origin", "Added", "Words")
# What the context menu on a session asks for (`sourceAction(action, source)`).
SOURCE_ACTIONS = (
    ("trusted", "Mark {source} trusted"),
    ("untrusted", "Mark {source} untrusted"),
    ("default", "Clear the trust mark of {source}"),
    ("", ""),
    ("untrusted-scheme", "Mark every session untrusted"),
    ("default-scheme", "Clear the mark on every session"),
    ("", ""),
    ("show", "Show memories from {source}"),
    ("retire", "Retire everything {source} contributed…"),
)

WORDS_COLUMN = 5
WORDS_CHARS = 200  # of a candidate's words in its cell (the tooltip has them all)
LOADING = "…"
# `fetch_evidence(ids, done)`: read the archive's evidence of `ids` off the GUI thread, then call `done`.
EvidenceFetcher = Callable[[list[int], Callable[[Mapping[int, Evidence]], None]], None]


def evidence_tip(candidate_id: int, found: Evidence | None) -> str:
    """The words cell's tooltip: the whole text, the session and when the dashboard archived it."""
    if found is None:
        return f"#{candidate_id}: {evidence_words(None)}"
    notes = "".join(f"\nmalformed: {note}" for note in found.oddities)
    at = found.archived_at
    archived = "never archived" if at is None else f"archived {format_instant(at)}"
    return f"#{candidate_id} said:\n{found.content}\n\nsession {found.session_id}\n{archived}{notes}"


def _ordered(memory: Memory) -> tuple[dict[int, ProvenanceEntry], list[int]]:
    """The provenance entries by candidate id, and every candidate id in the memory's own order."""
    entries = {entry.candidate_id: entry for entry in memory.provenance or ()}
    return entries, memory_candidate_ids(memory)


def row_sources(memory: Memory) -> list[str | None]:
    """Each row's source (`session:ID`), None where the candidate has no provenance entry."""
    entries, ordered = _ordered(memory)
    return [f"session:{entries[i].session_id}" if i in entries else None for i in ordered]


def provenance_rows(memory: Memory, now: int) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """(cells, tooltips) per candidate id, in the memory's order; unknown ones say so."""
    entries, ordered = _ordered(memory)
    rows: list[tuple[tuple[str, ...], tuple[str, ...]]] = []
    for candidate_id in ordered:
        entry = entries.get(candidate_id)
        if entry is None:
            unknown = "no provenance entry: the session and compartments of this candidate are not recorded"
            rows.append(((f"#{candidate_id}", "provenance unknown", "", "", "", ""), (unknown,) * 6))
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
            "",
        )
        rows.append((cells, ("", entry.session_id, "compartment range", "", added_tip, "")))
    return rows


class ProvenanceTable(QTableWidget):
    sourceAction = Signal(str, str)  # action (SOURCE_ACTIONS), source (`session:ID` or `session:`)
    evidenceArrived = Signal(object)  # Mapping[int, Evidence]: the words of the shown memory's candidates

    def __init__(self, now: Callable[[], int], parent: QWidget | None = None) -> None:
        super().__init__(0, len(HEADERS), parent)
        self._now = now
        self._sessions: list[str | None] = []
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.customContextMenuRequested.connect(self._context_menu)
        self.setHorizontalHeaderLabels(HEADERS)
        self.verticalHeader().setVisible(False)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setAlternatingRowColors(True)
        self.setShowGrid(False)
        self.setTabKeyNavigation(False)  # Tab leaves the table in one press; arrows move inside it
        self.setAccessibleName("Provenance")
        self.setAccessibleDescription(
            "The candidates this memory came from: session, compartments, origin, and their words"
        )
        self.setWordWrap(False)
        self._size_columns()
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 4)
        self.fetch_evidence: EvidenceFetcher | None = None
        self._ids: list[int] = []
        self._token = 0
        self.words_pending = False  # the shown memory's words are being read (`fetch_evidence`)

    def _size_columns(self) -> None:
        """Session and words stretch, the other columns fit their contents."""
        header = self.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(WORDS_COLUMN, QHeaderView.ResizeMode.Stretch)

    @contextmanager
    def _cells_changing(self) -> Iterator[None]:
        """Cells set one by one, the columns sized once after: a column that fits its contents measures
        every row again at each cell set, so filling 20 rows measured them 120 times."""
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        try:
            yield
        finally:
            self._size_columns()

    def session_at(self, row: int) -> str | None:
        """The source (`session:ID`) of a row, None for a candidate without provenance."""
        return self._sessions[row] if 0 <= row < len(self._sessions) else None

    def source_menu(self, source: str) -> QMenu:
        """Trust marks, the listing of this session's memories, and retiring them."""
        menu = QMenu(self)
        for action, text in SOURCE_ACTIONS:
            if not action:
                menu.addSeparator()
                continue
            entry = menu.addAction(text.format(source=shown_word(source, SESSION_CHARS)))
            scheme = action.endswith("-scheme")
            what, wanted = (action.removesuffix("-scheme"), "session:") if scheme else (action, source)
            entry.triggered.connect(lambda _checked=False, a=what, s=wanted: self.sourceAction.emit(a, s))
        return menu

    def _context_menu(self, at: QPoint) -> None:
        source = self.session_at(self.rowAt(at.y()))
        if source is not None:
            self.source_menu(source).popup(self.viewport().mapToGlobal(at))

    def set_memory(self, memory: Memory | None) -> None:
        rows = provenance_rows(memory, self._now()) if memory is not None else []
        self._sessions = row_sources(memory) if memory is not None else []
        loading = self.fetch_evidence is not None
        with self._cells_changing():
            self.setRowCount(len(rows))
            for row, (cells, tips) in enumerate(rows):
                for column, (text, tip) in enumerate(zip(cells, tips, strict=True)):
                    item = QTableWidgetItem(LOADING if loading and column == WORDS_COLUMN else text)
                    if tip:
                        item.setToolTip(plain_tip(tip))
                    self.setItem(row, column, item)
        self._ids = memory_candidate_ids(memory) if memory is not None else []
        self._token += 1
        self.words_pending = self.fetch_evidence is not None and bool(self._ids)
        if self.fetch_evidence is not None and self._ids:
            token = self._token
            self.fetch_evidence(list(self._ids), lambda found: self._evidence_arrived(token, found))

    def _evidence_arrived(self, token: int, found: Mapping[int, Evidence]) -> None:
        if token != self._token:
            return  # another memory is shown by now
        self.words_pending = False
        with self._cells_changing():
            for row, candidate_id in enumerate(self._ids):
                item = self.item(row, WORDS_COLUMN)
                if item is None:
                    continue
                evidence = found.get(candidate_id)
                item.setText(evidence_words(evidence, WORDS_CHARS))
                item.setToolTip(plain_tip(evidence_tip(candidate_id, evidence)))
        self.evidenceArrived.emit(found)

    @property
    def candidate_ids(self) -> list[int]:
        """The shown memory's candidate ids, in the table's order."""
        return list(self._ids)

    def words(self, row: int) -> str:
        """The words cell of a row as shown (tests, accessibility)."""
        item = self.item(row, WORDS_COLUMN)
        return item.text() if item is not None else ""
