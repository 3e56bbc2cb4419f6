"""Writing a new memory: the text, Save/Cancel; empty text refused, hidden characters pointed out.

Saved through the store's `add` (as the host writes a promotion; source `user:dashboard`, trusted), off
the GUI thread; the dialog closes once it is written, and stays open (Save enabled again) if it failed.
Ctrl+Enter saves, Tab moves on to the buttons, Esc asks before it throws a typed text away.
"""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QPlainTextEdit, QVBoxLayout, QWidget

from app.core.screening import has_hidden_characters
from app.core.text_input import content_problem
from ui.runtime.bulk import BulkWrites
from ui.runtime.controller import Controller
from ui.widgets.dialog_keys import DialogKeys
from ui.widgets.focus_ring import show_button_focus
from ui.widgets.labels import plain_label


class NewMemoryDialog(QDialog):
    def __init__(self, controller: Controller, writes: BulkWrites, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.writes = writes
        self.setWindowTitle("New memory")
        self.resize(560, 320)
        self.editor = QPlainTextEdit(self)
        self.editor.setAccessibleName("New memory's text")
        self.editor.setPlaceholderText("Prefers pnpm over npm in every JavaScript project")
        self.editor.setTabChangesFocus(True)  # Tab reaches Save; a memory's text is one line or prose
        self.notice = plain_label()
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.save_button = self.buttons.button(QDialogButtonBox.StandardButton.Save)
        self.save_button.setToolTip("Save: the agent sees it from its next session (Ctrl+Z undoes it)")
        self.buttons.accepted.connect(self.save)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(
            plain_label(
                "The agent sees this text in every session. It is yours: trusted, source user:dashboard."
            )
        )
        layout.addWidget(self.editor)
        layout.addWidget(self.notice)
        layout.addWidget(self.buttons)
        self.editor.textChanged.connect(self._text_changed)
        controller.error.connect(self._text_changed)  # a failed save can be tried again
        self._text_changed()
        self.keys = DialogKeys(self, lambda: bool(self.text.strip()))
        show_button_focus(self)

    @property
    def text(self) -> str:
        return self.editor.toPlainText()

    def _text_changed(self, *_: object) -> None:
        text = self.text
        problem = content_problem(text)
        self.save_button.setEnabled(problem is None)
        if problem is not None and text:
            self.notice.setText(f"The text {problem}.")
        elif has_hidden_characters(text):
            self.notice.setText("⚠ This text contains hidden (invisible or bidi-control) characters.")
        else:
            self.notice.setText("")

    def save(self) -> None:
        if not self.save_button.isEnabled():
            return
        self.save_button.setEnabled(False)
        self.writes.add(self.text, on_saved=lambda _memory: self.accept())
