"""A store on a PostgreSQL server (`--db postgresql+psycopg://...`): connecting, the host's tables, the
transaction rules that stand in for SQLite's.

Connecting: a server that is down, a password refused, a database that does not exist are messages
(`DatabaseOpenError`, exit 3) naming the server without its password, and nothing is written anywhere.
The server must be PostgreSQL 14 or newer. A database that holds none of the host's tables gets them, in
their PostgreSQL form (`host_schema_postgresql.sql`: BIGINT instants, identity ids), as a new SQLite file
gets `host_schema.sql`; one that holds only some of them is refused, untouched.

Transactions: a read is one REPEATABLE READ transaction, one snapshot for all its statements (what a
SQLite read transaction sees). A write is READ COMMITTED and first takes `WRITE_LOCK`, a
transaction-level advisory lock every writer of this app takes: writers follow one another as
`BEGIN IMMEDIATE` makes them on SQLite, and since the lock comes before the first read, each writer reads
what the previous one committed (its read-then-write steps, such as the profile version's bump or the
lease check, cannot interleave with another writer's). An advisory lock needs no table, so it also guards
the migration that creates ours, and it locks nothing of the host's: readers and the host's own writes
never wait for it. Every lock wait stops at the busy timeout (`lock_timeout`), which reads as "locked".
A read-only store's sessions are read-only (`default_transaction_read_only`): the server refuses writes.
"""

from __future__ import annotations

from importlib import resources
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event, inspect, text
from sqlalchemy.engine import URL
from sqlalchemy.exc import DBAPIError

from app.core.errors import DatabaseOpenError
from app.store.schema.tables import HOST_TABLES

DIALECT = "postgresql"
MIN_VERSION = (14,)
# pg_advisory_xact_lock's key for "a Memory Dashboard writer": any fixed 64-bit number ("mdash_wr").
WRITE_LOCK = 0x6D646173685F7772
CONNECT_TIMEOUT_S = 10
# SQLSTATEs that mean "someone else holds it, try again": lock_not_available (lock_timeout),
# serialization_failure, deadlock_detected.
BUSY_STATES = frozenset({"55P03", "40001", "40P01"})
_TAKE_WRITE_LOCK = text("SELECT pg_advisory_xact_lock(:key)").bindparams(key=WRITE_LOCK)


def is_server(engine: Engine | Connection) -> bool:
    return engine.dialect.name == DIALECT


def sqlstate(exc: BaseException) -> str | None:
    """The SQLSTATE of a PostgreSQL error (raised by psycopg, or wrapped by SQLAlchemy), else None."""
    for candidate in (exc, getattr(exc, "orig", None)):
        state = getattr(candidate, "sqlstate", None)
        if isinstance(state, str):
            return state
    return None


def reason(exc: BaseException) -> str:
    """The server's or the driver's words, first line only (never the URL or a password)."""
    original = getattr(exc, "orig", None) or exc
    lines = [line.strip() for line in str(original).splitlines() if line.strip()]
    return lines[0] if lines else type(original).__name__


def unreachable_message(location: str, exc: BaseException) -> str:
    return f"cannot use the PostgreSQL database {location}: {reason(exc)}; nothing was changed."


def host_schema_statements() -> list[str]:
    """`host_schema_postgresql.sql`, one statement at a time (comments dropped)."""
    sql = resources.files("app.store.schema").joinpath("host_schema_postgresql.sql").read_text("utf-8")
    body = "\n".join(line for line in sql.splitlines() if not line.lstrip().startswith("--"))
    return [statement.strip() for statement in body.split(";") if statement.strip()]


def _session_settings(engine: Engine, timeout_ms: int, read_only: bool) -> None:
    @event.listens_for(engine, "connect")
    def _configure(dbapi_connection: Any, _record: Any) -> None:
        with dbapi_connection.cursor() as cursor:
            cursor.execute(f"SET lock_timeout = {int(timeout_ms)}")
            if read_only:
                cursor.execute("SET default_transaction_read_only = on")
        dbapi_connection.commit()


def transaction_options(write: bool) -> dict[str, Any]:
    return {"isolation_level": "READ COMMITTED" if write else "REPEATABLE READ"}


def take_write_lock(conn: Connection) -> None:
    """The first statement of every write: wait (up to `lock_timeout`) for the writer before to finish."""
    conn.execute(_TAKE_WRITE_LOCK)


def _create_engine(url: URL, timeout_ms: int, read_only: bool) -> Engine:
    connect_args: dict[str, Any] = {}
    if "connect_timeout" not in url.query:
        connect_args["connect_timeout"] = CONNECT_TIMEOUT_S
    engine = create_engine(url, pool_pre_ping=True, connect_args=connect_args)
    _session_settings(engine, timeout_ms, read_only)
    return engine


def _check_version(conn: Connection, location: str) -> None:
    version = conn.dialect.server_version_info or ()
    if tuple(version[:1]) < MIN_VERSION:
        shown = ".".join(str(part) for part in version) or "unknown"
        raise DatabaseOpenError(
            f"{location} runs PostgreSQL {shown}; Memory Dashboard needs PostgreSQL 14 or newer. "
            "Nothing was changed."
        )


def _host_tables(engine: Engine, location: str, read_only: bool) -> None:
    """Check the host's tables; create all of them where none is there (never in a read-only store)."""
    with engine.connect() as conn:
        _check_version(conn, location)
        present = set(inspect(conn).get_table_names())
    missing = [name for name in HOST_TABLES if name not in present]
    if not missing:
        return
    if read_only or len(missing) < len(HOST_TABLES):
        raise DatabaseOpenError(
            f"{location} lacks the host's tables: {', '.join(missing)}; nothing was changed."
        )
    with engine.connect().execution_options(**transaction_options(True)) as conn, conn.begin():
        take_write_lock(conn)
        for statement in host_schema_statements():
            conn.exec_driver_sql(statement)


def open_server(url: URL, *, read_only: bool, timeout_ms: int) -> Engine:
    """An engine on a checked PostgreSQL database holding the host's tables; DatabaseOpenError if not."""
    location = url.render_as_string(hide_password=True)
    try:
        engine = _create_engine(url, timeout_ms, read_only)
    except Exception as exc:  # a malformed URL or a missing driver: the person's to fix
        raise DatabaseOpenError(f"cannot use the database URL {location}: {exc}") from exc
    try:
        _host_tables(engine, location, read_only)
    except DatabaseOpenError:
        engine.dispose()
        raise
    except DBAPIError as exc:
        engine.dispose()
        raise DatabaseOpenError(unreachable_message(location, exc)) from exc
    return engine
