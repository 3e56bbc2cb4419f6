"""Looking back (As of…): the memories as they were at one instant, as cards like the window's own,
beside a detail panel (`ui.past.panel`), under a banner that says which instant is shown, read-only,
until the person leaves (Esc, or the banner's "Back to now").

The first screen is shown as soon as it is read, the whole past once read (`ui.past.listing`); a
listing for another instant than the one asked for last is dropped. J/K (or the arrows) walk the cards.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import (
    QEvent,
    QItemSelectionModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QKeySequence, QPalette, QShortcut
from PySide6.QtWidgets import (
    QHBoxLayout,
    QListView,
    QPushButton,
    QSplitter,
    QStyleOptionViewItem,
    QWidget,
)

from app.core.clock import format_instant
from ui.cards.delegate import CardDelegate
from ui.cards.filter_bar import STATUSES
from ui.cards.layout import CardFonts, CardLayout, layout_parts
from ui.cards.listing import ViewFilter
from ui.cards.model import ID_ROLE
from ui.past.cards import card_parts
from ui.past.listing import PastListing
from ui.past.model import STATE_ROLE, PastListModel
from ui.past.panel import PastPanel
from ui.widgets.column import column
from ui.widgets.labels import plain_label, tint
from ui.widgets.theme import Tone, badge_colors, muted_text

if TYPE_CHECKING:
    from app.core.models.as_of import MemoryAsOf

AnyIndex = QModelIndex | QPersistentModelIndex
LAYOUT_BATCH = 1000
WHOLE_AFTER_MS = 300  # the longest the whole past's read waits for the first screen's paint


def filter_words(flt: ViewFilter) -> str:
    """The toolbar's filter as the past listing's header says it: ` · Active matching “pnpm”`."""
    labels = {value: text for text, value in STATUSES} | {"rewritten": "Changed by then"}
    label = labels.get(flt.status, flt.status)
    return f" · {label}" + (f" matching “{flt.search}”" if flt.search else "")


class PastCardDelegate(CardDelegate):
    """The card delegate, painting a memory's state then (`ui.past.cards`) instead of its row now."""

    def __init__(self, parent: QListView) -> None:
        super().__init__(lambda: 0, parent)

    def _layout(self, option: QStyleOptionViewItem, index: AnyIndex) -> tuple[CardLayout, None]:
        from app.core.models.as_of import MemoryAsOf  # loaded by then: a past is shown

        state = index.data(STATE_ROLE)
        parts = card_parts(state) if isinstance(state, MemoryAsOf) else None
        return layout_parts(
            option.rect, int(index.data(ID_ROLE)), CardFonts.from_font(option.font), parts
        ), None


class NextPaint(QObject):
    """Calls `then` once after the next paint of `widget` once armed, or `WHOLE_AFTER_MS` after being
    armed should no paint come (a minimized window)."""

    def __init__(self, widget: QWidget, then: Callable[[], None]) -> None:
        super().__init__(widget)
        self._then = then
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._fire)
        widget.installEventFilter(self)

    def arm(self) -> None:
        self._timer.start(WHOLE_AFTER_MS)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if self._timer.isActive() and event.type() == QEvent.Type.Paint:
            QTimer.singleShot(0, self._fire)  # after this paint, whatever else it is part of
            self._timer.stop()
        return False

    def _fire(self) -> None:
        self._timer.stop()
        self._then()


class AsOfBanner(QWidget):
    """`As of …: N memories, M shown to the agent. Read-only` with "Back to now", tinted amber."""

    leave = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = plain_label()
        self.label.setAccessibleName("The instant shown")
        self.button = QPushButton("Back to now", self)
        self.button.setToolTip("Leave the view of the past (Esc)")
        self.button.setAccessibleName("Back to now")
        self.button.clicked.connect(self.leave.emit)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 6, 6, 6)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.button)
        self.setAutoFillBackground(True)
        colors = badge_colors(self.palette(), Tone.AMBER)
        palette = self.palette()
        palette.setColor(QPalette.ColorRole.Window, colors.background)
        palette.setColor(QPalette.ColorRole.WindowText, colors.foreground)
        self.setPalette(palette)

    def set_listing(self, listing: PastListing) -> None:
        when = format_instant(listing.at)
        if listing.future:
            when += f" (now: {format_instant(listing.asked)} is in the future)"
        if listing.complete:
            more = f", {listing.unknown:,} unknown then" if listing.unknown else ""
            counted = f"{len(listing.states):,} memories, {listing.shown_to_agent:,} shown to the agent{more}"
        else:
            counted = "reading every memory…"
        self.label.setText(f"As of {when}: {counted}. Read-only: nothing can be changed while looking back.")


class AsOfView(QWidget):
    left = Signal()  # the person leaves the view of the past
    firstScreenPainted = Signal()  # a first screen's cards are on screen (or waited `WHOLE_AFTER_MS`)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.at: int | None = None
        self.asked: int | None = None  # the instant asked for last (its listings are the ones shown)
        self.complete = False
        self._replacing = False
        self._filter_words = ""
        self._wanted: int | None = None  # to select once listed
        self.banner = AsOfBanner(self)
        self.banner.leave.connect(self.left.emit)
        self.header = plain_label(wrap=False)
        self.header.setContentsMargins(14, 8, 8, 2)
        tint(self.header, muted_text(self.palette()))
        self.model = PastListModel(self)
        self.list = QListView(self)
        self.list.setModel(self.model)
        self.list.setItemDelegate(PastCardDelegate(self.list))
        self.list.setUniformItemSizes(True)
        # 100,000 cards are laid out a batch per turn of the event loop: the first screen paints at once.
        self.list.setLayoutMode(QListView.LayoutMode.Batched)
        self.list.setBatchSize(LAYOUT_BATCH)
        self.list.setVerticalScrollMode(QListView.ScrollMode.ScrollPerPixel)
        self.list.setMouseTracking(True)
        self.list.setFrameShape(QListView.Shape.NoFrame)
        self.list.viewport().setBackgroundRole(QPalette.ColorRole.Window)
        self.list.setAccessibleName("Memory cards as of the instant shown")
        self._first_painted = NextPaint(self.list.viewport(), self.firstScreenPainted.emit)
        self.list.selectionModel().currentChanged.connect(
            lambda current, _old: self._current_changed(current)
        )
        self.panel = PastPanel(self)
        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.addWidget(column(QWidget(self), self.header, self.list))
        self.splitter.addWidget(self.panel)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        self.splitter.setSizes([600, 500])
        column(self, self.banner, self.splitter)
        self._shortcut("Escape", self.left.emit)
        self._shortcut("J", lambda: self.move_selection(1), self.list)
        self._shortcut("K", lambda: self.move_selection(-1), self.list)
        QWidget.setTabOrder(self.banner.button, self.list)

    def _shortcut(self, key: str, act: Callable[[], object], on: QWidget | None = None) -> None:
        shortcut = QShortcut(QKeySequence(key), on or self)
        shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        shortcut.activated.connect(act)

    # -- what is shown ---------------------------------------------------------------------------------

    def begin(self, asked: int | None, select: int | None = None) -> None:
        """A new instant was asked for (None: none; the past was left): its listings are the ones shown
        from now on, and memory `select` is selected once listed (else the first)."""
        self.asked, self._wanted = asked, select

    def set_listing(self, listing: PastListing) -> bool:
        """Show a listing of the instant asked for last (another's is dropped); whether it was shown."""
        if listing.asked != self.asked:
            return False
        self.at, self.complete = listing.at, listing.complete
        if not listing.complete:
            self._first_painted.arm()
        self.banner.set_listing(listing)
        self._replace(lambda: self.model.set_states(listing.states, listing.texts))
        if listing.complete:
            self._wanted = None  # not listed: it did not exist then
        if not self.model.rowCount() and not self.model.total:
            self.panel.empty.setText(f"No memories existed at {format_instant(listing.at)}.")
        return True

    def set_filter(self, flt: ViewFilter) -> None:
        """The toolbar's status, search and order, applied to the memories as they were (`kept`)."""
        self._filter_words = filter_words(flt)
        words = flt.search.casefold().split()
        self._replace(lambda: self.model.set_filter(flt.status, words, flt.sort, flt.descending))

    def _replace(self, change: Callable[[], None]) -> None:
        """Change what is listed, keeping the current memory (by id) or else selecting the first; the
        panel hears of the selection once, after the change."""
        current = self.current_id()
        self._replacing = True
        try:
            change()
            if self.select_id(self._wanted, center=True):
                self._wanted = None
            elif not self.select_id(current, center=True):  # a reset forgets where the list was
                self.move_selection(0)
        finally:
            self._replacing = False
        self._update_header()
        self._current_changed(self.list.currentIndex())

    def _update_header(self) -> None:
        count, total = self.model.rowCount(), self.model.total
        more = "" if self.complete else "+"  # the first screen: the rest follows
        if count == total:
            counted = f"{count:,}{more} {'memory' if count == 1 and not more else 'memories'}"
        else:
            counted = f"{count:,} of {total:,}{more} memories"
        self.header.setText(f"{counted} then{self._filter_words}")

    def states(self) -> list[MemoryAsOf]:
        return self.model.states()

    def current_id(self) -> int | None:
        index = self.list.currentIndex()
        return int(index.data(ID_ROLE)) if index.isValid() else None

    def select_id(self, memory_id: int | None, *, center: bool = False) -> bool:
        row = self.model.row_of(memory_id) if memory_id is not None else None
        if row is None:
            return False
        index = self.model.index(row, 0)
        self.list.selectionModel().setCurrentIndex(index, QItemSelectionModel.SelectionFlag.ClearAndSelect)
        hint = QListView.ScrollHint.PositionAtCenter if center else QListView.ScrollHint.EnsureVisible
        self.list.scrollTo(index, hint)
        return True

    def move_selection(self, step: int) -> None:
        """The card `step` rows from the current one (0: the current one, or the first)."""
        rows = self.model.rowCount()
        if not rows:
            return
        current = self.list.currentIndex()
        row = min(max((current.row() if current.isValid() else 0) + step, 0), rows - 1)
        self.select_id(int(self.model.index(row, 0).data(ID_ROLE)))

    def _current_changed(self, index: QModelIndex) -> None:
        if self._replacing:
            return
        from app.core.models.as_of import MemoryAsOf  # loaded by then: a past is shown

        state = index.data(STATE_ROLE) if index.isValid() else None
        self.panel.show_state(state if isinstance(state, MemoryAsOf) else None)
