"""Merging the search index's segments while the window is idle (`MemoryStore.merge_search_index`).

Writes no longer merge the index inside their own transaction (migration 0003): that made recording a
host review's 1,000 rewrites three times slower. The merging happens here instead, one short step
(tens of milliseconds) at a time on the controller's serial runner, once nothing else has run for
`IDLE_MS`; any other work in between only postpones it.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer

from app.store import MemoryStore
from ui.tasks import ErrorHandler, TaskRunner

IDLE_MS = 2_000
NEXT_STEP_MS = 50


class IdleMerge(QObject):
    def __init__(
        self,
        runner: TaskRunner,
        current_store: Callable[[], MemoryStore],
        on_error: ErrorHandler,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._runner = runner
        self._current_store = current_store
        self._on_error = on_error
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._step)

    def poke(self) -> None:
        """Something was written or observed: merge once the window has been idle for a while."""
        if not self._current_store().read_only:
            self._timer.start(IDLE_MS)

    @property
    def pending(self) -> bool:
        """A merge step is due (waiting for the window to be idle)."""
        return self._timer.isActive()

    def stop(self) -> None:
        self._timer.stop()

    def _step(self) -> None:
        if self._runner.busy:  # never delay what a person asked for
            self.poke()
            return
        store = self._current_store()
        self._runner.submit(store.merge_search_index, lambda more: self._stepped(store, more), self._on_error)

    def _stepped(self, store: MemoryStore, more: bool) -> None:
        if more and store is self._current_store():
            self._timer.start(NEXT_STEP_MS)
