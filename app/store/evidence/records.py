"""`EvidenceRecords`: what the candidates said and what each review run did.

The evidence archive's words of candidates (stored, and on a read-only store also kept in this process:
`app.store.keeping`), the review runs (the dashboard's own and the host's, `app.store.evidence.runs`)
with their changes, and the undo of a run (one write: one restore revision per memory, one profile
bump; memories changed since are listed, not touched; the links the run made between memories dropped).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from app.core.errors import InvalidInputError, NotFoundError
from app.core.models.evidence import Evidence
from app.store.database import Database
from app.store.evidence import archive as evidence_archive
from app.store.links import RUN_MADE_BY, drop_links_made_by, present

if TYPE_CHECKING:
    from app.core.models.runs import Run, RunDetail, UndoResult


def _no_run(run_id: str) -> NotFoundError:
    return NotFoundError(f"no review run {run_id!r} (see `runs` for the runs there are)")


class EvidenceRecords:
    def __init__(self, db: Database) -> None:
        self._db = db

    def evidence(self, candidate_ids: Sequence[int]) -> dict[int, Evidence]:
        """The archived words, session and compartments of candidates, by id; an id missing from the
        answer was never seen by the dashboard (`app.core.models.evidence.NOT_ARCHIVED`)."""
        ids = list(dict.fromkeys(candidate_ids))
        found: dict[int, Evidence] = {}
        if self._db.archive_stored and ids:
            with self._db.read() as conn:
                found = evidence_archive.fetch_evidence(conn, ids)
        found.update(self._db.keeping.more_evidence([item for item in ids if item not in found]))
        return found

    def runs(self) -> list[Run]:
        """Every review run, newest first: the dashboard's own and the host's (`app.store.evidence.runs`).
        Observe first (`Observer.observe`) for a host run's inferred changes to include what was just
        rewritten."""
        from app.store.evidence import runs as review_runs  # the rare roles load when first asked for

        with self._db.read() as conn:
            return review_runs.all_runs(conn, self._db.keeping.revisions(), own=self._db.own)

    def run(self, run_id: str) -> RunDetail:
        """One run with its changes, oldest first; NotFoundError for an id no run has."""
        from app.core.models.runs import RunDetail
        from app.store.evidence import project_runs
        from app.store.evidence import runs as review_runs

        with self._db.read() as conn:
            kept = self._db.keeping.revisions()
            found = review_runs.find_run(conn, run_id, kept, own=self._db.own)
            if found is None:
                raise _no_run(run_id)
            changes = review_runs.run_changes(conn, found, kept, own=self._db.own)
            projects = project_runs.project_changes(conn, found) if self._db.own else []
        return RunDetail(found, tuple(changes), tuple(projects))

    def undo_run(self, run_id: str) -> UndoResult:
        """`runs undo`, the Runs dialog's Undo: every memory a run changed put back as it was before it."""
        from app.store.evidence import runs as review_runs
        from app.store.evidence import undo as run_undo

        with self._db.write() as ctx:
            found = review_runs.find_run(ctx.conn, run_id) if self._db.own else None
            if found is None:
                raise _no_run(run_id)
            if not found.readable:
                raise InvalidInputError(
                    f"run {run_id!r} is an unreadable run ({found.problem}); nothing undone"
                )
            result = run_undo.undo_run(ctx, found, review_runs.run_changes(ctx.conn, found))
            if result.restored and present(ctx.conn):
                drop_links_made_by(ctx, f"{RUN_MADE_BY}{run_id}")  # what they linked is put back
            return result
