"""The toolbar's search field, status filter (with Deleted: the trash), sort, source (a session, a source
or a scheme such as `session:`), trust and when promoted, emitting one `ViewFilter`.

A key in the search field asks for its listing on the next event-loop turn when the listing asked for
before has arrived; while that read is still running, the newest text waits for it (at most
`SEARCH_DEBOUNCE_MS`, should it never come), so keys typed during a read make one query, not one each.

Enter in a text field applies it at once and says so (`submitted`: the window moves on to the cards). The
lists take the focus from Tab only: one chosen with the mouse leaves the focus where it was (the cards,
whose J/K then still walk them), as a toolbar's buttons do.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLineEdit, QWidget

from app.core.text_input import text_problem
from app.core.trust import parse_source
from app.present.timefmt import DAY_MS
from ui.cards.listing import EXPIRING_OR_EXPIRED, Listing, ViewFilter

SEARCH_DEBOUNCE_MS = 120  # the longest the newest text waits for the listing read still running
STATUSES = (
    ("Active", "active"),
    ("Dismissed", "dismissed"),
    ("All", "all"),
    ("Rewritten", "rewritten"),
    ("Expiring/Expired", EXPIRING_OR_EXPIRED),
    ("Deleted", "deleted"),
)
TRUSTS = (
    ("Any trust", ""),
    ("Trusted", "trusted"),
    ("Semi-trusted", "semi"),
    ("Untrusted", "untrusted"),
    ("Screened", "screened"),
)
PERIODS = (
    ("Any time", 0),
    ("Promoted today", 1),
    ("In the last 7 days", 7),
    ("In the last 30 days", 30),
    ("In the last year", 365),
)
SORTS = (
    ("Newest promoted", "promoted", True),
    ("Oldest promoted", "promoted", False),
    ("Recently updated", "updated", True),
    ("Least recently updated", "updated", False),
)


class FilterBar(QWidget):
    filterChanged = Signal(object)  # ViewFilter
    submitted = Signal()  # Enter in the search or source field: the filter is applied

    def __init__(self, parent: QWidget | None = None, now: Callable[[], int] | None = None) -> None:
        super().__init__(parent)
        self._now = now or (lambda: int(time.time() * 1000))
        self.search = QLineEdit(self)
        self.search.setPlaceholderText("Search memories or #id")
        self.search.setToolTip("Every word must occur; #12 finds memory 12 (Ctrl+F)")
        self.search.setClearButtonEnabled(True)
        self.search.setAccessibleName("Search memories")
        self.search.setMinimumWidth(220)
        self.status = QComboBox(self)
        self.status.setToolTip("Which memories to list")
        self.status.setAccessibleName("Status filter")
        for label, value in STATUSES:
            self.status.addItem(label, value)
        self.sort = QComboBox(self)
        self.sort.setToolTip("Order of the cards")
        self.sort.setAccessibleName("Sort order")
        for label, key, descending in SORTS:
            self.sort.addItem(label, (key, descending))
        self._asked: ViewFilter | None = None  # the filter asked for whose listing has not arrived
        # Source and trust sit in a row of their own (`more`, above the cards): the toolbar has no room.
        self.more = QWidget(parent)
        self.source = QLineEdit(self.more)
        self.source.setPlaceholderText("Source or session")
        self.source.setToolTip(
            "Only memories from this source: a session id (ses_…), session:ID, user:dashboard, "
            "or a whole scheme such as session:"
        )
        self.source.setAccessibleName("Source filter")
        self.source.setClearButtonEnabled(True)
        self.trust = QComboBox(self.more)
        self.trust.setToolTip("Only memories of this trust (Screened: hidden characters in the content)")
        self.trust.setAccessibleName("Trust filter")
        for label, value in TRUSTS:
            self.trust.addItem(label, value)
        self.since = QComboBox(self.more)
        self.since.setToolTip("Only memories promoted in this period")
        self.since.setAccessibleName("Promoted in")
        for label, days in PERIODS:
            self.since.addItem(label, days)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._emit)
        self.search.textChanged.connect(lambda _text: self._text_changed())
        self.search.returnPressed.connect(self._submit)
        self.status.currentIndexChanged.connect(lambda _i: self._emit())
        self.sort.currentIndexChanged.connect(lambda _i: self._emit())
        self.source.textChanged.connect(lambda _text: self._timer.start())
        self.source.returnPressed.connect(self._submit)
        self.trust.currentIndexChanged.connect(lambda _i: self._emit())
        self.since.currentIndexChanged.connect(lambda _i: self._emit())
        for box in (self.status, self.sort, self.trust, self.since):
            box.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.search, 1)
        layout.addWidget(self.status)
        layout.addWidget(self.sort)
        row = QHBoxLayout(self.more)
        row.setContentsMargins(8, 6, 8, 0)
        row.addWidget(self.source, 1)
        row.addWidget(self.trust)
        row.addWidget(self.since)

    def fields(self) -> list[QWidget]:
        """Its fields in the order they are seen: the toolbar's, then the row under them."""
        return [self.search, self.status, self.sort, self.source, self.trust, self.since]

    def current(self) -> ViewFilter:
        key, descending = self.sort.currentData()
        return ViewFilter(
            str(self.status.currentData()),
            self.search.text().strip(),
            key,
            bool(descending),
            source_filter(self.source.text()),
            self.trust.currentData() or "",
            self._now() - days * DAY_MS if (days := self.since.currentData()) else None,
        )

    def set_source(self, source: str) -> None:
        """Show the memories of one source (the provenance table's "Show memories from this session")."""
        self.source.setText(source)
        self._emit()

    def set_status(self, value: str) -> None:
        index = self.status.findData(value)
        if index >= 0:
            self.status.setCurrentIndex(index)

    def _text_changed(self) -> None:
        if self._asked is None:
            self._timer.start(0)  # the next turn: the keys of one turn (a paste, a test) ask once
        elif not self._timer.isActive():
            self._timer.start(SEARCH_DEBOUNCE_MS)  # a bound on the wait, not restarted by every key

    def listing_arrived(self, flt: ViewFilter) -> None:
        """A listing was shown: the one asked for ends the wait, and the text that waited goes now."""
        if flt == self._asked:
            self._asked = None
            if self._timer.isActive():
                self._timer.start(0)  # after the window has taken the listing

    def _submit(self) -> None:
        self._emit()
        self.submitted.emit()

    def _emit(self) -> None:
        self._timer.stop()
        self._asked = self.current()
        self.filterChanged.emit(self._asked)


def source_filter(text: str) -> str:
    """The source typed, as the store reads one (`session:ID` for a bare id); "" when none or unusable."""
    if not text.strip() or text_problem(text) is not None:
        return ""
    try:
        return parse_source(text)
    except ValueError:
        return ""


def listing_title(listing: Listing) -> str:
    label = {value: text for text, value in STATUSES}.get(listing.filter.status, listing.filter.status)
    search = f" matching “{listing.filter.search}”" if listing.filter.search else ""
    search += f" from {listing.filter.source}" if listing.filter.source else ""
    trust = {value: text for text, value in TRUSTS}.get(listing.filter.trust, "")
    search += f" · {trust}" if listing.filter.trust else ""
    search += " · promoted in the period chosen" if listing.filter.since is not None else ""
    if listing.total is None:  # a search's first screen: counted with the complete listing
        return f"{len(listing.ids):,}+ memories · {label}{search}"
    count = listing.total
    return f"{count:,} {'memory' if count == 1 else 'memories'} · {label}{search}"
