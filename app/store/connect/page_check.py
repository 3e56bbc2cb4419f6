"""The check of every page of a file the store has never opened (`PRAGMA quick_check`), once per file.

Corruption past the first page shows only when pages are read, and the first write of a never-opened
file (the migration that makes our tables) is near: the store reads every page before it writes any
(`file_checks.checked_access`). A first look (the window's first frame, read before the store that writes
opens: `MemoryStore.open(first_look=True)`) leaves them to that store, which opens after the frame is
painted: on a large file the check is a fifth of a second of a core, which the first frame's own reads
would otherwise share. Only a first look's read that fails has the file checked at once
(`OpenedDatabase.check_unread_pages`), so that damage is called damage.
"""

from __future__ import annotations

import sqlite3


def check_pages(connection: sqlite3.Connection) -> None:
    """Read every page; `sqlite3.DatabaseError` ("damaged: ...") unless SQLite finds them sound."""
    verdict = connection.execute("PRAGMA quick_check(1)").fetchone()
    if verdict is None or verdict[0] != "ok":
        raise sqlite3.DatabaseError(f"damaged: {verdict[0] if verdict else 'no answer'}")
