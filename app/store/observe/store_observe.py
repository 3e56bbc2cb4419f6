"""`Observing`: the part of `MemoryStore` that notices what others committed (`observe`).

Every listing, `get` and `history` looks first: outside rewrites of the host's table become observed
revisions and new candidates are archived, in one short write. A read-only store keeps what it observes
in memory (`MemoryObservations`); the `_kept_*` helpers read that log for the reads, the digest and
the past.
"""

from __future__ import annotations

from sqlalchemy import Connection

from app.core.errors import DatabaseLockedError, DatabaseReplacedError
from app.core.models import Revision
from app.store.base import StoreBase
from app.store.evidence import archive as evidence_archive
from app.store.observe.observe import MemoryObservations, find_changes, initial_seen, record_changes
from app.store.read.reads import fetch_revisions_by_id


class Observing(StoreBase):
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

    # -- what a read-only store keeps in memory --------------------------------------------------------

    def _kept_revisions(self) -> list[Revision]:
        """Observations a read-only store keeps in memory (none otherwise)."""
        if self._memory_log is None:
            return []
        return [revision for kept in self._memory_log.revisions.values() for revision in kept]

    def _kept_upto(self) -> int:
        """How many observations a read-only store keeps in memory (the newest one's id is minus that)."""
        return max((-rev.id for rev in self._kept_revisions()), default=0)

    def _kept_observations(self, since: int | None) -> list[Revision]:
        """A read-only store's observations since the look (or made at `since` or later)."""
        kept = self._kept_revisions()
        if since is not None:
            return [rev for rev in kept if rev.changed_at >= since]
        return [rev for rev in kept if -rev.id > self._looked_in_memory]
