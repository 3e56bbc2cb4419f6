"""The hub window: every memory of a hub as one card across machines, a side panel with each machine's
copy and the diff where they differ, and the two actions (Copy to this machine, Dismiss on every
machine). The reads and actions run in `ui.hub.session`; this file holds layout and wiring.

Texts arrive a page at a time after the listing; cards scrolled to before their page came are read
first. A failure (the hub down, the local database read-only) shows in a banner and the status bar.
Labels, titles and questions are plain text; what publishers wrote in them (machine names) is cut and
made visible (`app.hub.words`), so no row of the hub sizes the window.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QItemSelectionModel, Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QLabel,
    QLineEdit,
    QListView,
    QMainWindow,
    QMessageBox,
    QSplitter,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from app.core.paths import is_url
from app.hub.browse import HubListing
from app.hub.cards import DISMISSED, HubCard
from app.hub.words import copy_list, machine_list, machine_name
from app.present.card import shown_word
from ui.hub.actions import HubActions, build_hub_menus
from ui.hub.card_list import HubCardList
from ui.hub.detail import HubDetail
from ui.hub.model import HubCardModel
from ui.hub.session import HubSession
from ui.widgets.plain_tip import plain_tip
from ui.widgets.theme import Tone

SEARCH_DEBOUNCE_MS = 200  # typing: one search per pause, not per key
SCROLL_DEBOUNCE_MS = 30
MACHINES_IN_TOOLTIP = 40
MACHINES_CHARS = 40  # of the machines' names in the counts
LOCATION_CHARS = 60  # of the hub's location, as the main window shows its database's


class HubWindow(QMainWindow):
    copiedHere = Signal()  # a memory was copied into the local database (its window may refresh)
    opened = Signal(object)  # HubListing: the first listing shown

    def __init__(self, session: HubSession, now: Callable[[], int], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        session.setParent(self)
        self.listing: HubListing | None = None
        self.setWindowTitle(f"Hub — {shown_word(session.location, LOCATION_CHARS)}")
        self.acts = HubActions(self)
        self.model = HubCardModel(self)
        self.list = HubCardList(self.model, now, self)
        self.list.addActions(self.acts.card_actions)  # type: ignore[arg-type]
        self.detail = HubDetail(now, self)
        self.search = QLineEdit(self)
        self.search.setPlaceholderText("Search the hub's texts")
        self.search.setClearButtonEnabled(True)
        self.search.setAccessibleName("Search the hub's memories by text")
        self.search.setToolTip("Show only cards with a copy whose text holds these words (Ctrl+F)")
        self.banner = QLabel(self)
        self.banner.setTextFormat(Qt.TextFormat.PlainText)
        self.banner.setWordWrap(True)
        self.banner.setAccessibleName("Hub error")
        self.banner.setStyleSheet(f"QLabel {{ color: {Tone.RED.value}; padding: 6px; }}")
        self.banner.hide()
        self._search_timer = _single_shot(self, SEARCH_DEBOUNCE_MS, self._search_now)
        self._scroll_timer = _single_shot(self, SCROLL_DEBOUNCE_MS, self._read_visible)
        self._build()
        self._connect()
        self._update_actions()

    def _build(self) -> None:
        toolbar = QToolBar("Hub", self)
        toolbar.setObjectName("hubToolbar")
        toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        for action in (self.acts.copy_here, self.acts.dismiss_everywhere, self.acts.refresh):
            toolbar.addAction(action)
        toolbar.addSeparator()
        toolbar.addWidget(self.search)
        self.addToolBar(toolbar)
        build_hub_menus(self, self.acts)
        splitter = QSplitter(self)
        splitter.addWidget(self.list)
        splitter.addWidget(self.detail)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        central = QWidget(self)
        layout = QVBoxLayout(central)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.banner)
        layout.addWidget(splitter, 1)
        self.setCentralWidget(central)
        QWidget.setTabOrder(self.search, self.list)
        QWidget.setTabOrder(self.list, self.detail.copies)
        self.counts = QLabel(self)
        self.counts.setTextFormat(Qt.TextFormat.PlainText)
        self.counts.setAccessibleName("Hub counts")

        self.statusBar().addPermanentWidget(self.counts)
        self.hub_label = QLabel(f"Hub: {shown_word(self.session.location, LOCATION_CHARS)}", self)
        self.hub_label.setTextFormat(Qt.TextFormat.PlainText)
        self.statusBar().addWidget(self.hub_label)
        self.statusBar().showMessage(f"Reading {self.session.location}…")

    def _connect(self) -> None:
        s, a = self.session, self.acts
        s.listingLoaded.connect(self._listing_loaded)
        s.pageLoaded.connect(self._page_loaded)
        s.matched.connect(self._matched)
        s.failed.connect(self.show_error)
        s.copied.connect(self._copied)
        s.dismissQueued.connect(self._dismiss_queued)
        a.copy_here.triggered.connect(self.copy_here)
        a.dismiss_everywhere.triggered.connect(self.dismiss_everywhere)
        a.refresh.triggered.connect(self.refresh)
        a.find.triggered.connect(self._focus_search)
        a.next.triggered.connect(lambda: self._move(1))
        a.previous.triggered.connect(lambda: self._move(-1))
        a.close.triggered.connect(self.close)
        self.search.textChanged.connect(lambda _text: self._search_timer.start())
        self.list.selectionModel().currentChanged.connect(lambda *_: self._current_changed())
        self.list.verticalScrollBar().valueChanged.connect(lambda _value: self._scroll_timer.start())
        self.model.modelReset.connect(self._scroll_timer.start)

    # --- reading -------------------------------------------------------------------------------

    def refresh(self) -> None:
        self.session.load()

    def _listing_loaded(self, listing: HubListing) -> None:
        first = self.listing is None
        current = self.current_card()
        self.listing = listing
        self.banner.hide()
        self.statusBar().clearMessage()
        self.model.set_cards(listing.cards)
        if self.search.text().strip():
            self._search_now()
        if not (current is not None and self.select_key(current.key)) and self.model.rowCount():
            self.list.setCurrentIndex(self.model.index(0))
        self._show_counts()
        if first:
            self.opened.emit(listing)

    def _show_counts(self) -> None:
        if self.listing is None:
            return
        c = self.listing.counts
        shown = self.model.rowCount()
        found = f" · {shown:,} found" if shown != c.cards else ""
        # The machines' names are the publishers': a few, cut, so the label never widens the window
        # (its tooltip names more of them).
        names = machine_list(c.machines)
        names = names if len(names) <= MACHINES_CHARS else names[: MACHINES_CHARS - 1] + "…"
        self.counts.setText(
            f"{len(c.machines)} machines ({names}) · {c.cards:,} cards{found} · "
            f"{c.differing:,} differ between machines · {c.on_every_machine:,} on every machine"
        )
        self.counts.setToolTip(plain_tip(machine_list(c.machines, MACHINES_IN_TOOLTIP, separator="\n")))
        local = self.session.local.target if self.session.local is not None else None
        self.acts.set_local(local)

    def _page_loaded(self, cards: list[HubCard]) -> None:
        self.model.update_cards(cards)
        # The side panel after the cards' paint: its first diff loads the diff engine.
        QTimer.singleShot(0, self._current_changed)

    def visible_rows(self) -> tuple[int, int]:
        """The first and last rows on screen ((-1, -2) when none)."""
        top = self.list.indexAt(self.list.viewport().rect().topLeft()).row()
        bottom = self.list.indexAt(self.list.viewport().rect().bottomLeft()).row()
        if top < 0:
            return (-1, -2)
        return (top, bottom if bottom >= 0 else self.model.rowCount() - 1)

    def _read_visible(self) -> None:
        unread = self.model.unloaded(*self.visible_rows())
        if unread:
            self.session.read_now(unread)

    def _search_now(self) -> None:
        needle = self.search.text().strip()
        if not needle:
            self.model.filter_to(None)
            self._after_filter()
        else:
            self.session.search(needle)

    def _matched(self, needle: str, keys: set[tuple[str, int]]) -> None:
        if needle != self.search.text().strip():
            return  # superseded by later typing
        self.model.filter_to(keys)
        self._after_filter()

    def _after_filter(self) -> None:
        self._show_counts()
        if self.model.rowCount():
            self.list.setCurrentIndex(self.model.index(0))
        else:
            self.detail.show_card(None)
        self._update_actions()

    def _focus_search(self) -> None:
        self.search.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.search.selectAll()

    # --- selection -----------------------------------------------------------------------------

    def current_card(self) -> HubCard | None:
        return self.model.card(self.list.currentIndex().row())

    def select_key(self, key: tuple[str, int]) -> bool:
        row = self.model.row_of(key)
        if row is None:
            return False
        index = self.model.index(row)
        self.list.selectionModel().setCurrentIndex(index, QItemSelectionModel.SelectionFlag.ClearAndSelect)
        self.list.scrollTo(index, QListView.ScrollHint.PositionAtCenter)
        return True

    def _move(self, step: int) -> None:
        row = max(0, min(self.model.rowCount() - 1, self.list.currentIndex().row() + step))
        if self.model.rowCount():
            self.list.setCurrentIndex(self.model.index(row))

    def _current_changed(self) -> None:
        card = self.current_card()
        self.detail.show_card(card)
        if card is not None and not card.loaded:
            self.session.read_now([card])
        self._update_actions()

    def _update_actions(self) -> None:
        card = self.current_card()
        self.acts.copy_here.setEnabled(card is not None and card.loaded and self.session.local is not None)
        self.acts.dismiss_everywhere.setEnabled(card is not None and bool(card.dismissable()))

    # --- acting --------------------------------------------------------------------------------

    def confirm(self, title: str, text: str) -> bool:
        """Ask before acting (tests answer it)."""
        box = QMessageBox(QMessageBox.Icon.Question, title, text, parent=self)
        box.setTextFormat(Qt.TextFormat.PlainText)
        box.setStandardButtons(QMessageBox.StandardButton.Ok | QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        return box.exec() == QMessageBox.StandardButton.Ok

    def chosen_copy(self, card: HubCard) -> tuple[str, int]:
        """The copy selected in the side panel's table, else the card's newest."""
        row = self.detail.copies.currentRow()
        copy = card.copies[row] if 0 <= row < len(card.copies) else card.newest
        return copy.key

    def copy_here(self) -> None:
        card = self.current_card()
        if card is None or self.session.local is None:
            return
        machine, memory_id = self.chosen_copy(card)
        where = self.session.local.target
        kind = "database" if is_url(where) else "file"
        name = machine_name(machine)
        text = (
            f"Copy {name} #{memory_id} to this machine?\n\nIt becomes a new active memory in the local "
            f"{kind} {where}: a manual promotion whose provenance names {name} (origin sync). Nothing "
            "is written to the hub or to the other machine."
        )
        if self.confirm("Copy to this machine", text):
            self.session.copy_here(machine, memory_id)

    def dismiss_everywhere(self) -> None:
        card = self.current_card()
        sources = card.dismissable() if card is not None else []
        if card is None or not sources:
            return
        shown = copy_list([c for c in card.copies if c.status != DISMISSED])
        text = (
            f"Dismiss this memory on every machine?\n\nThe hub queues a dismissal for {shown}; each "
            "machine dismisses its copy on its next publish (a dashboard write with its own revision, "
            f"naming {machine_name(self.session.machine)} as the machine that asked)."
        )
        if self.confirm("Dismiss on every machine", text):
            self.session.dismiss_everywhere([c.key for c in sources])

    def _copied(self, text: str) -> None:
        self.banner.hide()
        self.statusBar().showMessage(text, 10_000)
        self.copiedHere.emit()

    def _dismiss_queued(self, text: str) -> None:
        self.banner.hide()
        self.statusBar().showMessage(text, 10_000)
        self.session.load()  # the pending requests show on the cards

    def show_error(self, text: str) -> None:
        self.banner.setText(text)
        self.banner.show()
        self.statusBar().showMessage(text, 15_000)

    def closeEvent(self, event: QCloseEvent) -> None:
        self.session.close()
        super().closeEvent(event)


def _single_shot(parent: QWidget, msecs: int, slot: Callable[[], None]) -> QTimer:
    timer = QTimer(parent)
    timer.setSingleShot(True)
    timer.setInterval(msecs)
    timer.timeout.connect(slot)
    return timer
