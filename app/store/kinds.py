"""The kinds of memory the host keeps, each described once, so every service of the store serves any.

A `MemoryKind` names the host's table and its columns (id, content, status, times), the statuses it
knows, its injection rule (which rows the host injects into the agent's context, and in what order)
and its write protocol: what the host needs to see when we change its rows of that kind. The services
(`app.store.read.queries`, `app.store.write.edits`, ...) take the kind; `USER_MEMORIES` is the one the
facade passes today.

A write protocol is called by the edits service after each row it writes (`content_written`,
`status_written`) and once by the database at the end of every write transaction (`finish`). User
memories need only the end: the one bump of `project_user_profile_version` when anything the host
injects changed (`WriteContext.profile_changed`).

Project memories (`PROJECT_MEMORIES`, the host's `memories` table) need nothing at the end: every
writer of `app.store.project.writes` does all the host does for one write inside the statement group
that makes it (the `normalized_hash`, the embeddings deleted, the `memory_mutation_log` row and the bump
of the project's `project_memory_epoch`), as the host's own `updateMemoryContent` bumps the epoch once per
write, not once per transaction. A second bump at the end would only make the host re-read a project
it already re-reads, so `ProjectMemoryWrites` keeps the base's no-ops.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import ColumnElement, Table, and_, or_

from app.core.models import MemoryStatus
from app.store.project.model import ARCHIVED
from app.store.project.tables import memories
from app.store.schema.tables import user_memories
from app.store.write.revision_log import WriteContext, bump_profile_version

PERMANENT = "permanent"  # a project memory the host injects whatever its expiry says


class WriteProtocol:
    """How the host learns that rows of one kind changed; the base asks nothing of a write."""

    def content_written(self, ctx: WriteContext, memory_id: int) -> None:
        """After we wrote a row's content, inside the same transaction."""

    def status_written(self, ctx: WriteContext, memory_id: int) -> None:
        """After we changed a row's status, inside the same transaction."""

    def finish(self, ctx: WriteContext) -> None:
        """Once, at the end of a write transaction that may have changed rows of this kind."""


class UserMemoryWrites(WriteProtocol):
    """User memories: the host re-renders the profile it injects only when its version moves."""

    def finish(self, ctx: WriteContext) -> None:
        if ctx.profile_changed:
            bump_profile_version(ctx.conn, ctx.now)


class ProjectMemoryWrites(WriteProtocol):
    """Project memories: each writer already told the host (its log row, its epoch bump): see above."""


@dataclass(frozen=True, slots=True)
class MemoryKind:
    name: str  # as the command line and the dashboard's own tables will name it
    table: Table  # the host's table (never altered)
    statuses: tuple[str, ...]  # those the host writes; any other value is shown as it is
    injected: Callable[[Table, int], ColumnElement[bool]]  # the host's rule at an instant
    order: Callable[[Table], tuple[ColumnElement[object], ...]]  # the host's order of what it injects
    writes: WriteProtocol
    id_column: str = "id"
    content_column: str = "content"
    status_column: str = "status"
    updated_column: str = "updated_at"

    def injection_rule(self, now: int) -> ColumnElement[bool]:
        """The rows the host injects at `now`, by its own columns (our expiry is applied on top)."""
        return self.injected(self.table, now)

    def injection_order(self) -> tuple[ColumnElement[object], ...]:
        return self.order(self.table)


def user_injected(table: Table, now: int) -> ColumnElement[bool]:
    """User memories: status exactly `active` (expiry is the dashboard's own, `mdash_expiry`)."""
    return table.c.status == MemoryStatus.ACTIVE


def user_order(table: Table) -> tuple[ColumnElement[object], ...]:
    return (table.c.promoted_at, table.c.id)


def project_injected(table: Table, now: int) -> ColumnElement[bool]:
    """Project memories: `active` or `permanent`, and not expired by the host's own `expires_at`."""
    live = or_(table.c.expires_at.is_(None), table.c.expires_at > now)
    return and_(table.c.status.in_([MemoryStatus.ACTIVE, PERMANENT]), live)


def project_order(table: Table) -> tuple[ColumnElement[object], ...]:
    return (table.c.category, table.c.updated_at.desc(), table.c.id)


USER_WRITES = UserMemoryWrites()
USER_MEMORIES = MemoryKind(
    name="user",
    table=user_memories,
    statuses=(MemoryStatus.ACTIVE, MemoryStatus.DISMISSED),
    injected=user_injected,
    order=user_order,
    writes=USER_WRITES,
)

PROJECT_WRITES = ProjectMemoryWrites()
PROJECT_MEMORIES = MemoryKind(
    name="project",
    table=memories,
    statuses=(MemoryStatus.ACTIVE, PERMANENT, ARCHIVED),
    injected=project_injected,
    order=project_order,
    writes=PROJECT_WRITES,
)
