"""Labels every panel and dialog uses: plain text always (memory content is untrusted, and a QLabel
left to guess would read it as rich text), section and title weights, a tint, the empty-or-details pages,
and a one-line label that ends in "…" where its column is too narrow."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import QLabel, QSizePolicy, QStackedWidget, QVBoxLayout, QWidget


def section_label(text: str) -> QLabel:
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)
    font = label.font()
    font.setWeight(font.Weight.DemiBold)
    label.setFont(font)
    return label


class ElidedLabel(QLabel):
    """One line of plain text that never widens its column: where it does not fit it is cut with "…"
    (a bare cut mid-letter reads as a glitch, and hides that there is more). `text()` stays whole."""

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)

    def shown_text(self) -> str:
        """What fits: the text, or its start and "…"."""
        room = self.contentsRect().width()
        return self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight, room)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        self.style().drawItemText(
            painter,
            self.contentsRect(),
            int(self.alignment()),
            self.palette(),
            self.isEnabled(),
            self.shown_text(),
            self.foregroundRole(),
        )


def title_label(*, elided: bool = False) -> QLabel:
    """A panel's title: larger, demi-bold, on one line (`elided`: cut with "…" where it does not fit)."""
    label = ElidedLabel() if elided else plain_label(wrap=False)
    font = label.font()
    font.setPointSizeF(font.pointSizeF() * 1.25)
    font.setWeight(font.Weight.DemiBold)
    label.setFont(font)
    return label


def empty_or_details(panel: QWidget, empty_text: str, details: QWidget) -> tuple[QStackedWidget, QLabel]:
    """A panel's two pages, in its margins: a centred line while nothing is selected, and `details`."""
    stack = QStackedWidget(panel)
    empty = plain_label(empty_text)
    empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
    stack.addWidget(empty)
    stack.addWidget(details)
    outer = QVBoxLayout(panel)
    outer.setContentsMargins(10, 8, 12, 8)
    outer.addWidget(stack)
    return stack, empty


def plain_label(text: str = "", *, wrap: bool = True) -> QLabel:
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(wrap)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


def tint(label: QLabel, color: QColor) -> None:
    palette = label.palette()
    palette.setColor(QPalette.ColorRole.WindowText, color)
    label.setPalette(palette)


def boxed(title: str, *widgets: QWidget) -> QWidget:
    box = QWidget()
    layout = QVBoxLayout(box)
    layout.setContentsMargins(0, 10, 0, 0)
    layout.addWidget(section_label(title))
    for widget in widgets:
        layout.addWidget(widget)
    return box
