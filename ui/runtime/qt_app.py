"""The QApplication of every window (main and hub), `--smoke`'s deadline, and a wait for a condition
while events run: what both windows' launchers share."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QObject, Qt, QTimer
from PySide6.QtWidgets import QApplication

from ui.widgets.icons import app_icon

SMOKE_TIMEOUT_MS = 30_000
# How long a thread may run Python before another waiting for the lock gets it (Python's default is
# 5 ms): the window's thread waits for a worker's Python at every call into Qt that lets the lock go,
# several times per input event.
GIL_SWITCH_S = 0.001
# Windows: a closed handle drops no other handle's locks; elsewhere a desktop's own file dialog, made
# inside this process, reads every file of its folder and drops the open database's (`file_chooser`).
NATIVE_IS_SAFE = sys.platform == "win32"


def no_native_dialogs() -> None:
    """Said to the application before any file dialog is made (a GTK theme builds its chooser at once)."""
    if not NATIVE_IS_SAFE:
        QCoreApplication.setAttribute(Qt.ApplicationAttribute.AA_DontUseNativeDialogs)


def application(*, offscreen: bool = False) -> QApplication:
    sys.setswitchinterval(GIL_SWITCH_S)
    existing = QCoreApplication.instance()
    if isinstance(existing, QApplication):
        return existing
    if offscreen or (
        sys.platform.startswith("linux")
        and not os.environ.get("DISPLAY")
        and not os.environ.get("WAYLAND_DISPLAY")
    ):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    no_native_dialogs()
    app = QApplication(sys.argv[:1])
    app.setApplicationName("Memory Dashboard")
    app.setOrganizationName("memory-dashboard")
    app.setDesktopFileName("memory-dashboard")
    app.setWindowIcon(app_icon())
    return app


def smoke_deadline(app: QApplication, window: QObject) -> QTimer:
    """`--smoke`'s limit: exit 1 when no first card was painted within `SMOKE_TIMEOUT_MS`. A timer the
    window owns, so it dies with it: a pending `app.exit` left behind after `exec` returned would make
    every later event loop of the process return at once (Qt's quit flag stays set until the next
    `exec`), as it did to the tests that run `--smoke` in their own process."""
    timer = QTimer(window)
    timer.setSingleShot(True)
    timer.timeout.connect(lambda: app.exit(1))
    timer.start(SMOKE_TIMEOUT_MS)
    return timer


def wait_until(app: QApplication, done: Callable[[], bool], timeout_ms: int = 20_000) -> bool:
    deadline = time.monotonic() + timeout_ms / 1000
    while not done():
        if time.monotonic() > deadline:
            return False
        app.processEvents()
        time.sleep(0.005)
    return True
