"""The digest dialog: "Since you last looked", changes grouped by who made them, each with its diff.

A tree of groups (a review run, you in the dashboard, the expiry sweep, another process, an import, the
host's new candidates) and their changes; the selected change's before and after in a diff view. Enter or
a double-click opens the memory's card in the main window (`openMemory`); "Mark all as seen" moves the
watermark to exactly what is shown (`markSeen`), so a change that arrives meanwhile stays new.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QPushButton,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.core.clock import format_instant
from app.core.models import ChangeKind
from app.core.models.digest import Digest, DigestChange
from app.core.screening import make_visible
from app.present.digest import headline
from app.present.timefmt import relative
from ui.diff.view import DiffView
from ui.widgets.labels import plain_label

CHANGE_ROLE = Qt.ItemDataRole.UserRole + 1
LINE_CHARS = 90
MAX_SHOWN = 2_000  # the newest changes listed; the CLI's `digest` lists every one


def change_text(change: DigestChange, now: int) -> str:
    """`#5 rewritten · 2h ago · Prefers pnpm…` (a candidate: `candidate #141 · …`)."""
    shown = change.new_content if change.new_content is not None else change.previous_content
    line = " ".join(make_visible(shown or "")[: LINE_CHARS * 2].split())
    line = line if len(line) <= LINE_CHARS else line[: LINE_CHARS - 1] + "…"
    who = (
        f"candidate #{change.candidate_id}"
        if change.memory_id is None
        else f"#{change.memory_id} {change.kind}"
    )
    return f"{who} · {relative(change.at, now)} · {line}"


def diff_caption(change: DigestChange) -> str:
    status = ""
    if change.new_status is not None and change.previous_status != change.new_status:
        status = f" ({change.previous_status or '—'} → {change.new_status})"
    return f"{change.kind}{status} at {format_instant(change.at)}"


class DigestDialog(QDialog):
    openMemory = Signal(object)  # memory id
    markSeen = Signal(object)  # Watermark

    def __init__(self, digest: Digest, now: Callable[[], int], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.digest = digest
        self.setWindowTitle("Since you last looked")
        self.resize(960, 600)
        hidden = len(digest.changes) - MAX_SHOWN
        more = (
            f"\nThe newest {MAX_SHOWN:,} are listed; `memory-dashboard digest` lists all."
            if hidden > 0
            else ""
        )
        self.header = plain_label(headline(digest, now()) + more)
        self.tree = QTreeWidget(self)
        self.tree.setHeaderHidden(True)
        self.tree.setAccessibleName("Changes since you last looked")
        self.diff = DiffView(self)
        self._fill(now())
        splitter = QSplitter(Qt.Orientation.Horizontal, self)
        splitter.addWidget(self.tree)
        splitter.addWidget(self.diff)
        splitter.setSizes([420, 540])
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        self.open_button = QPushButton("Open card", self)
        self.open_button.setToolTip("Select this memory in the main window (Enter, or double-click)")
        self.seen_button = QPushButton("Mark all as seen", self)
        self.seen_button.setToolTip("These changes are seen: their cards lose the `changed` marker")
        buttons.addButton(self.open_button, QDialogButtonBox.ButtonRole.ActionRole)
        # An action, not the accept role: the button box would make an accept button the default on show
        buttons.addButton(self.seen_button, QDialogButtonBox.ButtonRole.ActionRole)
        for button in buttons.buttons():
            if isinstance(button, QPushButton):  # Enter opens a card; it must never mark everything seen
                button.setAutoDefault(False)
                button.setDefault(False)
        buttons.rejected.connect(self.reject)
        self.open_button.clicked.connect(self.open_selected)
        self.seen_button.clicked.connect(self._mark_seen)
        self.seen_button.setEnabled(bool(digest))
        self.tree.currentItemChanged.connect(lambda item, _old: self._show(item))
        self.tree.itemActivated.connect(lambda _item, _column: self.open_selected())
        layout = QVBoxLayout(self)
        layout.addWidget(self.header)
        layout.addWidget(splitter, 1)
        layout.addWidget(buttons)
        first = self.tree.topLevelItem(0)
        child = first.child(0) if first is not None else None
        if child is not None:
            self.tree.setCurrentItem(child)
        else:
            self._show(None)

    def _fill(self, now: int) -> None:
        shown = Digest(self.digest.since, self.digest.changes[-MAX_SHOWN:], self.digest.upto)
        for group, changes in shown.groups():
            top = QTreeWidgetItem([f"{group} ({len(changes)})"])
            for change in changes:
                item = QTreeWidgetItem([change_text(change, now)])
                item.setData(0, CHANGE_ROLE, change)
                item.setToolTip(0, diff_caption(change))
                top.addChild(item)
            self.tree.addTopLevelItem(top)
            top.setExpanded(True)

    def selected_change(self) -> DigestChange | None:
        item = self.tree.currentItem()
        change = item.data(0, CHANGE_ROLE) if item is not None else None
        return change if isinstance(change, DigestChange) else None

    def _show(self, item: QTreeWidgetItem | None) -> None:
        change = self.selected_change() if item is not None else None
        opens = change is not None and change.memory_id is not None and change.kind != ChangeKind.DELETED
        self.open_button.setEnabled(opens)
        if change is None:
            self.diff.show_message("Nothing changed since you last looked." if not self.digest else "")
            return
        self.diff.show_texts(change.previous_content, change.new_content, diff_caption(change))

    def open_selected(self) -> None:
        change = self.selected_change()
        if change is not None and change.memory_id is not None and change.kind != ChangeKind.DELETED:
            self.openMemory.emit(change.memory_id)

    def _mark_seen(self) -> None:
        self.markSeen.emit(self.digest.upto)
        self.accept()
