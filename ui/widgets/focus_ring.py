"""A visible focus where the style paints none: a ring around the frameless card list, text views, tables
and the diff (`show_focus`), and the highlight colour on a dialog's focused push button (`show_button_focus`:
the style paints a focused button as it paints the default one). The rules of `resources/styles/focus.qss`,
set on each such widget or dialog alone.

A style sheet set on the application would route every widget's painting through Qt's style-sheet style;
set on one widget, it touches that widget (and its scroll bars, which no rule names) only.
"""

from __future__ import annotations

from functools import cache

from PySide6.QtWidgets import QWidget

from resources import read_bytes

FOCUS_RULES = "styles/focus.qss"


@cache
def focus_rules() -> str:
    return read_bytes(FOCUS_RULES).decode("utf-8")


def show_focus(widget: QWidget) -> None:
    """Paint a focus ring around `widget` while it holds the focus."""
    widget.setProperty("focusRing", True)
    widget.setStyleSheet(focus_rules())


def show_button_focus(dialog: QWidget) -> None:
    """Tell the focused push button of `dialog` from its default one."""
    dialog.setStyleSheet(focus_rules())
