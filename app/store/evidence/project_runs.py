"""What a host dreamer run changed among its project's memories: the outside changes the dashboard observed
(`mdash_project_revisions`, source `observed`) inside the run's window (start to finish) and of the run's
own project (`dream_runs.project_path`), attributed to it and marked inferred, as the user memories'
outside rewrites are attributed to the host's review runs (`app.store.evidence.runs`). Nothing here writes.
"""

from __future__ import annotations

from sqlalchemy import Connection, inspect, select

from app.core.models import RevisionSource
from app.core.models.runs import ORIGIN_HOST, Run, RunChange
from app.store.kinds import PROJECT_MEMORIES
from app.store.project.revisions import REVISION_COLUMNS
from app.store.read.reads import revision_from_row
from app.store.schema.tables import project_revisions

LOG = project_revisions.name
r = project_revisions.c


def has_project_log(conn: Connection) -> bool:
    return inspect(conn).has_table(LOG)


def project_changes(conn: Connection, run: Run) -> list[RunChange]:
    """The project memories' changes a host run is inferred to have made, oldest first."""
    if run.origin != ORIGIN_HOST or not run.readable or run.project_path is None or not has_project_log(conn):
        return []
    end = run.started_at if run.finished_at is None else max(run.finished_at, run.started_at)
    query = (
        select(*REVISION_COLUMNS)
        .where(
            r.source == RevisionSource.OBSERVED,
            r.project_path == run.project_path,
            r.changed_at >= run.started_at,
            r.changed_at <= end,
        )
        .order_by(r.changed_at, r.id)
    )
    return [RunChange(revision_from_row(row), True, PROJECT_MEMORIES.name) for row in conn.execute(query)]
