"""Editing a memory: Save/Cancel, empty content refused, and a conflict page that never overwrites silently.

The save passes the `updated_at` the editor opened with; if the host rewrote the memory meanwhile the
store refuses with ConflictError, and the dialog shows their version against yours (a diff) and lets the
person choose: keep theirs, overwrite with mine (again guarded by their `updated_at`), or copy mine.

A host row longer than the dashboard can save (`EDIT_CHARS`) is not loaded into the editor (a 10 MiB
line took minutes to lay out): its start is shown read-only, with "Show all", and Save stays disabled.

Ctrl+Enter saves; Esc asks before it throws an edit away (`DialogKeys`).
"""

from __future__ import annotations

from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QPlainTextEdit,
    QPushButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from app.core.errors import ConflictError
from app.core.models import Memory
from app.core.screening import has_hidden_characters
from ui.diff.slot import DiffSlot
from ui.runtime.controller import Controller
from ui.widgets.dialog_keys import DialogKeys
from ui.widgets.focus_ring import show_button_focus
from ui.widgets.labels import plain_label
from ui.widgets.long_text import LongTextView, size_label, wrap_mode

EDIT_CHARS = 64 * 1024  # the store saves at most 64 KiB of UTF-8: a longer text can never be saved


class EditDialog(QDialog):
    def __init__(self, controller: Controller, memory: Memory, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.before = memory
        self.theirs: Memory | None = None
        self.setWindowTitle(f"Edit memory #{memory.id}")
        self.resize(640, 420)
        self.pages = QStackedWidget(self)
        self.pages.addWidget(self._edit_page())
        self.pages.addWidget(self._conflict_page())
        layout = QVBoxLayout(self)
        layout.addWidget(self.pages)
        self._text_changed()
        controller.error.connect(self._text_changed)  # a failed save can be tried again
        self.keys = DialogKeys(self, lambda: not self.too_long and self.mine != self.before.content)
        show_button_focus(self)

    def _edit_page(self) -> QWidget:
        page = QWidget(self)
        self.too_long = len(self.before.content) > EDIT_CHARS
        self.editor = QPlainTextEdit(page)
        self.editor.setAccessibleName(f"Content of memory {self.before.id}")
        self.editor.setTabChangesFocus(True)  # Tab reaches Save; a memory's text is one line or prose
        self.preview = LongTextView(page)  # in the editor's place when the text is too long to edit
        if self.too_long:
            self.editor.hide()
            self.preview.set_text(self.before.content)
        else:
            self.preview.hide()
            self.editor.setWordWrapMode(wrap_mode(self.before.content))
            self.editor.setPlainText(self.before.content)
        self.editor.textChanged.connect(self._text_changed)
        self.notice = plain_label()
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel, page
        )
        self.save_button = self.buttons.button(QDialogButtonBox.StandardButton.Save)
        self.save_button.setToolTip("Save (writes a revision you can restore from)")
        self.buttons.accepted.connect(self.save)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(page)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(plain_label("The agent sees this text in every session while the memory is active."))
        layout.addWidget(self.editor)
        layout.addWidget(self.preview)
        layout.addWidget(self.notice)
        layout.addWidget(self.buttons)
        return page

    def _conflict_page(self) -> QWidget:
        page = QWidget(self)
        self.conflict_text = plain_label()
        self.diff = DiffSlot(page)
        self.keep_theirs_button = QPushButton("Keep theirs", page)
        self.keep_theirs_button.setToolTip("Discard your edit; the memory stays as it is now")
        self.overwrite_button = QPushButton("Overwrite with mine", page)
        self.overwrite_button.setToolTip(
            "Replace their version with yours (their version stays in the history)"
        )
        self.copy_button = QPushButton("Copy mine to clipboard", page)
        self.copy_button.setToolTip("Copy your text, then decide")
        self.keep_theirs_button.clicked.connect(self.reject)
        self.overwrite_button.clicked.connect(self.overwrite)
        self.copy_button.clicked.connect(self.copy_mine)
        row = QHBoxLayout()
        row.addWidget(self.copy_button)
        row.addStretch(1)
        row.addWidget(self.keep_theirs_button)
        row.addWidget(self.overwrite_button)
        layout = QVBoxLayout(page)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.conflict_text)
        layout.addWidget(self.diff)
        layout.addLayout(row)
        return page

    @property
    def mine(self) -> str:
        return self.editor.toPlainText()

    def _text_changed(self, *_: object) -> None:
        if self.too_long:
            self.save_button.setEnabled(False)
            self.notice.setText(
                f"This memory holds {size_label(len(self.before.content))}, more than the 64 KiB the "
                "dashboard can save: it cannot be edited here. Dismiss or delete it instead."
            )
            return
        text = self.mine
        empty = not text.strip()
        self.save_button.setEnabled(not empty and text != self.before.content)
        if empty:
            self.notice.setText(
                "A memory cannot be empty. To stop the agent seeing it, dismiss or delete it."
            )
        elif has_hidden_characters(text):
            self.notice.setText("⚠ This text contains hidden (invisible or bidi-control) characters.")
        else:
            self.notice.setText("")

    def save(self) -> None:
        if not self.mine.strip():
            return
        self.save_button.setEnabled(False)
        self.controller.edit(
            self.before,
            self.mine,
            on_conflict=self.show_conflict,
            on_saved=lambda _memory: self.accept(),
        )

    def show_conflict(self, error: ConflictError) -> None:
        self.theirs = error.current
        self.conflict_text.setText(
            f"Memory #{error.current.id} changed while you were editing it (someone else, likely the "
            "agent host's review, rewrote it). Nothing was saved. Choose what to keep."
        )
        self.overwrite_button.setEnabled(True)
        self.setWindowTitle(f"Memory #{error.current.id} changed while you were editing")
        self.pages.setCurrentIndex(1)
        self.diff.show_texts(error.current.content, self.mine, "Theirs → yours")

    def overwrite(self) -> None:
        if self.theirs is None:
            return
        self.overwrite_button.setEnabled(False)
        self.controller.edit(
            self.theirs,
            self.mine,
            on_conflict=self.show_conflict,
            on_saved=lambda _memory: self.accept(),
        )

    def copy_mine(self) -> None:
        QGuiApplication.clipboard().setText(self.mine)
        self.copy_button.setText("Copied")
