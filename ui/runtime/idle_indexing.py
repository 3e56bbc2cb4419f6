"""Indexing changed contents while the window is idle (`MemoryStore.index_pending_changes`).

Writes no longer update the search index inside their own transaction (migration 0003): a changed
content waits in `mdash_search_pending`, and searches stay exact meanwhile. The indexing happens here,
one short step (up to 100 memories) at a time on the controller's serial runner, once
nothing else has run for `IDLE_MS`; any other work in between only postpones it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer

from ui.runtime.tasks import ErrorHandler, TaskRunner

if TYPE_CHECKING:
    from app.store import MemoryStore

IDLE_MS = 2_000
NEXT_STEP_MS = 50


class IdleIndexing(QObject):
    """Runs `index_pending_changes` step by step once the controller has been idle for `IDLE_MS`."""

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
        """Something was written or observed: index it once the window has been idle for a while."""
        if not self._current_store().read_only:
            self._timer.start(IDLE_MS)

    @property
    def pending(self) -> bool:
        """A step is due (waiting for the window to be idle)."""
        return self._timer.isActive()

    def stop(self) -> None:
        self._timer.stop()

    def _step(self) -> None:
        if self._runner.busy:  # never delay what a person asked for
            self.poke()
            return
        store = self._current_store()
        self._runner.submit(
            store.index_pending_changes, lambda more: self._stepped(store, more), self._on_error
        )

    def _stepped(self, store: MemoryStore, more: bool) -> None:
        if more and store is self._current_store():
            self._timer.start(NEXT_STEP_MS)
