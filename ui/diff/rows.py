"""The rows of a diff as a list model, and the list view that shows them (painted by `DiffRowDelegate`).

A 64 KiB diff is a few thousand rows; a list view lays out and paints only those on screen, where a
text browser laid out the whole page before the first paint. Rows
arrive in batches (`set_rows`, then `append_rows`), a folded run of unchanged lines opens when it is
clicked (or on Enter), and Ctrl+C copies the selected rows as a unified diff.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from PySide6.QtCore import QAbstractListModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence
from PySide6.QtWidgets import QAbstractItemView, QListView, QWidget

from app.diff.stream import Fold, InlineLine, ViewRow
from app.diff.style import StyledText, styled_line
from app.diff.text_diff import DiffOp, SideBySideRow
from ui.widgets.focus_ring import show_focus
from ui.widgets.guard import answer, never_raises

ROW_ROLE = Qt.ItemDataRole.UserRole + 1
AnyIndex = QModelIndex | QPersistentModelIndex
NO_DATA: object = None  # what `data` answers for a row it cannot describe
FOLD_TIP = "Click (or press Enter) to show these unchanged lines"


@dataclass(frozen=True, slots=True)
class Message:
    """A line in place of a diff: "Empty on both sides.", "Could not compute the diff: …"."""

    text: str


Item = ViewRow | Message


class DiffRowsModel(QAbstractListModel):
    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._items: list[Item] = []

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else len(self._items)

    @never_raises(answer(NO_DATA))
    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or not 0 <= index.row() < len(self._items):
            return None
        item = self._items[index.row()]
        if role == ROW_ROLE:
            return item
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            return shown_text(item)
        if role == Qt.ItemDataRole.ToolTipRole and isinstance(item, Fold):
            return FOLD_TIP
        return None

    def flags(self, index: AnyIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        if isinstance(self._items[index.row()], Message):
            return Qt.ItemFlag.ItemIsEnabled
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    # Changes

    def set_rows(self, rows: Sequence[Item]) -> None:
        self.beginResetModel()
        self._items = list(rows)
        self.endResetModel()

    def append_rows(self, rows: Sequence[Item]) -> None:
        if not rows:
            return
        start = len(self._items)
        self.beginInsertRows(QModelIndex(), start, start + len(rows) - 1)
        self._items.extend(rows)
        self.endInsertRows()

    def show_message(self, text: str) -> None:
        self.set_rows([Message(text)])

    def open_fold(self, row: int) -> bool:
        """Replace the fold at `row` by the unchanged rows it hides; False when `row` is not a fold."""
        item = self._items[row] if 0 <= row < len(self._items) else None
        if not isinstance(item, Fold):
            return False
        rows = item.rows
        self.beginRemoveRows(QModelIndex(), row, row)
        del self._items[row]
        self.endRemoveRows()
        self.beginInsertRows(QModelIndex(), row, row + len(rows) - 1)
        self._items[row:row] = rows
        self.endInsertRows()
        return True

    def open_all_folds(self) -> None:
        if not any(isinstance(item, Fold) for item in self._items):
            return
        opened: list[Item] = []
        for item in self._items:
            opened.extend(item.rows if isinstance(item, Fold) else [item])
        self.set_rows(opened)

    # Reading

    def items(self) -> list[Item]:
        return list(self._items)

    def plain_text(self) -> str:
        """What the rows show, one line each (a side-by-side row as old, tab, new)."""
        return "\n".join(shown_text(item) for item in self._items)


def shown_text(item: Item) -> str:
    """The text a row shows: markers for hidden characters and ↵ for a changed line break included."""
    if isinstance(item, Fold):
        return item.label
    return "\t".join(styled.text if styled else "" for styled in row_texts(item))


def row_texts(item: SideBySideRow | InlineLine | Message) -> list[StyledText | None]:
    """What each side of a row shows (None: no line on that side); one text for a line or a message."""
    if isinstance(item, Message):
        return [StyledText(item.text, ())]
    if isinstance(item, InlineLine):
        return [styled_line(item.ops)]
    left = styled_line(item.left_ops) if item.left_number is not None else None
    right = styled_line(item.right_ops) if item.right_number is not None else None
    return [left, right]


def unified_text(items: list[Item]) -> str:
    """Rows as a unified diff of the texts as they are: "  " for unchanged lines, "- " for old ones
    and "+ " for new ones (hidden characters copied as they are, not as markers)."""
    lines: list[str] = []
    for item in items:
        if isinstance(item, Fold):
            lines.extend(f"  {_plain(_ops(row))}" for row in item.rows)
        elif isinstance(item, SideBySideRow):
            lines.extend(_unified_row(item))
        elif isinstance(item, InlineLine):
            lines.extend(_unified_inline(item.ops))
        else:
            lines.append(item.text)
    return "\n".join(lines)


def _ops(row: SideBySideRow | InlineLine) -> tuple[DiffOp, ...]:
    """An unchanged row's ops (both sides are the same)."""
    return row.ops if isinstance(row, InlineLine) else row.right_ops


def _plain(ops: Iterable[DiffOp]) -> str:
    text = "".join(op.text for op in ops)
    return text.removesuffix("\n").removesuffix("\r") if text.endswith("\n") else text


def _unified_row(row: SideBySideRow) -> list[str]:
    if not row.changed:
        return [f"  {_plain(row.right_ops)}"]
    lines = []
    if row.left_number is not None:
        lines.append(f"- {_plain(row.left_ops)}")
    if row.right_number is not None:
        lines.append(f"+ {_plain(row.right_ops)}")
    return lines


def _unified_inline(ops: tuple[DiffOp, ...]) -> list[str]:
    if all(op.kind == "equal" for op in ops):
        return [f"  {_plain(ops)}"]
    return [
        f"- {_plain(op for op in ops if op.kind != 'insert')}",
        f"+ {_plain(op for op in ops if op.kind != 'delete')}",
    ]


class DiffList(QListView):
    """The list of rows: variable heights (lines wrap), laid out in batches, whole rows selected."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.rows = DiffRowsModel(self)
        self.setModel(self.rows)
        self.setUniformItemSizes(False)
        self.setWordWrap(True)  # a new width lays the rows out again
        self.setResizeMode(QListView.ResizeMode.Adjust)
        self.setLayoutMode(QListView.LayoutMode.SinglePass)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # Always there: a scroll bar that appears once a diff outgrows the panel narrows the rows, and
        # every row of the first screen was wrapped (and laid out) again for its first paint.
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setAccessibleName("Diff")
        show_focus(self)  # frameless rows painted by their delegate: the style shows no focus
        self.clicked.connect(self._open_fold)
        self.activated.connect(self._open_fold)
        copy = QAction("Copy as unified diff", self)
        copy.setShortcut(QKeySequence.StandardKey.Copy)
        copy.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        copy.setToolTip("Copy the selected rows, old lines with “- ” and new ones with “+ ”")
        copy.triggered.connect(self.copy_selection)
        unfold = QAction("Show all unchanged lines", self)
        unfold.triggered.connect(self.rows.open_all_folds)
        select_all = QAction("Select all", self)
        select_all.setShortcut(QKeySequence.StandardKey.SelectAll)
        select_all.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        select_all.triggered.connect(self.selectAll)
        # F7 / Shift+F7, as in other diff viewers; anywhere in the window: the card list keeps its focus.
        self.next_change = QAction("Next change", self)
        self.next_change.setShortcut(QKeySequence("F7"))
        self.next_change.setToolTip("Show the next changed passage (F7)")
        self.next_change.triggered.connect(lambda: self.go_to_change(forward=True))
        self.previous_change = QAction("Previous change", self)
        self.previous_change.setShortcut(QKeySequence("Shift+F7"))
        self.previous_change.setToolTip("Show the previous changed passage (Shift+F7)")
        self.previous_change.triggered.connect(lambda: self.go_to_change(forward=False))
        for action in (self.next_change, self.previous_change):
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        for action in (self.next_change, self.previous_change, copy, select_all, unfold):
            self.addAction(action)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)

    def go_to_change(self, *, forward: bool) -> bool:
        """Make the first row of the next (or previous) changed passage current and scroll to it;
        whether there was one. A passage is a run of changed rows: going forward, the one holding the
        current row is skipped; going back, the start nearest before the current row is shown (with no
        current row, the last passage's)."""
        items = self.rows.items()
        starts = [
            row for row, item in enumerate(items) if _changed(item) and not (row and _changed(items[row - 1]))
        ]
        current = self.currentIndex().row()
        if current < 0 and not forward:
            current = len(items)
        if forward:
            found = next((row for row in starts if row > current), None)
        else:
            found = next((row for row in reversed(starts) if row < current), None)
        if found is None:
            return False
        index = self.rows.index(found)
        self.setCurrentIndex(index)
        self.scrollTo(index, QAbstractItemView.ScrollHint.PositionAtCenter)
        return True

    def copy_selection(self) -> None:
        rows = sorted(index.row() for index in self.selectedIndexes())
        if not rows:
            rows = list(range(self.rows.rowCount()))
        items = self.rows.items()
        QGuiApplication.clipboard().setText(unified_text([items[row] for row in rows]))

    def _open_fold(self, index: QModelIndex) -> None:
        if self.rows.open_fold(index.row()):
            self.setCurrentIndex(self.rows.index(index.row()))


def _changed(item: Item) -> bool:
    return isinstance(item, InlineLine | SideBySideRow) and item.changed


__all__ = [
    "FOLD_TIP",
    "ROW_ROLE",
    "DiffList",
    "DiffRowsModel",
    "Item",
    "Message",
    "row_texts",
    "shown_text",
    "unified_text",
]
