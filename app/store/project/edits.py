"""`ProjectEdits`, the store's writers of project memories (`store.project_edits`): each one user-facing
change, the host's way (`app.store.project.writes`), with its revision in the project log and what the
store now sees of the row, all in one write transaction.

A writer opened inside a command's write (`app.commands.runner`) joins it, so the change, its revision
and the command's log row commit together or not at all. A write that changed nothing records nothing.
The commands (`app.commands.project`) call these for `do`, `undo` and `redo` alike: an undo of an edit
is an edit back, with its own revision, mutation log row, epoch bump and embeddings gone. The undo of an
import deletes the project memories it brought in (`delete`), its redo brings them back (`bring_back`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sqlalchemy import Connection

from app.core.models import RevisionKind, RevisionSource
from app.store.database import Database
from app.store.links import drop_links_of
from app.store.project import removal, revisions, writes
from app.store.project.model import ACTIVE
from app.store.project.removal import Cell, Outcome
from app.store.project.service import PROJECT_KIND
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

    def change_category(self, memory_id: int, category: str, *, typed: bool = False) -> ProjectWrite:
        """Moved to `category`; `typed`: one a person gave, screened for hidden characters."""
        return self._write(
            CATEGORY, lambda conn, now: writes.change_category(conn, memory_id, category, now, typed=typed)
        )

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

    def rows(self, memory_ids: Sequence[int]) -> dict[int, dict[str, Cell]]:
        """The memories' rows as the host holds them (numbers and text): what `bring_back` takes."""
        with self._db.read() as conn:
            return removal.row_cells(conn, memory_ids)

    def delete(self, memory_ids: Sequence[int]) -> Outcome:
        """Deleted the host's way (`removal.delete`), each with a `delete` revision; the links that
        named them in our links table go too, and their seen copies."""
        with self._db.write() as ctx:
            done = removal.delete(ctx.conn, memory_ids, ctx.now)
            for memory in done.written:
                revisions.record(ctx, RevisionKind.DELETE, RevisionSource.DASHBOARD, memory, None)
            gone = [memory.id for memory in done.written]
            drop_links_of(ctx, PROJECT_KIND, gone)
            revisions.forget_seen(ctx, gone)
        return done

    def bring_back(self, rows: Mapping[int, Mapping[str, Cell]]) -> Outcome:
        """Deleted memories back with their ids (`removal.reinsert`), each with a `create` revision."""
        with self._db.write() as ctx:
            done = removal.reinsert(ctx.conn, rows, ctx.now)
            for memory in done.written:
                revisions.record(ctx, RevisionKind.CREATE, RevisionSource.RESTORE, None, memory)
                revisions.mark_seen(ctx, memory.id)
        return done

    def supersede(self, memory_id: int, successor_id: int) -> ProjectWrite:
        """Superseded by `successor_id` and archived (an undo of a restore puts the link back so)."""
        return self._write(
            RevisionKind.STATUS, lambda conn, now: writes.supersede(conn, memory_id, successor_id, now)
        )
