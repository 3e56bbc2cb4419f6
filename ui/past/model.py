"""The past listing's model: a QAbstractListModel over memories' states at one instant, in listing
order, with the toolbar's filter applied (`ui.past.listing.kept`).

The states arrive whole (the first screen's, then the whole past's) and are kept as plain frozen values;
a new listing or filter is one model reset, and the view keeps its current memory by id. `data` never
raises (`ui.widgets.guard`). The card delegate reads `ID_ROLE` and `STATE_ROLE`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, QObject, QPersistentModelIndex, Qt

from ui.cards.model import ID_ROLE
from ui.past.cards import accessible_description, accessible_name, card_parts
from ui.past.listing import folded, kept, listing_order
from ui.widgets.guard import answer, never_raises

if TYPE_CHECKING:
    from app.core.models.as_of import MemoryAsOf

STATE_ROLE = Qt.ItemDataRole.UserRole + 5
AnyIndex = QModelIndex | QPersistentModelIndex
_CARD = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemNeverHasChildren
_ANSWERS: dict[int, Callable[[MemoryAsOf], Any]] = {  # what each role answers of a state
    ID_ROLE: lambda state: state.memory_id,
    STATE_ROLE: lambda state: state,
    Qt.ItemDataRole.DisplayRole: lambda state: card_parts(state).content,  # what keyboard search reads
    Qt.ItemDataRole.AccessibleTextRole: accessible_name,
    Qt.ItemDataRole.AccessibleDescriptionRole: accessible_description,
}


class PastListModel(QAbstractListModel):
    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._every: list[MemoryAsOf] = []  # the listing, unfiltered
        self._texts: list[str] = []  # their texts, casefolded
        self._shown: list[MemoryAsOf] = []
        self._rows: dict[int, int] = {}
        self._filter: tuple[str, list[str]] = ("all", [])
        self._order: tuple[str, bool] = ("promoted", True)

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._shown)

    def flags(self, index: AnyIndex) -> Qt.ItemFlag:
        return _CARD if index.isValid() else Qt.ItemFlag.NoItemFlags

    @never_raises(answer(None))
    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        row, answers = index.row(), _ANSWERS.get(role)
        if answers is None or not index.isValid() or index.parent().isValid():
            return None
        return answers(self._shown[row]) if 0 <= row < len(self._shown) else None

    # -- what is listed --------------------------------------------------------------------------------

    @property
    def total(self) -> int:
        """How many memories the listing holds, before the filter."""
        return len(self._every)

    def set_states(self, states: Sequence[MemoryAsOf], texts: Sequence[str] | None = None) -> None:
        """A new listing; `texts`: each state's text casefolded (`ui.past.listing.folded`), when read."""
        self._every = list(states)
        self._texts = list(texts) if texts is not None else folded(self._every)
        self._apply()

    def set_filter(
        self, status: str, words: Sequence[str], sort: str = "promoted", descending: bool = True
    ) -> None:
        """Keep the states of `status` then whose text holds every word (`ui.past.listing.kept`), in
        the order `sort` (listings arrive newest promoted first)."""
        self._filter = (status, list(words))
        self._order = (sort, descending)
        self._apply()

    def _apply(self) -> None:
        self.beginResetModel()
        self._shown = kept(self._every, self._texts, *self._filter)
        if self._order != ("promoted", True):
            self._shown = listing_order(self._shown, *self._order)
        self._rows = {state.memory_id: row for row, state in enumerate(self._shown)}
        self.endResetModel()

    def clear(self) -> None:
        self._filter, self._order = ("all", []), ("promoted", True)
        self.set_states([])

    def row_of(self, memory_id: int) -> int | None:
        return self._rows.get(memory_id)

    def state(self, memory_id: int) -> MemoryAsOf | None:
        row = self._rows.get(memory_id)
        return self._shown[row] if row is not None else None

    def states(self) -> list[MemoryAsOf]:
        """The states shown, in listing order."""
        return list(self._shown)
