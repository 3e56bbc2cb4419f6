"""`History`: what happened to memories: each one's revisions, blame, memories as of an instant, and
the digest of what changed since the person last looked (and marking it seen).

Revisions are stored in `mdash_revisions`; a read-only store adds those it observed in this process
(`app.store.keeping`). No read observes: whoever wants outside rewrites among them calls
`Observer.observe` first.

The kind of memory is a parameter: `history(id, kind=PROJECT_MEMORIES)` and `blame(id, kind=...)` read
the project revision log instead (`app.store.past.project_past`), and `project_as_of` is a project as of
an instant; `project_revision_rows` gives a project memory's revisions' rows before and after. A
read-only store observes no project memories: their past there is what the log holds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from sqlalchemy import Connection

from app.core.clock import format_instant
from app.core.errors import NotFoundError
from app.core.models import Revision
from app.store.database import Database
from app.store.evidence.records import EvidenceRecords
from app.store.kinds import USER_MEMORIES, MemoryKind
from app.store.read.queries import MemoryQueries
from app.store.read.reads import fetch_revision, fetch_revisions, fetch_rows

if TYPE_CHECKING:
    from app.core.models.as_of import MemoryAsOf
    from app.core.models.blame import Blame
    from app.core.models.digest import Digest, Watermark
    from app.store.past import as_of as as_of_read
    from app.store.past.project_past import ProjectMemoryAsOf
    from app.store.project import revisions as project_log
    from app.store.project.reads import ProjectKey

# A memory's revisions are what a first screen reads; blame, as-of, the digest and the project log are
# rarer roles, whose modules (rapidfuzz with blame) load where they are first asked for.


class History:
    def __init__(self, db: Database, queries: MemoryQueries, evidence: EvidenceRecords) -> None:
        self._db = db
        self._queries = queries
        self._evidence = evidence

    # -- revisions -------------------------------------------------------------------------------------

    def history(
        self,
        memory_id: int,
        *,
        texts: bool = True,
        newest_whole: bool = False,
        kind: MemoryKind = USER_MEMORIES,
    ) -> list[Revision]:
        """Every revision of a memory (deleted ones too), oldest first; `texts=False` reads them without
        their contents (`Revision.texts_loaded` False; `revision` reads one whole), except the newest
        one's when `newest_whole` (the diff a history panel shows first). One read transaction: a
        selection in the window reads this and waits for it before its diff. A project memory's
        (`kind`) are read whole, from its own log."""
        with self._db.read() as conn:
            if kind is not USER_MEMORIES:
                from app.store.past import project_past

                return project_past.history(conn, memory_id) if self._project_log(conn) else []
            return self._history(conn, memory_id, texts, newest_whole)

    def project_revision_rows(self, memory_id: int) -> dict[int, project_log.RowPair]:
        """Each revision of a project memory (`history(id, kind=PROJECT_MEMORIES)`): its row's tracked
        fields before and after (category, expiry, supersession...), by revision id."""
        from app.store.project import revisions as project_log

        with self._db.read() as conn:
            return project_log.rows_of_memory(conn, memory_id) if self._project_log(conn) else {}

    def _project_log(self, conn: Connection) -> bool:
        """Whether the project revision log is there to read (our tables at their newest)."""
        from app.store.past import project_past

        return self._db.own and project_past.has_log(conn)

    def _history(self, conn: Connection, memory_id: int, texts: bool, newest_whole: bool) -> list[Revision]:
        stored = fetch_revisions(conn, memory_id, texts=texts) if self._db.own else []
        extra = self._db.keeping.revisions_of(memory_id)
        found = sorted([*stored, *extra], key=lambda rev: (rev.changed_at, abs(rev.id)))
        if newest_whole and found and not found[-1].texts_loaded:
            whole = fetch_revision(conn, found[-1].id)
            if whole is not None:
                found[-1] = whole
        return found

    def revision(self, revision_id: int) -> Revision:
        """One revision with its texts (a revision kept in memory only, on a read-only store, too)."""
        revision = self._db.keeping.revision(revision_id)
        if revision is not None:
            return revision
        with self._db.read() as conn:
            revision = fetch_revision(conn, revision_id) if self._db.own else None
        if revision is None:
            raise NotFoundError(f"revision #{revision_id} does not exist")
        return revision

    # -- blame and as-of ------------------------------------------------------------------------------

    def blame(self, memory_id: int, *, kind: MemoryKind = USER_MEMORIES) -> Blame:
        """Each sentence (or line) of the memory's text with the revision that put it there in its current
        form, and the words of the candidates those revisions cite (`app.store.past.blame`); a project
        memory's (`kind`) cite none."""
        from app.store.past import as_of as as_of_read
        from app.store.past import blame as blame_read

        if kind is not USER_MEMORIES:
            return self._project_blame(memory_id)
        revisions = self.history(memory_id)
        cited = blame_read.cited_ids(revisions)
        archived = self._evidence.evidence(cited)
        with self._db.read() as conn:
            rows = fetch_rows(conn, [memory_id])
            if not rows and not revisions:
                raise NotFoundError(f"memory #{memory_id} does not exist")
            first_seen = as_of_read.recorded_first_seen(conn, memory_id) if self._db.own else None
            evidence = blame_read.evidence_words(conn, cited, archived)
        current = rows[0].content if rows else None
        return blame_read.build_blame(memory_id, revisions, current, first_seen, evidence)

    def _project_blame(self, memory_id: int) -> Blame:
        from app.store.past import project_past

        with self._db.read() as conn:
            logged = self._project_log(conn)
            revisions = project_past.history(conn, memory_id) if logged else []
            found = project_past.blame(conn, memory_id, revisions, logged)
        if found is None:
            raise NotFoundError(f"project memory #{memory_id} does not exist")
        return found

    def project_as_of(self, project: ProjectKey, at: int) -> list[ProjectMemoryAsOf]:
        """What the host would have injected for `project` at `at`, in its order, then the memories whose
        state then is unknown (`app.store.past.project_past`). An instant after now is now."""
        from app.store.past import project_past

        with self._db.read() as conn:
            if not project_past.has_memories(conn):
                return []
            return project_past.project_as_of(conn, project, at, self._db.now(), self._project_log(conn))

    def as_of(self, at: int, ids: Sequence[int] | None = None) -> list[MemoryAsOf]:
        """Every memory (or those of `ids`) as it was at instant `at`, rebuilt from the revisions; a
        memory that did not exist then is left out, one the dashboard has
        no record of then is marked unknown. An instant after now is now."""
        return self._as_of(at, ids, profile=False)

    def _as_of(self, at: int, ids: Sequence[int] | None, *, profile: bool) -> list[MemoryAsOf]:
        """`as_of`; with `profile`, only the memories injected at `at` and those unknown then."""
        from app.store.past import as_of as as_of_read

        now = self._db.now()
        at = min(at, now)
        kept = bool(self._db.keeping.revisions())
        with self._db.read() as conn:
            if self._db.own and ids is None and not kept and at < now:
                from app.store.past import as_of_scan  # a rare role: loaded when first asked for

                return as_of_scan.states_as_of(conn, at, now, profile=profile)  # every revision is stored
            if self._db.own:
                facts = as_of_read.fetch_facts(conn, at, ids)
            else:
                facts = as_of_read.host_only_facts(conn, ids)
            if kept:
                facts = self._facts_with_kept(conn, facts, at)
        states = (as_of_read.resolve(item, at, now) for item in facts)
        found = (state for state in states if state is not None)
        return as_of_read.ordered(item for item in found if not profile or item.injected or not item.known)

    def _facts_with_kept(
        self, conn: Connection, facts: list[as_of_read.Facts], at: int
    ) -> list[as_of_read.Facts]:
        """A read-only store's facts, recomputed for the memories it observed changing in this process."""
        from app.store.past import as_of as as_of_read

        kept = {rev.memory_id for rev in self._db.keeping.revisions()}
        return [
            as_of_read.facts_from_history(item, self._history(conn, item.memory_id, True, False), at)
            if item.memory_id in kept
            else item
            for item in facts
        ]

    def profile_as_of(self, at: int) -> list[MemoryAsOf]:
        """What the agent was shown at `at`: memories injected then, and those whose state then is unknown."""
        return self._as_of(at, None, profile=True)

    def memory_as_of(self, memory_id: int, at: int) -> MemoryAsOf:
        found = self.as_of(at, [memory_id])
        if found:
            return found[0]
        if not self.history(memory_id) and not self._queries.get_many([memory_id]):
            raise NotFoundError(f"memory #{memory_id} does not exist")
        raise NotFoundError(f"memory #{memory_id} did not exist at {format_instant(min(at, self._db.now()))}")

    def first_ids_as_of(self, at: int, limit: int) -> list[int]:
        """The first `limit` ids of the memories as of `at`, newest (highest id) first, without observing
        or counting: the ids of host rows promoted by then (`as_of` of them says which existed and how);
        the window's first screen of the past, before the whole past is read."""
        from app.store.past import as_of as as_of_read

        with self._db.read() as conn:
            return as_of_read.first_ids(conn, min(at, self._db.now()), limit)

    # -- the digest: what changed since the person last looked ----------------------------------------

    def watermark(self) -> Watermark | None:
        """The person's last look (None: never), kept per database; in memory on a read-only store."""
        return self._db.keeping.watermark(self._db)

    def digest(self, since: int | None = None) -> Digest:
        """What changed since the last look (or since the instant `since`); `Digest.upto` marks exactly
        these as seen (`mark_seen`)."""
        from app.core.models.digest import Watermark
        from app.store.read import digest as digest_read

        mark = None if since is not None else self.watermark()
        start = since if since is not None else (mark.at if mark is not None else None)
        with self._db.read() as conn:
            newest = digest_read.newest_revision_id(conn) if self._db.own else 0
            found = (
                digest_read.stored_revisions(
                    conn, after_id=mark.revision_id if mark is not None else None, since=since
                )
                if self._db.own
                else []
            )
            candidates = digest_read.new_candidates(conn, start, inclusive=since is not None)
        found += self._db.keeping.observations_since(since)
        return digest_read.build_digest(
            start, found, candidates, Watermark(self._db.now(), newest, self._db.keeping.kept_upto())
        )

    def changed_since_look(self) -> frozenset[int] | None:
        """Memories changed since the last look, whose cards carry a marker; None before the first look."""
        from app.store.read import digest as digest_read

        mark = self.watermark()
        if mark is None:
            return None
        found: set[int] = set()
        if self._db.own:
            with self._db.read() as conn:
                found = digest_read.changed_memory_ids(conn, mark.revision_id)
        found.update(rev.memory_id for rev in self._db.keeping.observations_since(None))
        return frozenset(found)

    def mark_seen(self, upto: Watermark | None = None) -> Watermark:
        """`digest --mark-seen`, the digest dialog's Mark seen, a first open: the watermark moves."""
        from app.core.models.digest import Watermark
        from app.store.read import digest as digest_read

        # To `upto` (a digest's), or to everything recorded now (observe first for what the host changed
        # so far to be seen too). It never bumps the profile version (nothing the host injects changed).
        if upto is None:
            with self._db.read() as conn:
                newest = digest_read.newest_revision_id(conn) if self._db.own else 0
            upto = Watermark(self._db.now(), newest, self._db.keeping.kept_upto())
        self._db.keeping.save_watermark(self._db, upto)
        return upto
