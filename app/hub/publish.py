"""`hub publish`: this machine's memories, revisions and evidence into the hub, keyed by (machine, id).

The first publish sends everything; later ones what changed since the watermarks kept per machine in
`hub_machines` (memories changed at or after the last `updated_at` sent, revisions and archived
candidates after the last id sent). Each batch is one hub transaction that also moves its watermark, so
a publish killed midway leaves the hub as it was before or after each batch, and the next publish goes on
from there. Rows are sent with `COPY` into a temporary table, then merged: a memory row is rewritten only
when it differs, a revision or an archived candidate never, so publishing twice changes nothing. Memories
this machine no longer holds leave the hub (their revisions and evidence stay). Dismissals requested from
the hub for this machine's memories are applied first (`app.hub.requests`), and a writable store looks for
outside changes and new candidates (`MemoryStore.observe`), so the same publish sends them. The hub is
connected to before the local store is opened: a hub that is down, refuses the login or is not set up
(`hub setup`; a publish never makes the hub's tables) is a message and nothing local is opened, let alone
written. The temporary tables are named in `pg_temp`, the hub's in the hub's schema
(`app.core.hub_layout`). Last come the host's project memories, project by project
(`app.hub.project_publish`), every project's or the one `project` names.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import closing
from dataclasses import asdict, dataclass, field, replace
from typing import Any

import psycopg
from sqlalchemy import Connection

from app.core.hub_layout import EVIDENCE, MACHINES, MEMORIES, REVISIONS
from app.core.text_input import INT64_MIN
from app.hub import local
from app.hub.connect import HubError, connect_hub, hub_location
from app.hub.project_publish import ProjectsSent, choose_project, send_projects
from app.hub.requests import RefusedRequest, apply_pending, has_pending, refused_text
from app.hub.schema.tables import require_schema
from app.hub.upsert import copy_rows, merge_statement
from app.store.connect.server import unreachable_message
from app.store.project.projects import Project
from app.store.read.host_cells import TIME_MAX
from app.store.store import MemoryStore

BATCH = 20_000
INCOMING_MEMORIES = "pg_temp.hub_incoming_memories"
INCOMING_REVISIONS = "pg_temp.hub_incoming_revisions"
INCOMING_EVIDENCE = "pg_temp.hub_incoming_evidence"

_INCOMING = (
    f"CREATE TEMP TABLE IF NOT EXISTS {INCOMING_MEMORIES} (memory_id bigint, content text, status text,"
    " promoted_at bigint, created_at bigint, updated_at bigint, source_candidate_ids text,"
    " source_candidate_provenance text) ON COMMIT DELETE ROWS",
    f"CREATE TEMP TABLE IF NOT EXISTS {INCOMING_REVISIONS} (revision_id bigint, memory_id bigint,"
    " changed_at bigint, kind text, source text, run_id text, candidate_ids text, previous_content text,"
    " new_content text, previous_status text, new_status text, detail text) ON COMMIT DELETE ROWS",
    f"CREATE TEMP TABLE IF NOT EXISTS {INCOMING_EVIDENCE} (candidate_id bigint, content text,"
    " session_id text, source_compartment_start bigint, source_compartment_end bigint, created_at bigint,"
    " first_seen_at bigint, detail text) ON COMMIT DELETE ROWS",
)


MERGE_MEMORIES = merge_statement(
    MEMORIES, INCOMING_MEMORIES, local.MEMORY_COLUMNS, ("memory_id",), update=True
)
MERGE_REVISIONS = merge_statement(
    REVISIONS, INCOMING_REVISIONS, local.REVISION_COLUMNS, ("revision_id",), update=False
)
MERGE_EVIDENCE = merge_statement(
    EVIDENCE, INCOMING_EVIDENCE, local.EVIDENCE_COLUMNS, ("candidate_id",), update=False
)
_MARKS = f"SELECT memory_mark, revision_mark, evidence_mark, published_at FROM {MACHINES} WHERE machine = %s"
_SAVE_MARKS = (
    f"INSERT INTO {MACHINES} AS m (machine, memory_mark, revision_mark, evidence_mark, published_at,"
    " checked_at) VALUES (%(machine)s, %(memory_mark)s, %(revision_mark)s, %(evidence_mark)s,"
    " %(published_at)s, %(checked_at)s) ON CONFLICT (publisher, machine) DO UPDATE SET"
    " memory_mark = excluded.memory_mark, revision_mark = excluded.revision_mark,"
    " evidence_mark = excluded.evidence_mark, published_at = excluded.published_at,"
    " checked_at = coalesce(excluded.checked_at, m.checked_at)"
)
_REMOVE_GONE = f"DELETE FROM {MEMORIES} WHERE machine = %s AND memory_id = ANY(%s::bigint[])"


@dataclass(frozen=True, slots=True)
class _Kept:
    """A local table (`held`) and the hub table that must hold its every row, by id."""

    held: local.Held
    table: str
    id_column: str

    @property
    def tally(self) -> str:
        """The hub's tally of a machine's rows, summed as `local.Held.tally` sums (`%%`: psycopg's `%`)."""
        return (
            f"SELECT count(*), coalesce(sum({self.id_column} %% {local.TALLY_MODULUS}), 0) FROM {self.table}"
            " WHERE machine = %s"
        )

    @property
    def ids(self) -> str:
        return f"SELECT {self.id_column} FROM {self.table} WHERE machine = %s"


_KEPT_MEMORIES = _Kept(local.MEMORIES, MEMORIES, "memory_id")
_KEPT_EVIDENCE = _Kept(local.EVIDENCE, EVIDENCE, "candidate_id")


@dataclass(slots=True)
class Marks:
    """A machine's watermark in the hub, and when it last published something."""

    memory_mark: int | None = None
    revision_mark: int | None = None
    evidence_mark: int | None = None
    published_at: int | None = None


@dataclass(slots=True)
class PublishReport:
    machine: str
    hub: str
    memories: int = 0  # memory rows added or changed in the hub
    revisions: int = 0  # revision rows added
    evidence: int = 0  # archived candidates added
    removed: int = 0  # memories the machine no longer holds, taken out of the hub
    batches: int = 0
    first: bool = False
    dismissed: tuple[int, ...] = ()  # dismissed here on the hub's request, before the batches
    refused_requests: tuple[RefusedRequest, ...] = ()  # requests whose values are refused: not applied
    requests_waiting: bool = False  # requests not applied: the store is read-only
    projects: ProjectsSent = field(default_factory=ProjectsSent)  # the host's project memories

    @property
    def changed(self) -> bool:
        sent = self.projects.memories or self.projects.removed
        return bool(self.memories or self.revisions or self.evidence or self.removed or sent)

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "changed": self.changed}

    def progress_text(self) -> str:
        """So far, in a few words (while the publish runs)."""
        return (
            f"{self.memories:,} memories, {self.revisions:,} revisions, {self.evidence:,} archived "
            f"candidates sent ({self.batches} batches)"
        )

    def text(self) -> str:
        """What the publish did, for a person (`hub publish`, File → Hub…)."""
        lines = []
        if self.dismissed:
            shown = ", ".join(f"#{memory_id}" for memory_id in self.dismissed)
            lines.append(f"dismissed on the hub's request: {shown}")
        if self.refused_requests:
            lines.append(refused_text(self.refused_requests))
        if self.requests_waiting:
            lines.append("the hub holds dismissals for this machine; they wait for a writable database")
        if not self.changed:
            lines.append(f"{self.machine} → {self.hub}: nothing new to publish")
        else:
            what = "first publish" if self.first else "published"
            lines.append(
                f"{self.machine} → {self.hub}: {what}: {self.memories:,} memories added or changed, "
                f"{self.revisions:,} revisions, {self.evidence:,} archived candidates, {self.removed:,} "
                f"removed ({self.batches} batches)"
            )
            projects = self.projects
            lines.append(
                f"project memories of {projects.projects:,} projects: {projects.memories:,} added or changed,"
                f" {projects.removed:,} removed"
            )
        return "\n".join(lines)


def _read_marks(hub: psycopg.Connection[Any], machine: str) -> Marks | None:
    row = hub.execute(_MARKS, (machine,)).fetchone()
    hub.commit()
    return None if row is None else Marks(*row)


Progress = Callable[[PublishReport], None]


class _Publisher:
    """One publish: a hub connection, the machine's marks, the running report."""

    def __init__(
        self, hub: psycopg.Connection[Any], report: PublishReport, now: int, progress: Progress
    ) -> None:
        self.hub = hub
        self.report = report
        self.now = now
        self.progress = progress
        marks = _read_marks(hub, report.machine)
        report.first = marks is None
        self.marks = marks or Marks()
        for statement in _INCOMING:
            hub.execute(statement)
        hub.commit()

    def _save_marks(self, changed: bool, checked: bool = False) -> None:
        if changed:
            self.marks.published_at = self.now
        values = {"machine": self.report.machine, **asdict(self.marks)}
        self.hub.execute(_SAVE_MARKS, {**values, "checked_at": self.now if checked else None})

    def _batch(self, table: str, columns: tuple[str, ...], rows: list[local.Row], merge: str) -> int:
        copy_rows(self.hub, table, columns, rows)
        count = self.hub.execute(merge, {"machine": self.report.machine}).rowcount
        self.report.batches += 1
        return max(count, 0)

    def _told(self) -> None:
        """After each batch committed: a copy of the report so far to whoever follows the publish."""
        self.progress(replace(self.report))

    def memories(self, rows: list[local.Row]) -> None:
        with self.hub.transaction():
            changed = self._batch(INCOMING_MEMORIES, local.MEMORY_COLUMNS, rows, MERGE_MEMORIES)
            sound = [row[5] for row in rows if row[5] < TIME_MAX]  # a clamped time is no watermark
            self.marks.memory_mark = max([*sound, self.marks.memory_mark or 0])
            self._save_marks(changed > 0)
        self.report.memories += changed
        self._told()

    def revisions(self, rows: list[local.Row]) -> None:
        with self.hub.transaction():
            added = self._batch(INCOMING_REVISIONS, local.REVISION_COLUMNS, rows, MERGE_REVISIONS)
            self.marks.revision_mark = max(int(rows[-1][0]), self.marks.revision_mark or -1)
            self._save_marks(added > 0)
        self.report.revisions += added
        self._told()

    def evidence(self, rows: list[local.Row], *, move_mark: bool = True) -> None:
        with self.hub.transaction():
            added = self._batch(INCOMING_EVIDENCE, local.EVIDENCE_COLUMNS, rows, MERGE_EVIDENCE)
            if move_mark:
                self.marks.evidence_mark = max(int(rows[-1][0]), self.marks.evidence_mark or INT64_MIN)
            self._save_marks(added > 0)
        self.report.evidence += added
        self._told()

    def _compare(self, conn: Connection, kept: _Kept) -> tuple[list[int], list[int]]:
        """(ids held here the hub lacks, ids the hub holds no longer held here): none read at all when
        the tallies (count and sum of ids) match, as they usually do."""
        row = self.hub.execute(kept.tally, (self.report.machine,)).fetchone()
        self.hub.commit()
        if row is not None and (int(row[0]), int(row[1])) == kept.held.tally(conn):
            return [], []
        held = set(kept.held.ids(conn))
        published = {int(found[0]) for found in self.hub.execute(kept.ids, (self.report.machine,))}
        self.hub.commit()
        return sorted(held - published), sorted(published - held)

    def reconcile(self, conn: Connection) -> None:
        """Make the hub hold exactly the memories this machine holds, and every archived candidate, and
        note the check (one transaction). Rows the watermarks missed (a memory written here with an
        `updated_at` older than the last publish, a candidate archived under an id below the mark) are
        sent; memories gone here leave the hub (archived candidates never leave the archive)."""
        missing, gone = self._compare(conn, _KEPT_MEMORIES)
        for rows in local.MEMORIES.by_id(conn, missing):
            self.memories(rows)
        if local.has_archive(conn):
            for rows in local.EVIDENCE.by_id(conn, self._compare(conn, _KEPT_EVIDENCE)[0]):
                self.evidence(rows, move_mark=False)
        with self.hub.transaction():
            removed = self.hub.execute(_REMOVE_GONE, (self.report.machine, gone)).rowcount if gone else 0
            self._save_marks(removed > 0, checked=True)
        self.report.removed = max(removed, 0)


def _ignore(_report: PublishReport) -> None:
    pass


def send(
    store: MemoryStore,
    hub: psycopg.Connection[Any],
    report: PublishReport,
    batch: int,
    progress: Progress = _ignore,
    project: Project | None = None,
) -> None:
    """Everything new since the machine's marks, batch by batch, from one snapshot of the store; then
    the project memories of `project` (None: of every project)."""
    publisher = _Publisher(hub, report, store.now(), progress)
    marks = publisher.marks
    if not store.read_only:
        store.observe()  # outside rewrites become revisions, new candidates enter the archive
    with store.read_snapshot() as conn:
        for rows in local.memory_batches(conn, marks.memory_mark, batch):
            publisher.memories(rows)
        for rows in local.revision_batches(conn, marks.revision_mark, batch, store.has_own_tables):
            publisher.revisions(rows)
        for rows in local.evidence_batches(conn, marks.evidence_mark, batch):
            publisher.evidence(rows)
        publisher.reconcile(conn)
        report.projects = send_projects(hub, conn, report.machine, project)
        progress(replace(report))


def publish(
    store_opener: Any,
    url: str,
    machine: str,
    *,
    batch: int = BATCH,
    progress: Progress = _ignore,
    project: str | None = None,
) -> PublishReport:
    """Publish the store `store_opener()` opens (a context manager) to the hub at `url` as `machine`:
    its memories, and the project memories of the project `project` names (None: of every project).
    The hub comes first: if it cannot be used, the local store is never opened. `progress` is called
    with a copy of the report after each batch (on the publishing thread)."""
    location = hub_location(url)
    report = PublishReport(machine=machine, hub=location)
    with closing(connect_hub(url)) as hub:
        try:
            require_schema(hub, location)
            with store_opener() as store:
                chosen = choose_project(store, project) if project is not None else None
                if store.read_only:
                    report.requests_waiting = has_pending(hub, machine)
                else:
                    applied = apply_pending(store, hub, machine)
                    report.dismissed, report.refused_requests = (
                        tuple(applied.dismissed),
                        tuple(applied.refused),
                    )
                send(store, hub, report, batch, progress, chosen)
        except psycopg.Error as exc:
            raise HubError(unreachable_message(location, exc)) from exc
    return report
