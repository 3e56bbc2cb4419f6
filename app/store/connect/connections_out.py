"""A store's claim on its file (`held_files.Hold`) kept while any of its connections is still out.

Closing a store disposes its engine, which closes the connections in its pool; a connection checked out
then (a review's task, minutes long, while the person opens another database) stays open, and goes back
to a pool nobody uses any more, where nothing closes it. Letting go of the file's claim at the store's
close would close the descriptors kept for it under that connection, dropping its locks (POSIX locks
belong to the process and the file). So the claim is let go once the store is closed and every
connection out has come back; each that comes back after the close is closed at once.
"""

from __future__ import annotations

import threading
from typing import Any

from sqlalchemy import Engine, event

from app.store.connect.held_files import Hold


class ConnectionsOut:
    """Counts the engine's connections out; `close` lets go of `held` now or when the last comes back."""

    def __init__(self, engine: Engine, held: Hold) -> None:
        self._held = held
        self._out = 0
        self._closed = False
        self._lock = threading.Lock()
        event.listen(engine, "checkout", self._checked_out)  # the engine's pools after a dispose too
        event.listen(engine, "checkin", self._checked_in)

    def close(self) -> None:
        """After the engine's dispose: the claim goes now, or with the last connection out."""
        with self._lock:
            self._closed = True
            if self._out:
                return
        self._held.release()

    def _checked_out(self, _dbapi: Any, _record: Any, _proxy: Any) -> None:
        with self._lock:
            self._out += 1

    def _checked_in(self, _dbapi: Any, record: Any) -> None:
        with self._lock:
            self._out -= 1
            closed, last = self._closed, self._out == 0
        if not closed:
            return
        if record is not None:
            record.invalidate()  # closed now (back in a disposed pool, nothing else would close it)
        if last:
            self._held.release()
