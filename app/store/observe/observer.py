"""`Observer`: noticing what others committed to the host's table (`observe`).

Outside rewrites become observed revisions and new candidates enter the evidence archive, in one short
write taken only when a look found something (`app.store.keeping` decides where they are kept). Nobody
observes as a side effect of a read: whoever needs fresh data calls `observe` first (the window's watch,
a CLI command before it reads, the hub's publish, the review).
"""

from __future__ import annotations

from sqlalchemy import Connection

from app.core.models import Revision
from app.store.database import Database


class Observer:
    def __init__(self, db: Database) -> None:
        self._db = db

    def changed_elsewhere(self) -> bool:
        """Whether anyone but this store may have committed since its last look that found nothing new
        (a `PRAGMA data_version`, PostgreSQL's snapshot: no scan); True whenever that cannot be told."""
        if not self.looks_tell():
            return True
        with self._db.read() as conn:
            return not self.nothing_new(conn)

    def looks_tell(self) -> bool:
        """Whether a look can show that observing would find nothing."""
        return self._db.watch.enabled and self._db.keeping.looks_tell

    def nothing_new(self, conn: Connection) -> bool:
        """Whether observing would find nothing: no commit by anyone else since the last look that found
        nothing new."""
        watch = self._db.watch
        return self.looks_tell() and watch.unchanged(watch.look(conn))

    def observe(self) -> list[Revision]:
        """Record rewrites made outside the dashboard since the last look; returns the new revisions."""
        return self._db.keeping.observe(self._db)
