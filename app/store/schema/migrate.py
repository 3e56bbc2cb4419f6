"""Running the dashboard's own migrations (Alembic, version table `mdash_alembic_version`).

Alembic is imported only when a migration has to run, and whether one has to is read from our own
version row and the catalogue (`own_schema`), so opening an up-to-date store stays quick.
Every upgrade runs in one `BEGIN IMMEDIATE` transaction and is rolled back if the host's fenced
tables changed shape, which no migration of ours may ever do. On PostgreSQL it also widens the 32-bit
columns an earlier version left in our tables (`widen`).
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING

from sqlalchemy import Connection, Engine, inspect

from app.core.errors import DatabaseOpenError, StoreError
from app.store.connect.engine import transaction
from app.store.schema.fence import fence_fingerprints
from app.store.schema.tables import OWN_TABLES, VERSION_TABLE
from app.store.schema.widen import narrow_columns, widen

if TYPE_CHECKING:
    from alembic.config import Config

HEAD_REVISION = "0013_seen_promoted_at"
# Revisions whose tables this code reads: 0002 only adds the optional search index, 0003 only changes
# how it is kept in step (which a read-only store never uses), 0004 adds the trust marks (kept in
# memory without it), 0006_evidence only adds the evidence archive (read where present),
# 0007_revisions_by_time and 0008_revisions_by_memory only swap an index, 0009_pg_trgm_search only
# adds one (on PostgreSQL), 0010_command_log only adds the command log (read where present) and
# 0011_links_and_project_history only adds the links and the project history (read where present) and
# 0012_project_revisions_by_path only adds an index, and 0013_seen_promoted_at only a column of the seen
# copy and its index (which a store reads only at that revision, `app.store.read.first_page`), so a
# database a read-only store cannot migrate keeps its history and facts.
READABLE_REVISIONS = (
    "0001",
    "0002",
    "0003",
    "0004_trust_marks",
    "0006_evidence",
    "0007_revisions_by_time",
    "0008_revisions_by_memory",
    "0009_pg_trgm_search",
    "0010_command_log",
    "0011_links_and_project_history",
    "0012_project_revisions_by_path",
    HEAD_REVISION,
)


@dataclass(frozen=True, slots=True)
class OwnSchema:
    """Where the dashboard's tables stand: the revision in our version row, and which of them exist."""

    revision: str | None
    tables: frozenset[str]

    @property
    def readable(self) -> bool:
        """At a revision this code can read, every table there."""
        return self.revision in READABLE_REVISIONS and self.tables.issuperset(OWN_TABLES)

    @property
    def at_head(self) -> bool:
        return self.revision == HEAD_REVISION and self.tables.issuperset(OWN_TABLES)


def own_schema(conn: Connection) -> OwnSchema:
    """Our version row and tables, read from the catalogue (on SQLite one query of `sqlite_master`, not
    the inspector's statement per table: every open of a store asks this)."""
    wanted = {VERSION_TABLE, *OWN_TABLES}
    if conn.dialect.name == "sqlite":
        rows = conn.exec_driver_sql("SELECT name FROM sqlite_master WHERE type = 'table'")
        tables = frozenset(str(name) for (name,) in rows) & wanted
    else:
        inspector = inspect(conn)
        tables = frozenset(name for name in wanted if inspector.has_table(name))
    if VERSION_TABLE not in tables:
        return OwnSchema(None, tables)
    revision = conn.exec_driver_sql(f"SELECT version_num FROM {VERSION_TABLE}").scalar()
    return OwnSchema(None if revision is None else str(revision), tables)


def current_revision(conn: Connection) -> str | None:
    return own_schema(conn).revision


def _refuse(schema: OwnSchema, location: str) -> None:
    """Tables of a newer version of this app: reading them as if absent would serve expired memories."""
    revision = schema.revision
    if revision is not None and revision not in READABLE_REVISIONS:
        raise DatabaseOpenError(
            f"{location} was last used by a newer Memory Dashboard (its tables are at revision {revision}, "
            f"this version knows up to {HEAD_REVISION}); update the app. Nothing was changed."
        )


def refuse_newer(conn: Connection, location: str) -> None:
    _refuse(own_schema(conn), location)


def own_tables_ready(conn: Connection) -> bool:
    """The dashboard's tables exist at a revision this code can read."""
    return own_schema(conn).readable


def alembic_config(conn: Connection) -> Config:
    """Our migrations, to run on `conn` (Alembic is imported only now)."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(resources.files("app.store.schema.migrations")))
    config.attributes["connection"] = conn
    return config


def _alembic_upgrade(conn: Connection) -> None:
    from alembic import command

    command.upgrade(alembic_config(conn), "head")


def _ready(conn: Connection, location: str) -> bool:
    """At head, and no 32-bit column of ours left by an earlier version on PostgreSQL (`widen`); a newer
    version's tables are refused."""
    schema = own_schema(conn)
    _refuse(schema, location)
    return schema.at_head and not narrow_columns(conn)


def upgrade(engine: Engine, location: str, *, check_fence: bool = True) -> bool:
    """Bring the dashboard's tables to head; returns whether anything ran."""
    with transaction(engine, write=False, location=location) as conn:
        if _ready(conn, location):
            return False
    with transaction(engine, write=True, location=location) as conn:
        if _ready(conn, location):
            return False
        before = fence_fingerprints(conn) if check_fence else {}
        _alembic_upgrade(conn)
        widen(conn, narrow_columns(conn))
        if check_fence and fence_fingerprints(conn) != before:
            raise StoreError("a migration would change the host's tables; it was rolled back")
    return True
