"""`Database`: one opened database, the one unit every service of the store is given.

It holds what the database is (engine, dialect, location, the file it opened and whether that file is
still there, whether our own tables exist), the clock, and the two transactions every service runs in:
`read()` and `write()`. A write is `BEGIN IMMEDIATE` (on PostgreSQL an advisory lock), refuses a
replaced file before and after the writer's work, and ends with one call of each kind's write protocol
(`app.store.kinds`: the user memories' one profile bump). A write opened inside another on the same
thread joins it. A write on a read-only database is refused here and nowhere else.

How the state a read-only store cannot write (marks, observations, the evidence archive, the digest's
watermark) is kept is chosen once, when the database opens: `keeping` is stored in our tables or kept
in this process (`app.store.keeping`), so no service asks whether the database is read-only.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from sqlalchemy import Connection, Engine

from app.core.clock import Clock
from app.core.errors import DatabaseReplacedError, ReadOnlyError
from app.store.connect.engine import OpenedDatabase, transaction
from app.store.evidence import archive as evidence_archive
from app.store.keeping import Keeping, KeptInProcess, KeptInTables
from app.store.kinds import MemoryKind
from app.store.links import present as links_present
from app.store.observe.change_watch import ChangeWatch
from app.store.observe.server_watch import watch_for
from app.store.read.sources import has_marks_table, load_marks
from app.store.schema.migrate import own_tables_ready, refuse_newer
from app.store.write.revision_log import WriteContext


class Database:
    def __init__(self, opened: OpenedDatabase, clock: Clock, kinds: Sequence[MemoryKind]) -> None:
        self.opened = opened
        self.clock = clock
        self.warnings: list[str] = list(opened.notes)  # what a person should be told (CLI, window)
        self._protocols = tuple(kind.writes for kind in kinds)  # each called once at a write's end
        self._open_write = threading.local()  # the write open on each thread: a nested one joins it
        self._shared_read = threading.local()  # the read `one_read` holds open on each thread
        with self.read() as conn:
            refuse_newer(conn, opened.location)
            self.own = own_tables_ready(conn)
            # The evidence archive (`app.store.evidence.archive`): stored where its table exists; found
            # by id, with a watermark where candidate ids only grow.
            self.archive_stored = self.own and evidence_archive.archive_exists(conn)
            self.ids_grow = evidence_archive.ids_never_reused(conn)
            # The links' table (`app.store.links`), looked for once: each page of cards asks for links.
            self.links_stored = self.own and links_present(conn)
            marks = load_marks(conn) if self.own and has_marks_table(conn) else {}
        self.watch: ChangeWatch = watch_for(opened.is_sqlite)
        self.keeping: Keeping = (
            KeptInProcess(marks, looks_tell=not opened.is_sqlite) if opened.read_only else KeptInTables()
        )

    def close(self) -> None:
        self.opened.close()

    # -- what this database is -------------------------------------------------------------------------

    @property
    def engine(self) -> Engine:
        return self.opened.engine

    @property
    def is_sqlite(self) -> bool:
        return self.opened.is_sqlite

    @property
    def read_only(self) -> bool:
        return self.opened.read_only

    @property
    def read_only_reason(self) -> str | None:
        return self.opened.read_only_reason

    @property
    def asked_read_only(self) -> bool:
        """Opened read-only because the person asked: opened again, it is asked for again."""
        return self.opened.asked_read_only

    @property
    def location(self) -> str:
        return self.opened.location

    def now(self) -> int:
        return self.clock.now_ms()

    def file_problem(self) -> str | None:
        """None while the database's path still names the file this store opened; else a message (the
        file was deleted, or another file renamed over it) fit to show as it is. One `stat`: a window
        may poll it. Writes check it too and are refused (`DatabaseReplacedError`); reads go on showing
        what the opened file holds. Always None for a database that is not a file (a URL)."""
        identity = self.opened.identity
        return identity.problem() if identity is not None else None

    def _refuse_replaced(self) -> None:
        problem = self.file_problem()
        if problem is not None:
            raise DatabaseReplacedError(f"{problem}; nothing was written")

    # -- transactions ----------------------------------------------------------------------------------

    def joined(self) -> WriteContext | None:
        """The write transaction this thread has open on this database, if any."""
        ctx: WriteContext | None = getattr(self._open_write, "ctx", None)
        return ctx

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """One read transaction; inside a write on this thread, that write's connection (what it wrote
        so far is read)."""
        joined = self.joined()
        if joined is not None:
            yield joined.conn
            return
        shared: Connection | None = getattr(self._shared_read, "conn", None)
        if shared is not None:
            yield shared
            return
        with transaction(self.engine, write=False, location=self.location) as conn:
            yield conn

    @contextmanager
    def one_read(self) -> Iterator[None]:
        """Every read on this thread inside, one read transaction: one snapshot of the database, however
        many reads make up what is shown together (another process's commit in between is not half
        seen). Inside a write or another `one_read`, that one's; a write inside it is refused (its
        reads, all from the snapshot taken first, would not see it)."""
        if self.joined() is not None or getattr(self._shared_read, "conn", None) is not None:
            yield
            return
        with transaction(self.engine, write=False, location=self.location) as conn:
            self._shared_read.conn = conn
            try:
                yield
            finally:
                self._shared_read.conn = None

    @contextmanager
    def write(self) -> Iterator[WriteContext]:
        """One write transaction (`BEGIN IMMEDIATE`); each kind's protocol ends it once (the profile
        version moves once if anything the host injects changed).

        A write opened inside another on the same thread joins it (same connection, same `now`, the one
        bump at the outer end): a command (`app.commands`) runs the store's writers and records itself in
        its log in one transaction, so a crash never leaves the log and the data disagreeing."""
        if self.read_only:
            raise ReadOnlyError(
                f"{self.location} is open read-only ({self.read_only_reason}); nothing was written"
            )
        joined = self.joined()
        if joined is not None:
            yield joined
            return
        if getattr(self._shared_read, "conn", None) is not None:  # its reads would not see the write
            raise RuntimeError("a write inside one_read: write first, or read in the write")
        with transaction(self.engine, write=True, location=self.location) as conn:
            self._refuse_replaced()  # before the writer's work...
            ctx = WriteContext(conn, self.now())
            self._open_write.ctx = ctx
            try:
                yield ctx
            finally:
                self._open_write.ctx = None
            for protocol in self._protocols:
                protocol.finish(ctx)
            self.watch.note_write(conn)  # PostgreSQL: our own commit is no outside change
            self._refuse_replaced()  # ...and at the last moment before COMMIT: never into an unlinked file
