"""A store's claim on its file (`held_files.Hold`), kept while the store is open or any connection of its
engine is out.

Closing a store disposes its engine, which closes the connections in its pool; a connection checked out
then (a review's task, minutes long, while the person opens another database) stays open, and goes back
to a pool nobody uses any more, where nothing closes it. Letting go of the file's claim at the store's
close would close the descriptors kept for it under that connection, dropping its locks (POSIX locks
belong to the process and the file). So the claim goes once the store is closed and every connection out
has come back, and each that comes back after the close is closed at once. A closed store still used
(a review's verdict applied after the person switched databases: its engine makes new connections)
claims its file again for as long as a connection is out.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, event

from app.store.connect.held_files import Hold, hold


class ConnectionsOut:
    """The engine's connections out; `close`: the claim on `path` goes now or with the last of them."""

    def __init__(self, engine: Engine, held: Hold, path: Path) -> None:
        self._path = path
        self._held: Hold | None = held
        self._out: set[object] = set()  # the pool's records of the connections out
        self._closed = False
        self._lock = threading.RLock()  # a check-in from a finalizer may run inside it
        event.listen(engine, "checkout", self._checked_out)  # the engine's pools after a dispose too
        event.listen(engine, "checkin", self._checked_in)

    def close(self) -> None:
        """After the engine's dispose."""
        with self._lock:
            self._closed = True
            held = self._let_go()
        if held is not None:
            held.release()

    def _let_go(self) -> Hold | None:
        if not self._closed or self._out or self._held is None:
            return None
        held, self._held = self._held, None
        return held

    def _checked_out(self, _dbapi: Any, record: Any, _proxy: Any) -> None:
        with self._lock:
            self._out.add(record)
            if self._held is None:
                self._held = hold(self._path)

    def _checked_in(self, _dbapi: Any, record: Any) -> None:
        with self._lock:
            if record not in self._out:
                return  # a failed reconnect checks its record in without a checkout
            self._out.discard(record)
            closed = self._closed
            held = self._let_go()
        if closed:
            record.invalidate()  # closed now: back in a disposed pool, nothing else would close it
        if held is not None:
            held.release()
