"""Qt's own messages while a command renders offscreen: its notes and warnings are noise there, only
critical and fatal messages still reach standard error."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager

from PySide6.QtCore import QMessageLogContext, QtMsgType, qInstallMessageHandler

_SHOWN = (QtMsgType.QtCriticalMsg, QtMsgType.QtFatalMsg)


def _only_serious(kind: QtMsgType, _context: QMessageLogContext, message: str) -> None:
    if kind in _SHOWN:
        print(f"Qt: {message}", file=sys.stderr)


@contextmanager
def quiet_qt() -> Iterator[None]:
    """Within: Qt's debug, info and warning messages are dropped; the previous handler comes back after."""
    previous = qInstallMessageHandler(_only_serious)
    try:
        yield
    finally:
        qInstallMessageHandler(previous)
