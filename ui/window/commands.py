"""What the window's actions do when they need a dialog or a confirmation: edit, reactivate (an expired
memory asks for a new expiry), delete (confirmed), set expiry, open another database, run the review
(Preferences first when no reviewer is set), Preferences, the keyboard shortcuts.

With several cards selected, dismiss, reactivate, delete (asked first past `ASK_OVER` cards), expiry and
restore act on the whole selection, one write and one Undo (`ui.runtime.bulk`); so do a source's actions
(trust marks, retiring what it contributed) and a new memory.

The dialogs are opened non-blocking (`open()`/`show()`), so the event loop keeps delivering results.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QMessageBox, QProgressDialog, QWidget

from app.core.errors import ExpiryRequiredError
from app.core.models import Memory, MemoryStatus
from app.core.settings import Settings
from ui.actions.window import WindowActions
from ui.runtime.bulk import BulkWrites, count_word
from ui.window.parts import WindowParts

if TYPE_CHECKING:  # the dialogs' modules load when each is first opened, not before the first paint
    from app.review.apply import ApplyResult
    from ui.dialogs.edit import EditDialog
    from ui.dialogs.expiry import ExpiryDialog
    from ui.dialogs.new_memory import NewMemoryDialog
    from ui.dialogs.preferences import PreferencesDialog
    from ui.dialogs.shortcuts import ShortcutsDialog

Confirm = Callable[[str, str], bool]
ASK_OVER = 10  # a delete of more cards than this asks first


def ask(parent: QWidget, title: str, text: str) -> bool:
    answer = QMessageBox.question(
        parent, title, text, QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel
    )
    return answer == QMessageBox.StandardButton.Yes


class WindowCommands:
    def __init__(self, window: WindowParts) -> None:
        self.window = window
        self.dialog_parent = window.window()  # what the dialogs and message boxes open over
        self.controller = window.controller
        self.confirm: Confirm = lambda title, text: ask(self.dialog_parent, title, text)
        self.edit_dialog: EditDialog | None = None
        self.expiry_dialog: ExpiryDialog | None = None
        self.new_dialog: NewMemoryDialog | None = None
        self.bulk = BulkWrites(self.controller)
        self.progress: QProgressDialog | None = None
        self.preferences_dialog: PreferencesDialog | None = None
        self.shortcuts_dialog: ShortcutsDialog | None = None
        window.review.reviewFinished.connect(self._review_done)
        window.review.reviewFailed.connect(self._review_done)
        window.review.reviewCancelled.connect(self._review_cancelled)

    def bind(self, actions: WindowActions) -> None:
        """Connect the actions whose work is here."""
        actions.edit.triggered.connect(self.edit)
        actions.dismiss.triggered.connect(self.dismiss)
        actions.reactivate.triggered.connect(self.reactivate)
        actions.delete.triggered.connect(self.delete)
        actions.expiry.triggered.connect(self.set_expiry)
        actions.restore_deleted.triggered.connect(self.restore_deleted)
        actions.new_memory.triggered.connect(self.new_memory)
        actions.undo.triggered.connect(self.controller.undo)
        actions.run_review.triggered.connect(self.run_review)
        actions.open_database.triggered.connect(self.open_database)
        actions.open_demo.triggered.connect(self.open_demo)
        actions.preferences.triggered.connect(lambda: self.open_preferences())
        actions.shortcuts.triggered.connect(self.show_shortcuts)

    def edit(self) -> None:
        memory = self.window.selected_memory()
        if memory is None or self.controller.read_only:
            return
        if self.edit_dialog is not None and self.edit_dialog.isVisible():
            self.edit_dialog.raise_()  # one editor at a time, however the edit was asked for
            return
        from ui.dialogs.edit import EditDialog

        self.edit_dialog = EditDialog(self.controller, memory, self.dialog_parent)
        self.edit_dialog.open()
        self.edit_dialog.editor.setFocus()

    def _many(self) -> list[int] | None:
        """The selection when it is more than one card, else None (the current card's own path)."""
        ids = self.window.selected_ids()
        return ids if len(ids) > 1 else None

    def dismiss(self) -> None:
        many = self._many()
        if many is not None:
            self.bulk.dismiss(many)
            return
        memory = self.window.selected_memory()
        if memory is not None:
            self.controller.dismiss(memory)

    def reactivate(self) -> None:
        many, memory = self._many(), self.window.selected_memory()
        if many is not None and memory is not None:
            self.bulk.reactivate(many, on_expiry_required=lambda _e: self._ask_expiry(memory, True, many))
            return
        if memory is None:
            return
        if memory.expired:
            self._ask_expiry(memory, True)
        else:
            self.controller.reactivate(memory, on_expiry_required=lambda _e: self._ask_expiry(memory, True))

    def delete(self) -> None:
        many = self._many()
        if many is not None:
            text = f"Delete {count_word(len(many))}?\n\nTheir history is kept; Undo (Ctrl+Z) brings them back"
            if len(many) <= ASK_OVER or self.confirm(f"Delete {count_word(len(many))}", text):
                self.bulk.delete(many)
            return
        memory = self.window.selected_memory()
        if memory is None:
            return
        preview = memory.content if len(memory.content) <= 160 else memory.content[:157] + "…"
        text = (
            f"Delete memory #{memory.id}?\n\n{preview}\n\n"
            "Its history is kept, and Undo (Ctrl+Z) brings it back."
        )
        if self.confirm(f"Delete memory #{memory.id}", text):
            self.controller.delete(memory)

    def set_expiry(self) -> None:
        memory = self.window.selected_memory()
        if memory is not None:
            self._ask_expiry(memory, False, self._many())

    def restore_deleted(self) -> None:
        """The selected deleted memories back (the Deleted filter's cards), one write, one Undo."""
        ids = self.window.selected_ids()
        deleted = [
            i for i in ids if (m := self.window.model.memory(i)) is None or m.status == MemoryStatus.DELETED
        ]
        if deleted:
            self.bulk.restore_deleted(deleted)

    def new_memory(self) -> None:
        if self.controller.read_only:
            return
        if self.new_dialog is not None and self.new_dialog.isVisible():
            self.new_dialog.raise_()
            return
        from ui.dialogs.new_memory import NewMemoryDialog

        self.new_dialog = NewMemoryDialog(self.controller, self.bulk, self.dialog_parent)
        self.new_dialog.open()
        self.new_dialog.editor.setFocus()

    def source_action(self, action: str, source: str) -> None:
        """The provenance table's menu: a trust mark, the source's memories, or retiring them."""
        if action in ("trusted", "untrusted", "default"):
            self.bulk.set_trust(source, action)
        elif action == "show":
            self.window.show_source(source)
        elif action == "retire":
            self.bulk.contributions(source, lambda found: self._retire(source, *found))

    def _retire(self, source: str, only: list[Memory], shared: list[Memory]) -> None:
        ids = [memory.id for memory in [*only, *shared]]
        if not ids:
            self.controller.message.emit(f"{source} contributed to no memory")
            return
        text = (
            f"{source} contributed to {count_word(len(ids))}: {len(only):,} where it is the only source, "
            f"{len(shared):,} where it is one of several.\n\nDismiss all of them? Undo (Ctrl+Z) brings "
            "them back in one step."
        )
        if self.confirm(f"Retire {source}", text):
            self.bulk.dismiss(ids, retire=source)

    def _ask_expiry(self, memory: Memory, reactivating: bool, many: list[int] | None = None) -> None:
        from ui.dialogs.expiry import ExpiryDialog

        dialog = ExpiryDialog(
            memory, self.controller.now, reactivating=reactivating, parent=self.dialog_parent
        )
        if many is not None:
            dialog.setWindowTitle(f"{'Reactivate' if reactivating else 'Expiry of'} {count_word(len(many))}")
        self.expiry_dialog = dialog

        def finished(result: int) -> None:
            if result != QDialog.DialogCode.Accepted:
                return
            chosen = dialog.chosen_expiry()
            if many is not None:
                if reactivating:
                    self.bulk.reactivate(many, chosen)
                else:
                    self.bulk.set_expiry(many, chosen)
            elif reactivating:
                self.controller.reactivate(memory, chosen, on_expiry_required=self._expiry_error)
            else:
                self.controller.set_expiry(memory, chosen)

        dialog.finished.connect(finished)
        dialog.open()

    def _expiry_error(self, error: ExpiryRequiredError) -> None:
        self.controller.error.emit(error.message)

    def open_database(self) -> None:
        from ui.dialogs.open_database import choose_database

        path = choose_database(self.dialog_parent, self.controller.facts.location)
        if path is not None:
            self.controller.open_database(path)

    def open_demo(self) -> None:
        from app.core.paths import DatabaseChoice
        from app.demo.build import ensure_demo_store

        self.controller.message.emit("Opening the demo data…")
        self.controller.runner.submit(
            lambda: DatabaseChoice(str(ensure_demo_store()), "demo"),
            self.controller.open_database,
            self.controller.report,
        )

    def open_preferences(self, reason: str = "", *, then_review: bool = False) -> None:
        """The Preferences dialog; `then_review`: run the review once a reviewer command is saved."""
        if self.preferences_dialog is not None and self.preferences_dialog.isVisible():
            self.preferences_dialog.raise_()
            return
        from ui.dialogs.preferences import PreferencesDialog

        dialog = PreferencesDialog(self.dialog_parent, reason=reason)
        self.preferences_dialog = dialog

        def saved(settings: Settings) -> None:
            self.window.acts.set_reviewer(settings.reviewer_command)
            self.window.statusBar().showMessage("Preferences saved", 5000)
            if then_review and settings.reviewer_command:
                self.run_review()

        dialog.saved.connect(saved)
        dialog.open()
        dialog.command.setFocus()

    def show_shortcuts(self) -> None:
        from ui.dialogs.shortcuts import ShortcutsDialog

        self.shortcuts_dialog = ShortcutsDialog(self.dialog_parent)
        self.shortcuts_dialog.open()

    def run_review(self) -> None:
        review = self.window.review
        if review.running:
            return
        if review.configured_command() is None and self.controller.write_refusal is None:
            self.open_preferences(
                "Run review needs a reviewer command: a program that reads the review prompt and prints a "
                "verdict. Set it here; the review runs once it is saved.",
                then_review=True,
            )
            return
        progress = QProgressDialog("Running the reviewer…", "Cancel", 0, 0, self.dialog_parent)
        progress.setWindowTitle("Review")
        progress.setAutoClose(False)
        progress.setAutoReset(False)
        # Cancel stops the reviewer; a verdict is never applied after it (once applying, it finishes).
        progress.canceled.connect(review.cancel_review)
        progress.setWindowModality(Qt.WindowModality.WindowModal)
        progress.setMinimumDuration(300)
        self.progress = progress
        review.run_review()

    def _close_progress(self) -> None:
        if self.progress is not None:
            self.progress.canceled.disconnect()
            self.progress.reset()
            self.progress.hide()
            self.progress.deleteLater()
            self.progress = None

    def _review_cancelled(self, text: str) -> None:
        self._close_progress()
        self.window.statusBar().showMessage(text, 15_000)

    def _review_done(self, result: ApplyResult | str) -> None:
        self._close_progress()
        if not isinstance(result, str):
            self.window.model.set_highlighted(result.changed_memory_ids)
            self.window.statusBar().showMessage(f"Review: {result.counts_line()}", 15_000)
        else:
            self.controller.error.emit(f"The review did not run: {result}")
