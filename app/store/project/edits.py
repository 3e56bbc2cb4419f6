"""`ProjectEdits`, the store's writers of project memories (`store.project_edits`): each one user-facing
change, the host's way (`app.store.project.writes`), with its revision in the project log and what the
store now sees of the row, all in one write transaction.

A writer opened inside a command's write (`app.commands.runner`) joins it, so the change, its revision
and the command's log row commit together or not at all. A write that changed nothing records nothing.
The commands (`app.commands.project`) call these for `do`, `undo` and `redo` alike: an undo of an edit
is an edit back, with its own revision, mutation log row, epoch bump and embeddings gone.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from sqlalchemy import Connection

from app.core.models import RevisionKind, RevisionSource
from app.store.database import Database
from app.store.project import revisions, writes
from app.store.project.model import ACTIVE
from app.store.project.writes import ProjectWrite

CATEGORY = "category"  # the revision kind of a category change (content and status as for user memories)


class ProjectEdits:
    def __init__(self, db: Database) -> None:
        self._db = db

    def _write(
        self,
        kind: str,
        writer: Callable[[Connection, int], ProjectWrite],
        detail: Mapping[str, Any] | None = None,
    ) -> ProjectWrite:
        with self._db.write() as ctx:
            done = writer(ctx.conn, ctx.now)
            if done.changed:
                revisions.record(ctx, kind, RevisionSource.DASHBOARD, done.before, done.after, detail=detail)
                revisions.mark_seen(ctx, done.after.id)
        return done

    def edit_content(self, memory_id: int, content: str) -> ProjectWrite:
        """The memory's text replaced (`DuplicateContentError` when its project and category hold it)."""
        return self._write(
            RevisionKind.CONTENT, lambda conn, now: writes.edit_content(conn, memory_id, content, now)
        )

    def change_category(self, memory_id: int, category: str) -> ProjectWrite:
        return self._write(CATEGORY, lambda conn, now: writes.change_category(conn, memory_id, category, now))

    def archive(self, memory_id: int, reason: str | None = None) -> ProjectWrite:
        """Archived, the reason kept in its metadata as the host keeps it (and in the revision)."""
        detail = {"reason": reason.strip()} if reason and reason.strip() else None
        return self._write(
            RevisionKind.STATUS, lambda conn, now: writes.archive(conn, memory_id, now, reason), detail
        )

    def restore(self, memory_id: int, status: str = ACTIVE) -> ProjectWrite:
        """Back to `status` (active unless an undo puts another back), its supersession link gone."""
        return self._write(
            RevisionKind.STATUS, lambda conn, now: writes.restore(conn, memory_id, now, status)
        )

    def supersede(self, memory_id: int, successor_id: int) -> ProjectWrite:
        """Superseded by `successor_id` and archived (an undo of a restore puts the link back so)."""
        return self._write(
            RevisionKind.STATUS, lambda conn, now: writes.supersede(conn, memory_id, successor_id, now)
        )
