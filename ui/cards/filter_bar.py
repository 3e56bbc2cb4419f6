"""The toolbar's search field, status filter and sort, emitting one `ViewFilter`.

A key in the search field asks for its listing on the next event-loop turn when the listing asked for
before has arrived; while that read is still running, the newest text waits for it (at most
`SEARCH_DEBOUNCE_MS`, should it never come), so keys typed during a read make one query, not one each.
"""

from __future__ import annotations

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLineEdit, QWidget

from ui.cards.listing import EXPIRING_OR_EXPIRED, Listing, ViewFilter

SEARCH_DEBOUNCE_MS = 120  # the longest the newest text waits for the listing read still running
STATUSES = (
    ("Active", "active"),
    ("Dismissed", "dismissed"),
    ("All", "all"),
    ("Rewritten", "rewritten"),
    ("Expiring/Expired", EXPIRING_OR_EXPIRED),
)
SORTS = (
    ("Newest promoted", "promoted", True),
    ("Oldest promoted", "promoted", False),
    ("Recently updated", "updated", True),
    ("Least recently updated", "updated", False),
)


class FilterBar(QWidget):
    filterChanged = Signal(object)  # ViewFilter

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
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
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._emit)
        self.search.textChanged.connect(lambda _text: self._text_changed())
        self.search.returnPressed.connect(self._emit)
        self.status.currentIndexChanged.connect(lambda _i: self._emit())
        self.sort.currentIndexChanged.connect(lambda _i: self._emit())
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.search, 1)
        layout.addWidget(self.status)
        layout.addWidget(self.sort)

    def current(self) -> ViewFilter:
        key, descending = self.sort.currentData()
        return ViewFilter(str(self.status.currentData()), self.search.text().strip(), key, bool(descending))

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

    def _emit(self) -> None:
        self._timer.stop()
        self._asked = self.current()
        self.filterChanged.emit(self._asked)


def listing_title(listing: Listing) -> str:
    label = {value: text for text, value in STATUSES}.get(listing.filter.status, listing.filter.status)
    search = f" matching “{listing.filter.search}”" if listing.filter.search else ""
    if listing.total is None:  # a search's first screen: counted with the complete listing
        return f"{len(listing.ids):,}+ memories · {label}{search}"
    count = listing.total
    return f"{count:,} {'memory' if count == 1 else 'memories'} · {label}{search}"
