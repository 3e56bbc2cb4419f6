"""The hub window's list model: an adapter over the listing's cards (`app.hub.cards.HubCard`).

It holds the cards in listing order and the ones a text filter keeps. A page of texts replaces its cards
in place (`dataChanged` with `CARD_ROLE`, no reset); a filter is a reset of the rows shown.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QAbstractListModel, QModelIndex, QObject, QPersistentModelIndex, Qt

from app.core.screening import make_visible
from app.hub.cards import HubCard, Key

CARD_ROLE = Qt.ItemDataRole.UserRole + 1
AnyIndex = QModelIndex | QPersistentModelIndex
_NO_INDEX = QModelIndex()


def card_summary(card: HubCard) -> str:
    """What a card says in words: its machines with their statuses, and what differs (tooltip, a11y)."""
    parts = [f"{c.machine} #{c.memory_id}: {c.shown_status}" for c in card.copies]
    parts += [f"not on {machine}" for machine in card.missing]
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
            return make_visible(card.text) if card.loaded else "loading…"
        if role in (Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.AccessibleDescriptionRole):
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
