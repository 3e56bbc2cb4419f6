"""Preferences: the settings of `app.core.settings` (the reviewer command and its timeout), edited in a
dialog and saved to `settings.json` (other keys in the file are kept).

A settings file that cannot be read is said so and never overwritten from here: Save stays disabled
until the file is fixed or deleted. What is typed is checked by `app.core.settings.edited` as it is typed.
Ctrl+Enter saves; Esc asks before it throws typed changes away.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.core.settings import (
    MAX_REVIEWER_TIMEOUT_S,
    Settings,
    SettingsError,
    edited,
    save_problem,
    save_settings,
    settings_or_problem,
    settings_path,
    where_saved,
)
from ui.widgets.dialog_keys import DialogKeys
from ui.widgets.focus_ring import show_button_focus
from ui.widgets.labels import plain_label
from ui.widgets.plain_tip import plain_tip

COMMAND_TIP = (
    "The command that runs the automated review: it gets the review prompt on its standard input and "
    "prints a verdict (JSON, or a ```json block). For example: claude -p"
)


class PreferencesDialog(QDialog):
    saved = Signal(object)  # Settings, once written

    def __init__(self, parent: QWidget | None = None, *, path: Path | None = None, reason: str = "") -> None:
        super().__init__(parent)
        self.setWindowTitle("Preferences")
        self.setMinimumWidth(520)
        self.path = path or settings_path()
        self.settings, self.load_problem = settings_or_problem(self.path)
        self.reason = plain_label(reason)
        self.reason.setVisible(bool(reason))
        self.command = QLineEdit(self.settings.reviewer_command or "", self)
        self.command.setPlaceholderText("none set: Run review cannot run")
        self.command.setToolTip(COMMAND_TIP)
        self.command.setAccessibleName("Reviewer command")
        self.command.setAccessibleDescription(COMMAND_TIP)
        self.timeout = QDoubleSpinBox(self)
        self.timeout.setDecimals(0)
        self.timeout.setRange(1, MAX_REVIEWER_TIMEOUT_S)
        self.timeout.setSuffix(" s")
        self.timeout.setValue(self.settings.reviewer_timeout_s)
        self.timeout.setToolTip("How long the reviewer may run before it is stopped")
        self.timeout.setAccessibleName("Reviewer timeout in seconds")
        where = plain_label(where_saved(self.path))
        where.setToolTip(plain_tip(str(self.path)))
        form = QFormLayout()
        form.addRow("&Reviewer command:", self.command)
        form.addRow("Reviewer &timeout:", self.timeout)
        self.problem = plain_label()
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.buttons.accepted.connect(self._save)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.reason)
        layout.addLayout(form)
        layout.addWidget(where)
        layout.addWidget(self.problem)
        layout.addWidget(self.buttons)
        self.command.textChanged.connect(self._validate)
        self.timeout.valueChanged.connect(self._validate)
        self._validate()
        opened = self._typed()
        self.keys = DialogKeys(self, lambda: self._typed() != opened)
        show_button_focus(self)

    def _typed(self) -> tuple[str, float]:
        """What the fields hold now (compared with what they held when the dialog opened)."""
        return self.command.text(), self.timeout.value()

    @property
    def save_button(self) -> QPushButton:
        return self.buttons.button(QDialogButtonBox.StandardButton.Save)

    def _edited(self) -> Settings:
        return edited(self.settings, self.command.text(), self.timeout.value())

    def _validate(self) -> None:
        problem = save_problem(self.load_problem, self._edited)
        self.problem.setText(problem or "")
        self.problem.setVisible(problem is not None)
        self.save_button.setEnabled(problem is None)

    def _save(self) -> None:
        try:
            settings = self._edited()
            save_settings(settings, self.path)
        except SettingsError as exc:
            self.problem.setText(exc.message)
            self.problem.setVisible(True)
            return
        self.settings = settings
        self.saved.emit(settings)
        self.accept()
