"""A launch that waits with no window up yet says so: a box with what it waits for and a Quit button.

Before its window is shown a launch can wait long with nothing on the screen: for its first screen's
reads (a large file never opened before is read through once; a slow or network disk), for a lock the
person asked to try again (up to the busy timeout). Once a wait has lasted `after_ms`, a busy box says
what is happening; Quit (Escape, Alt+Q, or closing the box) ends the wait's work where it can be ended
and raises `LaunchQuit`: the launch ends as a window closed by the person ends. A wait that ends sooner
never shows the box; once shown, it stays up long enough to be read (`MIN_SHOWN_MS`), never a flash.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, InvalidStateError
from contextlib import suppress
from typing import Any

from PySide6.QtCore import QEventLoop, QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QApplication, QProgressDialog, QPushButton

from ui.runtime.interrupt import on_interrupt

OPENING = (
    "Opening the memory database…\n"
    "A large database, a slow or network disk or another program holding it can take a while."
)
WAITING = "Waiting for the other program to let go of the memory database…"

SHOW_WAIT_MS = 300  # after the person asked for an open: it says so soon (a lock: up to the busy timeout)
LAUNCH_WAIT_MS = 750  # a launch's first screen: about a second after the click, the launch says so
MIN_SHOWN_MS = 400  # once shown, the box stays up this long at least: it never blinks away


class LaunchQuit(Exception):
    """The person quit a launch while it waited: it ends as a window they closed ends (exit 0)."""


class _Ended(QObject):
    ended = Signal()  # emitted on whichever thread settles the future, received on this one


class _WaitBox(QProgressDialog):
    """The busy box: shown by `show_now`, kept up at least `MIN_SHOWN_MS` once shown (a box that blinks
    away is a flash), its Quit a button never in focus: Escape, Alt+Q or a click quit; Enter or Space
    typed into another window as it comes up do not."""

    def __init__(self, saying: str) -> None:
        super().__init__()
        self.setWindowTitle(QApplication.applicationName())
        self.setLabelText(saying)
        self.setMinimumWidth(self.fontMetrics().averageCharWidth() * 60)  # room for its words
        self.setRange(0, 0)  # busy: no steps to count
        self.setWindowModality(Qt.WindowModality.ApplicationModal)  # the launch's one window: keys go here
        quit_button = QPushButton("&Quit")
        quit_button.setAutoDefault(False)
        quit_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        quit_button.setToolTip("Stop opening the database and quit (Esc)")
        self.setCancelButton(None)  # the default button's Escape goes with it: two would be ambiguous
        self.setCancelButton(quit_button)
        self.setAutoReset(False)
        self.setAutoClose(False)
        self.reset()  # a progress dialog shows itself on a timer of its own otherwise: here `show_now` does
        self.shown_at: float | None = None

    def show_now(self) -> None:
        self.show()
        self.raise_()
        self.activateWindow()  # started from a menu or a terminal: Escape answers at once
        self.shown_at = time.monotonic()

    def left_to_show_ms(self) -> int:
        """How much longer it stays up before it may go (0: it may go now, or was never shown)."""
        if self.shown_at is None:
            return 0
        return max(0, MIN_SHOWN_MS - int((time.monotonic() - self.shown_at) * 1000))


def wait_saying_so(waited: Future[Any], saying: str, after_ms: int = SHOW_WAIT_MS) -> None:
    """Return once `waited` is settled (its result or error is left in it); once that has taken `after_ms`,
    a busy box says what is happening (`saying`). Quit cancels `waited` (what settles it may end its work
    then: `ui.runtime.first_screen.read_aside` ends its child) and raises `LaunchQuit`; Ctrl+C in the
    terminal raises `KeyboardInterrupt`, `waited` cancelled too."""
    ended = _Ended()
    loop = QEventLoop()
    ended.ended.connect(loop.quit)
    box = _WaitBox(saying)
    quit_asked: list[bool] = []

    def quit_launch() -> None:
        quit_asked.append(True)
        loop.quit()

    box.canceled.connect(quit_launch)
    later = QTimer(box)
    later.setSingleShot(True)
    later.timeout.connect(box.show_now)
    later.start(after_ms)
    waited.add_done_callback(lambda _settled: ended.ended.emit())
    try:
        with on_interrupt(loop.quit) as interrupted:
            if not waited.done():
                loop.exec()
            later.stop()  # a quick wait never shows the box, not even after this returns
            if not (interrupted or quit_asked) and box.left_to_show_ms():
                QTimer.singleShot(box.left_to_show_ms(), box, loop.quit)  # gone with the box
                loop.exec()
    finally:
        later.stop()
        box.canceled.disconnect(quit_launch)  # hidden now, not quit
        box.hide()
        box.deleteLater()
    if interrupted or quit_asked:
        waited.cancel()
    if interrupted:
        raise KeyboardInterrupt
    if quit_asked:
        raise LaunchQuit


def open_saying_so(open_store: Callable[[], None], saying: str, after_ms: int = SHOW_WAIT_MS) -> None:
    """`open_store()` on a thread of its own, said in a box once it has taken `after_ms`
    (`wait_saying_so`); its error is raised here. Quit leaves the open to end with the process (SQLite's
    wait for a lock cannot be cut short): one that ends first may have migrated the file, as the launch
    would have; one cut short by the process's end loses nothing (each step is a transaction)."""
    opened: Future[None] = Future()

    def work() -> None:
        try:
            open_store()
        except BaseException as exc:
            with suppress(InvalidStateError):  # quit meanwhile: nobody waits for it any more
                opened.set_exception(exc)
        else:
            with suppress(InvalidStateError):
                opened.set_result(None)

    threading.Thread(target=work, name="opening the database", daemon=True).start()
    wait_saying_so(opened, saying, after_ms)
    opened.result()
