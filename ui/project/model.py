"""`ProjectCardModel`: the list model of one project's memory cards, an adapter over a listing of ids
and a cache of `ProjectMemory` rows (the rows come whole with each listing: a project holds thousands,
not the whole table). A changed memory updates its one row (`dataChanged`), never a reset."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from PySide6.QtCore import QAbstractListModel, QModelIndex, QObject, QPersistentModelIndex, Qt

from app.store import ProjectMemory

AnyIndex = QModelIndex | QPersistentModelIndex
ID_ROLE = Qt.ItemDataRole.UserRole + 1  # the memory's id (a Python int: any 64-bit id)
MEMORY_ROLE = Qt.ItemDataRole.UserRole + 2  # the `ProjectMemory`


class ProjectCardModel(QAbstractListModel):
    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.ids: list[int] = []
        self._rows: dict[int, ProjectMemory] = {}
        self._row_of: dict[int, int] = {}

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else len(self.ids)

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or not 0 <= index.row() < len(self.ids):
            return None
        memory_id = self.ids[index.row()]
        memory = self._rows.get(memory_id)
        if role == ID_ROLE:
            return memory_id
        if role == MEMORY_ROLE:
            return memory
        if memory is None:
            return None
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            return f"#{memory_id} {memory.category} {memory.status}: {memory.content}"
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"#{memory_id} in {memory.project_path}"
        return None

    def set_listing(self, rows: Sequence[ProjectMemory]) -> None:
        self.beginResetModel()
        self.ids = [row.id for row in rows]
        self._rows = {row.id: row for row in rows}
        self._row_of = {memory_id: position for position, memory_id in enumerate(self.ids)}
        self.endResetModel()

    def clear(self) -> None:
        self.set_listing([])

    def memory(self, memory_id: int) -> ProjectMemory | None:
        return self._rows.get(memory_id)

    def row_of(self, memory_id: int) -> int | None:
        return self._row_of.get(memory_id)

    def update_rows(self, rows: Iterable[ProjectMemory]) -> None:
        """Rows read again (a write, an undo): each listed one repainted, alone."""
        for memory in rows:
            position = self._row_of.get(memory.id)
            if position is None:
                continue
            self._rows[memory.id] = memory
            index = self.index(position)
            self.dataChanged.emit(index, index, [MEMORY_ROLE, Qt.ItemDataRole.DisplayRole])
