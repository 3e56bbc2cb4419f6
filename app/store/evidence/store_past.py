"""`Past`: the part of `MemoryStore` that answers what happened: the evidence archive's words, review
runs, blame, memories as of an instant, and the digest of what changed since the person last looked.

Each reads the revisions (and the archive) after observing, unless told not to; none writes (undoing a
run and marking the digest seen are writes: `app.store.write.store_writes`).
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import Connection

from app.core.clock import format_instant
from app.core.errors import NotFoundError
from app.store.evidence import archive as evidence_archive
from app.store.evidence import runs as review_runs
from app.store.evidence.model import Evidence
from app.store.past import as_of as as_of_read
from app.store.past import as_of_scan
from app.store.past import blame as blame_read
from app.store.read import digest as digest_read
from app.store.read.digest import Digest, Watermark
from app.store.read.reads import fetch_rows
from app.store.read.store_reads import Reads


class Past(Reads):
    # -- the evidence archive and review runs ----------------------------------------------------------

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

    # -- blame and as-of ------------------------------------------------------------------------------

    def blame(self, memory_id: int, *, observe: bool = True) -> blame_read.Blame:
        """Each sentence (or line) of the memory's text with the revision that put it there in its current
        form, and the words of the candidates those revisions cite (`app.store.past.blame`)."""
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
        """`as_of`; with `profile`, only the memories injected at `at` and those unknown then."""
        self.observe()
        now = self.now()
        at = min(at, now)
        kept = self._memory_log is not None and bool(self._memory_log.revisions)
        with self._read() as conn:
            if self._own and ids is None and not kept and at < now:
                return as_of_scan.states_as_of(conn, at, now, profile=profile)  # every revision is stored
            if self._own:
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
        kept = self._memory_log.revisions if self._memory_log is not None else {}
        return [
            as_of_read.facts_from_history(item, self._history(conn, item.memory_id, True, False), at)
            if item.memory_id in kept
            else item
            for item in facts
        ]

    def profile_as_of(self, at: int) -> list[as_of_read.MemoryAsOf]:
        """What the agent was shown at `at`: memories injected then, and those whose state then is unknown."""
        return self._as_of(at, None, profile=True)

    def memory_as_of(self, memory_id: int, at: int) -> as_of_read.MemoryAsOf:
        found = self.as_of(at, [memory_id])
        if found:
            return found[0]
        if not self.history(memory_id, observe=False) and not self.get_many([memory_id]):
            raise NotFoundError(f"memory #{memory_id} does not exist")
        raise NotFoundError(f"memory #{memory_id} did not exist at {format_instant(min(at, self.now()))}")

    def first_ids_as_of(self, at: int, limit: int) -> list[int]:
        """The first `limit` ids of the memories as of `at`, newest (highest id) first, without observing
        or counting: the ids of host rows promoted by then (`as_of` of them says which existed and how);
        the window's first screen of the past, before the whole past is read."""
        with self._read() as conn:
            return as_of_read.first_ids(conn, min(at, self.now()), limit)

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
