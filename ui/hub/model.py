"""The hub window's list model: an adapter over the listing's cards (`app.hub.cards.HubCard`).

It holds the cards in listing order and the ones a text filter keeps. A page of texts replaces its cards
in place (`dataChanged` with `CARD_ROLE`, no reset); a filter is a reset of the rows shown. What a card
says in words is bounded whatever publishers wrote: the start of its text (`card_text`, as the main
window's cards), machine names cut, a long list of copies counted.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QAbstractListModel, QModelIndex, QObject, QPersistentModelIndex, Qt

from app.hub.cards import HubCard, Key
from app.hub.words import copy_name, copy_status, machine_list
from ui.cards.layout import card_text
from ui.widgets.plain_tip import plain_tip

CARD_ROLE = Qt.ItemDataRole.UserRole + 1
SUMMARY_COPIES = 12  # copies a card's tooltip names one by one
AnyIndex = QModelIndex | QPersistentModelIndex
_NO_INDEX = QModelIndex()


def card_summary(card: HubCard) -> str:
    """What a card says in words: its machines with their statuses, and what differs (tooltip, a11y)."""
    parts = [f"{copy_name(c)}: {copy_status(c)}" for c in card.copies[:SUMMARY_COPIES]]
    if len(card.copies) > SUMMARY_COPIES:
        parts.append(f"{len(card.copies) - SUMMARY_COPIES:,} more copies")
    if card.missing:
        parts.append(f"not on {machine_list(card.missing)}")
    if card.differs:
        parts.append(f"{len(card.versions())} different texts")
    return "; ".join(parts)


class HubCardModel(QAbstractListModel):
    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._all: list[HubCard] = []
        self._position: dict[Key, int] = {}  # a card's key → its place in `_all`
        self._shown: list[HubCard] = []
        self._row_of: dict[Key, int] = {}
        self._keep: set[Key] | None = None

    def rowCount(self, parent: AnyIndex = _NO_INDEX) -> int:
        return 0 if parent.isValid() else len(self._shown)

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or not 0 <= index.row() < len(self._shown):
            return None
        card = self._shown[index.row()]
        if role == CARD_ROLE:
            return card
        if role == Qt.ItemDataRole.DisplayRole:
            return card_text(card.text) if card.loaded else "loading…"
        if role == Qt.ItemDataRole.ToolTipRole:
            return plain_tip(card_summary(card))  # Qt would guess rich text in a machine's name
        if role == Qt.ItemDataRole.AccessibleDescriptionRole:
            return card_summary(card)
        return None

    def card(self, row: int) -> HubCard | None:
        return self._shown[row] if 0 <= row < len(self._shown) else None

    def row_of(self, key: Key) -> int | None:
        """The row of the card holding copy `key` (any of its copies), if shown."""
        return self._row_of.get(key)

    def set_cards(self, cards: list[HubCard]) -> None:
        self._all = list(cards)
        self._position = {card.key: place for place, card in enumerate(self._all)}
        self._keep = None
        self._show()

    def filter_to(self, keys: set[Key] | None) -> None:
        """Show only the cards with a copy in `keys` (None: every card)."""
        self._keep = keys
        self._show()

    def _show(self) -> None:
        self.beginResetModel()
        keep = self._keep
        self._shown = [c for c in self._all if keep is None or any(k.key in keep for k in c.copies)]
        self._row_of = {copy.key: row for row, card in enumerate(self._shown) for copy in card.copies}
        self.endResetModel()

    def update_cards(self, cards: Iterable[HubCard]) -> None:
        """Cards read again (their texts): replaced where they are, one `dataChanged` per run of rows."""
        fresh = {card.key: card for card in cards}
        rows = []
        for key, card in fresh.items():
            place = self._position.get(key)
            if place is not None:
                self._all[place] = card
            row = self._row_of.get(key)
            if row is not None:
                self._shown[row] = card
                rows.append(row)
        if rows:
            self.dataChanged.emit(self.index(min(rows)), self.index(max(rows)), [CARD_ROLE])

    def unloaded(self, first: int, last: int) -> list[HubCard]:
        """The cards of rows `first..last` whose texts are not read yet."""
        return [c for c in self._shown[max(first, 0) : last + 1] if not c.loaded]
