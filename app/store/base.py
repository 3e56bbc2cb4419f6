"""`StoreBase`: what every part of `MemoryStore` stands on: the opened database, the clock, transactions.

It holds the state the role mixins share (what the database has, marks and observations kept in memory
by a read-only store, the change watch) and the write plumbing: `write` is the one `BEGIN IMMEDIATE`
transaction that refuses a replaced file and bumps the profile version once; `_triage` adds the lease
rule for the candidate pool, decided here once; `archive_in` keeps candidates' words before any write
consumes them. The roles build on it: `app.store.observe.store_observe`, `app.store.search.store_upkeep`,
`app.store.read.store_reads`, `app.store.evidence.store_past` and `app.store.write.store_writes`.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import Connection

from app.core.clock import Clock
from app.core.errors import DatabaseReplacedError, ReadOnlyError
from app.store.connect.engine import OpenedDatabase, transaction
from app.store.evidence import archive as evidence_archive
from app.store.observe.observe import MemoryObservations
from app.store.observe.server_watch import watch_for
from app.store.read.digest import Watermark
from app.store.read.sources import has_marks_table, load_marks
from app.store.schema.migrate import own_tables_ready, refuse_newer
from app.store.write import lease, revision_log


class StoreBase:
    def __init__(self, opened: OpenedDatabase, clock: Clock, origin: str = "--db") -> None:
        self._db = opened
        self.clock = clock
        self.origin = origin
        self.warnings: list[str] = list(opened.notes)
        self.swept: list[int] = []  # dismissed by the sweep that ran when the store was opened
        # The write transaction open on each thread (`write`): a write or read inside it joins it.
        self._open_write = threading.local()
        with self._read() as conn:
            refuse_newer(conn, opened.location)
            self._own = own_tables_ready(conn)
            marks_table = self._own and has_marks_table(conn)
            # The evidence archive (`app.store.evidence.archive`): stored where the table exists, kept in
            # memory by a read-only store; found by id, a watermark where candidate ids only grow.
            self._archive_stored = self._own and evidence_archive.archive_exists(conn)
            self._ids_grow = evidence_archive.ids_never_reused(conn)
        # Marks live in their table; a read-only store (or one without it) keeps them in memory.
        self._marks: dict[str, str] | None = None if marks_table and not opened.read_only else {}
        if marks_table and opened.read_only:
            with self._read() as conn:
                self._marks = load_marks(conn)
        self._memory_archive = evidence_archive.MemoryArchive() if opened.read_only else None
        self._memory_log = MemoryObservations() if opened.read_only else None
        self._watch = watch_for(opened.is_sqlite)
        self._search_ready = False  # the search index exists and is filled (see `fill_search_index`)
        # The digest's watermark where it cannot be stored (a read-only store): kept in this process only,
        # with how many of the observations kept in memory it covers.
        self._look: Watermark | None = None
        self._looked_in_memory = 0

    def close(self) -> None:
        self._db.close()

    # -- what this store is --------------------------------------------------------------------------

    @property
    def read_only(self) -> bool:
        return self._db.read_only

    @property
    def read_only_reason(self) -> str | None:
        return self._db.read_only_reason

    @property
    def location(self) -> str:
        return self._db.location

    @property
    def has_own_tables(self) -> bool:
        return self._own

    def now(self) -> int:
        return self.clock.now_ms()

    def file_problem(self) -> str | None:
        """None while the database's path still names the file this store opened; else a message (the
        file was deleted, or another file renamed over it) fit to show as it is. One `stat`: a window
        may poll it. Writes check it too and are refused (`DatabaseReplacedError`); reads go on showing
        what the opened file holds. Always None for a database that is not a file (a URL)."""
        identity = self._db.identity
        return identity.problem() if identity is not None else None

    def _refuse_replaced(self) -> None:
        problem = self.file_problem()
        if problem is not None:
            raise DatabaseReplacedError(f"{problem}; nothing was written")

    # -- transactions ----------------------------------------------------------------------------------

    def _joined(self) -> revision_log.WriteContext | None:
        """The write transaction this thread has open on this store, if any."""
        ctx: revision_log.WriteContext | None = getattr(self._open_write, "ctx", None)
        return ctx

    @contextmanager
    def _read(self) -> Iterator[Connection]:
        joined = self._joined()
        if joined is not None:  # inside a write: read what it wrote so far, on its connection
            yield joined.conn
            return
        with transaction(self._db.engine, write=False, location=self.location) as conn:
            yield conn

    @contextmanager
    def read_snapshot(self) -> Iterator[Connection]:
        """One read transaction over the tables themselves, for a reader that copies whole tables at
        once (the hub's publish): one snapshot, nothing written."""
        with self._read() as conn:
            yield conn

    @contextmanager
    def write(self) -> Iterator[revision_log.WriteContext]:
        """One write transaction (`BEGIN IMMEDIATE`); the profile version moves once if anything changed.

        A write opened inside another on the same thread joins it (same connection, same `now`, the one
        bump at the outer end): a command (`app.commands`) runs the store's writers and records itself in
        its log in one transaction, so a crash never leaves the log and the data disagreeing."""
        if self.read_only:
            raise ReadOnlyError(
                f"{self.location} is open read-only ({self.read_only_reason}); nothing was written"
            )
        joined = self._joined()
        if joined is not None:
            yield joined
            return
        with transaction(self._db.engine, write=True, location=self.location) as conn:
            self._refuse_replaced()  # before the writer's work...
            ctx = revision_log.WriteContext(conn, self.now())
            self._open_write.ctx = ctx
            try:
                yield ctx
            finally:
                self._open_write.ctx = None
            if ctx.profile_changed:
                revision_log.bump_profile_version(conn, ctx.now)
            self._watch.note_write(conn)  # PostgreSQL: our own commit is no outside change
            self._refuse_replaced()  # ...and at the last moment before COMMIT: never into an unlinked file

    @contextmanager
    def _triage(self) -> Iterator[revision_log.WriteContext]:
        """A write to the candidate pool outside the automated review (promote, merge, discard): refused
        while the review holds its lease, since it is about to consume the same pool and taking the lease
        from it would abort its whole run. The one place this rule is decided."""
        with self.write() as ctx:
            lease.ensure_free(ctx.conn, ctx.now)
            self.archive_in(ctx)  # the candidates' words outlive their consumption
            yield ctx

    def archive_in(self, ctx: revision_log.WriteContext) -> int:
        """Inside a write the caller opened, before it consumes candidates: archive every candidate not
        archived yet (observing, the review's apply and the triage writers call it); returns how many."""
        if not self._archive_stored:
            return 0
        return evidence_archive.archive_new(ctx.conn, ctx.now, self._ids_grow)
