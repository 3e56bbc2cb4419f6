"""The small questions the project page asks before a write: the new content, the new category, the
reason of an archive. Each is a window-modal `QInputDialog` opened without blocking (`open`), so the
event loop runs on, with the keys of every editing dialog (`DialogKeys`); `answered` gets the text when
the person accepts. The text is checked where it enters, by the writers (`app.store.project.writes`),
and a refusal comes back as the window's message."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtWidgets import QInputDialog, QWidget

from ui.widgets.dialog_keys import DialogKeys


def _opened(dialog: QInputDialog, answered: Callable[[str], None]) -> QInputDialog:
    """Shown, with the keys of every editing dialog (Ctrl+Enter saves; Esc asks before losing a change)."""
    typed = dialog.textValue()
    DialogKeys(dialog, lambda: dialog.textValue() != typed)
    dialog.textValueSelected.connect(answered)
    dialog.open()
    return dialog


def ask_content(
    parent: QWidget, memory_id: int, content: str, answered: Callable[[str], None]
) -> QInputDialog:
    dialog = QInputDialog(parent)
    dialog.setWindowTitle(f"Edit project memory #{memory_id}")
    dialog.setLabelText("Content (saved the host's way: a new hash, its embeddings dropped):")
    dialog.setOption(QInputDialog.InputDialogOption.UsePlainTextEditForTextInput, True)
    dialog.setTextValue(content)
    return _opened(dialog, answered)


def ask_category(
    parent: QWidget, memory_id: int, category: str, known: Sequence[str], answered: Callable[[str], None]
) -> QInputDialog:
    dialog = QInputDialog(parent)
    dialog.setWindowTitle(f"Category of project memory #{memory_id}")
    dialog.setLabelText("Category (one of the project's, or a new one):")
    dialog.setComboBoxItems(sorted({*known, category}))
    dialog.setComboBoxEditable(True)
    dialog.setTextValue(category)
    return _opened(dialog, answered)


def ask_reason(parent: QWidget, memory_id: int, answered: Callable[[str], None]) -> QInputDialog:
    dialog = QInputDialog(parent)
    dialog.setWindowTitle(f"Archive project memory #{memory_id}")
    dialog.setLabelText("Why archive it? (kept in its metadata, as the host keeps it; may be empty)")
    return _opened(dialog, answered)
