"""Two widgets one above the other, edge to edge: the window's banner over its pages, the as-of view's."""

from __future__ import annotations

from PySide6.QtWidgets import QVBoxLayout, QWidget


def column(widget: QWidget, top: QWidget, rest: QWidget) -> QWidget:
    """`top` above `rest` (which takes the height left), edge to edge, in `widget`."""
    layout = QVBoxLayout(widget)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.setSpacing(0)
    layout.addWidget(top)
    layout.addWidget(rest, 1)
    return widget
