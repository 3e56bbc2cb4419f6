"""The one instant a window counts its relative times from ("updated 11m ago"), shared by the cards and
the side panel so they never disagree (11m on the card, 10m beside it).

It is read from the clock when something new is shown and when the minute turns (`tick`), not at each
paint: a card painted a moment after the panel was filled counts from the same instant. Those that show
relative times connect to `moved` and show them again from the new instant.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Signal


class ShownTime(QObject):
    moved = Signal()

    def __init__(self, clock: Callable[[], int], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._clock = clock
        self._at = clock()

    def __call__(self) -> int:
        """The instant shown (epoch ms)."""
        return self._at

    def tick(self) -> None:
        """Read the clock again; `moved` when the instant moved on."""
        at = self._clock()
        if at != self._at:
            self._at = at
            self.moved.emit()
