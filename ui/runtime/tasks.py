"""One helper to run `app/` calls off the GUI thread and deliver their results back on it.

A `TaskRunner` owns a QThreadPool. Each task is a QRunnable that calls a plain function in a worker
thread and emits the result (or the exception) through a carrier QObject that lives in the GUI thread,
so the callbacks run there, where widgets may be touched. A serial runner (one thread) keeps the
store's transactions in submission order, within a priority.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from typing import Any, TypeVar

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal, Slot

T = TypeVar("T")
ErrorHandler = Callable[[BaseException], None]


class _Carrier(QObject):
    """Lives in the GUI thread; worker threads emit on it, Qt queues the delivery."""

    finished = Signal(object)
    failed = Signal(object)

    def __init__(self, on_done: Callable[[Any], None], on_error: ErrorHandler, release: Callable[[], None]):
        super().__init__()
        self._on_done = on_done
        self._on_error = on_error
        self._release = release
        self.finished.connect(self._deliver)
        self.failed.connect(self._fail)

    @Slot(object)
    def _deliver(self, result: object) -> None:
        try:
            self._on_done(result)
        finally:
            self._release()

    @Slot(object)
    def _fail(self, error: object) -> None:
        try:
            self._on_error(error if isinstance(error, BaseException) else RuntimeError(str(error)))
        finally:
            self._release()


class _Task(QRunnable):
    def __init__(self, work: Callable[[], object], carrier: _Carrier) -> None:
        super().__init__()
        self._work = work
        self._carrier = carrier

    def run(self) -> None:
        try:
            result = self._work()
        except BaseException as exc:  # delivered to the GUI thread, never lost in a worker
            self._send(self._carrier.failed, exc)
        else:
            self._send(self._carrier.finished, result)

    @staticmethod
    def _send(signal: Any, value: object) -> None:
        # The carrier may have gone with its window (closed, or a command that ended on an error) while
        # this worker ran: there is nobody left to deliver to, and a worker thread must not die loudly.
        with suppress(RuntimeError):
            signal.emit(value)


class TaskRunner(QObject):
    """Submit work; `busyChanged(bool)` says whether anything is still running or undelivered."""

    busyChanged = Signal(bool)

    def __init__(self, parent: QObject | None = None, *, threads: int = 1) -> None:
        super().__init__(parent)
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(threads)
        self._pending: set[_Carrier] = set()

    @property
    def busy(self) -> bool:
        return bool(self._pending)

    def submit(
        self,
        work: Callable[[], T],
        on_done: Callable[[T], None],
        on_error: ErrorHandler,
        *,
        priority: int = 0,
    ) -> None:
        """Queued work of a higher `priority` starts first (one a person waits for: a history read
        must not queue behind a listing); work already running is never interrupted."""
        carrier = _Carrier(on_done, on_error, lambda: self._release(carrier))
        self._pending.add(carrier)
        if len(self._pending) == 1:
            self.busyChanged.emit(True)
        self._pool.start(_Task(work, carrier), priority)

    def _release(self, carrier: _Carrier) -> None:
        self._pending.discard(carrier)
        carrier.deleteLater()
        if not self._pending:
            self.busyChanged.emit(False)

    def wait_for_done(self, msecs: int = -1) -> bool:
        """Block until the workers finish (shutdown only; results are still delivered by the event loop)."""
        return self._pool.waitForDone(msecs)
