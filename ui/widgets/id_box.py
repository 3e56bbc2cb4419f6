"""A field for a memory id: `#123`, any id SQLite can hold (a QSpinBox stops at 2^31 − 1, and setting
a host's larger id on one raised)."""

from __future__ import annotations

from PySide6.QtCore import QRegularExpression
from PySide6.QtGui import QRegularExpressionValidator
from PySide6.QtWidgets import QLineEdit, QWidget

INT64_MAX = 2**63 - 1


class MemoryIdBox(QLineEdit):
    """`value()` is the id typed (0 when none is); `setValue` shows one. Only digits can be typed."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setValidator(QRegularExpressionValidator(QRegularExpression(r"#?\d{0,19}"), self))
        self.setPlaceholderText("#id")
        self.setMaximumWidth(self.fontMetrics().horizontalAdvance("#9223372036854775807  "))

    def value(self) -> int:
        digits = self.text().removeprefix("#")
        number = int(digits) if digits else 0
        return number if number <= INT64_MAX else 0

    def setValue(self, memory_id: int) -> None:  # named as the QSpinBox it replaces
        self.setText(f"#{memory_id}")
