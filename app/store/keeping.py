"""Where the dashboard keeps what it learns: in its own tables, or (a read-only store) in this process.

Four things are ours to keep: the person's trust marks, the observations of outside rewrites, the
evidence archive (candidates' words before the host consumes them) and the digest's watermark (the
person's last look). A writable store keeps them in its `mdash_*` tables (`KeptInTables`); a read-only
store cannot write, so it keeps them in memory for as long as it is open (`KeptInProcess`), over what
its tables held when it opened. The choice is made once, when the database opens
(`app.store.database.Database.keeping`): the services call one interface and never ask which.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Protocol

from sqlalchemy import Connection

from app.core.errors import DatabaseLockedError, DatabaseReplacedError
from app.core.models import Revision
from app.core.models.evidence import Evidence
from app.core.trust import DEFAULT_MARK
from app.store.evidence import archive as evidence_archive
from app.store.observe.change_watch import ChangeWatch
from app.store.read.reads import fetch_revisions_by_id
from app.store.read.rows import OwnFacts
from app.store.read.sources import load_marks
from app.store.write import trust_marks
from app.store.write.revision_log import WriteContext

if TYPE_CHECKING:
    from app.core.models.digest import Watermark

# Observing and the digest's watermark are not what opening a store or its first screen needs: their
# modules load where they are first asked for.


class Transactions(Protocol):
    """What keeping needs of the database (`app.store.database.Database`)."""

    own: bool
    archive_stored: bool
    ids_grow: bool
    watch: ChangeWatch
    warnings: list[str]

    def now(self) -> int: ...
    def read(self) -> AbstractContextManager[Connection]: ...
    def write(self) -> AbstractContextManager[WriteContext]: ...


def archive_in(db: Transactions, ctx: WriteContext) -> int:
    """Inside a write the caller opened, before it consumes candidates: archive every candidate not
    archived yet (observing, the review's apply and the triage writers call it); returns how many."""
    if not db.archive_stored:
        return 0
    return evidence_archive.archive_new(ctx.conn, ctx.now, db.ids_grow)


class Keeping(ABC):
    upkeep: bool  # whether this store does its own upkeep (the expiry sweep, the search index)
    looks_tell: bool  # whether a look can show that observing would find nothing (`change_watch`)

    # -- trust marks -----------------------------------------------------------------------------------

    @abstractmethod
    def marks(self, conn: Connection) -> Mapping[str, str]:
        """The person's marks: source (or scheme) -> `trusted` or `untrusted`."""

    @abstractmethod
    def set_mark(self, db: Transactions, source: str, trust: str) -> None:
        """Mark `source` `trust` (`default` removes the mark)."""

    # -- observations of outside rewrites --------------------------------------------------------------

    @abstractmethod
    def observe(self, db: Transactions) -> list[Revision]:
        """Record rewrites made outside the dashboard since the last look, of user and project memories
        (`app.store.observe.project_observe`); the new revisions of user memories (project memories'
        are read through the history with their kind)."""

    def revisions(self) -> list[Revision]:
        """Observations kept in this process (none where they are stored)."""
        return []

    def revisions_of(self, memory_id: int) -> list[Revision]:
        return []

    def revision(self, revision_id: int) -> Revision | None:
        return None

    def merge_facts(self, facts: dict[int, OwnFacts], ids: Iterable[int]) -> None:
        """Add what this process observed to the stored facts of `ids` (in place)."""
        return None  # nothing kept in this process: the stored facts are the whole story

    def observations_since(self, since: int | None) -> list[Revision]:
        """Observations kept in this process since the last look (or made at `since` or later)."""
        return []

    def kept_upto(self) -> int:
        """How many observations this process keeps (the newest one's id is minus that)."""
        return 0

    # -- the evidence archive --------------------------------------------------------------------------

    def more_evidence(self, ids: Sequence[int]) -> dict[int, Evidence]:
        """Candidates' words archived in this process only."""
        return {}

    # -- the digest's watermark ------------------------------------------------------------------------

    @abstractmethod
    def watermark(self, db: Transactions) -> Watermark | None:
        """The person's last look (None: never)."""

    @abstractmethod
    def save_watermark(self, db: Transactions, upto: Watermark) -> None: ...


class KeptInTables(Keeping):
    """A writable store: everything in its `mdash_*` tables, written in its own transactions."""

    upkeep = True
    looks_tell = True

    def marks(self, conn: Connection) -> Mapping[str, str]:
        return load_marks(conn)

    def set_mark(self, db: Transactions, source: str, trust: str) -> None:
        with db.write() as ctx:
            trust_marks.set_mark(ctx, source, trust)

    def observe(self, db: Transactions) -> list[Revision]:
        from app.store.observe.observe import find_changes, record_changes
        from app.store.observe.project_observe import find_project_changes, record_project_changes

        watch = db.watch
        with db.read() as conn:
            look = watch.look(conn)
            if watch.unchanged(look):
                return []
            found = find_changes(conn)
            projects = find_project_changes(conn)
            fresh = db.archive_stored and evidence_archive.has_new(conn, db.ids_grow)
            if not found and not projects and not fresh:
                watch.mark_clean(look)
                return []
        try:
            with db.write() as ctx:
                during = watch.look_in_write(ctx.conn)
                archive_in(db, ctx)
                if found:
                    record_changes(ctx, found)
                ids = list(ctx.revision_ids)  # the user memories' (the project log numbers its own)
                if projects:
                    record_project_changes(ctx, projects)
            watch.mark_recorded(look, during)
        except (DatabaseLockedError, DatabaseReplacedError) as exc:
            db.warnings.append(f"outside changes not recorded yet: {exc}")
            return []
        with db.read() as conn:
            return fetch_revisions_by_id(conn, ids)

    def watermark(self, db: Transactions) -> Watermark | None:
        from app.store.read.digest import read_watermark

        with db.read() as conn:
            return read_watermark(conn)

    def save_watermark(self, db: Transactions, upto: Watermark) -> None:
        from app.store.write.watermark import save_watermark

        with db.write() as ctx:
            save_watermark(ctx.conn, upto)


class KeptInProcess(Keeping):
    """A read-only store: marks, observations (negative revision ids), archived candidates and the last
    look kept in memory while it is open, over what its tables (if any) held when it opened. Project
    memories are not observed here: their history is what the project revision table already holds."""

    upkeep = False

    def __init__(self, marks: Mapping[str, str], *, looks_tell: bool) -> None:
        from app.store.observe.observe import MemoryObservations

        self._marks = dict(marks)
        # SQLite: a look cannot tell, since observations here are compared in Python (`observe` skips
        # its own look, but `changed_elsewhere` stays True); a server's look tells anyway.
        self.looks_tell = looks_tell
        self._log = MemoryObservations()
        self._archive = evidence_archive.MemoryArchive()
        self._look: Watermark | None = None
        self._looked_upto = 0  # how many of the observations kept here the last look covers

    def marks(self, conn: Connection) -> Mapping[str, str]:
        return self._marks

    def set_mark(self, db: Transactions, source: str, trust: str) -> None:
        if trust == DEFAULT_MARK:
            self._marks.pop(source, None)
        else:
            self._marks[source] = trust

    def observe(self, db: Transactions) -> list[Revision]:
        """A look, skipped while nobody committed since the last one: it reads every row's content into
        Python (a large store spends noticeable CPU on it), and an immutable or snapshot read never sees
        a commit at all."""
        from app.store.observe.observe import initial_seen

        log, watch = self._log, db.watch
        with db.read() as conn:
            look = watch.look(conn)
            if log.started and watch.unchanged(look):
                return []
            self._archive.look(conn, db.now(), db.ids_grow, db.archive_stored)
            initial = initial_seen(conn) if db.own and not log.started else None
            found = log.observe(conn, db.now(), initial)
            watch.mark_clean(look)  # what the log has seen is what this version holds
            return found

    def revisions(self) -> list[Revision]:
        return [revision for kept in self._log.revisions.values() for revision in kept]

    def revisions_of(self, memory_id: int) -> list[Revision]:
        return list(self._log.revisions.get(memory_id, []))

    def revision(self, revision_id: int) -> Revision | None:
        return next((rev for rev in _each(self._log.revisions.values()) if rev.id == revision_id), None)

    def merge_facts(self, facts: dict[int, OwnFacts], ids: Iterable[int]) -> None:
        for memory_id in ids:
            merged = self._log.facts(facts.get(memory_id), memory_id)
            if merged is not None:
                facts[memory_id] = merged

    def observations_since(self, since: int | None) -> list[Revision]:
        kept = self.revisions()
        if since is not None:
            return [rev for rev in kept if rev.changed_at >= since]
        return [rev for rev in kept if -rev.id > self._looked_upto]

    def kept_upto(self) -> int:
        return max((-rev.id for rev in self.revisions()), default=0)

    def more_evidence(self, ids: Sequence[int]) -> dict[int, Evidence]:
        return self._archive.find(ids)

    def watermark(self, db: Transactions) -> Watermark | None:
        if self._look is not None or not db.own:
            return self._look
        from app.store.read.digest import read_watermark

        with db.read() as conn:
            return read_watermark(conn)

    def save_watermark(self, db: Transactions, upto: Watermark) -> None:
        self._look = upto
        self._looked_upto = upto.kept


def _each(groups: Iterable[list[Revision]]) -> Iterator[Revision]:
    for group in groups:
        yield from group
