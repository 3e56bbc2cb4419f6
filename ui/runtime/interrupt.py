"""Ctrl+C in the terminal that started the app, while Qt's loop waits.

Python handles a signal only when it runs, and Qt's loop may run no Python for a long while: Ctrl+C then
did nothing until some timer's slot ran, and there it raised `KeyboardInterrupt` in the middle of
whatever that slot did (a traceback, and the window went on). Inside `on_interrupt` the C-level handler
also writes a byte to a socket Qt watches (`signal.set_wakeup_fd`): the loop wakes, Python runs, and the
Python-level handler asks for `act` on the next turn of the loop instead of raising.
"""

from __future__ import annotations

import signal
import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress

from PySide6.QtCore import QSocketNotifier, QTimer


@contextmanager
def on_interrupt(act: Callable[[], object]) -> Iterator[list[int]]:
    """While inside, Ctrl+C (SIGINT) runs `act` from Qt's loop on this thread; yields the signals received
    (empty: none). Off the main thread, where signals cannot be handled, nothing changes."""
    received: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield received
        return
    reader, writer = socket.socketpair()  # a socket: what Windows accepts for the wakeup too
    reader.setblocking(False)
    writer.setblocking(False)
    notifier = QSocketNotifier(reader.fileno(), QSocketNotifier.Type.Read)
    notifier.activated.connect(lambda *_: _drain(reader))  # Python runs: the handler has run first

    def handler(signum: int, _frame: object) -> None:
        received.append(signum)
        QTimer.singleShot(0, act)

    woken_before = signal.set_wakeup_fd(writer.fileno())
    previous = signal.signal(signal.SIGINT, handler)
    try:
        yield received
    finally:
        signal.signal(signal.SIGINT, signal.SIG_DFL if previous is None else previous)
        signal.set_wakeup_fd(woken_before)
        notifier.setEnabled(False)
        notifier.deleteLater()
        reader.close()
        writer.close()


def _drain(reader: socket.socket) -> None:
    with suppress(OSError):
        while reader.recv(64):
            pass
