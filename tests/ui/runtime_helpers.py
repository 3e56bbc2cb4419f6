"""Controllers made by a test, deleted on the GUI thread when it ends (left to Python's collector, a
controller could be deleted from a worker thread that happened to collect it, and crash)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent

from ui.runtime.controller import Controller


def dispose(controller: Controller) -> None:
    controller.runner.wait_for_done(10_000)
    QCoreApplication.processEvents()  # deliver what the workers finished
    controller.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
