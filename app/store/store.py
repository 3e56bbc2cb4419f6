"""`MemoryStore`: the one object the CLI, the window and the review use to read and change memories.

It opens the database (host file, URL, or the embedded store), migrates the dashboard's own tables,
sweeps expired memories, observes outside rewrites on every listing, and wraps each writer in one
`BEGIN IMMEDIATE` transaction that also bumps the profile version. Each write a person, the CLI or the
demo makes is one public method here (the review's verdicts go through `app.review.apply`); the lease
rule for the candidate pool is decided once, in `_triage`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import overload

from sqlalchemy import Connection, Select, func, select

from app.core.clock import Clock, clock_from_env, format_instant
from app.core.errors import (
    ConflictError,
    DatabaseLockedError,
    DatabaseReplacedError,
    InvalidInputError,
    NotFoundError,
    ReadOnlyError,
)
from app.core.models import Candidate, Counts, Memory, MemoryStatus, Revision, RevisionSource
from app.core.paths import DatabaseChoice, choose_database, is_url
from app.core.trust import DEFAULT_MARK, MARKS, MEMORY_SOURCE_USER_EDIT
from app.store.connect.engine import OpenedDatabase, open_sqlite_file, open_url, sqlite_file_of, transaction
from app.store.evidence import archive as evidence_archive
from app.store.evidence import runs as review_runs
from app.store.evidence import undo as run_undo
from app.store.evidence.model import Evidence
from app.store.observe.change_watch import ChangeWatch
from app.store.observe.observe import MemoryObservations, find_changes, initial_seen, record_changes
from app.store.read import as_of as as_of_read
from app.store.read import blame as blame_read
from app.store.read import digest as digest_read
from app.store.read.digest import Digest, Watermark
from app.store.read.query import (
    MemoryFilter,
    count_by_status,
    is_expired,
    select_among,
    select_first_hits,
    select_ids,
)
from app.store.read.reads import (
    fetch_candidates,
    fetch_own_facts,
    fetch_revision,
    fetch_revisions,
    fetch_revisions_by_id,
    fetch_rows,
)
from app.store.read.recall import RecallOrder, profile_ids, recall_ids
from app.store.read.rows import build_memories
from app.store.read.sources import has_marks_table, judged_trust, load_marks, split_contributions
from app.store.read.trash import fetch_deleted_rows
from app.store.schema.migrate import own_tables_ready, refuse_newer, upgrade
from app.store.schema.tables import user_memories, user_memory_candidates
from app.store.search import index as search_index
from app.store.write import expiry_sweep, importer, lease, revision_log, synced, triage, trust_marks, writes
from app.store.write.watermark import save_watermark
from app.transfer.export_format import ExportFile

KEEP = writes.KEEP
# A search the index does not narrow looks for its first screen among this many times as many of the
# listing's first ids (without the search) before it scans every row: a term in one memory of 8 or more
# fills a screen there.
FIRST_WINDOW = 8
FIRST_HITS_CHUNK = 500  # ids per query of `first_hits`


def _as_ids(memory_ids: int | Sequence[int]) -> list[int]:
    return [memory_ids] if isinstance(memory_ids, int) else list(memory_ids)


class MemoryStore:
    def __init__(self, opened: OpenedDatabase, clock: Clock, origin: str = "--db") -> None:
        self._db = opened
        self.clock = clock
        self.origin = origin
        self.warnings: list[str] = list(opened.notes)
        self.swept: list[int] = []  # dismissed by the sweep that ran when the store was opened
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
        self._watch = ChangeWatch(enabled=opened.is_sqlite)
        self._search_ready = False  # the search index exists and is filled (see `fill_search_index`)
        # The digest's watermark where it cannot be stored (a read-only store): kept in this process only,
        # with how many of the observations kept in memory it covers.
        self._look: Watermark | None = None
        self._looked_in_memory = 0

    @classmethod
    def open(
        cls,
        target: str | Path | DatabaseChoice | None = None,
        *,
        read_only: bool = False,
        clock: Clock | None = None,
        create: bool = False,
        sweep: bool = True,
    ) -> MemoryStore:
        """Open (and, when writable, migrate and sweep) a database; `target` None picks the default."""
        choice = (
            target if isinstance(target, DatabaseChoice) else choose_database(str(target) if target else None)
        )
        file = sqlite_file_of(choice.target) if is_url(choice.target) else Path(choice.target)
        if file is None:
            opened = open_url(choice.target, read_only=read_only)
        else:
            opened = open_sqlite_file(file, read_only=read_only, create=create or choice.is_embedded)
        try:
            if not opened.read_only:
                upgrade(opened.engine, opened.location)
            store = cls(opened, clock or clock_from_env(), choice.origin)
        except BaseException:
            opened.close()  # a refused open keeps no connection (nor a private snapshot) behind
            raise
        if not store.read_only:
            store.fill_search_index()
        if sweep and not store.read_only:
            try:
                store.swept = store.sweep()
            except DatabaseLockedError as exc:
                store.warnings.append(f"expired memories not swept yet: {exc}")
        return store

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

    @contextmanager
    def _read(self) -> Iterator[Connection]:
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
        """One write transaction (`BEGIN IMMEDIATE`); the profile version moves once if anything changed."""
        if self.read_only:
            raise ReadOnlyError(
                f"{self.location} is open read-only ({self.read_only_reason}); nothing was written"
            )
        with transaction(self._db.engine, write=True, location=self.location) as conn:
            self._refuse_replaced()  # before the writer's work...
            ctx = revision_log.WriteContext(conn, self.now())
            yield ctx
            if ctx.profile_changed:
                revision_log.bump_profile_version(conn, ctx.now)
            self._refuse_replaced()  # ...and at the last moment before COMMIT: never into an unlinked file

    def fill_search_index(self) -> bool:
        """Index what is not indexed yet, in short write transactions; True once the index is usable.
        Changes that wait (`index_pending_changes`) are left to the window's idle moments: a command
        that only reads never takes the write lock for them."""
        with self._read() as conn:
            if not (self._own and search_index.exists(conn)):
                return False
            filled = search_index.indexed_upto(conn) >= search_index.COMPLETE
        try:
            while not filled:  # a read stays a read when nothing is left
                with self.write() as ctx:
                    filled = search_index.fill_step(ctx.conn)
        except (DatabaseLockedError, DatabaseReplacedError) as exc:
            self.warnings.append(f"search index not filled yet: {exc}")
            return False
        self._search_ready = True
        return True

    def index_pending_changes(self) -> bool:
        """One short step indexing changes that wait (`search_index.index_pending_step`); True while more are
        left. Nothing to do (False) on a read-only store, without the index, or when locked."""
        if self.read_only or not self._search_ready:
            return False
        with self._read() as conn:
            if not search_index.has_pending(conn):
                return False  # no write lock taken when nothing waits
        try:
            with self.write() as ctx:
                return not search_index.index_pending_step(ctx.conn)
        except DatabaseLockedError:
            return False  # the host is writing: the next idle moment goes on
        except DatabaseReplacedError:
            return False  # nothing to index into: the window says so (`file_problem`)

    # -- observing outside rewrites --------------------------------------------------------------------

    def changed_elsewhere(self) -> bool:
        """Whether anyone but this store may have committed since its last look that found nothing new
        (a `PRAGMA data_version`, no scan); True whenever that cannot be told."""
        if not self._looks_tell():
            return True
        with self._read() as conn:
            return not self._nothing_new(conn)

    def _looks_tell(self) -> bool:
        """Whether a look can show that observing would find nothing: not while outside changes are
        kept in memory (a read-only store: `observe` skips its own look, but `changed_elsewhere` stays
        True for it), nor where the change watch is off."""
        return self._memory_log is None and self._watch.enabled

    def _nothing_new(self, conn: Connection) -> bool:
        """Whether observing would find nothing: no commit by anyone else since the last look that found
        nothing new."""
        return self._looks_tell() and self._watch.unchanged(self._watch.look(conn))

    def observe(self) -> list[Revision]:
        """Record rewrites made outside the dashboard since the last look; returns the new revisions."""
        if self._memory_log is not None:
            return self._observe_in_memory(self._memory_log)
        with self._read() as conn:
            look = self._watch.look(conn)
            if self._watch.unchanged(look):
                return []
            found = find_changes(conn)
            fresh = self._archive_stored and evidence_archive.has_new(conn, self._ids_grow)
            if not found and not fresh:
                self._watch.mark_clean(look)
                return []
        try:
            with self.write() as ctx:
                self.archive_in(ctx)
                if found:
                    record_changes(ctx, found)
                ids = list(ctx.revision_ids)
        except (DatabaseLockedError, DatabaseReplacedError) as exc:
            self.warnings.append(f"outside changes not recorded yet: {exc}")
            return []
        with self._read() as conn:
            return fetch_revisions_by_id(conn, ids)

    def _observe_in_memory(self, log: MemoryObservations) -> list[Revision]:
        """A read-only store's look, skipped while nobody committed since the last one: it reads every
        row's content into Python (~0.6 s of CPU at 100,000 memories), and an immutable or snapshot
        read never sees a commit at all."""
        with self._read() as conn:
            look = self._watch.look(conn)
            if log.started and self._watch.unchanged(look):
                return []
            if self._memory_archive is not None:
                self._memory_archive.look(conn, self.now(), self._ids_grow, self._archive_stored)
            initial = initial_seen(conn) if self._own and not log.started else None
            found = log.observe(conn, self.now(), initial)
            self._watch.mark_clean(look)  # what the log has seen is what this version holds
            return found

    # -- the evidence archive --------------------------------------------------------------------------

    def archive_in(self, ctx: revision_log.WriteContext) -> int:
        """Inside a write the caller opened, before it consumes candidates: archive every candidate not
        archived yet (the review's apply and the triage writers call it); returns how many."""
        if not self._archive_stored:
            return 0
        return evidence_archive.archive_new(ctx.conn, ctx.now, self._ids_grow)

    def evidence(self, candidate_ids: Sequence[int]) -> dict[int, Evidence]:
        """The archived words, session and compartments of candidates, by id; an id missing from the
        answer was never seen by the dashboard (`app.store.evidence.model.NOT_ARCHIVED`). No observing:
        call after a read that looked (a listing, `get`, `history`)."""
        ids = list(dict.fromkeys(candidate_ids))
        found: dict[int, Evidence] = {}
        if self._archive_stored and ids:
            with self._read() as conn:
                found = evidence_archive.fetch_evidence(conn, ids)
        if self._memory_archive is not None:
            found.update(self._memory_archive.find([item for item in ids if item not in found]))
        return found

    # -- review runs -----------------------------------------------------------------------------------

    def _kept_revisions(self) -> list[Revision]:
        """Observations a read-only store keeps in memory (none otherwise)."""
        if self._memory_log is None:
            return []
        return [revision for kept in self._memory_log.revisions.values() for revision in kept]

    def runs(self) -> list[review_runs.Run]:
        """Every review run, newest first: the dashboard's own and the host's (`app.store.evidence.runs`).
        Observes first, so a host run's inferred changes include what was just rewritten."""
        self.observe()
        with self._read() as conn:
            return review_runs.all_runs(conn, self._kept_revisions(), own=self._own)

    def run(self, run_id: str) -> review_runs.RunDetail:
        """One run with its changes, oldest first; NotFoundError for an id no run has."""
        self.observe()
        with self._read() as conn:
            kept = self._kept_revisions()
            found = review_runs.find_run(conn, run_id, kept, own=self._own)
            if found is None:
                raise NotFoundError(f"no review run {run_id!r} (see `runs` for the runs there are)")
            changes = review_runs.run_changes(conn, found, kept, own=self._own)
        return review_runs.RunDetail(found, tuple(changes))

    def undo_run(self, run_id: str) -> run_undo.UndoResult:
        """Put every memory a run changed back as it was before the run, in one write (one restore
        revision per memory, one profile bump); memories changed since are listed, not touched."""
        with self.write() as ctx:
            found = review_runs.find_run(ctx.conn, run_id) if self._own else None
            if found is None:
                raise NotFoundError(f"no review run {run_id!r} (see `runs` for the runs there are)")
            if not found.readable:
                raise InvalidInputError(
                    f"run {run_id!r} is an unreadable run ({found.problem}); nothing undone"
                )
            return run_undo.undo_run(ctx, found, review_runs.run_changes(ctx.conn, found))

    # -- reads -----------------------------------------------------------------------------------------

    def _memories(
        self, conn: Connection, ids: Sequence[int], now: int, *, trash: bool = True
    ) -> list[Memory]:
        """The memories of `ids`; with `trash`, ids no longer in the host's table come from the trash
        (status `deleted`, `app.store.read.trash`)."""
        rows = fetch_rows(conn, ids)
        if trash and self._own and len(rows) < len(set(ids)):  # ids not in the host's table
            found = {row.id for row in rows}
            deleted = {row.id: row for row in fetch_deleted_rows(conn, [i for i in ids if i not in found])}
            if deleted:
                by_id = {row.id: row for row in rows} | deleted
                rows = [by_id[i] for i in dict.fromkeys(ids) if i in by_id]
        facts = fetch_own_facts(conn, ids) if self._own else {}
        if self._memory_log is not None:
            for memory_id in ids:
                merged = self._memory_log.facts(facts.get(memory_id), memory_id)
                if merged is not None:
                    facts[memory_id] = merged
        marks = self._marks if self._marks is not None else load_marks(conn)
        return build_memories(rows, facts, now, marks)

    def list_ids(self, flt: MemoryFilter | None = None, *, observe: bool = True) -> list[int]:
        """The listing's ids in order (observing outside rewrites first, unless told not to)."""
        if observe:
            self.observe()
        flt = flt or MemoryFilter()
        with self._read() as conn:
            ids = list(conn.execute(self._ids_query(conn, flt)).scalars().all())
            return self._of_trust(conn, ids, flt.trust) if flt.trust else ids

    def _of_trust(self, conn: Connection, ids: Sequence[int], trust: str) -> list[int]:
        """The ids whose memory has `trust` (`screened`: untrusted for its content) under the marks; the
        trash's cards are judged as cards (they are not in the host's table)."""
        marks = self._marks if self._marks is not None else load_marks(conn)
        judged = judged_trust(conn, ids, marks, self._own)
        missing = [i for i in ids if i not in judged]
        for memory in self._memories(conn, missing, self.now()) if missing else ():
            judged[memory.id] = (memory.trust, memory.has_hidden_characters)
        if trust == "screened":
            return [i for i in ids if i in judged and judged[i][1]]
        return [i for i in ids if i in judged and judged[i][0] == trust]

    def first_ids(self, flt: MemoryFilter, limit: int) -> tuple[list[int], int | None]:
        """The first `limit` ids of a listing, without observing, and how many it holds: a first screen
        that waits neither for every id of a large listing nor for the first look at the host's rows.

        A search counts nothing here (its size is None once it fills the screen; the complete listing
        counts it): terms the index narrows are read through it; otherwise the text is matched against
        the listing's first `FIRST_WINDOW * limit` ids, and only a search that leaves the screen short
        there scans every row. A listing without a search is counted (the status index answers)."""
        if flt.trust:  # judged in Python, under the marks: no LIMIT query
            every = self.list_ids(flt, observe=False)
            return every[:limit], len(every)
        searching = bool(flt.search.strip())
        with self._read() as conn:
            indexed = self._indexed_terms(conn, flt)
            now = self.now()
            if searching and not indexed:
                window = select_first_hits(flt, now, self._own, FIRST_WINDOW * limit, limit)
                ids = list(conn.execute(window).scalars().all())
                if len(ids) == limit:
                    return ids, None
            query = select_ids(flt, now, self._own, indexed)
            ids = list(conn.execute(query.limit(limit)).scalars().all())
            if len(ids) < limit:
                return ids, len(ids)
            if searching:
                return ids, None
            total = conn.execute(select(func.count()).select_from(query.order_by(None).subquery())).scalar()
            return ids, int(total or 0)

    def _ids_query(self, conn: Connection, flt: MemoryFilter) -> Select[int]:
        return select_ids(flt, self.now(), self._own, self._indexed_terms(conn, flt))

    def _indexed_terms(self, conn: Connection, flt: MemoryFilter) -> list[str]:
        """The search terms the search index may narrow (none unless it is known current)."""
        if self._search_ready and flt.search.strip() and self._watch.unchanged(self._watch.look(conn)):
            return search_index.selective_terms(conn, flt.search.split())
        return []

    def get_many(self, ids: Sequence[int], *, deleted: bool = True) -> list[Memory]:
        """Memories by id, in the order given (no observation: callers page through a listing); deleted
        ones from the trash (status `deleted`) unless told not to."""
        with self._read() as conn:
            return self._memories(conn, ids, self.now(), trash=deleted)

    def list_memories(self, flt: MemoryFilter | None = None) -> list[Memory]:
        return self.get_many(self.list_ids(flt))

    def get(self, memory_id: int, *, observe: bool = True) -> Memory:
        if observe:
            self.observe()
        found = self.get_many([memory_id], deleted=False)
        if not found:
            raise NotFoundError(f"memory #{memory_id} does not exist")
        return found[0]

    def candidates(self, ids: Sequence[int] | None = None) -> list[Candidate]:
        with self._read() as conn:
            return fetch_candidates(conn, ids)

    def history(
        self, memory_id: int, *, observe: bool = True, texts: bool = True, newest_whole: bool = False
    ) -> list[Revision]:
        """Every revision of a memory (deleted ones too), oldest first; `texts=False` reads them without
        their contents (`Revision.texts_loaded` False; `revision` reads one whole), except the newest
        one's when `newest_whole` (the diff a history panel shows first).

        One read transaction when nothing new is there to observe: a selection in the window reads this
        and waits for it before its diff."""
        if not observe or self._looks_tell():
            with self._read() as conn:
                if not observe or self._nothing_new(conn):
                    return self._history(conn, memory_id, texts, newest_whole)
        self.observe()
        with self._read() as conn:
            return self._history(conn, memory_id, texts, newest_whole)

    def _history(self, conn: Connection, memory_id: int, texts: bool, newest_whole: bool) -> list[Revision]:
        stored = fetch_revisions(conn, memory_id, texts=texts) if self._own else []
        extra = self._memory_log.revisions.get(memory_id, []) if self._memory_log is not None else []
        found = sorted([*stored, *extra], key=lambda rev: (rev.changed_at, abs(rev.id)))
        if newest_whole and found and not found[-1].texts_loaded:
            whole = fetch_revision(conn, found[-1].id)
            if whole is not None:
                found[-1] = whole
        return found

    def revision(self, revision_id: int) -> Revision:
        """One revision with its texts (a revision kept in memory only, on a read-only store, too)."""
        if self._memory_log is not None:
            for kept in self._memory_log.revisions.values():
                found = next((rev for rev in kept if rev.id == revision_id), None)
                if found is not None:
                    return found
        with self._read() as conn:
            revision = fetch_revision(conn, revision_id) if self._own else None
        if revision is None:
            raise NotFoundError(f"revision #{revision_id} does not exist")
        return revision

    def counts(self) -> Counts:
        now = self.now()
        with self._read() as conn:
            by_status: dict[str, int] = {str(s): int(n) for s, n in conn.execute(count_by_status())}
            expired = conn.execute(
                select(func.count()).select_from(user_memories).where(is_expired(now, self._own))
            )
            pending = conn.execute(select(func.count()).select_from(user_memory_candidates))
            active = int(by_status.pop(MemoryStatus.ACTIVE, 0))
            dismissed = int(by_status.pop(MemoryStatus.DISMISSED, 0))
            return Counts(
                active,
                dismissed,
                sum(by_status.values()),
                int(expired.scalar_one()),
                int(pending.scalar_one()),
            )

    def profile(self) -> list[Memory]:
        self.observe()
        now = self.now()
        with self._read() as conn:
            return self._memories(conn, profile_ids(conn, now, self._own), now)

    def recall(
        self, search: str = "", *, limit: int | None = None, order: RecallOrder = "recent"
    ) -> list[Memory]:
        self.observe()
        now = self.now()
        with self._read() as conn:
            ids = recall_ids(conn, now, self._own, search=search, limit=limit, order=order)
            return self._memories(conn, ids, now)

    # -- the past: blame and as-of ---------------------------------------------------------------------

    def blame(self, memory_id: int, *, observe: bool = True) -> blame_read.Blame:
        """Each sentence (or line) of the memory's text with the revision that put it there in its current
        form, and the words of the candidates those revisions cite (`app.store.read.blame`)."""
        revisions = self.history(memory_id, observe=observe)
        cited = blame_read.cited_ids(revisions)
        archived = self.evidence(cited)
        with self._read() as conn:
            rows = fetch_rows(conn, [memory_id])
            if not rows and not revisions:
                raise NotFoundError(f"memory #{memory_id} does not exist")
            first_seen = as_of_read.recorded_first_seen(conn, memory_id) if self._own else None
            evidence = blame_read.evidence_words(conn, cited, archived)
        current = rows[0].content if rows else None
        return blame_read.build_blame(memory_id, revisions, current, first_seen, evidence)

    def as_of(self, at: int, ids: Sequence[int] | None = None) -> list[as_of_read.MemoryAsOf]:
        """Every memory (or those of `ids`) as it was at instant `at`, rebuilt from the revisions after
        observing outside changes; a memory that did not exist then is left out, one the dashboard has
        no record of then is marked unknown. An instant after now is now."""
        return self._as_of(at, ids, profile=False)

    def _as_of(self, at: int, ids: Sequence[int] | None, *, profile: bool) -> list[as_of_read.MemoryAsOf]:
        """`as_of`; with `profile`, memories known at `at` and not injected then may be left out."""
        self.observe()
        now = self.now()
        at = min(at, now)
        with self._read() as conn:
            if self._own:
                kept = self._memory_log is not None and bool(self._memory_log.revisions)
                facts = as_of_read.fetch_facts(conn, at, ids, now=None if kept else now, profile=profile)
            else:
                facts = as_of_read.host_only_facts(conn, ids)
            if self._memory_log is not None and self._memory_log.revisions:
                facts = self._facts_with_kept(conn, facts, at)
        states = (as_of_read.resolve(item, at, now) for item in facts)
        return as_of_read.ordered(state for state in states if state is not None)

    def _facts_with_kept(
        self, conn: Connection, facts: list[as_of_read.Facts], at: int
    ) -> list[as_of_read.Facts]:
        """A read-only store's facts, recomputed for the memories it observed changing in this process."""
        kept = self._memory_log.revisions if self._memory_log is not None else {}
        return [
            as_of_read.facts_from_history(item, self._history(conn, item.memory_id, True, False), at)
            if item.memory_id in kept
            else item
            for item in facts
        ]

    def profile_as_of(self, at: int) -> list[as_of_read.MemoryAsOf]:
        """What the agent was shown at `at`: memories injected then, and those whose state then is unknown."""
        return [state for state in self._as_of(at, None, profile=True) if state.injected or not state.known]

    def memory_as_of(self, memory_id: int, at: int) -> as_of_read.MemoryAsOf:
        found = self.as_of(at, [memory_id])
        if found:
            return found[0]
        if not self.history(memory_id, observe=False) and not self.get_many([memory_id]):
            raise NotFoundError(f"memory #{memory_id} does not exist")
        raise NotFoundError(f"memory #{memory_id} did not exist at {format_instant(min(at, self.now()))}")

    # -- writers ---------------------------------------------------------------------------------------

    @contextmanager
    def _triage(self) -> Iterator[revision_log.WriteContext]:
        """A write to the candidate pool outside the automated review (promote, merge, discard): refused
        while the review holds its lease, since it is about to consume the same pool and taking the lease
        from it would abort its whole run. The one place this rule is decided."""
        with self.write() as ctx:
            lease.ensure_free(ctx.conn, ctx.now)
            self.archive_in(ctx)  # the candidates' words outlive their consumption
            yield ctx

    def promote(
        self,
        candidate_ids: Sequence[int],
        content: str | None = None,
        *,
        run_id: str | None = None,
        source: str = RevisionSource.DASHBOARD,
    ) -> Memory:
        """Promotion outside a verdict: candidates become one memory (content defaults to theirs, joined
        into one line: `triage.one_line`). Refused while the review holds its lease (`_triage`)."""
        with self._triage() as ctx:
            memory_id = triage.promote(ctx, candidate_ids, content, run_id=run_id, source=source)
        return self.get(memory_id, observe=False)

    def merge_candidates(
        self, memory_id: int, candidate_ids: Sequence[int], content: str | None = None
    ) -> Memory:
        """Fold pending candidates into a memory (ids and provenance appended, candidates consumed), in one
        transaction and one profile bump; `content` None keeps the text and adds the candidates' lines.
        Refused while the review holds its lease (`_triage`)."""
        with self._triage() as ctx:
            triage.merge(ctx, memory_id, candidate_ids, content)
        return self.get(memory_id, observe=False)

    def update_content(
        self,
        memory_id: int,
        content: str,
        appended_candidate_ids: Sequence[int] = (),
        *,
        run_id: str | None = None,
        source: str = RevisionSource.DASHBOARD,
    ) -> Memory:
        with self.write() as ctx:
            writes.update_content(
                ctx, memory_id, content, appended_candidate_ids, run_id=run_id, source=source
            )
        return self.get(memory_id, observe=False)

    def edit(self, memory_id: int, content: str, *, expected_updated_at: int | None = None) -> Memory:
        """A person's edit. With `expected_updated_at`, refuse if the row moved since the editor opened."""
        with self.write() as ctx:
            row = writes.require_row(ctx, memory_id)
            if expected_updated_at is not None and row.updated_at != expected_updated_at:
                raise ConflictError(
                    f"memory #{memory_id} changed since you opened it",
                    self._memories(ctx.conn, [memory_id], ctx.now)[0],
                )
            if writes.update_content(ctx, memory_id, content, source=RevisionSource.DASHBOARD) is not None:
                revision_log.add_own_source(ctx, memory_id, MEMORY_SOURCE_USER_EDIT)
        return self.get(memory_id, observe=False)

    # Dismiss, reactivate, delete, expiry and restore act on one id or on many: many are one transaction
    # (every id checked first: one that is not there changes nothing), one revision per memory changed
    # and one profile bump. One id returns what it always did; a sequence returns the ids that changed,
    # in the order given (repeats dropped): reading 10,000 memories back would cost more than the write.

    def copy_from_machine(self, memory: synced.MachineMemory) -> Memory:
        """ "Copy to this machine": another machine's memory (from the hub) as a new one here, a manual
        promotion with provenance origin `sync` naming that machine (`app.store.write.synced`)."""
        with self.write() as ctx:
            memory_id = synced.copy_memory(ctx, memory)
        return self.get(memory_id, observe=False)

    @overload
    def dismiss(self, memory_ids: int, reason: str | None = None) -> Memory: ...
    @overload
    def dismiss(self, memory_ids: Sequence[int], reason: str | None = None) -> list[int]: ...
    def dismiss(self, memory_ids: int | Sequence[int], reason: str | None = None) -> Memory | list[int]:
        with self.write() as ctx:
            ids = writes.require_all(ctx, _as_ids(memory_ids))
            changed = writes.set_statuses(ctx, ids, MemoryStatus.DISMISSED, reason=reason)
        return self._written(memory_ids, [i for i in ids if i in changed])

    @overload
    def reactivate(self, memory_ids: int, new_expiry: int | object | None = KEEP) -> Memory: ...
    @overload
    def reactivate(self, memory_ids: Sequence[int], new_expiry: int | object | None = KEEP) -> list[int]: ...
    def reactivate(
        self, memory_ids: int | Sequence[int], new_expiry: int | object | None = KEEP
    ) -> Memory | list[int]:
        """Active again; an expired memory needs `new_expiry` (a future instant, or None for never)."""
        with self.write() as ctx:
            ids = writes.require_all(ctx, _as_ids(memory_ids))
            changed = [i for i in ids if writes.reactivate(ctx, i, new_expiry) is not None]  # type: ignore[arg-type]
        return self._written(memory_ids, changed if not isinstance(memory_ids, int) else ids)

    @overload
    def delete(self, memory_ids: int) -> Revision: ...
    @overload
    def delete(self, memory_ids: Sequence[int]) -> list[int]: ...
    def delete(self, memory_ids: int | Sequence[int]) -> Revision | list[int]:
        """Delete; one id returns its delete revision (what a restore brings back)."""
        with self.write() as ctx:
            ids = writes.require_all(ctx, _as_ids(memory_ids))
            revision_ids = [writes.delete_memory(ctx, memory_id) for memory_id in ids]
        if not isinstance(memory_ids, int):
            return ids
        with self._read() as conn:
            revision = fetch_revision(conn, revision_ids[0])
        assert revision is not None
        return revision

    @overload
    def restore(self, memory_ids: int, revision_id: int | None = None) -> Memory: ...
    @overload
    def restore(self, memory_ids: Sequence[int], revision_id: None = None) -> list[int]: ...
    def restore(self, memory_ids: int | Sequence[int], revision_id: int | None = None) -> Memory | list[int]:
        """Bring back what a revision left (a new revision; history is never rewritten). Without a
        revision (and for many ids) each memory must be deleted, and comes back from its latest delete
        revision: the trash's restore."""
        ids = list(dict.fromkeys(_as_ids(memory_ids)))
        with self.write() as ctx:
            if revision_id is None:
                writes.restore_deleted(ctx, ids, source=RevisionSource.RESTORE)
            elif len(ids) != 1:
                raise InvalidInputError("a revision belongs to one memory: restore many without one")
            else:
                writes.restore(ctx, ids[0], revision_id, source=RevisionSource.RESTORE)
        return self._written(memory_ids, ids)

    @overload
    def set_expiry(self, memory_ids: int, expires_at: int | Mapping[int, int | None] | None) -> Memory: ...
    @overload
    def set_expiry(
        self, memory_ids: Sequence[int], expires_at: int | Mapping[int, int | None] | None
    ) -> list[int]: ...
    def set_expiry(
        self, memory_ids: int | Sequence[int], expires_at: int | Mapping[int, int | None] | None
    ) -> Memory | list[int]:
        """Set (or clear, with None) the expiry, the same for every id or each its own (a mapping, as an
        undo puts them back); one already passed dismisses the memory at once."""
        with self.write() as ctx:
            ids = writes.require_all(ctx, _as_ids(memory_ids))
            changed = []
            for memory_id in ids:
                at = expires_at.get(memory_id) if isinstance(expires_at, Mapping) else expires_at
                if writes.set_expiry(ctx, memory_id, at) is not None:
                    changed.append(memory_id)
            expiry_sweep.sweep(ctx)
        return self._written(memory_ids, changed if not isinstance(memory_ids, int) else ids)

    @overload
    def _written(self, asked: int, ids: list[int]) -> Memory: ...
    @overload
    def _written(self, asked: Sequence[int], ids: list[int]) -> list[int]: ...
    def _written(self, asked: int | Sequence[int], ids: list[int]) -> Memory | list[int]:
        """What a writer of one id or many returns: the memory (changed or not), or the ids that changed."""
        return self.get(asked, observe=False) if isinstance(asked, int) else ids

    def add(self, content: str) -> Memory:
        """A memory a person writes: as the host writes a promotion (one `now`), of no candidates, its
        source `user:dashboard` (trusted); its revision and one profile bump."""
        with self.write() as ctx:
            memory_id = writes.add_memory(ctx, content)
        return self.get(memory_id, observe=False)

    # -- sources and trust -----------------------------------------------------------------------------

    def trust_marks(self) -> dict[str, str]:
        """The person's marks: source (or scheme, `session:`) -> `trusted` or `untrusted`."""
        if self._marks is not None:
            return dict(self._marks)
        with self._read() as conn:
            return load_marks(conn)

    def set_trust(self, source: str, trust: str) -> dict[str, str]:
        """Mark a source (or a whole scheme) `trusted` or `untrusted`; `default` removes the mark. A
        read-only store keeps its marks in memory. No profile bump: the host injects whatever the trust."""
        if trust not in (*MARKS, DEFAULT_MARK):
            raise InvalidInputError(f"trust must be one of {', '.join((*MARKS, DEFAULT_MARK))}")
        if self._marks is not None:
            if trust == DEFAULT_MARK:
                self._marks.pop(source, None)
            else:
                self._marks[source] = trust
        else:
            with self.write() as ctx:
                trust_marks.set_mark(ctx, source, trust)
        return self.trust_marks()

    def contributions(self, source: str) -> tuple[list[Memory], list[Memory]]:
        """Everything `source` (or a whole scheme) contributed, any status: (memories where it is the only
        source, those where it is one of several)."""
        ids = self.list_ids(MemoryFilter(status="all", source=source, sort="id"))
        return split_contributions(self.get_many(ids), source)

    def sweep(self) -> list[int]:
        """Dismiss every active memory whose expiry has passed (also run on every writable open)."""
        if self.read_only or not self._own:
            return []
        with self._read() as conn:
            if not expiry_sweep.due_ids(conn, self.now()):
                return []
        with self.write() as ctx:
            return expiry_sweep.sweep(ctx)

    def discard_candidates(self, candidate_ids: Sequence[int]) -> int:
        """Delete candidates from the pool without using them; returns how many were still there.
        Refused while the review holds its lease (`_triage`)."""
        if not candidate_ids:
            return 0
        with self._triage() as ctx:
            return triage.discard(ctx, candidate_ids)

    # -- the digest: what changed since the person last looked ----------------------------------------

    def watermark(self) -> Watermark | None:
        """The person's last look (None: never), kept per database; in memory on a read-only store."""
        if self._look is not None or not self._own:
            return self._look
        with self._read() as conn:
            return digest_read.read_watermark(conn)

    def digest(self, since: int | None = None, *, observe: bool = True) -> Digest:
        """What changed since the last look (or since the instant `since`), outside rewrites observed
        first; `Digest.upto` marks exactly these as seen (`mark_seen`)."""
        if observe:
            self.observe()
        mark = None if since is not None else self.watermark()
        start = since if since is not None else (mark.at if mark is not None else None)
        with self._read() as conn:
            newest = digest_read.newest_revision_id(conn) if self._own else 0
            found = (
                digest_read.stored_revisions(
                    conn, after_id=mark.revision_id if mark is not None else None, since=since
                )
                if self._own
                else []
            )
            candidates = digest_read.new_candidates(conn, start, inclusive=since is not None)
        found += self._kept_observations(since)
        return digest_read.build_digest(
            start, found, candidates, Watermark(self.now(), newest, self._kept_upto())
        )

    def _kept_upto(self) -> int:
        """How many observations a read-only store keeps in memory (the newest one's id is minus that)."""
        kept = self._memory_log.revisions.values() if self._memory_log is not None else ()
        return max((-rev.id for revs in kept for rev in revs), default=0)

    def _kept_observations(self, since: int | None) -> list[Revision]:
        """A read-only store's observations since the look (or made at `since` or later)."""
        if self._memory_log is None:
            return []
        kept = [rev for revs in self._memory_log.revisions.values() for rev in revs]
        if since is not None:
            return [rev for rev in kept if rev.changed_at >= since]
        return [rev for rev in kept if -rev.id > self._looked_in_memory]

    def changed_since_look(self) -> frozenset[int] | None:
        """Memories changed since the last look, whose cards carry a marker; None before the first look."""
        mark = self.watermark()
        if mark is None:
            return None
        found: set[int] = set()
        if self._own:
            with self._read() as conn:
                found = digest_read.changed_memory_ids(conn, mark.revision_id)
        found.update(rev.memory_id for rev in self._kept_observations(None))
        return frozenset(found)

    def mark_seen(self, upto: Watermark | None = None) -> Watermark:
        """Move the watermark to `upto` (a digest's), or to everything recorded now. A read-only store
        keeps it in memory; it never bumps the profile version (nothing the host injects changed)."""
        if upto is None:
            self.observe()  # what the host changed so far is seen too, and later changes compare with it
            with self._read() as conn:
                newest = digest_read.newest_revision_id(conn) if self._own else 0
            upto = Watermark(self.now(), newest, self._kept_upto())
        if self.read_only or not self._own:
            self._look = upto
            self._looked_in_memory = upto.kept
            return upto
        with self.write() as ctx:
            save_watermark(ctx.conn, upto)
        return upto

    # -- import ----------------------------------------------------------------------------------------

    def import_export(
        self, export: ExportFile, label: str, *, dry_run: bool = False
    ) -> importer.ImportResult:
        """Merge an export file's memories (`app.store.write.importer`): one transaction, one profile bump;
        an imported memory whose expiry has passed is dismissed at once. `dry_run` only reads."""
        if dry_run:
            with self._read() as conn:
                return importer.plan(conn, export)
        with self.write() as ctx:
            result = importer.import_memories(ctx, export, label)
            expiry_sweep.sweep(ctx)
        return result

    # --- latency ---

    def first_hits(
        self, flt: MemoryFilter, order: Sequence[int], limit: int, go_on: Callable[[], bool]
    ) -> list[int] | None:
        """A search's first `limit` hits along `order` (the same listing without the search, as the
        window last read it), `FIRST_HITS_CHUNK` ids per query, in that order; without observing.

        Each query looks up its ids by key and matches only those, so a term in most memories fills a
        screen in a few queries instead of ordering every row first. Between queries `go_on()` may end the
        walk (a newer search superseded this one): the hits found so far are returned. None when the
        search index narrows the search (`first_ids` reads it faster), or for a listing this cannot
        walk (the trash, a trust filter). Ids not in `order` (promoted since it was read) are not found
        here: the complete listing that follows has them."""
        if flt.status == "deleted" or flt.trust or not flt.search.strip():
            return None
        hits: list[int] = []
        with self._read() as conn:
            if self._indexed_terms(conn, flt):
                return None
            now = self.now()
            for start in range(0, len(order), FIRST_HITS_CHUNK):
                chunk = order[start : start + FIRST_HITS_CHUNK]
                found = set(conn.execute(select_among(flt, now, self._own, chunk)).scalars())
                hits += [memory_id for memory_id in chunk if memory_id in found]
                if len(hits) >= limit or not go_on():
                    break
        return hits[:limit]
