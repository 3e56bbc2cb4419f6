"""`MemoryEdits`: every change a person, the CLI, the hub or the demo makes is one public method here.

Each method is one `Database.write` (`BEGIN IMMEDIATE`, one profile bump when what the host injects
changed) around the writers of this package, and its one-line docstring names the user action that uses
it. Writes to the candidate pool go through `triage` (the review's lease rule); the review's verdicts go
through `app.review.apply`. The store's upkeep writes (observing, the search index) live with their
services; the undo of a review run with the runs (`app.store.evidence.records`).

Dismiss, reactivate, delete, expiry and restore act on one id or on many: many are one transaction (every
id checked first: one that is not there changes nothing), one revision per memory changed and one profile
bump. One id returns what it always did; a sequence returns the ids that changed, in the order given
(repeats dropped): reading many memories back would cost more than the write.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, overload

from app.core.errors import ConflictError, InvalidInputError
from app.core.models import Memory, MemoryStatus, Revision, RevisionSource
from app.core.trust import DEFAULT_MARK, MARKS, MEMORY_SOURCE_USER_EDIT, source_problem
from app.store.database import Database
from app.store.keeping import archive_in
from app.store.kinds import USER_MEMORIES, MemoryKind
from app.store.read.queries import MemoryQueries
from app.store.read.reads import fetch_revision
from app.store.write import (
    expiry_sweep,
    revision_log,
    writes,
)
from app.store.write.revision_log import WriteContext

if TYPE_CHECKING:
    from app.core.models.imports import ImportResult
    from app.store.write import synced
    from app.transfer.export_format import ExportFile

# The candidate pool's writers (under the review's lease), deletion and restore, imports (of export
# files and their project memories), the Tidy's merge and the hub's copy are rarer roles than opening a
# store: their modules load when first asked for.

KEEP = writes.KEEP


def _as_ids(memory_ids: int | Sequence[int]) -> list[int]:
    return [memory_ids] if isinstance(memory_ids, int) else list(memory_ids)


class MemoryEdits:
    def __init__(self, db: Database, queries: MemoryQueries, kind: MemoryKind = USER_MEMORIES) -> None:
        self._db = db
        self._queries = queries
        self._protocol = kind.writes  # told of each row written (`app.store.kinds`)

    @contextmanager
    def triage(self) -> Iterator[WriteContext]:
        """A write to the candidate pool outside the automated review (promote, merge, discard): refused
        while the review holds its lease, since it is about to consume the same pool and taking the lease
        from it would abort its whole run. The one place this rule is decided."""
        from app.store.write import lease

        with self._db.write() as ctx:
            lease.ensure_free(ctx.conn, ctx.now)
            archive_in(self._db, ctx)  # the candidates' words outlive their consumption
            yield ctx

    # -- a memory's text -------------------------------------------------------------------------------

    def add(self, content: str) -> Memory:
        """`add`, the window's New memory: a memory a person writes, trusted (`writes.add_memory`)."""
        # As the host writes a promotion (one `now`), of no candidates, its source `user:dashboard`.
        with self._db.write() as ctx:
            memory_id = writes.add_memory(ctx, content)
        return self._queries.get(memory_id)

    def edit(self, memory_id: int, content: str, *, expected: Memory | None = None) -> Memory:
        """`edit`, the window's Edit dialog and its undo: with `expected` (the memory as the person last saw
        it), refused if its text, status or time moved since."""
        with self._db.write() as ctx:
            if expected is not None:
                self._refuse_moved(ctx, memory_id, expected)
            if writes.update_content(ctx, memory_id, content, source=RevisionSource.DASHBOARD) is not None:
                revision_log.add_own_source(ctx, memory_id, MEMORY_SOURCE_USER_EDIT)
                self._protocol.content_written(ctx, memory_id)
        return self._queries.get(memory_id)

    def update_content(
        self,
        memory_id: int,
        content: str,
        appended_candidate_ids: Sequence[int] = (),
        *,
        run_id: str | None = None,
        source: str = RevisionSource.DASHBOARD,
    ) -> Memory:
        """The demo's review runs: new content (and candidate ids) as a run of `source` writes it."""
        with self._db.write() as ctx:
            written = writes.update_content(
                ctx, memory_id, content, appended_candidate_ids, run_id=run_id, source=source
            )
            if written is not None:
                self._protocol.content_written(ctx, memory_id)
        return self._queries.get(memory_id)

    def merge_memories(
        self, kept: int, absorbed: Sequence[int], content: str, sentences: Sequence[tuple[str, int]] = ()
    ) -> dict[int, tuple[int, ...]]:
        """`merge`, the Tidy dialog's Merge: `kept` gets `content` and the others' evidence, they are
        dismissed (`merging`); `sentences`: which member each merged sentence came from. Returns each
        absorbed memory's candidate ids."""
        from app.store.write import merging

        with self._db.write() as ctx:
            evidence = merging.merge_memories(ctx, kept, absorbed, content, sentences)
            revision_log.add_own_source(ctx, kept, MEMORY_SOURCE_USER_EDIT)
            self._protocol.content_written(ctx, kept)
            for memory_id in absorbed:
                self._protocol.status_written(ctx, memory_id)
        return evidence

    # -- the candidate pool: refused while the review holds its lease (`_triage`) --------------------

    def promote(
        self,
        candidate_ids: Sequence[int],
        content: str | None = None,
        *,
        run_id: str | None = None,
        source: str = RevisionSource.DASHBOARD,
    ) -> Memory:
        """`promote`, the window's review queue, the demo: candidates become one memory (`triage.promote`)."""
        # The content defaults to the candidates', joined into one line (`triage.one_line`).
        from app.store.write import triage

        with self.triage() as ctx:
            memory_id = triage.promote(ctx, candidate_ids, content, run_id=run_id, source=source)
        return self._queries.get(memory_id)

    def merge_candidates(
        self, memory_id: int, candidate_ids: Sequence[int], content: str | None = None
    ) -> Memory:
        """The window's review queue Merge: candidates folded into a memory (`triage.merge`)."""
        # Ids and provenance appended, candidates consumed, in one transaction and one profile bump;
        # `content` None keeps the text and adds the candidates' lines.
        from app.store.write import triage

        with self.triage() as ctx:
            triage.merge(ctx, memory_id, candidate_ids, content)
        return self._queries.get(memory_id)

    def discard_candidates(self, candidate_ids: Sequence[int]) -> int:
        """`discard`, the window's review queue, the demo: candidates deleted unused; returns how many."""
        from app.store.write import triage

        if not candidate_ids:
            return 0
        with self.triage() as ctx:
            return triage.discard(ctx, candidate_ids)

    def copy_from_machine(self, memory: synced.MachineMemory) -> Memory:
        """`hub pull` ("Copy to this machine"): another machine's memory as a new one here (`synced`)."""
        from app.store.write import synced

        with self._db.write() as ctx:
            memory_id = synced.copy_memory(ctx, memory)
        return self._queries.get(memory_id)

    # -- status, deletion and expiry: one id or many (see the module's docstring) ----------------------

    @overload
    def dismiss(self, memory_ids: int, reason: str | None = None) -> Memory: ...
    @overload
    def dismiss(self, memory_ids: Sequence[int], reason: str | None = None) -> list[int]: ...
    def dismiss(self, memory_ids: int | Sequence[int], reason: str | None = None) -> Memory | list[int]:
        """`dismiss`, `retire`, the window's Dismiss and its undo, a hub request: no longer injected."""
        with self._db.write() as ctx:
            ids = writes.require_all(ctx, _as_ids(memory_ids))
            changed = writes.set_statuses(ctx, ids, MemoryStatus.DISMISSED, reason=reason)
            for memory_id in changed:
                self._protocol.status_written(ctx, memory_id)
        return self._written(memory_ids, [i for i in ids if i in changed])

    @overload
    def reactivate(self, memory_ids: int, new_expiry: int | object | None = KEEP) -> Memory: ...
    @overload
    def reactivate(self, memory_ids: Sequence[int], new_expiry: int | object | None = KEEP) -> list[int]: ...
    def reactivate(
        self, memory_ids: int | Sequence[int], new_expiry: int | object | None = KEEP
    ) -> Memory | list[int]:
        """`reactivate`, the window's Reactivate and undo: active again (expired ones need `new_expiry`)."""
        with self._db.write() as ctx:
            ids = writes.require_all(ctx, _as_ids(memory_ids))
            changed = [i for i in ids if writes.reactivate(ctx, i, new_expiry) is not None]  # type: ignore[arg-type]
            for memory_id in changed:
                self._protocol.status_written(ctx, memory_id)
        return self._written(memory_ids, changed if not isinstance(memory_ids, int) else ids)

    @overload
    def delete(self, memory_ids: int, *, expected: Memory | None = None) -> Revision: ...
    @overload
    def delete(self, memory_ids: Sequence[int], *, expected: None = None) -> list[int]: ...
    def delete(
        self, memory_ids: int | Sequence[int], *, expected: Memory | None = None
    ) -> Revision | list[int]:
        """`delete`, `retire --delete`, the window's Delete and undo: one id returns its delete revision.
        With `expected` (the undo of a promotion), refused if its text, status or time moved since."""
        from app.store.write import removal

        with self._db.write() as ctx:
            ids = writes.require_all(ctx, _as_ids(memory_ids))
            if expected is not None:
                if ids != [expected.id]:
                    raise InvalidInputError("a delete expecting a memory's state deletes that memory alone")
                self._refuse_moved(ctx, expected.id, expected)
            revision_ids = [removal.delete_memory(ctx, memory_id) for memory_id in ids]
        if not isinstance(memory_ids, int):
            return ids
        with self._db.read() as conn:
            revision = fetch_revision(conn, revision_ids[0])
        assert revision is not None
        return revision

    @overload
    def restore(self, memory_ids: int, revision_id: int | None = None) -> Memory: ...
    @overload
    def restore(self, memory_ids: Sequence[int], revision_id: None = None) -> list[int]: ...
    def restore(self, memory_ids: int | Sequence[int], revision_id: int | None = None) -> Memory | list[int]:
        """`restore`, the history's Restore, the trash's Restore (no revision) and undo (a new revision)."""
        # Without a revision (and for many ids) each memory must be deleted, and comes back from its
        # latest delete revision; history is never rewritten.
        from app.store.write import removal

        ids = list(dict.fromkeys(_as_ids(memory_ids)))
        with self._db.write() as ctx:
            if revision_id is None:
                removal.restore_deleted(ctx, ids, source=RevisionSource.RESTORE)
            elif len(ids) != 1:
                raise InvalidInputError("a revision belongs to one memory: restore many without one")
            else:
                if removal.restore(ctx, ids[0], revision_id, source=RevisionSource.RESTORE) is not None:
                    self._protocol.content_written(ctx, ids[0])
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
        """`expire`, the window's Expiry dialog and undo, the demo: set or clear (None) the expiry."""
        # The same for every id or each its own (a mapping, as an undo puts them back); one already
        # passed dismisses the memory at once.
        with self._db.write() as ctx:
            ids = writes.require_all(ctx, _as_ids(memory_ids))
            changed = []
            for memory_id in ids:
                at = expires_at.get(memory_id) if isinstance(expires_at, Mapping) else expires_at
                if writes.set_expiry(ctx, memory_id, at) is not None:
                    changed.append(memory_id)
            expiry_sweep.sweep(ctx)
        return self._written(memory_ids, changed if not isinstance(memory_ids, int) else ids)

    def put_back(self, before: Mapping[int, tuple[str | None, int | None]]) -> list[int]:
        """The window's Undo of Reactivate and of an expiry change: each memory's status (None: left as it
        is) and expiry as they were before, in one write; one whose expiry put back has passed stays
        dismissed (as the sweep leaves any expired memory). Returns the ids that changed."""
        with self._db.write() as ctx:
            ids = writes.require_all(ctx, list(before))
            changed = {i for i in ids if writes.set_expiry(ctx, i, before[i][1]) is not None}
            lapsed = {i for i in ids if (at := before[i][1]) is not None and at <= ctx.now}
            for status in dict.fromkeys(status for status, _ in before.values() if status is not None):
                wanted = [i for i in ids if before[i][0] == status]
                if status == MemoryStatus.ACTIVE:
                    wanted = [i for i in wanted if i not in lapsed]
                changed.update(writes.set_statuses(ctx, wanted, status))
            expiry_sweep.sweep(ctx)
        return [i for i in ids if i in changed]

    def _refuse_moved(self, ctx: revision_log.WriteContext, memory_id: int, expected: Memory) -> None:
        """A write that expects the row as the person last saw it: refused if its text, status or time
        moved since (a raw rewrite may leave the time as it was)."""
        row = writes.require_row(ctx, memory_id)
        seen = (expected.content, expected.status, expected.updated_at)
        if (row.content, row.status, row.updated_at) != seen:
            raise ConflictError(
                f"memory #{memory_id} changed since you opened it",
                self._queries.memories(ctx.conn, [memory_id], ctx.now)[0],
            )

    @overload
    def _written(self, asked: int, ids: list[int]) -> Memory: ...
    @overload
    def _written(self, asked: Sequence[int], ids: list[int]) -> list[int]: ...
    def _written(self, asked: int | Sequence[int], ids: list[int]) -> Memory | list[int]:
        """What a writer of one id or many returns: the memory (changed or not), or the ids that changed."""
        return self._queries.get(asked) if isinstance(asked, int) else ids

    def sweep(self) -> list[int]:
        """`sweep`, every writable open, the window's minute timer: dismiss memories whose expiry passed."""
        if not self._db.keeping.upkeep:
            return []
        with self._db.read() as conn:
            if not expiry_sweep.due_ids(conn, self._db.now()):
                return []
        with self._db.write() as ctx:
            return expiry_sweep.sweep(ctx)

    # -- marks, the digest's look, imports and runs --------------------------------------------------

    def set_trust(self, source: str, trust: str) -> dict[str, str]:
        """`trust`, the provenance table's menu: a source or scheme marked (`default` removes the mark)."""
        # A read-only store keeps its marks in memory. No profile bump: the host injects whatever the trust.
        if trust not in (*MARKS, DEFAULT_MARK):
            raise InvalidInputError(f"trust must be one of {', '.join((*MARKS, DEFAULT_MARK))}")
        problem = source_problem(source)
        if problem is not None:
            raise InvalidInputError(f"the source {problem}; no mark was set")
        self._db.keeping.set_mark(self._db, source, trust)
        return self._queries.trust_marks()

    def import_export(self, export: ExportFile, label: str, *, dry_run: bool = False) -> ImportResult:
        """`import`, the window's Import: an export file merged (`importer`); `dry_run` only reads."""
        # One transaction, one profile bump; an imported memory whose expiry has passed is dismissed at once.
        from app.store.project import importing as project_importing
        from app.store.write import importer

        if dry_run:
            with self._db.read() as conn:
                result = importer.plan(conn, export)
                if export.project_memories:
                    result.projects = project_importing.plan(conn, export.project_memories)
                return result
        with self._db.write() as ctx:
            result = importer.import_memories(ctx, export, label)
            if export.project_memories:
                result.projects = project_importing.import_project_memories(
                    ctx, export.project_memories, label, export.exported_at
                )
            expiry_sweep.sweep(ctx)
        return result
