"""The card list: a QListView over the memory model, painted by the card delegate, with the helpers
the window needs (select a memory by id, move the selection, visible ids, keeping the scroll anchor).

A changed row repaints only its own rectangle: QListView's `dataChanged` in ListMode schedules a layout of
every row (`QListModeViewBase::dataChanged` → `doDelayedItemsLayout`), which asks the model's `rowCount`
about twice per row. Every card has the same size (`uniformItemSizes`), so a change of data never moves a
card, and the base item view's `dataChanged` (repaint the changed rects) is all it needs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QItemSelectionModel, QModelIndex, QPersistentModelIndex, QPoint
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QAbstractItemView, QListView, QWidget

from ui.cards.delegate import CardDelegate
from ui.cards.model import ID_ROLE, MemoryListModel
from ui.widgets.focus_ring import show_focus
from ui.widgets.shown_time import ShownTime

Anchor = tuple[int, int]  # (memory id of the first visible card, its top in the viewport)


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
            self.select_id(int(self.cards.index(row, 0).data(ID_ROLE)))

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
