"""Choosing an expiry: in 1 day, 7 days, 30 days, a custom date and time, or never.

Also asked when reactivating an expired memory: it needs a new expiry in the future, or none.
`chosen_expiry()` is epoch ms or None (never); a custom time already past keeps OK disabled.
Ctrl+Enter is OK; Esc asks first once the choice or the date typed differs from how it opened.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QDateTime
from PySide6.QtWidgets import (
    QButtonGroup,
    QDateTimeEdit,
    QDialog,
    QDialogButtonBox,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from app.core.clock import format_instant
from app.core.models import Memory
from app.present.timefmt import DAY_MS
from ui.widgets.dialog_keys import DialogKeys
from ui.widgets.focus_ring import show_button_focus
from ui.widgets.labels import plain_label

PRESETS = (("In 1 day", 1), ("In 7 days", 7), ("In 30 days", 30))
CUSTOM, NEVER = 100, 101


class ExpiryDialog(QDialog):
    def __init__(
        self,
        memory: Memory,
        now: Callable[[], int],
        *,
        reactivating: bool = False,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._now = now
        self.memory = memory
        self.setWindowTitle(f"{'Reactivate' if reactivating else 'Expiry of'} memory #{memory.id}")
        self.setMinimumWidth(380)
        layout = QVBoxLayout(self)
        layout.addWidget(plain_label(self._explanation(reactivating)))
        self.group = QButtonGroup(self)
        for label, days in PRESETS:
            self._option(layout, label, days)
        self._option(layout, "On a date and time:", CUSTOM)
        self.custom = QDateTimeEdit(self)
        self.custom.setCalendarPopup(True)
        self.custom.setDisplayFormat("yyyy-MM-dd HH:mm")
        start = memory.expires_at if memory.expires_at and memory.expires_at > now() else now() + 7 * DAY_MS
        self.custom.setDateTime(QDateTime.fromMSecsSinceEpoch(start))
        self.custom.dateTimeChanged.connect(self._validate)
        layout.addWidget(self.custom)
        self._option(layout, "Never (no expiry)", NEVER)
        self.problem = plain_label()
        layout.addWidget(self.problem)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self.group.idToggled.connect(lambda *_: self._validate())
        future = memory.expires_at is not None and memory.expires_at > now()
        self.group.button(CUSTOM if future and not reactivating else 7).setChecked(True)
        self._validate()
        opened = (self.group.checkedId(), self.custom.dateTime())
        self.keys = DialogKeys(self, lambda: (self.group.checkedId(), self.custom.dateTime()) != opened)
        show_button_focus(self)

    def _explanation(self, reactivating: bool) -> str:
        if reactivating and self.memory.expires_at is not None:
            return (
                f"Memory #{self.memory.id} expired on {format_instant(self.memory.expires_at)}. "
                "To make it active again, give it a new expiry or none."
            )
        if self.memory.expires_at is None:
            return "After its expiry a memory is never recalled, and the host stops injecting it."
        return f"Now: expires {format_instant(self.memory.expires_at)}."

    def _option(self, layout: QVBoxLayout, label: str, option_id: int) -> None:
        button = QRadioButton(label, self)
        self.group.addButton(button, option_id)
        layout.addWidget(button)

    def select(self, option_id: int) -> None:
        self.group.button(option_id).setChecked(True)

    def chosen_expiry(self) -> int | None:
        option = self.group.checkedId()
        if option == NEVER:
            return None
        if option == CUSTOM:
            return int(self.custom.dateTime().toMSecsSinceEpoch())
        return self._now() + option * DAY_MS

    def _validate(self) -> None:
        self.custom.setEnabled(self.group.checkedId() == CUSTOM)
        expiry = self.chosen_expiry()
        past = expiry is not None and expiry <= self._now()
        self.problem.setText("That time has already passed." if past else "")
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(not past)
