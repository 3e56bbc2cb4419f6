"""The card list's model: the memory ids of a listing with a bounded cache of frozen rows.

The model knows every id of the listing (so the scroll bar is true for 100,000 memories) but holds
rows only for what has been looked at: a row not in the cache is asked for with `rowsWanted` (a page
around it, coalesced on the next event-loop turn) and painted as a placeholder until it arrives. Every
change maps to the matching begin/end call: a new listing that differs in a few runs of rows is applied
as removals, a move of the rows that stayed (a layout change keeping persistent indexes, so selection
survives) and insertions; one that differs in many runs (a search: thousands, each a view update) or
in many rows (a search's first page after 100,000 cards) is one layout change that moves the persistent
indexes to their ids' new rows; a changed row is one `dataChanged` naming its roles. The model never
touches the store, and `data` never raises (`ui.widgets.guard`): a row it cannot describe answers None.

A card's links ("merged into #12") are asked for the same way, apart from the rows (`linksWanted`, a
page of ids, one small query on `mdash_links`), only once a card is painted; after a write the window
asks again for the memories it wrote and those linked with them (`forget_links`, `want_links`), and
only a card whose links changed repaints.

The row count lives in C++: the model is a `QIdentityProxyModel` over a `QStandardItemModel` of empty
rows (`_rows`, resized with its signals blocked inside the model's own begin/end calls), and Python
answers only `data` and `flags`. A `QListView` lays out a new listing by asking `rowCount` about twice
per row; answered in Python, that was most of the time a large listing took to show.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from PySide6.QtCore import (
    QIdentityProxyModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSignalBlocker,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QStandardItemModel

from app.core.models import Memory
from app.present.card import accessible_description, accessible_name, timestamps_tooltip
from ui.cards.layout import card_text
from ui.widgets.guard import answer, never_raises

ID_ROLE = Qt.ItemDataRole.UserRole + 1
MEMORY_ROLE = Qt.ItemDataRole.UserRole + 2
STATUS_ROLE = Qt.ItemDataRole.UserRole + 3
HIGHLIGHT_ROLE = Qt.ItemDataRole.UserRole + 4
LINKS_ROLE = Qt.ItemDataRole.UserRole + 5  # tuple[str, ...]: "merged from #7, #9", () while unknown

ROW_ROLES = [
    Qt.ItemDataRole.DisplayRole,
    Qt.ItemDataRole.ToolTipRole,
    Qt.ItemDataRole.AccessibleTextRole,
    Qt.ItemDataRole.AccessibleDescriptionRole,
    MEMORY_ROLE,
    STATUS_ROLE,
]
AnyIndex = QModelIndex | QPersistentModelIndex
MAX_RUNS = 16  # a new listing differing in more runs of rows than this is one layout change
# ... or in more rows than this: finding the runs is Python over every row, and a change that large keeps
# nothing a person could follow row by row (the window keeps the scroll anchor and selection by id).
MAX_GRANULAR_ROWS = 1_000


def _same(old: Memory, new: Memory) -> bool:
    """Equal apart from the instant they were judged at."""
    return replace(old, as_of=new.as_of) == new


def _runs(rows: Iterable[int]) -> list[tuple[int, int]]:
    """Sorted rows grouped into (first, last) runs of consecutive numbers."""
    runs: list[tuple[int, int]] = []
    for row in sorted(rows):
        if runs and runs[-1][1] == row - 1:
            runs[-1] = (runs[-1][0], row)
        else:
            runs.append((row, row))
    return runs


def _run_starts(flags: Iterable[bool], limit: int) -> int:
    """How many runs of consecutive True values, counted up to `limit` (a search's hits among 100,000
    ids are more runs than a granular change takes long before the end)."""
    starts, previous = 0, False
    for flag in flags:
        if flag and not previous:
            starts += 1
            if starts >= limit:
                break
        previous = flag
    return starts


class MemoryListModel(QIdentityProxyModel):
    rowsWanted = Signal(object)  # list[int]: ids whose rows the model would like to have
    linksWanted = Signal(object)  # list[int]: ids whose links the model would like to have

    def __init__(self, parent: QObject | None = None, *, page_size: int = 200, cache_limit: int = 4000):
        super().__init__(parent)
        self._rows = QStandardItemModel(0, 1, self)  # one empty row per id: the row count, in C++
        self.setSourceModel(self._rows)
        self._ids: list[int] = []
        self._rows_by_id: dict[int, int] | None = {}
        self._cache: OrderedDict[int, Memory] = OrderedDict()
        self._pending: set[int] = set()
        self._stale: set[int] = set()  # cached rows older than the last listing: shown, and re-read
        self._wanted: set[int] = set()
        self._highlighted: frozenset[int] = frozenset()
        self._page_size = page_size
        self._cache_limit = max(cache_limit, 2 * page_size)
        self._want_timer = QTimer(self)
        self._want_timer.setSingleShot(True)
        self._want_timer.setInterval(0)
        self._want_timer.timeout.connect(self._emit_wanted)
        self._links: dict[int, tuple[str, ...]] = {}  # as last read; a memory without links is absent
        self._links_known: set[int] = set()  # read since the last `forget_links`
        self._links_wanted: list[int] = []
        self._links_timer = QTimer(self)
        self._links_timer.setSingleShot(True)
        self._links_timer.setInterval(0)
        self._links_timer.timeout.connect(self._emit_links_wanted)

    # -- Qt's side (`rowCount`, `index`, `parent` are the C++ proxy's) ------------------------------------

    def flags(self, index: AnyIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemNeverHasChildren

    @never_raises(answer(None))
    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.parent().isValid() or not 0 <= index.row() < len(self._ids):
            return None
        memory_id = self._ids[index.row()]
        if role == ID_ROLE:
            return memory_id
        if role == HIGHLIGHT_ROLE:
            return memory_id in self._highlighted
        if role == LINKS_ROLE:
            if memory_id not in self._links_known:
                self._want_links(index.row())
            return self._links.get(memory_id, ())
        memory = self._cache.get(memory_id)
        if memory is None or memory_id in self._stale:
            self._want(index.row())
        if memory is None:
            loading = role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole)
            return f"#{memory_id}" if loading else None
        self._cache.move_to_end(memory_id)
        if role == Qt.ItemDataRole.DisplayRole:  # what accessibility and keyboard search read
            return card_text(memory.content)
        if role == Qt.ItemDataRole.ToolTipRole:
            return timestamps_tooltip(memory)
        if role == Qt.ItemDataRole.AccessibleTextRole:  # a screen reader's name of the card
            return accessible_name(memory, card_text(memory.content))
        if role == Qt.ItemDataRole.AccessibleDescriptionRole:  # status, times, provenance, trust
            return accessible_description(memory)
        if role == MEMORY_ROLE:
            return memory
        if role == STATUS_ROLE:
            return memory.status
        return None

    # -- lookups ---------------------------------------------------------------------------------------

    @property
    def ids(self) -> Sequence[int]:
        return tuple(self._ids)

    def row_of(self, memory_id: int) -> int | None:
        if self._rows_by_id is None:
            self._rows_by_id = {item: row for row, item in enumerate(self._ids)}
        return self._rows_by_id.get(memory_id)

    def index_of(self, memory_id: int) -> QModelIndex:
        row = self.row_of(memory_id)
        return QModelIndex() if row is None else self.index(row, 0)

    def memory(self, memory_id: int) -> Memory | None:
        return self._cache.get(memory_id)

    # -- lazy rows -------------------------------------------------------------------------------------

    def _want(self, row: int) -> None:
        start = row - row % self._page_size
        page = self._ids[start : start + self._page_size]
        missing = [
            item
            for item in page
            if (item not in self._cache or item in self._stale) and item not in self._pending
        ]
        if missing:
            self._wanted.update(missing)
            self._pending.update(missing)
            self._want_timer.start()

    def _emit_wanted(self) -> None:
        rows = {item: row for item in self._wanted if (row := self.row_of(item)) is not None}
        wanted = sorted(rows, key=rows.__getitem__)
        self._wanted.clear()
        if wanted:
            self.rowsWanted.emit(wanted)

    def _want_links(self, row: int) -> None:
        start = row - row % self._page_size
        self.want_links(self._ids[start : start + self._page_size])

    def want_links(self, ids: Iterable[int]) -> None:
        """Ask for the links of `ids` not known yet (coalesced on the next event-loop turn)."""
        page = [item for item in dict.fromkeys(ids) if item not in self._links_known]
        self._links_known.update(page)  # asked for: not asked again until forgotten
        self._links_wanted += page
        if page:
            self._links_timer.start()

    def _emit_links_wanted(self) -> None:
        wanted, self._links_wanted = self._links_wanted, []
        if wanted:
            self.linksWanted.emit(wanted)

    def set_links(self, ids: Iterable[int], phrases: Mapping[int, Sequence[str]]) -> None:
        """The links of `ids` as read (an id absent from `phrases` has none); a card whose links changed
        repaints, no other."""
        changed: list[int] = []
        for memory_id in ids:
            new = tuple(phrases.get(memory_id, ()))
            if new == self._links.get(memory_id, ()):
                continue
            if new:
                self._links[memory_id] = new
            else:
                self._links.pop(memory_id, None)
            row = self.row_of(memory_id)
            if row is not None:
                changed.append(row)
        for first, last in _runs(changed):
            self.dataChanged.emit(self.index(first, 0), self.index(last, 0), [LINKS_ROLE])

    def forget_links(self, ids: Iterable[int] | None = None) -> None:
        """The links of `ids` (None: of every card) may have changed: asked for again when painted, or
        at once with `want_links`; those shown stay until the answer differs, and only then repaint.
        Nothing repaints here: a write's own paint stays as small as its change."""
        if ids is None:
            self._links_known.clear()
            self._links_wanted.clear()
        else:
            self._links_known.difference_update(ids)

    def linked_to(self, memory_id: int) -> list[int]:
        """The cards whose links, as last read, name `memory_id` (their phrases change with it)."""
        named = re.compile(rf"#{memory_id}\b")
        return [item for item, phrases in self._links.items() if any(named.search(p) for p in phrases)]

    def update_rows(self, memories: Iterable[Memory]) -> None:
        """Fresh rows from the store: cached, and `dataChanged` for each shown row that really changed."""
        changed: list[int] = []
        for memory in memories:
            self._pending.discard(memory.id)
            self._stale.discard(memory.id)
            old = self._cache.get(memory.id)
            self._cache[memory.id] = memory
            self._cache.move_to_end(memory.id)
            row = self.row_of(memory.id)
            if row is not None and (old is None or not _same(old, memory)):
                changed.append(row)
        for first, last in _runs(changed):
            self.dataChanged.emit(self.index(first, 0), self.index(last, 0), ROW_ROLES)
        self._trim_cache()

    def _trim_cache(self) -> None:
        while len(self._cache) > self._cache_limit:
            gone, _ = self._cache.popitem(last=False)
            self._stale.discard(gone)

    def forget_pending(self) -> None:
        """A fetch failed: let the rows be asked for again."""
        self._pending.clear()

    def set_highlighted(self, ids: Iterable[int]) -> None:
        before, self._highlighted = self._highlighted, frozenset(ids)
        rows = [row for item in before ^ self._highlighted if (row := self.row_of(item)) is not None]
        for first, last in _runs(rows):
            self.dataChanged.emit(self.index(first, 0), self.index(last, 0), [HIGHLIGHT_ROLE])

    # -- structure -------------------------------------------------------------------------------------

    def set_listing(self, ids: Sequence[int], rows: Iterable[Memory] = ()) -> None:
        """Move to a new list of ids with granular signals (no reset), then take the fresh rows."""
        new_ids = list(dict.fromkeys(ids))
        if new_ids != self._ids:
            self._apply_ids(new_ids)
        self._stale = set(self._cache)
        self._pending.clear()
        self.update_rows(rows)

    def clear(self) -> None:
        self.beginResetModel()
        self._ids = []
        self._ids_changed()
        self._cache.clear()
        self._pending.clear()
        self._stale.clear()
        self._links.clear()
        self._links_known.clear()
        self.endResetModel()

    def remove_id(self, memory_id: int) -> None:
        row = self.row_of(memory_id)
        if row is not None:
            self._remove_rows(row, row)
        self._cache.pop(memory_id, None)

    def _remove_rows(self, first: int, last: int) -> None:
        self.beginRemoveRows(QModelIndex(), first, last)
        del self._ids[first : last + 1]
        self._ids_changed()
        self.endRemoveRows()

    def _ids_changed(self) -> None:
        """Inside a begin/end pair of this model: the C++ row count follows the ids, silently (the
        proxy would turn the source's own signals into a second, nested change)."""
        self._rows_by_id = None
        if self._rows.rowCount() != len(self._ids):
            with QSignalBlocker(self._rows):
                self._rows.setRowCount(len(self._ids))

    def _apply_ids(self, new_ids: list[int]) -> None:
        keep, old = set(new_ids), set(self._ids)
        kept = len(keep & old)
        if len(old) + len(keep) - 2 * kept > MAX_GRANULAR_ROWS:  # rows removed and inserted
            self._replace_ids(new_ids)  # a search's first page after 100,000 cards, or its complete listing
            return
        runs = _run_starts((item not in keep for item in self._ids), MAX_RUNS + 1)
        if runs <= MAX_RUNS:
            runs += _run_starts((item not in old for item in new_ids), MAX_RUNS + 1 - runs)
        if runs > MAX_RUNS:
            self._replace_ids(new_ids)
            return
        gone = [row for row, item in enumerate(self._ids) if item not in keep]
        for first, last in reversed(_runs(gone)):
            self._remove_rows(first, last)
        staying = [item for item in new_ids if item in old]
        if staying != self._ids:
            self._replace_ids(staying)  # same ids, new order: every persistent index follows its id
        row = 0
        while row < len(new_ids):
            if row < len(self._ids) and self._ids[row] == new_ids[row]:
                row += 1
                continue
            anchor = self._ids[row] if row < len(self._ids) else None
            end = row
            while end < len(new_ids) and new_ids[end] != anchor:
                end += 1
            self.beginInsertRows(QModelIndex(), row, end - 1)
            self._ids[row:row] = new_ids[row:end]
            self._ids_changed()
            self.endInsertRows()
            row = end

    def _replace_ids(self, new_ids: list[int]) -> None:
        """Another list of ids in one layout change; a persistent index (the selection) follows its id,
        or becomes invalid when its id is gone."""
        self.layoutAboutToBeChanged.emit()
        persistent = self.persistentIndexList()
        moved_ids = [self._ids[index.row()] for index in persistent]
        self._ids = new_ids
        self._ids_changed()
        for index, memory_id in zip(persistent, moved_ids, strict=True):
            row = self.row_of(memory_id)
            self.changePersistentIndex(index, QModelIndex() if row is None else self.index(row, 0))
        self.layoutChanged.emit()
