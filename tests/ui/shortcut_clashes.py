"""Which keys of a window reach two things at once: every QAction's and QShortcut's key sequences, each
with the widgets whose focus makes it live (as Qt's own shortcut map decides: its context, the widgets it
is on, only visible ones), and a clash wherever two share a sequence and a focus.

Qt does nothing on such a key (it logs "Ambiguous shortcut overload"), so every clash is a dead key.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import QApplication, QMenu, QWidget

Ctx = Qt.ShortcutContext


@dataclass(frozen=True)
class Bound:
    """One key sequence of one action or shortcut, and the widgets where it is live."""

    key: str
    owner: QObject
    live: frozenset[int]  # ids of the widgets whose focus makes it fire

    def name(self) -> str:
        text = self.owner.text() if isinstance(self.owner, QAction) else ""
        return f"{type(self.owner).__name__} {text or self.owner.objectName() or hex(id(self.owner))}"


def _focusable(window: QWidget) -> list[QWidget]:
    """The window and every visible widget in it (focus can be in any of them)."""
    inside = [w for w in window.findChildren(QWidget) if w.window() is window and w.isVisible()]
    return [window, *inside]


def _live_on(widget: QWidget, context: Ctx, window: QWidget) -> set[int]:
    """Where a key on `widget` with `context` fires, by Qt's rules (`correctWidgetContext`)."""
    if not widget.isVisible():
        return set()
    if isinstance(widget, QMenu):  # a menu's key is live where the menu's own entry is
        found: set[int] = set()
        for holder in widget.menuAction().associatedObjects():
            if isinstance(holder, QWidget) and holder is not widget:
                found |= _live_on(holder, context, window)
        return found
    if widget.window() is not window:
        return set()
    everything = _focusable(window)
    if context in (Ctx.WindowShortcut, Ctx.ApplicationShortcut):
        return {id(w) for w in everything}
    if context == Ctx.WidgetShortcut:
        return {id(widget)}
    return {id(w) for w in everything if w is widget or widget.isAncestorOf(w)}


def _sequences(keys: Iterable[QKeySequence]) -> list[str]:
    return [key.toString(QKeySequence.SequenceFormat.PortableText) for key in keys if not key.isEmpty()]


def _actions() -> list[QAction]:
    """Every action of the application, wherever it is parented (a disabled one too: it clashes once
    enabled)."""
    found: dict[QAction, None] = {}
    for top in QApplication.topLevelWidgets():
        for widget in [top, *top.findChildren(QWidget)]:
            found.update(dict.fromkeys(widget.actions()))
        found.update(dict.fromkeys(top.findChildren(QAction)))
    return list(found)


def bindings(window: QWidget) -> list[Bound]:
    """Every key sequence live somewhere in `window`, as it is shown now (the widgets an action or a
    shortcut sits on must be visible, as Qt requires; whether it is enabled does not matter)."""
    found: list[Bound] = []
    for action in _actions():
        live: set[int] = set()
        for holder in action.associatedObjects():
            if isinstance(holder, QWidget):
                live |= _live_on(holder, action.shortcutContext(), window)
        if live:
            found += [Bound(key, action, frozenset(live)) for key in _sequences(action.shortcuts())]
    for shortcut in window.findChildren(QShortcut):
        parent = shortcut.parent()
        if isinstance(parent, QWidget):
            live = _live_on(parent, shortcut.context(), window)
            if live:
                found += [Bound(key, shortcut, frozenset(live)) for key in _sequences(shortcut.keys())]
    return found


def clashes(window: QWidget) -> list[str]:
    """Each key that two actions or shortcuts of `window` share where both are live, said as text."""
    said: list[str] = []
    bound = bindings(window)
    for number, one in enumerate(bound):
        for other in bound[number + 1 :]:
            if one.key == other.key and one.owner is not other.owner and one.live & other.live:
                said.append(f"{one.key}: {one.name()} and {other.name()}")
    return said
