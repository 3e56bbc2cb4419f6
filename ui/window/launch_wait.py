"""A launch that waits with no window up yet says so: a box with what it waits for and a Quit button.

Before its window is shown a launch can wait long with nothing on the screen: for its first screen's
reads (a large file never opened before is read through once; a slow or network disk), for a lock the
person asked to try again (up to the busy timeout). Once a wait has lasted `after_ms`, a busy box says
what is happening; Quit (Escape, or closing the box) ends the wait's work where it can be ended and
raises `LaunchQuit`: the launch ends as a window closed by the person ends. A wait that ends sooner never
shows the box.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future
from contextlib import suppress
from typing import Any

from PySide6.QtCore import QEventLoop, QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QApplication, QProgressDialog

from ui.runtime.interrupt import on_interrupt

OPENING = "Opening the memory database…\nA large database on a slow or network disk can take a while."
WAITING = "Waiting for the other program to let go of the memory database…"

SHOW_WAIT_MS = 300  # after the person asked for an open: it says so soon (a lock: up to the busy timeout)
LAUNCH_WAIT_MS = 750  # a launch's first screen: about a second after the click, the launch says so


class LaunchQuit(Exception):
    """The person quit a launch while it waited: it ends as a window they closed ends (exit 0)."""


class _Ended(QObject):
    ended = Signal()  # emitted on whichever thread settles the future, received on this one


def wait_saying_so(waited: Future[Any], saying: str, after_ms: int = SHOW_WAIT_MS) -> None:
    """Return once `waited` is settled (its result or error is left in it); once that has taken `after_ms`,
    a busy box says what is happening (`saying`). Quit cancels `waited` (what settles it may end its work
    then: `ui.runtime.first_screen.read_aside` ends its child) and raises `LaunchQuit`; Ctrl+C in the
    terminal raises `KeyboardInterrupt`, `waited` cancelled too."""
    ended = _Ended()
    loop = QEventLoop()
    ended.ended.connect(loop.quit)
    box = QProgressDialog()
    box.setWindowTitle(QApplication.applicationName())
    box.setLabelText(saying)
    box.setMinimumWidth(box.fontMetrics().averageCharWidth() * 60)  # room for its words: never squeezed
    box.setRange(0, 0)  # busy: no steps to count
    box.setWindowModality(Qt.WindowModality.ApplicationModal)  # the launch's one window: keys go to it
    box.setCancelButtonText("&Quit")
    box.setAutoReset(False)
    box.setAutoClose(False)
    box.setMinimumDuration(0)
    box.reset()  # a progress dialog otherwise shows itself on its own timer: here only `later` shows it
    quit_asked: list[bool] = []

    def quit_launch() -> None:
        quit_asked.append(True)
        loop.quit()

    box.canceled.connect(quit_launch)
    later = QTimer(box)
    later.setSingleShot(True)
    later.timeout.connect(lambda: _show(box))
    later.start(after_ms)
    waited.add_done_callback(lambda _settled: ended.ended.emit())
    try:
        with on_interrupt(loop.quit) as interrupted:
            if not waited.done():
                loop.exec()
    finally:
        later.stop()  # a quick wait never shows the box, not even after this returns
        box.canceled.disconnect(quit_launch)  # hidden now, not quit
        box.hide()
        box.deleteLater()
    if interrupted or quit_asked:
        waited.cancel()
    if interrupted:
        raise KeyboardInterrupt
    if quit_asked:
        raise LaunchQuit


def _show(box: QProgressDialog) -> None:
    box.show()
    box.raise_()
    box.activateWindow()  # started from a menu or a terminal: its Quit answers the keyboard at once


def open_saying_so(open_store: Callable[[], None], saying: str, after_ms: int = SHOW_WAIT_MS) -> None:
    """`open_store()` on a thread of its own, said in a box once it has taken `after_ms`
    (`wait_saying_so`); its error is raised here. Quit leaves the open to end with the process (SQLite's
    wait for a lock cannot be cut short; an open ended by the process's end loses nothing)."""
    opened: Future[None] = Future()

    def work() -> None:
        try:
            open_store()
        except BaseException as exc:
            with suppress(Exception):  # quit meanwhile: nobody waits for it any more
                opened.set_exception(exc)
        else:
            with suppress(Exception):
                opened.set_result(None)

    threading.Thread(target=work, name="opening the database", daemon=True).start()
    wait_saying_so(opened, saying, after_ms)
    opened.result()
