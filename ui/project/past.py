"""A project as of an instant (As of… while a project is shown): what the host injected for it then, in
the host's order (category, then last update newest first, then id), under the amber banner the user
memories' past has, read-only, until the person leaves (Esc, or "Back to now").

A memory whose state then the dashboard cannot know (it first saw the memory after that instant, and
the host keeps no history) is listed after those injected, saying "unknown before" the instant it was
first seen: never guessed, never counted as injected."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.core.clock import format_instant
from app.core.screening import make_visible
from ui.past.view import AsOfBanner
from ui.widgets.plain_tip import plain_tip

if TYPE_CHECKING:
    from app.store.past.project_past import ProjectMemoryAsOf

HEADERS = ("Order", "Memory", "Category", "Updated", "Text")
ID_ROLE = Qt.ItemDataRole.UserRole + 1
SHOWN_TEXT = 300  # characters of a memory's text in its row (the tooltip has it all)


def unknown_words(state: ProjectMemoryAsOf) -> str:
    """What is said of a memory whose state at the instant is not known."""
    if state.unknown_before is None:
        return "unknown then: the dashboard has no record of it at that instant"
    return f"unknown before {format_instant(state.unknown_before)}, when the dashboard first saw it"


def banner_words(at: int, states: Sequence[ProjectMemoryAsOf] | None, name: str) -> str:
    """`As of …: N injected for P, M unknown then. Read-only…`; None: still reading."""
    if states is None:
        counted = "reading…"
    else:
        injected = sum(1 for state in states if state.known)
        unknown = len(states) - injected
        more = f", {unknown:,} unknown then" if unknown else ""
        counted = f"{injected:,} {'memory' if injected == 1 else 'memories'} injected for {name}{more}"
    return f"As of {format_instant(at)}: {counted}. Read-only: nothing can be changed while looking back."


class ProjectPastView(QWidget):
    left = Signal()  # the person leaves the view of the past

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.at: int | None = None  # the instant asked for last (its listing is the one shown)
        self.states: list[ProjectMemoryAsOf] = []
        self.banner = AsOfBanner(self)
        self.banner.leave.connect(self.left.emit)
        self.list = QTreeWidget(self)
        self.list.setHeaderLabels(HEADERS)
        self.list.setRootIsDecorated(False)
        self.list.setUniformRowHeights(True)
        self.list.setAlternatingRowColors(True)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.list.setAccessibleName("Project memories injected at the instant shown")
        header = self.list.header()
        header.setStretchLastSection(True)
        for column in range(len(HEADERS) - 1):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.banner)
        layout.addWidget(self.list, 1)
        shortcut = QShortcut(QKeySequence("Escape"), self)
        shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        shortcut.activated.connect(self.left.emit)
        QWidget.setTabOrder(self.banner.button, self.list)

    def begin(self, at: int, name: str) -> None:
        """A new instant asked for: its listing is the one shown once read."""
        self.at, self.states = at, []
        self.list.clear()
        self.banner.label.setText(banner_words(at, None, name))

    def set_states(self, at: int, states: Sequence[ProjectMemoryAsOf], name: str) -> bool:
        """The project at `at`, if that is the instant asked for last (another's is dropped)."""
        if at != self.at:
            return False
        self.states = list(states)
        self.banner.label.setText(banner_words(at, states, name))
        self.list.clear()
        order = 0
        for state in states:
            order += state.known  # the host's order counts what it injected, not what is unknown
            self.list.addTopLevelItem(_row(order if state.known else None, state))
        first = self.list.topLevelItem(0)
        if first is not None:
            self.list.setCurrentItem(first)
        return True

    def shown_ids(self) -> list[int]:
        items = (self.list.topLevelItem(row) for row in range(self.list.topLevelItemCount()))
        return [int(item.data(0, ID_ROLE)) for item in items if item is not None]

    def row_texts(self, memory_id: int) -> list[str]:
        """The cells of memory `memory_id`'s row (for a look at what is said of it)."""
        for row in range(self.list.topLevelItemCount()):
            item = self.list.topLevelItem(row)
            if item is not None and item.data(0, ID_ROLE) == memory_id:
                return [item.text(column) for column in range(len(HEADERS))]
        return []


def _row(order: int | None, state: ProjectMemoryAsOf) -> QTreeWidgetItem:
    """A memory's row: its place in what the host injected (`order`), or (None) unknown then."""
    memory = state.memory
    if memory is None or order is None:
        cells = ["", f"#{state.memory_id}", "", "", unknown_words(state)]
        tip = unknown_words(state)
    else:
        text = make_visible(" ".join(memory.content.split()))
        cells = [
            f"{order}",
            f"#{state.memory_id}",
            make_visible(memory.category),
            format_instant(memory.updated_at),
            text if len(text) <= SHOWN_TEXT else text[: SHOWN_TEXT - 1] + "…",
        ]
        tip = make_visible(memory.content)
    item = QTreeWidgetItem(cells)
    item.setData(0, ID_ROLE, state.memory_id)
    for column in range(len(HEADERS)):
        item.setToolTip(column, plain_tip(tip))
    return item
