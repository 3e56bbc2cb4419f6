"""The check of every page of a file the store has never opened (`PRAGMA quick_check`), once per file.

Corruption past the first page shows only when pages are read, and the first write of a never-opened
file (the migration that makes our tables) is near: the store reads every page before it writes any.
On a large file that is a fifth of a second, most of a first launch's wait. A first look (a read before
the store that writes opens: the window's first frame, `MemoryStore.open(first_look=True)`) runs it
beside its own reads instead (`PageCheck`), on a connection of its own, and waits for its verdict only
once those reads are done: a damaged file is refused as before, and nothing is written either way.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable


def check_pages(connection: sqlite3.Connection) -> None:
    """Read every page; `sqlite3.DatabaseError` ("damaged: ...") unless SQLite finds them sound."""
    verdict = connection.execute("PRAGMA quick_check(1)").fetchone()
    if verdict is None or verdict[0] != "ok":
        raise sqlite3.DatabaseError(f"damaged: {verdict[0] if verdict else 'no answer'}")


class PageCheck:
    """`check_pages` on a connection `connect` makes, run in a thread from the moment this is made (SQLite
    lets go of Python's lock while it reads); `verdict` waits for it."""

    def __init__(self, connect: Callable[[], sqlite3.Connection]) -> None:
        self._connect = connect
        self._error: sqlite3.Error | None = None
        self._thread = threading.Thread(target=self._run, name="page check", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            connection = self._connect()
            try:
                check_pages(connection)
            finally:
                connection.close()
        except sqlite3.Error as exc:
            self._error = exc

    def verdict(self) -> sqlite3.Error | None:
        """Once the check has ended: None for a sound file, else what SQLite said."""
        self._thread.join()
        return self._error
