"""Tab round a window under a real X server: every widget the focus stops at, in order, and whether each
looks different with the focus than just before it came (a focus a person can see).

A composite widget takes several Tabs of its own (a QDateTimeEdit moves between its sections, the focus
widget staying the same), so the walk goes on pressing while the focus stays put, until the focus is back
on the widget it started on or `presses` ran out (a Tab trapped somewhere: `closed` stays False).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QAbstractButton, QApplication, QDialogButtonBox, QWidget

PRESSES = 150  # the main window has some 40 stops, the date field 6 sections


@dataclass
class Walk:
    """What Tab did in one window, from the widget that had the focus."""

    stops: list[QWidget] = field(default_factory=list)  # each distinct widget, in the order reached
    blind: list[str] = field(default_factory=list)  # stops painted the same with the focus as without
    closed: bool = False  # the focus came back to the first stop

    def problems(self, window: QWidget) -> list[str]:
        """What is wrong, in words: Tab never moved, never came back, skipped a button, a blind stop."""
        found = [f"no visible focus on {name}" for name in self.blind]
        first, last = describe(self.stops[0]), describe(self.stops[-1])
        if len(self.stops) < 2:
            found.append(f"Tab never moved the focus from {first}")
        elif not self.closed:
            found.append(f"Tab never came back to {first}: stuck at {last}")
        reached = {id(widget) for widget in self.stops}
        found += [f"Tab never reached {describe(b)}" for b in box_buttons(window) if id(b) not in reached]
        return found


def focused() -> QWidget:
    widget = QApplication.focusWidget()
    assert widget is not None, "nothing has the focus"
    return widget


def describe(widget: QWidget) -> str:
    text = widget.text() if isinstance(widget, QAbstractButton) else ""
    return f"{type(widget).__name__} {widget.accessibleName() or text or widget.objectName()!r}"


def image(widget: QWidget) -> QImage:
    return widget.grab().toImage()


def box_buttons(window: QWidget) -> list[QAbstractButton]:
    """The buttons of the window's button boxes a person can press (OK or Save, Cancel, Close)."""
    return [
        button
        for box in window.findChildren(QDialogButtonBox)
        if box.window() is window and box.isVisible()
        for button in box.buttons()
        if button.isVisible() and button.isEnabled()
    ]


def _may_take_focus(window: QWidget, looked_at: set[int]) -> list[QWidget]:
    """Every widget of `window` Tab could land on next whose focus was not looked at yet: shown, and
    taking the focus in some way (a focus proxy's target may take none by Tab itself)."""
    return [
        widget
        for widget in window.findChildren(QWidget)
        if id(widget) not in looked_at
        and widget.window() is window
        and widget.isVisible()
        and widget.focusPolicy() != Qt.FocusPolicy.NoFocus
    ]


def walk(window: QWidget, press_tab: Callable[[], None], presses: int = PRESSES) -> Walk:
    """Press Tab in `window` until the focus is back where it started (at most `presses` times)."""
    start = focused()
    done = Walk(stops=[start])
    looked_at: set[int] = set()  # the start's look is compared when the focus comes back to it
    for _ in range(presses):
        before = focused()
        unfocused = {id(widget): image(widget) for widget in _may_take_focus(window, looked_at)}
        press_tab()
        now = focused()
        assert now.window() is window, f"Tab left the window for {describe(now)}"
        if now is before:
            continue  # a composite's own next part (the date's next section)
        if id(now) not in looked_at:
            looked_at.add(id(now))
            if now is not start:
                done.stops.append(now)
            if id(now) not in unfocused:
                done.blind.append(f"{describe(now)} (no look without the focus to compare)")
            elif image(now) == unfocused[id(now)]:
                done.blind.append(describe(now))
        if now is start:
            done.closed = True
            break
    return done
