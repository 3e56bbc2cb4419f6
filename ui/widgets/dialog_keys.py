"""The keys every editing dialog answers the same way: Ctrl+Enter (or Ctrl+Return, Ctrl+S) presses its
Save or OK button, Esc cancels, and a dialog holding typed text asks first ("Discard your changes?")
before Esc or the window's close button throws it away.

Installed on a dialog as it is (`DialogKeys(dialog, changed)`), so a dialog Qt builds (QInputDialog)
answers the same keys as ours. The question is non-blocking (`open()`): results of work still running
keep arriving while it is shown. Its default is to keep editing, so an Esc pressed by mistake followed
by Enter loses nothing; `D` (or Tab to Discard) discards.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import QAbstractButton, QDialog, QDialogButtonBox, QMessageBox

SAVE_KEYS = ("Ctrl+Return", "Ctrl+Enter", "Ctrl+S")
DISCARD_TITLE = "Discard your changes?"
DISCARD_TEXT = "What you typed here is not saved. Discard it and close?"


def accept_button(dialog: QDialog) -> QAbstractButton | None:
    """The button that saves (the accept role of the dialog's button box on the page shown)."""
    for box in dialog.findChildren(QDialogButtonBox):
        if not box.isVisibleTo(dialog):
            continue
        for button in box.buttons():
            if box.buttonRole(button) == QDialogButtonBox.ButtonRole.AcceptRole:
                return button
    return None


class DialogKeys(QObject):
    """Ctrl+Enter saves `dialog` (when its Save/OK button is enabled); Esc and closing ask first while
    `changed()` says something typed would be lost."""

    def __init__(self, dialog: QDialog, changed: Callable[[], bool]) -> None:
        super().__init__(dialog)
        self.dialog = dialog
        self.changed = changed
        self.question: QMessageBox | None = None
        for key in SAVE_KEYS:
            shortcut = QShortcut(QKeySequence(key), dialog)
            shortcut.activated.connect(self.save)
        dialog.installEventFilter(self)

    def save(self) -> None:
        button = accept_button(self.dialog)
        if button is not None and button.isEnabled():
            button.click()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is not self.dialog:
            return False
        escape = (
            event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and event.key() == Qt.Key.Key_Escape
            and event.modifiers() == Qt.KeyboardModifier.NoModifier
        )
        closing = escape or event.type() == QEvent.Type.Close
        if closing and self.dialog.isVisible() and self.changed():
            event.ignore()
            self.ask()
            return True
        return False

    def ask(self) -> QMessageBox:
        """The question, over the dialog (one at a time); Discard closes the dialog unsaved."""
        if self.question is not None and self.question.isVisible():
            return self.question
        box = QMessageBox(QMessageBox.Icon.Question, DISCARD_TITLE, DISCARD_TEXT, parent=self.dialog)
        box.setTextFormat(Qt.TextFormat.PlainText)
        discard = box.addButton("&Discard", QMessageBox.ButtonRole.DestructiveRole)
        keep = box.addButton("&Keep editing", QMessageBox.ButtonRole.RejectRole)
        box.setDefaultButton(keep)
        box.setEscapeButton(keep)
        box.finished.connect(lambda _result: self._answered(box.clickedButton() is discard))
        self.question = box
        box.open()
        return box

    def _answered(self, discard: bool) -> None:
        self.question = None
        if discard:
            self.dialog.reject()
