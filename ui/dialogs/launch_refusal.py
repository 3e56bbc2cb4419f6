"""The launch's database refused (damaged, locked by the host past the busy timeout, written by a newer
Memory Dashboard, gone): why, in a window, since a window started from a desktop launcher has no terminal
for the message the command line prints; and the ways on: try again (a lock another program holds), open
another database, or quit (with the command line's exit code)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMessageBox, QPushButton, QWidget

from app.core.errors import DatabaseLockedError, StoreError
from ui.dialogs.open_database import choose_database
from ui.runtime.interrupt import on_interrupt

HEADLINE = "The memory database could not be opened."
_over: list[QWidget] = []  # the window the question goes over, while `asked_over` holds (else none)
Chooser = Callable[[QWidget | None], str | None]


@dataclass(frozen=True, slots=True)
class NextStep:
    """What the person chose after a refusal: another database (`path`), or the same again (None)."""

    path: str | None = None


@dataclass(frozen=True, slots=True)
class RefusalBox:
    """The question's message box and its buttons (`retry` only for a lock, which may be let go)."""

    box: QMessageBox
    retry: QPushButton | None
    other: QPushButton
    quit: QPushButton


def refusal_box(refusal: StoreError) -> RefusalBox:
    """The message box that says why the database was refused (the command line's words, selectable)."""
    locked = isinstance(refusal, DatabaseLockedError)
    icon = QMessageBox.Icon.Warning if locked else QMessageBox.Icon.Critical
    box = QMessageBox(icon, QApplication.applicationName(), HEADLINE, parent=_over[-1] if _over else None)
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.setInformativeText(refusal.message)
    box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    retry = box.addButton("&Try Again", QMessageBox.ButtonRole.AcceptRole) if locked else None
    if retry is not None:
        retry.setToolTip("Another program holds the database: try once it has let go")
    other = box.addButton("&Open Another Database…", QMessageBox.ButtonRole.ActionRole)
    other.setToolTip("Choose a context.db or another memory database")
    quit_button = box.addButton("&Quit", QMessageBox.ButtonRole.RejectRole)
    box.setDefaultButton(retry or quit_button)
    box.setEscapeButton(quit_button)
    return RefusalBox(box, retry, other, quit_button)


@contextmanager
def asked_over(window: QWidget) -> Iterator[None]:
    """The question asked meanwhile goes over `window` (the launch's, up when its store is refused after
    its first frame): centred on it and modal to it, not in the middle of the screen beside it."""
    _over.append(window)
    try:
        yield
    finally:
        _over.pop()


def ask_after_refusal(refusal: StoreError, choose: Chooser | None = None) -> NextStep | None:
    """Say why the database was refused and ask what next; None: quit. Another database is picked with
    `choose` (the file chooser); cancelled, the question comes back."""
    choose = choose or choose_database
    while True:
        asked = refusal_box(refusal)
        with on_interrupt(asked.box.reject) as interrupted:  # Ctrl+C: quit, as anywhere on the command line
            asked.box.exec()
        clicked = asked.box.clickedButton()
        asked.box.setParent(None)  # answered: it goes with its last reference, not with the window
        if interrupted:
            raise KeyboardInterrupt
        if asked.retry is not None and clicked is asked.retry:
            return NextStep()
        if clicked is not asked.other:
            return None
        path = choose(_over[-1] if _over else None)  # over the window the question was asked over
        if path is not None:
            return NextStep(path)
