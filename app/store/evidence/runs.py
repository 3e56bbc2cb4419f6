"""Review runs, read: the dashboard's own (`mdash_review_runs`, and the revisions carrying their run id)
and the host's (rows of its `dream_runs` whose `tasks_json` names the user-memory review task).

The host's review writes no revision of ours, so the changes of a host run are inferred: every outside
rewrite the dashboard observed inside the run's window (start to finish) is attributed to it and marked so.
`dream_runs` is the host's table and holds whatever the host put there: it is read with `SELECT *` (the
columns a run needs, where they exist), a `tasks_json` that cannot be read lists the row as an "unreadable
run", and times are read as `host_cells` reads any host timestamp. Nothing here writes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from sqlalchemy import Connection, and_, inspect, select

from app.core.models import UNDO_KEY, Revision, RevisionSource
from app.core.models.runs import ORIGIN_DASHBOARD, ORIGIN_HOST, ORIGIN_TIDY, Run, RunChange
from app.core.text_input import tolerant_json_loads
from app.store.evidence import project_runs
from app.store.read.host_cells import describe, text_value, time_note, time_value
from app.store.read.reads import revision_from_row
from app.store.schema.tables import review_runs, revisions

HOST_REVIEW_TASK = "review-user-memories"  # the host's Dreamer task that reviews user memories
HOST_RUNS_TABLE = "dream_runs"
HOST_PREFIX = "host:"
r = revisions.c


# -- the dashboard's runs --------------------------------------------------------------------------


def _count(summary: dict[str, Any], key: str) -> int | None:
    value = summary.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _ids(summary: dict[str, Any], key: str) -> tuple[int, ...] | None:
    value = summary.get(key)
    if not isinstance(value, list):
        return None
    return tuple(item for item in value if isinstance(item, int) and not isinstance(item, bool))


_OWN_RUNS = select(
    review_runs.c.run_id, review_runs.c.applied_at, review_runs.c.holder, review_runs.c.summary
)


def _own_run(row: Sequence[Any]) -> Run:
    run_id, applied_at, holder, text = row  # by position: a named attribute of a row costs ten times more
    parsed = tolerant_json_loads(text) if isinstance(text, str) else None
    summary = parsed if isinstance(parsed, dict) else {}
    return Run(
        run_id=text_value(run_id),
        origin=ORIGIN_TIDY if summary.get("origin") == ORIGIN_TIDY else ORIGIN_DASHBOARD,
        started_at=time_value(applied_at),
        finished_at=time_value(applied_at),
        holder=text_value(holder) if holder is not None else "",
        promoted=_count(summary, "promoted"),
        rewrote=_count(summary, "updated"),
        dismissed=_count(summary, "dismissed"),
        consumed=_count(summary, "consumed"),
        consumed_ids=_ids(summary, "consumed_candidate_ids"),
        problem=None if isinstance(parsed, dict) else "its summary is not a JSON object",
    )


def own_runs(conn: Connection, run_id: str | None = None) -> list[Run]:
    query = _OWN_RUNS
    if run_id is not None:
        query = query.where(review_runs.c.run_id == run_id)
    return [_own_run(row) for row in conn.execute(query)]


# -- the host's runs -------------------------------------------------------------------------------


def host_runs_exist(conn: Connection) -> bool:
    """Whether the database has a `dream_runs` (the shared schema does not define it: often it has not)."""
    return inspect(conn).has_table(HOST_RUNS_TABLE)


def _mark(conn: Connection) -> str:
    """The driver's placeholder for a raw statement: SQLite's `?`, psycopg's `%s`."""
    return "?" if conn.dialect.paramstyle == "qmark" else "%s"


def _task_names(tasks: object) -> list[str] | None:
    """The task names a `tasks_json` lists (entries `{"name": …}` or plain names); None if unreadable."""
    if not isinstance(tasks, list):
        return None
    names: list[str] = []
    for task in tasks:
        name = task.get("name") if isinstance(task, dict) else task
        if isinstance(name, str):
            names.append(name)
    return names


def _names(row: dict[str, Any]) -> list[str] | None:
    tasks = row.get("tasks_json")
    return _task_names(tolerant_json_loads(tasks) if isinstance(tasks, (str, bytes)) else None)


def _window(row: dict[str, Any]) -> tuple[int, int]:
    """A host run's window: its start to its finish (its start alone without a finish, or before it)."""
    start, finished = time_value(row.get("started_at")), row.get("finished_at")
    return start, start if finished is None else max(start, time_value(finished))


def _host_run(row: dict[str, Any], names: list[str] | None, inferred: int) -> Run:
    """A `dream_runs` row as a run (`names`: its tasks, None when `tasks_json` is unreadable)."""
    started, finished, holder = row.get("started_at"), row.get("finished_at"), row.get("holder_id")
    notes = tuple(
        note for note in (time_note("started_at", started), time_note("finished_at", finished)) if note
    )
    tasks = row.get("tasks_json")
    return Run(
        run_id=f"{HOST_PREFIX}{text_value(row.get('id', row.get('rowid')))}",
        origin=ORIGIN_HOST,
        started_at=time_value(started),
        finished_at=None if finished is None else time_value(finished),
        holder="" if holder is None else text_value(holder),
        inferred=inferred,
        problem=None if names is not None else f"tasks_json is {describe(tasks)}, not a JSON list of tasks",
        notes=notes,
    )


def _host_rows(conn: Connection, raw_id: str | None = None) -> list[dict[str, Any]]:
    """`dream_runs` rows as dicts (`rowid` too, where the table has no `id`); with `raw_id`, that id's row.
    A table without an `id` tells its rows apart by SQLite's `rowid`, or by PostgreSQL's `ctid` (the
    row's place in the table)."""
    columns = {column["name"] for column in inspect(conn).get_columns(HOST_RUNS_TABLE)}
    if conn.dialect.name == "sqlite":
        without_rowid = conn.exec_driver_sql(
            "SELECT 1 FROM sqlite_master WHERE name = ? AND sql LIKE '%WITHOUT ROWID%'", (HOST_RUNS_TABLE,)
        ).first()
        own_key = "id" in columns or without_rowid is not None
        place = "rowid"
    else:
        own_key, place = "id" in columns, "ctid"
    key = "id" if own_key else place
    sql = (
        f"SELECT * FROM {HOST_RUNS_TABLE}"
        if own_key
        else f"SELECT CAST({place} AS TEXT) AS rowid, * FROM {HOST_RUNS_TABLE}"
    )
    if raw_id is None:
        result = conn.exec_driver_sql(sql)
    else:
        result = conn.exec_driver_sql(f"{sql} WHERE CAST({key} AS TEXT) = {_mark(conn)}", (raw_id,))
    names = list(result.keys())
    return [dict(zip(names, row, strict=True)) for row in result]


def window_condition(run: Run) -> Any:
    """The observed revisions inside a host run's window (its start alone, when it has no finish)."""
    end = _window_end(run)
    return and_(r.source == RevisionSource.OBSERVED, r.changed_at >= run.started_at, r.changed_at <= end)


WINDOWS_PER_QUERY = 300  # three parameters each: under SQLite's oldest limit of 999


def _window_end(run: Run) -> int:
    return run.started_at if run.finished_at is None else max(run.finished_at, run.started_at)


def _stored_counts(
    conn: Connection,
    found: Sequence[tuple[int, int]],
    table: str = "mdash_revisions",
    paths: Sequence[str] = (),
) -> list[int]:
    """Observed revisions inside each run's window (of `table`; with `paths`, of each run's project
    only), in one statement per few hundred runs (a statement per run costs more in SQLAlchemy than
    SQLite's index seek)."""
    counts: list[int] = []
    for start in range(0, len(found), WINDOWS_PER_QUERY):
        part = found[start : start + WINDOWS_PER_QUERY]
        mark = _mark(conn)
        per_run = 4 if paths else 3
        rows = ", ".join("(" + ", ".join([mark] * per_run) + ")" for _ in part)
        names, where_path = ("w(k, s, e, p)", " AND project_path = w.p") if paths else ("w(k, s, e)", "")
        sql = (
            f"WITH {names} AS (VALUES {rows}) SELECT (SELECT count(*) FROM {table}"
            f" WHERE source = {mark} AND changed_at BETWEEN w.s AND w.e{where_path}) FROM w ORDER BY k"
        )
        params: list[object] = []
        for n, (begin, end) in enumerate(part):
            params += [n, begin, end, *([paths[start + n]] if paths else [])]
        result = conn.exec_driver_sql(sql, (*params, str(RevisionSource.OBSERVED)))
        counts.extend(int(row[0]) for row in result)
    return counts


def _in(window: tuple[int, int], revision: Revision) -> bool:
    return revision.source == RevisionSource.OBSERVED and window[0] <= revision.changed_at <= window[1]


def in_window(run: Run, revision: Revision) -> bool:
    """For observations kept in memory (a read-only store): `window_condition` in Python."""
    return _in((run.started_at, _window_end(run)), revision)


def _project_path(row: dict[str, Any]) -> str | None:
    path = row.get("project_path")
    return None if path is None else text_value(path)


def host_runs(
    conn: Connection, extra: Sequence[Revision] = (), raw_id: str | None = None, *, own: bool = True
) -> list[Run]:
    """The host's review runs, and its other dreamer runs inside whose window the dashboard observed
    changes to their project's memories (`extra`: observations kept in memory; `own`: whether our
    tables exist)."""
    if not host_runs_exist(conn):
        return []
    rows = [(row, _names(row)) for row in _host_rows(conn, raw_id)]
    readable = [(row, names) for row, names in rows if names is not None]
    projects = own and project_runs.has_project_log(conn)
    paths = [_project_path(row) or "" for row, _ in readable]
    windows = [_window(row) for row, _ in readable]
    in_projects = dict(
        zip(
            (id(row) for row, _ in readable),
            _stored_counts(conn, windows, project_runs.LOG, paths) if projects else [0] * len(readable),
            strict=True,
        )
    )
    judged = [
        (row, names)
        for row, names in rows
        if names is None or HOST_REVIEW_TASK in names or in_projects.get(id(row), 0) > 0
    ]
    reviewed = [(row, names) for row, names in judged if names is not None and HOST_REVIEW_TASK in names]
    stored = iter(_stored_counts(conn, [_window(row) for row, _ in reviewed]) if own else [0] * len(reviewed))
    counted = {id(row): next(stored) for row, _ in reviewed}
    return [
        replace(
            _host_run(row, names, counted[id(row)] + _kept(row, extra) if id(row) in counted else 0),
            project_path=_project_path(row),
            project_inferred=in_projects.get(id(row), 0),
        )
        for row, names in judged
    ]


def _kept(row: dict[str, Any], extra: Sequence[Revision]) -> int:
    window = _window(row)
    return sum(1 for revision in extra if _in(window, revision))


# -- both ------------------------------------------------------------------------------------------


def undone_runs(conn: Connection) -> dict[str, int]:
    """Each undone run's id with when its undo was made: the revisions an undo writes name their run in
    their detail (`UNDO_KEY`; the LIKE only narrows the scan, the parsed detail decides)."""
    query = select(r.detail, r.changed_at).where(
        r.source == RevisionSource.RESTORE, r.detail.like(f"%{UNDO_KEY}%")
    )
    found: dict[str, int] = {}
    for detail, changed_at in conn.execute(query):
        parsed = tolerant_json_loads(detail) if isinstance(detail, str) else None
        run_id = parsed.get(UNDO_KEY) if isinstance(parsed, dict) else None
        if isinstance(run_id, str):
            found[run_id] = min(found.get(run_id, changed_at), changed_at)
    return found


def _marked(runs: list[Run], conn: Connection, own: bool) -> list[Run]:
    """The runs, each undone one with when (our tables hold the undos: none without them)."""
    undone = undone_runs(conn) if own and runs else {}
    return [replace(run, undone_at=undone[run.run_id]) if run.run_id in undone else run for run in runs]


def all_runs(conn: Connection, extra: Sequence[Revision] = (), *, own: bool = True) -> list[Run]:
    """Every review run, newest first."""
    found = _marked([*(own_runs(conn) if own else []), *host_runs(conn, extra, own=own)], conn, own)
    return sorted(found, key=lambda run: (run.started_at, run.run_id), reverse=True)


def find_run(
    conn: Connection, run_id: str, extra: Sequence[Revision] = (), *, own: bool = True
) -> Run | None:
    if run_id.startswith(HOST_PREFIX):
        found = host_runs(conn, extra, run_id[len(HOST_PREFIX) :], own=own)
    else:
        found = own_runs(conn, run_id) if own else []
    found = _marked(found, conn, own)
    return found[0] if found else None


def run_changes(
    conn: Connection, run: Run, extra: Sequence[Revision] = (), *, own: bool = True
) -> list[RunChange]:
    """What a run changed, oldest first: its own revisions, or a host run's inferred ones."""
    if run.own:
        condition = r.run_id == run.run_id
    elif run.readable:
        condition = window_condition(run)
    else:
        return []
    query = select(revisions).where(condition).order_by(r.changed_at, r.id)
    found = [revision_from_row(row) for row in conn.execute(query)] if own else []
    if run.origin == ORIGIN_HOST:
        found += [revision for revision in extra if in_window(run, revision)]
        found.sort(key=lambda revision: (revision.changed_at, abs(revision.id)))
    inferred = run.origin == ORIGIN_HOST
    return [RunChange(revision, inferred) for revision in found]
