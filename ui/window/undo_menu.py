"""The Edit menu's Undo, Redo and Undo history: the window's face of the command log (`UndoHistory`).

Undo (`Ctrl+Z`, the window's own action) and Redo (`Ctrl+Shift+Z` or `Ctrl+Y`) say what they would take
back or make again; Undo history… shows the whole log in a small window (a `QUndoView` of the stack:
a click there undoes or redoes down to that entry). Both are off while nothing can be written.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu, QUndoView, QVBoxLayout, QWidget

from ui.actions.make import keys
from ui.window.parts import WindowParts

REDO_TIP = "Make again the change undone last"


class UndoMenu(QObject):
    """Redo and the history window, beside the window's Undo action (a child of the window, found with
    `findChild(UndoMenu)`)."""

    def __init__(self, window: WindowParts, menu: QMenu) -> None:
        super().__init__(window.window())
        self.window = window
        self.controller = window.controller
        self.history = window.controller.undo_history
        parent = window.window()
        self.redo = QAction("Redo", parent)
        self.redo.setShortcuts(keys("Ctrl+Shift+Z", "Ctrl+Y"))
        self.redo.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.redo.triggered.connect(self.controller.redo)
        self.show_history = QAction("Undo &history…", parent)
        self.show_history.setToolTip("Every change logged here (window and command line), done or undone")
        self.show_history.triggered.connect(self.open_view)
        menu.addAction(window.acts.undo)
        menu.addAction(self.redo)
        menu.addAction(self.show_history)
        menu.addSeparator()
        self.view_window: QWidget | None = None
        self.history.changed.connect(self.update)
        self.update()

    def update(self) -> None:
        label = self.history.redo_label
        self.redo.setText(label or "Redo")
        shown = ", ".join(
            key.toString(QKeySequence.SequenceFormat.NativeText) for key in self.redo.shortcuts()
        )
        self.redo.setToolTip(f"{label or REDO_TIP} ({shown})")
        self.redo.setEnabled(bool(label) and not self.controller.read_only)

    def open_view(self) -> None:
        """The log as a list (one small window, raised when open already)."""
        if self.view_window is None:
            holder = QWidget(self.window.window(), Qt.WindowType.Tool)
            holder.setWindowTitle("Undo history")
            view = QUndoView(self.history.stack, holder)
            view.setEmptyLabel("(as first opened)")
            layout = QVBoxLayout(holder)
            layout.setContentsMargins(4, 4, 4, 4)
            layout.addWidget(view)
            holder.resize(420, 320)
            self.view_window = holder
        self.view_window.show()
        self.view_window.raise_()
