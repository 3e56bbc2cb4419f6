"""The card list: a QListView over the memory model, painted by the card delegate, with the helpers
the window needs (select a memory by id, move the selection, visible ids, keeping the scroll anchor).

A changed row repaints only its own rectangle: QListView's `dataChanged` in ListMode schedules a layout of
every row (`QListModeViewBase::dataChanged` → `doDelayedItemsLayout`), which asks the model's `rowCount`
about twice per row. Every card has the same size (`uniformItemSizes`), so a change of data never moves a
card, and the base item view's `dataChanged` (repaint the changed rects) is all it needs.

While the listing is partial (`partial`: a first screen, the complete listing on its way), a move past its
last card (End or Ctrl+End, Page Down, Down or J there) is remembered (`Ahead`) and made once the complete
listing is in (`go_ahead`): End goes to the last card of the whole listing, the pages and steps go on as far
as they asked. Any other move, click, selection or scroll meanwhile forgets it. (Shift+End selects to the
last card listed, as it did.)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PySide6.QtCore import QItemSelectionModel, QModelIndex, QPersistentModelIndex, QPoint, Qt
from PySide6.QtGui import QKeyEvent, QMouseEvent, QPalette
from PySide6.QtWidgets import QAbstractItemView, QListView, QWidget

from ui.cards.delegate import CardDelegate
from ui.cards.model import ID_ROLE, MemoryListModel
from ui.widgets.focus_ring import show_focus
from ui.widgets.shown_time import ShownTime

Anchor = tuple[int, int]  # (memory id of the first visible card, its top in the viewport)
Command = QItemSelectionModel.SelectionFlag
Move = QAbstractItemView.CursorAction


@dataclass(frozen=True, slots=True)
class Ahead:
    """A move asked past the last card of a partial listing, from `start` (the card it reached): `rows`
    further, or to the very end (None); `command` selects as the key did (Ctrl moves the current only)."""

    start: QPersistentModelIndex
    rows: int | None
    command: Command


class CardList(QListView):
    def __init__(self, model: MemoryListModel, now: Callable[[], int], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.cards = model
        self.setModel(model)
        # The instant the cards count their times from, which the window's side panel shares (`tick`s).
        self.shown_time = now if isinstance(now, ShownTime) else ShownTime(now, self)
        self.shown_time.moved.connect(self.viewport().update)
        self.card_delegate = CardDelegate(self.shown_time, self)
        self.setItemDelegate(self.card_delegate)
        self.setUniformItemSizes(True)
        self.setVerticalScrollMode(QListView.ScrollMode.ScrollPerPixel)
        self.setMouseTracking(True)
        self.setFrameShape(QListView.Shape.NoFrame)
        self.viewport().setBackgroundRole(QPalette.ColorRole.Window)  # cards (Base) stand out
        # Shift/Ctrl-click, Shift+arrows and Ctrl+A (over the filtered listing) select many; the panel
        # shows the current card, the writers act on the whole selection (`selected_ids`).
        self.setSelectionMode(QListView.SelectionMode.ExtendedSelection)
        self.setAccessibleName("Memory cards")
        show_focus(self)  # frameless, its cards painted by the delegate: the style shows no focus
        self.partial = False  # the listing is a first screen: the rest is on its way
        self.ahead: Ahead | None = None  # a move past its end, made once the rest is in (`go_ahead`)
        self._asked: Ahead | None = None  # the one the key being handled asks for
        self._page_rows: int | None = None  # the cards Page Down last moved by
        self.selectionModel().currentChanged.connect(self.forget_ahead)
        self.selectionModel().selectionChanged.connect(self.forget_ahead)
        self.verticalScrollBar().actionTriggered.connect(self.forget_ahead)  # the wheel, a drag, a click

    def dataChanged(
        self,
        top_left: QModelIndex | QPersistentModelIndex,
        bottom_right: QModelIndex | QPersistentModelIndex,
        roles: Sequence[int] = (),
    ) -> None:
        """Repaint the changed cards, without QListView's layout of every row (see the module docstring).

        The base view skips its repaint while it believes a delayed layout is pending (one that this
        override never lets run), so the changed band is repainted here: cards are uniform and contiguous."""
        QAbstractItemView.dataChanged(self, top_left, bottom_right, list(roles))
        if top_left.isValid() and bottom_right.isValid():
            band = self.visualRect(self.cards.index(top_left.row(), 0))
            band = band.united(self.visualRect(self.cards.index(bottom_right.row(), 0)))
            self.viewport().update(band)

    # -- moves past the end of a partial listing ------------------------------------------------------

    def forget_ahead(self, *_args: object) -> None:
        self.ahead = None

    def keyPressEvent(self, event: QKeyEvent) -> None:
        self._asked = None
        super().keyPressEvent(event)  # a move it makes forgets the last one asked (the signals)
        asked, self._asked = self._asked, None
        if asked is not None:
            self.ahead = asked

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self.forget_ahead()  # a click, even on the card already current
        super().mousePressEvent(event)

    def moveCursor(self, action: Move, modifiers: Qt.KeyboardModifier) -> QModelIndex:
        index = super().moveCursor(action, modifiers)
        current = self.currentIndex()
        if action == Move.MovePageDown and current.isValid() and index.row() < self.cards.rowCount() - 1:
            self._page_rows = index.row() - current.row()  # Qt's page, as it just moved by one
        if self.partial and not modifiers & Qt.KeyboardModifier.ShiftModifier:
            ctrl = bool(modifiers & Qt.KeyboardModifier.ControlModifier)
            command = Command.NoUpdate if ctrl else Command.ClearAndSelect
            if action == Move.MoveEnd:
                self._asked = self._past_the_end(index, None, command)
            elif action in (Move.MoveDown, Move.MovePageDown):
                self._asked = self._past_the_end(
                    index, self._page() if action == Move.MovePageDown else 1, command
                )
        return index

    def _page(self) -> int:
        """The cards Page Down moves by: as many as it last moved, else the cards the view shows whole but
        one (every card is as tall as the first)."""
        if self._page_rows is not None and self._page_rows > 0:
            return self._page_rows
        height = self.visualRect(self.cards.index(0, 0)).height()
        return max(1, self.viewport().height() // height - 1) if height > 0 else 1

    def _past_the_end(self, reached: QModelIndex, step: int | None, command: Command) -> Ahead | None:
        """What a move of `step` cards (None: to the end) from the current card asks past the last card
        listed, which it `reached`; None when it asks for no more."""
        last = self.cards.rowCount() - 1
        if not reached.isValid() or reached.row() != last:
            return None
        start = QPersistentModelIndex(reached)
        before, current = self.ahead, self.currentIndex()
        if step is None or (before is not None and before.rows is None and before.start == current):
            return Ahead(start, None, command)  # to the end, asked now or before
        beyond = (current.row() if current.isValid() else -1) + step - last
        if before is not None and before.start == current and before.rows is not None:
            beyond += before.rows
        return Ahead(start, beyond, command) if beyond > 0 else None

    def listing_arrived(self, complete: bool, *, same: bool) -> Ahead | None:
        """A new listing is about to be shown (`same`: of the filter shown, `complete`: all of it): the
        move remembered past the end of its first screen, to make (`go_ahead`) once it is shown."""
        ahead = self.ahead if complete and same else None
        self.partial = not complete
        return ahead

    def go_ahead(self, ahead: Ahead | None) -> bool:
        """Make the move remembered past the end of the partial listing (the listing complete now), if
        its card is still the current one."""
        self.ahead = None
        rows = self.cards.rowCount()
        if ahead is None or not ahead.start.isValid() or ahead.start != self.currentIndex() or not rows:
            return False
        row = rows - 1 if ahead.rows is None else min(ahead.start.row() + ahead.rows, rows - 1)
        index = self.cards.index(row, 0)
        self.selectionModel().setCurrentIndex(index, ahead.command)
        self.scrollTo(index, self.ScrollHint.EnsureVisible)
        return True

    # -- lookups and moves -----------------------------------------------------------------------------

    def current_id(self) -> int | None:
        index = self.currentIndex()
        return int(index.data(ID_ROLE)) if index.isValid() else None

    def selected_ids(self) -> list[int]:
        """The selected cards' ids in listing order (by ranges: Ctrl+A over 100,000 cards is one)."""
        ids = self.cards.ids
        rows: set[int] = set()
        selection = self.selectionModel().selection()
        for index in range(selection.count()):
            selected = selection.at(index)
            rows.update(range(selected.top(), selected.bottom() + 1))
        return [ids[row] for row in sorted(rows) if row < len(ids)]

    def selected_count(self) -> int:
        """How many cards are selected (counted by ranges, no id list built)."""
        selection = self.selectionModel().selection()
        return sum(selection.at(index).height() for index in range(selection.count()))

    def select_id(self, memory_id: int, *, center: bool = False) -> bool:
        index = self.cards.index_of(memory_id)
        if not index.isValid():
            return False
        self.selectionModel().setCurrentIndex(index, QItemSelectionModel.SelectionFlag.ClearAndSelect)
        self.scrollTo(index, self.ScrollHint.PositionAtCenter if center else self.ScrollHint.EnsureVisible)
        return True

    def current_on_screen(self) -> bool:
        index = self.currentIndex()
        return index.isValid() and self.viewport().rect().intersects(self.visualRect(index))

    def show_current(self) -> None:
        """Scroll as little as needed for the selected card to be on screen."""
        index = self.currentIndex()
        if index.isValid():
            self.scrollTo(index, self.ScrollHint.EnsureVisible)

    def move_selection(self, step: int) -> None:
        rows = self.cards.rowCount()
        if rows:
            current = self.currentIndex()
            row = min(max((current.row() if current.isValid() else -1) + step, 0), rows - 1)
            index = self.cards.index(row, 0)
            asked = self._past_the_end(index, step, Command.ClearAndSelect) if self.partial else None
            self.select_id(int(index.data(ID_ROLE)))
            if asked is not None:
                self.ahead = asked

    def visible_ids(self) -> list[int]:
        """The ids of the cards on screen, and the selected one."""
        viewport = self.viewport().rect()
        top, bottom = self.indexAt(viewport.topLeft()), self.indexAt(viewport.bottomLeft())
        first = top.row() if top.isValid() else 0
        last = bottom.row() if bottom.isValid() else min(self.cards.rowCount(), first + 30) - 1
        ids = [int(self.cards.index(row, 0).data(ID_ROLE)) for row in range(first, last + 1)]
        current = self.current_id()
        return [*ids, current] if current is not None else ids

    def scroll_anchor(self) -> Anchor | None:
        """The first visible card and its offset, unless the list is scrolled to the very top."""
        if self.verticalScrollBar().value() == 0:
            return None
        index = self.indexAt(QPoint(4, 1))
        return (int(index.data(ID_ROLE)), self.visualRect(index).top()) if index.isValid() else None

    def keep_anchor(self, anchor: Anchor | None) -> None:
        """Scroll so the anchored card is where it was (rows inserted above it do not push it away)."""
        index = self.cards.index_of(anchor[0]) if anchor is not None else QModelIndex()
        if anchor is not None and index.isValid():
            bar = self.verticalScrollBar()
            bar.setValue(bar.value() + self.visualRect(index).top() - anchor[1])
