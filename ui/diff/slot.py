"""Where a diff is shown: `ui.diff.view.DiffView` (word diff off the GUI thread), or a plain stand-in.

`DiffSlot` wraps whichever widget is there and remembers which request is on screen, so callers (and
the screenshot) can wait for the diff they asked for. The diff logic itself lives in `app.diff.text_diff`.
The widget is made when a diff is first shown: the diff engine's modules are not imported on the way
to the window's first cards.
"""

from __future__ import annotations

import importlib

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPlainTextEdit, QVBoxLayout, QWidget

from app.core.screening import make_visible

VIEW_MODULE = "ui.diff.view"


class _PlainDiff(QPlainTextEdit):
    """Stand-in when `ui.diff.view` is missing: the new text, plainly (no diff of our own)."""

    def show_texts(self, old: str | None, new: str | None, token_label: str = "") -> int:
        self.setPlainText(make_visible(new if new is not None else old or ""))
        return 0

    def show_message(self, text: str) -> None:
        self.setPlainText(text)


def load_view() -> None:
    """Import the diff widget's modules now (the diff engine and its matcher): a launch does while its
    first screen is read aside, so the first frame's diff does not wait for them."""
    importlib.import_module(VIEW_MODULE)


class DiffSlot(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._view: QWidget | None = None
        self.requested = 0
        self.shown = 0
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        # Where the widget goes in the Tab order: made now, as the widget itself once was (hidden, so
        # Tab passes over it).
        self._tab_place = QWidget(self)
        self._tab_place.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        self._tab_place.hide()

    @property
    def view(self) -> QWidget:
        """The diff widget, made on first use."""
        if self._view is None:
            try:
                module = importlib.import_module(VIEW_MODULE)
                view: QWidget = module.DiffView(self)
            except ImportError:
                view = _PlainDiff(self)
            signal = getattr(view, "diffShown", None)
            if signal is not None:
                signal.connect(self._shown)
            self._layout.addWidget(view)
            self._take_tab_place(view)
            self._view = view
        return self._view

    def _take_tab_place(self, view: QWidget) -> None:
        """Tab reaches the widget's parts where the slot is, not after every widget made before them
        (`setTabOrder` moves only widgets that take focus: the parts, one after the other)."""
        parts = [view] if view.focusPolicy() != Qt.FocusPolicy.NoFocus else []
        part = view.nextInFocusChain()
        while part is not None and view.isAncestorOf(part):
            if part.focusPolicy() != Qt.FocusPolicy.NoFocus:
                parts.append(part)
            part = part.nextInFocusChain()
        previous = self._tab_place
        for part in parts:
            QWidget.setTabOrder(previous, part)
            previous = part

    def show_texts(self, old: str | None, new: str | None, caption: str = "") -> None:
        """Diff `old` (None: nothing before) → `new` (None: deleted)."""
        self.requested = int(self.view.show_texts(old, new, caption))  # type: ignore[attr-defined]
        if not hasattr(self.view, "diffShown"):
            self.shown = self.requested

    def show_message(self, text: str) -> None:
        """A line in place of a diff ("Loading…"): nothing is being computed for it."""
        self.view.show_message(text)  # type: ignore[attr-defined]
        self.requested = self.shown

    @property
    def settled(self) -> bool:
        return self.shown >= self.requested

    def _shown(self, token: int) -> None:
        self.shown = max(self.shown, token)
