"""`MemoryStore`: the one object the CLI, the window, the review and the hub use to read and change
memories: a thin facade over the store's services.

`open` opens the database (host file, URL, or the embedded store), migrates the dashboard's own tables,
fills the search index and sweeps expired memories. The store is one `Database` unit
(`app.store.database`: transactions, the clock, how a read-only store keeps what it cannot write) given
to small services, each holding what it is given and no state of another:

- `Observer` (`app.store.observe.observer`): `observe`, outside rewrites recorded, called by whoever
  needs fresh data (the window's watch, the CLI's opener, the hub's publish, the review), never by a read;
- `SearchIndex` (`app.store.search.upkeep`): filling the search index, indexing changes that wait;
- `MemoryQueries` (`app.store.read.queries`): listings, `get`, counts, the profile, recall, marks;
- `EvidenceRecords` (`app.store.evidence.records`): the evidence archive, review runs, undo of a run;
- `History` (`app.store.past.history`): revisions, blame, as-of, the digest and its watermark;
- `MemoryEdits` (`app.store.write.edits`): one public method per user-facing write (the review's verdicts
  go through `app.review.apply`);
- `ProjectMemories` (`app.store.project.service`), as `store.project`: the host's project memories;
- `ProjectEdits` (`app.store.project.edits`), as `store.project_edits`: their writers, which the commands
  (`app.commands.project`) call.

The project memories' two services are made on first use, and each service loads the modules of its
rarer roles (blame, as-of, the digest, imports, review runs, observation) when first asked for: opening
a store and reading its first screen loads only what those reads use.

The facade forwards each service's public names, so callers say `store.list_ids(...)` as they always did.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Connection

from app.core.clock import Clock, clock_from_env
from app.core.errors import DatabaseLockedError
from app.core.models.links import Link
from app.core.paths import DatabaseChoice, choose_database, is_url
from app.store.connect.engine import OpenedDatabase, open_sqlite_file, open_url, sqlite_file_of
from app.store.database import Database
from app.store.evidence.records import EvidenceRecords
from app.store.keeping import archive_in
from app.store.kinds import USER_MEMORIES, MemoryKind
from app.store.links import links_of
from app.store.observe.observer import Observer
from app.store.past.history import History
from app.store.read.queries import FIRST_HITS_CHUNK, FIRST_WINDOW, MemoryQueries
from app.store.schema.migrate import upgrade
from app.store.search.upkeep import SearchIndex
from app.store.write.edits import KEEP, MemoryEdits
from app.store.write.revision_log import WriteContext

if TYPE_CHECKING:
    from app.store.project.edits import ProjectEdits
    from app.store.project.service import ProjectMemories

__all__ = ["FIRST_HITS_CHUNK", "FIRST_WINDOW", "KEEP", "MemoryStore"]


class MemoryStore:
    def __init__(
        self, opened: OpenedDatabase, clock: Clock, origin: str = "--db", kind: MemoryKind = USER_MEMORIES
    ) -> None:
        self.kind = kind
        self.database = db = Database(opened, clock, (kind,))
        self.clock = clock
        self.origin = origin
        self.warnings: list[str] = db.warnings
        self.swept: list[int] = []  # dismissed by the sweep that ran when the store was opened
        self.observer = observer = Observer(db)
        self.search = search = SearchIndex(db)
        self.queries = queries = MemoryQueries(db, search, kind)
        self.records = records = EvidenceRecords(db)
        self.past = past = History(db, queries, records)
        self.edits = edits = MemoryEdits(db, queries, kind)
        # What this database is, and its transactions.
        self.now = db.now
        self.file_problem = db.file_problem
        self.write = db.write
        # Observation and the search index.
        self.observe = observer.observe
        self.changed_elsewhere = observer.changed_elsewhere
        self.fill_search_index = search.fill
        self.index_pending_changes = search.index_pending_changes
        # Reads.
        self.list_ids = queries.list_ids
        self.first_ids = queries.first_ids
        self.first_hits = queries.first_hits
        self.get_many = queries.get_many
        self.list_memories = queries.list_memories
        self.get = queries.get
        self.candidates = queries.candidates
        self.counts = queries.counts
        self.profile = queries.profile
        self.recall = queries.recall
        self.trust_marks = queries.trust_marks
        self.contributions = queries.contributions
        # Evidence and runs.
        self.evidence = records.evidence
        self.runs = records.runs
        self.run = records.run
        self.undo_run = records.undo_run
        # The past.
        self.history = past.history
        self.revision = past.revision
        self.blame = past.blame
        self.as_of = past.as_of
        self.profile_as_of = past.profile_as_of
        self.memory_as_of = past.memory_as_of
        self.project_as_of = past.project_as_of
        self.project_revision_rows = past.project_revision_rows
        self.first_ids_as_of = past.first_ids_as_of
        self.watermark = past.watermark
        self.digest = past.digest
        self.changed_since_look = past.changed_since_look
        self.mark_seen = past.mark_seen
        # Writes.
        self.add = edits.add
        self.edit = edits.edit
        self.update_content = edits.update_content
        self.promote = edits.promote
        self.merge_candidates = edits.merge_candidates
        self.merge_memories = edits.merge_memories
        self.discard_candidates = edits.discard_candidates
        self.copy_from_machine = edits.copy_from_machine
        self.dismiss = edits.dismiss
        self.reactivate = edits.reactivate
        self.delete = edits.delete
        self.restore = edits.restore
        self.set_expiry = edits.set_expiry
        self.put_back = edits.put_back
        self.sweep = edits.sweep
        self.set_trust = edits.set_trust
        self.import_export = edits.import_export

    @cached_property
    def project(self) -> ProjectMemories:
        """The host's project memories: `store.project.memories(...)`. Made (and its modules loaded) on
        first use: the user memories' first screen needs none of it."""
        from app.store.project.service import ProjectMemories

        return ProjectMemories(self.database)

    @cached_property
    def project_edits(self) -> ProjectEdits:
        """The project memories' writers: `store.project_edits.archive(...)`, made on first use too."""
        from app.store.project.edits import ProjectEdits

        return ProjectEdits(self.database)

    @classmethod
    def open(
        cls,
        target: str | Path | DatabaseChoice | None = None,
        *,
        read_only: bool = False,
        clock: Clock | None = None,
        create: bool = False,
        sweep: bool = True,
        first_look: bool = False,
    ) -> MemoryStore:
        """Open (and, when writable, migrate and sweep) a database; `target` None picks the default.
        `first_look`: a read before the store that writes opens; a file never opened by this store is then
        read as it is (`open_sqlite_file`), and `confirm_first_look` says once the reads are done whether
        the store that writes could migrate it (its write lock free); that store checks its pages."""
        choice = (
            target if isinstance(target, DatabaseChoice) else choose_database(str(target) if target else None)
        )
        file = sqlite_file_of(choice.target) if is_url(choice.target) else Path(choice.target)
        if file is None:
            opened = open_url(choice.target, read_only=read_only)
        else:
            opened = open_sqlite_file(
                file, read_only=read_only, create=create or choice.is_embedded, first_look=first_look
            )
        try:
            if not opened.read_only:
                upgrade(opened.engine, opened.location)
            store = cls(opened, clock or clock_from_env(), choice.origin)
            upkeep = store.database.keeping.upkeep  # a read-only store keeps no index and sweeps nothing
            if upkeep:
                store.fill_search_index()
            if sweep and upkeep:
                try:
                    store.swept = store.sweep()
                except DatabaseLockedError as exc:
                    store.warnings.append(f"expired memories not swept yet: {exc}")
        except BaseException:
            opened.close()  # a refused open keeps no connection, snapshot or claim on the file behind
            raise
        return store

    def reopened(self) -> MemoryStore:
        """This database opened once more, with connections of its own, in the same mode and on the same
        clock, not swept: for work on another thread (the window's hub publish) beside this store's. A
        server's URL keeps its password here (the location shown hides it)."""
        url = self.database.engine.url
        target = self.location if self.database.is_sqlite else url.render_as_string(hide_password=False)
        choice = DatabaseChoice(target, self.origin)
        return MemoryStore.open(choice, read_only=self.read_only, clock=self.clock, sweep=False)

    def close(self) -> None:
        self.database.close()

    @property
    def read_only(self) -> bool:
        return self.database.read_only

    @property
    def read_only_reason(self) -> str | None:
        return self.database.read_only_reason

    @property
    def asked_read_only(self) -> bool:
        """Opened read-only because the person asked (`--read-only`): a reopen asks for it again."""
        return self.database.asked_read_only

    @property
    def location(self) -> str:
        return self.database.location

    @property
    def first_look(self) -> bool:
        """Opened for a first look at a never-opened file: read-only now, the store that writes it next."""
        return self.database.opened.first_look

    def confirm_first_look(self) -> None:
        """Once a first look's reads are done: the refusal the store that writes would meet at once (a
        write lock held elsewhere past the busy timeout), if any (`OpenedDatabase.confirm_first_look`)."""
        self.database.opened.confirm_first_look()

    def check_unread_pages(self) -> bool:
        """After a read of a first look failed: the refusal of a damaged file, if that is why; True when its
        pages were checked and are sound (`OpenedDatabase.check_unread_pages`)."""
        return self.database.opened.check_unread_pages()

    @property
    def has_own_tables(self) -> bool:
        return self.database.own

    @contextmanager
    def one_read(self) -> Iterator[None]:
        """The store's reads on this thread inside, from one snapshot (`Database.one_read`)."""
        with self.database.one_read():
            yield

    @contextmanager
    def read_snapshot(self) -> Iterator[Connection]:
        """One read transaction over the tables themselves, for a reader that copies whole tables at
        once (the hub's publish): one snapshot, nothing written."""
        with self.database.read() as conn:
            yield conn

    def links(self, memory_ids: Sequence[int], kind: str = "user") -> dict[int, list[Link]]:
        """The links (`mdash_links`: merged into, supersedes, resolved contradiction) of memories of
        `kind`, both ways, oldest first; a memory without links is absent."""
        with self.database.read() as conn:
            return links_of(conn, kind, memory_ids, stored=self.database.links_stored)

    def archive_in(self, ctx: WriteContext) -> int:
        """Inside a write the caller opened, before it consumes candidates (the review's apply): archive
        every candidate not archived yet; returns how many."""
        return archive_in(self.database, ctx)
