"""Ctrl+C in the terminal that started the app, while Qt's loop waits.

Python handles a signal only when it runs, and Qt's loop may run no Python for a long while: Ctrl+C then
did nothing until some timer's slot ran, and there it raised `KeyboardInterrupt` in the middle of
whatever that slot did (a traceback, and the window went on). Inside `on_interrupt` the C-level handler
also writes a byte to a pipe Qt watches (`signal.set_wakeup_fd`; a socket pair on Windows, which takes
nothing else there): the loop wakes, Python runs, and the Python-level handler asks for `act` on the next
turn of the loop instead of raising. No module is imported for it on the way to the first paint.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass

from PySide6.QtCore import QSocketNotifier, QTimer


@dataclass(frozen=True, slots=True)
class _Wakeup:
    """Where the C-level handler writes (`write_fd`), where Qt listens (`read_fd`), how to empty and
    close them."""

    read_fd: int
    write_fd: int
    drain: Callable[[], object]
    close: Callable[[], object]


def _wakeup() -> _Wakeup:
    if sys.platform == "win32":  # pragma: no cover (Windows' set_wakeup_fd takes a socket only)
        import socket

        reader, writer = socket.socketpair()
        reader.setblocking(False)
        writer.setblocking(False)

        def close_sockets() -> None:
            reader.close()
            writer.close()

        return _Wakeup(reader.fileno(), writer.fileno(), lambda: reader.recv(64), close_sockets)
    read_fd, write_fd = os.pipe()
    os.set_blocking(read_fd, False)
    os.set_blocking(write_fd, False)

    def close_pipe() -> None:
        os.close(read_fd)
        os.close(write_fd)

    return _Wakeup(read_fd, write_fd, lambda: os.read(read_fd, 64), close_pipe)


@contextmanager
def on_interrupt(act: Callable[[], object]) -> Iterator[list[int]]:
    """While inside, Ctrl+C (SIGINT) runs `act` from Qt's loop on this thread; yields the signals received
    (empty: none). Off the main thread, where signals cannot be handled, nothing changes."""
    received: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield received
        return
    wakeup = _wakeup()
    notifier = QSocketNotifier(wakeup.read_fd, QSocketNotifier.Type.Read)
    notifier.activated.connect(lambda *_: _drain(wakeup))  # Python runs: the handler has run first

    def handler(signum: int, _frame: object) -> None:
        received.append(signum)
        QTimer.singleShot(0, act)

    woken_before = signal.set_wakeup_fd(wakeup.write_fd)
    previous = signal.signal(signal.SIGINT, handler)
    try:
        yield received
    finally:
        signal.signal(signal.SIGINT, signal.SIG_DFL if previous is None else previous)
        signal.set_wakeup_fd(woken_before)
        notifier.setEnabled(False)
        notifier.deleteLater()
        wakeup.close()


def _drain(wakeup: _Wakeup) -> None:
    with suppress(OSError):
        while wakeup.drain():
            pass
