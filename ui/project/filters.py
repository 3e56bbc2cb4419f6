"""The project page's filters: category, status (each offering the values the project's memories hold,
any value as it is), and a search over the content (every word must occur; `#12` finds memory 12).
Applied by the page to the rows it holds (`matches`), so a key never waits for the store."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLineEdit, QWidget

from app.store import ProjectMemory

ANY = None


@dataclass(frozen=True, slots=True)
class ProjectView:
    """What the cards show of a project: `None` is any."""

    category: str | None = None
    status: str | None = None
    search: str = ""


def matches(rows: Sequence[ProjectMemory], view: ProjectView) -> list[ProjectMemory]:
    """The rows `view` selects, in the order given."""
    words = view.search.casefold().split()
    wanted_id = (
        int(words[0][1:]) if len(words) == 1 and words[0][1:].isdigit() and words[0][0] == "#" else None
    )
    found = []
    for row in rows:
        if view.category is not None and row.category != view.category:
            continue
        if view.status is not None and row.status != view.status:
            continue
        if wanted_id is not None:
            if row.id == wanted_id:
                found.append(row)
            continue
        if words:
            text = row.content.casefold()
            if not all(word in text for word in words):
                continue
        found.append(row)
    return found


class ProjectFilters(QWidget):
    changed = Signal(object)  # ProjectView

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.category = QComboBox(self)
        self.category.setAccessibleName("Category filter")
        self.category.setToolTip("Which category to list")
        self.status = QComboBox(self)
        self.status.setAccessibleName("Status filter")
        self.status.setToolTip("Which status to list (any value the host's rows hold)")
        self.search = QLineEdit(self)
        self.search.setPlaceholderText("Search this project or #id")
        self.search.setAccessibleName("Search project memories")
        self.search.setClearButtonEnabled(True)
        self.set_values([], [])
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 0)  # as the user page's filter row
        layout.addWidget(self.search, 1)
        layout.addWidget(self.category)
        layout.addWidget(self.status)
        self.search.textChanged.connect(lambda _text: self.changed.emit(self.current()))
        self.category.currentIndexChanged.connect(lambda _index: self.changed.emit(self.current()))
        self.status.currentIndexChanged.connect(lambda _index: self.changed.emit(self.current()))

    def set_values(self, categories: Iterable[str], statuses: Iterable[str]) -> None:
        """The values a project holds, and the chosen ones (kept chosen)."""
        for box, values, any_label in (
            (self.category, categories, "Any category"),
            (self.status, statuses, "Any status"),
        ):
            chosen = box.currentData()
            # The chosen value stays offered even when a write left no row holding it: the filter
            # goes on listing what it listed, an empty listing included, until the person changes it.
            kept = {chosen} if chosen is not None else set()
            box.blockSignals(True)
            box.clear()
            box.addItem(any_label, ANY)
            for value in sorted(set(values) | kept):
                box.addItem(value or "(empty)", value)
            found = box.findData(chosen) if chosen is not None else 0
            box.setCurrentIndex(max(found, 0))
            box.blockSignals(False)

    def current(self) -> ProjectView:
        return ProjectView(self.category.currentData(), self.status.currentData(), self.search.text())

    def clear(self) -> None:
        for widget in (self.search, self.category, self.status):
            widget.blockSignals(True)
        self.search.clear()
        self.category.setCurrentIndex(0)
        self.status.setCurrentIndex(0)
        for widget in (self.search, self.category, self.status):
            widget.blockSignals(False)

    def fields(self) -> list[QWidget]:
        return [self.search, self.category, self.status]
