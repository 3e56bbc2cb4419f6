"""Looking back: every memory as it was at one instant, read-only, under a banner that says which
instant is shown, until the person leaves (Esc, or the banner's button).

Memories the dashboard has no record of at that instant say "unknown before <first seen>"; the ones
the agent was shown then are marked. Selecting one shows its text then, and its facts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeySequence, QPalette, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.core.clock import format_instant
from app.core.screening import make_visible
from ui.history.panel import plain_label
from ui.widgets.theme import Tone, badge_colors

if TYPE_CHECKING:
    from app.store.read.as_of import MemoryAsOf

HEADERS = ("Memory", "Then", "Content")
STATE_ROLE = Qt.ItemDataRole.UserRole + 3
SHOWN_TEXT = 300


def state_words(state: MemoryAsOf) -> str:
    if not state.known:
        return "unknown"
    words = state.status or "?"
    if state.expired:
        words += ", expired"
    if state.injected:
        words += " · shown to the agent"
    return words


class AsOfBanner(QWidget):
    """`Showing memories as of …` with a Leave button, tinted like the window's other banners."""

    leave = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = plain_label()
        self.button = QPushButton("Back to now", self)
        self.button.setToolTip("Leave the view of the past (Esc)")
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

    def set_instant(self, at: int, states: Sequence[MemoryAsOf]) -> None:
        shown = sum(1 for state in states if state.injected)
        unknown = sum(1 for state in states if not state.known)
        more = f", {unknown:,} unknown then" if unknown else ""
        self.label.setText(
            f"As of {format_instant(at)}: {len(states):,} memories, {shown:,} shown to the agent{more}. "
            "Read-only: nothing can be changed while looking back."
        )


class AsOfView(QWidget):
    left = Signal()  # the person leaves the view of the past

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.at: int | None = None
        self.banner = AsOfBanner(self)
        self.banner.leave.connect(self.left.emit)
        self.list = QTreeWidget(self)
        self.list.setHeaderLabels(HEADERS)
        self.list.setRootIsDecorated(False)
        self.list.setUniformRowHeights(True)
        self.list.setAlternatingRowColors(True)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.list.setAccessibleName("Memories as of the instant shown")
        header = self.list.header()
        header.setStretchLastSection(True)
        for column in range(len(HEADERS) - 1):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self.list.currentItemChanged.connect(lambda item, _old: self._show(item))
        self.detail = QPlainTextEdit(self)
        self.detail.setReadOnly(True)
        self.detail.setAccessibleName("The selected memory as of the instant shown")
        splitter = QSplitter(Qt.Orientation.Horizontal, self)
        splitter.addWidget(self.list)
        splitter.addWidget(self.detail)
        splitter.setSizes([600, 500])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.banner)
        layout.addWidget(splitter, 1)
        leave = QShortcut(QKeySequence(Qt.Key.Key_Escape), self)
        leave.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        leave.activated.connect(self.left.emit)

    def set_states(self, at: int, states: Sequence[MemoryAsOf]) -> None:
        self.at = at
        self.banner.set_instant(at, states)
        self.list.clear()
        for state in states:
            text = (
                state.unknown_note
                if not state.known
                else make_visible(" ".join((state.content or "").split()))
            )
            item = QTreeWidgetItem(
                [
                    f"#{state.memory_id}",
                    state_words(state),
                    text if len(text) <= SHOWN_TEXT else text[:SHOWN_TEXT] + "…",
                ]
            )
            item.setData(0, STATE_ROLE, state)
            self.list.addTopLevelItem(item)
        first = self.list.topLevelItem(0)
        if first is not None:
            self.list.setCurrentItem(first)
        else:
            self.detail.setPlainText(f"No memories existed at {format_instant(at)}.")
        self.list.setFocus()

    def states(self) -> list[MemoryAsOf]:
        items = (self.list.topLevelItem(row) for row in range(self.list.topLevelItemCount()))
        return [item.data(0, STATE_ROLE) for item in items if item is not None]

    def _show(self, item: QTreeWidgetItem | None) -> None:
        from app.store.read.as_of import MemoryAsOf, state_details  # loaded with the first instant

        state = item.data(0, STATE_ROLE) if item is not None else None
        self.detail.setPlainText(state_details(state) if isinstance(state, MemoryAsOf) else "")
