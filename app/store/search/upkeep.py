"""`SearchIndex`: keeping the search index (`app.store.search.index`) filled and knowing when it is.

A writable store fills the index when it opens (`fill`, short write transactions); changes that wait are
indexed in the window's idle moments (`index_pending_changes`); a listing narrows a search through the
index only while the index is known current (`indexed_terms`).
"""

from __future__ import annotations

from sqlalchemy import Connection

from app.core.errors import DatabaseLockedError, DatabaseReplacedError
from app.core.models.filters import MemoryFilter
from app.store.database import Database
from app.store.search import index as search_index


class SearchIndex:
    def __init__(self, db: Database) -> None:
        self._db = db
        self.ready = False  # the index exists and is filled (see `fill`)

    def fill(self) -> bool:
        """Index what is not indexed yet, in short write transactions; True once the index is usable.
        Changes that wait (`index_pending_changes`) are left to the window's idle moments: a command
        that only reads never takes the write lock for them."""
        with self._db.read() as conn:
            if not (self._db.own and search_index.exists(conn)):
                return False
            filled = search_index.indexed_upto(conn) >= search_index.COMPLETE
        try:
            while not filled:  # a read stays a read when nothing is left
                with self._db.write() as ctx:
                    filled = search_index.fill_step(ctx.conn)
        except (DatabaseLockedError, DatabaseReplacedError) as exc:
            self._db.warnings.append(f"search index not filled yet: {exc}")
            return False
        self.ready = True
        return True

    def index_pending_changes(self) -> bool:
        """One short step indexing changes that wait (`search_index.index_pending_step`); True while more
        are left. Nothing to do (False) before the index was filled (never, on a read-only store), or
        when locked."""
        if not self.ready:
            return False
        with self._db.read() as conn:
            if not search_index.has_pending(conn):
                return False  # no write lock taken when nothing waits
        try:
            with self._db.write() as ctx:
                return not search_index.index_pending_step(ctx.conn)
        except DatabaseLockedError:
            return False  # the host is writing: the next idle moment goes on
        except DatabaseReplacedError:
            return False  # nothing to index into: the window says so (`file_problem`)

    def indexed_terms(self, conn: Connection, flt: MemoryFilter) -> list[str]:
        """The search terms the search index may narrow (none unless it is known current)."""
        watch = self._db.watch
        if self.ready and flt.search.strip() and watch.unchanged(watch.look(conn)):
            return search_index.selective_terms(conn, flt.search.split())
        return []
