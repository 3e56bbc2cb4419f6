"""Choosing the instant to look back at ("As of…"): a date and time in UTC, now by default; a future
instant means now. Ctrl+Enter is OK; Esc asks first once another instant was typed."""

from __future__ import annotations

from PySide6.QtCore import QDateTime, QTimeZone
from PySide6.QtWidgets import QDateTimeEdit, QDialog, QDialogButtonBox, QVBoxLayout, QWidget

from ui.widgets.dialog_keys import DialogKeys
from ui.widgets.focus_ring import show_button_focus
from ui.widgets.labels import plain_label


class AsOfDialog(QDialog):
    def __init__(self, start: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("As of…")
        layout = QVBoxLayout(self)
        layout.addWidget(
            plain_label(
                "Show every memory, and the profile the agent was shown, as they were at this instant "
                "(UTC). Nothing can be changed while looking back."
            )
        )
        self.when = QDateTimeEdit(self)
        self.when.setTimeZone(QTimeZone.utc())
        self.when.setCalendarPopup(True)
        self.when.setDisplayFormat("yyyy-MM-dd HH:mm:ss 'UTC'")
        self.when.setDateTime(QDateTime.fromMSecsSinceEpoch(start, QTimeZone.utc()))
        self.when.setAccessibleName("Instant to show, UTC")
        layout.addWidget(self.when)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, parent=self
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.when.setFocus()
        opened = self.when.dateTime()
        self.keys = DialogKeys(self, lambda: self.when.dateTime() != opened)
        show_button_focus(self)

    def chosen(self) -> int:
        """The instant chosen, epoch ms."""
        return int(self.when.dateTime().toMSecsSinceEpoch())
