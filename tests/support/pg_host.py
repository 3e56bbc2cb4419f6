"""The host's side of a test, on either engine: plain SQL against a host-shaped SQLite file or PostgreSQL
database, written outside the dashboard as the host writes it.

`HostDb` is what the conformance suite asks of a backend; `SqliteHostDb` wraps `hostdb`'s helpers and
`PostgresHostDb` does the same with psycopg (its placeholders `%s`; the tests write SQLite's `?`); `script`
runs several statements in one transaction, as the host's own process would.
`fresh_database` and `drop_database` give each PostgreSQL test a database of its own on the test server;
`seed_postgres` fills one with `hostdb`'s seed scenario, row for row.
"""

from __future__ import annotations

import itertools
import os
import sqlite3
from pathlib import Path
from typing import Any, Protocol

import psycopg
from sqlalchemy import make_url

from app.store.connect.server import host_schema_statements
from app.store.schema.tables import HOST_TABLES
from tests.support.hostdb import build_host_db, host_sql, profile_version, query

_PROFILE_VERSION = "SELECT project_user_profile_version FROM project_state WHERE project_path='__global__'"
_numbers = itertools.count(1)


class HostDb(Protocol):
    """A host database as the host sees it: what `MemoryStore.open` takes, and plain SQL on it."""

    @property
    def target(self) -> str: ...

    @property
    def dialect(self) -> str: ...

    def sql(self, sql: str, params: tuple[object, ...] = ()) -> None: ...

    def script(self, statements: list[tuple[str, tuple[object, ...]]]) -> None: ...

    def query(self, sql: str, params: tuple[object, ...] = ()) -> list[tuple[object, ...]]: ...

    def profile_version(self) -> int: ...


class SqliteHostDb:
    def __init__(self, path: Path) -> None:
        self.path = path

    @property
    def target(self) -> str:
        return str(self.path)

    @property
    def dialect(self) -> str:
        return "sqlite"

    def sql(self, sql: str, params: tuple[object, ...] = ()) -> None:
        host_sql(self.path, sql, params)

    def script(self, statements: list[tuple[str, tuple[object, ...]]]) -> None:
        """Several statements in one `BEGIN IMMEDIATE` transaction of the host's own connection."""
        conn = sqlite3.connect(self.path, timeout=5, isolation_level=None)
        try:
            conn.execute("BEGIN IMMEDIATE")
            for sql, params in statements:
                conn.execute(sql, params)
            conn.execute("COMMIT")
        finally:
            conn.close()

    def query(self, sql: str, params: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
        return query(self.path, sql, params)

    def profile_version(self) -> int:
        return profile_version(self.path)


def libpq_conninfo(url: str) -> str:
    """The libpq form of a `postgresql+psycopg://` URL (psycopg itself takes no dialect suffix)."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


class PostgresHostDb:
    def __init__(self, url: str) -> None:
        self.url = url

    @property
    def target(self) -> str:
        return self.url

    @property
    def dialect(self) -> str:
        return "postgresql"

    def _connect(self) -> psycopg.Connection[Any]:
        return psycopg.connect(libpq_conninfo(self.url))

    def sql(self, sql: str, params: tuple[object, ...] = ()) -> None:
        with self._connect() as conn:
            conn.execute(sql.replace("?", "%s"), params or None)

    def script(self, statements: list[tuple[str, tuple[object, ...]]]) -> None:
        """Several statements in one transaction of a connection of its own."""
        with self._connect() as conn:
            for sql, params in statements:
                conn.execute(sql.replace("?", "%s"), params or None)

    def query(self, sql: str, params: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
        with self._connect() as conn:
            return list(conn.execute(sql.replace("?", "%s"), params or None).fetchall())

    def profile_version(self) -> int:
        rows = self.query(_PROFILE_VERSION)
        return int(str(rows[0][0])) if rows else 0


def fresh_database(server_url: str) -> str:
    """A new, empty database on the test server; returns its URL."""
    name = f"mdash_test_{os.getpid()}_{next(_numbers)}"
    with psycopg.connect(libpq_conninfo(server_url), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return make_url(server_url).set(database=name).render_as_string(hide_password=False)


def drop_database(server_url: str, url: str) -> None:
    """Drop a database `fresh_database` made, cutting any connection a test left open."""
    parsed = make_url(url)
    with psycopg.connect(libpq_conninfo(server_url), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{parsed.database}" WITH (FORCE)')


def seed_postgres(url: str, folder: Path) -> PostgresHostDb:
    """The host's tables in PostgreSQL form, holding exactly the rows of `hostdb`'s seeded file (built in
    `folder`); identity counters moved past the copied ids, as SQLite's AUTOINCREMENT would be."""
    seed = build_host_db(folder / "seed-for-postgres.db")
    with psycopg.connect(libpq_conninfo(url)) as conn:
        for statement in host_schema_statements():
            conn.execute(statement)
        for table in HOST_TABLES:
            rows = query(seed, f"SELECT * FROM {table}")
            if rows:
                marks = ", ".join(["%s"] * len(rows[0]))
                with conn.cursor() as cursor:
                    cursor.executemany(f"INSERT INTO {table} VALUES ({marks})", rows)
        for table in ("user_memories", "user_memory_candidates"):
            conn.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), max(id)) FROM {table}")
    return PostgresHostDb(url)
