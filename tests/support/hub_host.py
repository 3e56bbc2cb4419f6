"""Helpers of the hub's tests: host files with memories and revisions; a hub set up by its administrator
(`hub setup` as the test server's superuser) and published to by an ordinary role (`hub_db`); the hub's
rows read with plain SQL (`hub_query`: the hub's schema on the search path, as the URL's role)."""

from __future__ import annotations

import itertools
import os
import sqlite3
from collections.abc import Iterator
from contextlib import AbstractContextManager, closing
from pathlib import Path
from typing import Any

import psycopg
import pytest
from sqlalchemy import make_url

from app.core.clock import ManualClock
from app.core.hub_layout import SCHEMA
from app.hub.publish import PublishReport, publish
from app.hub.schema.setup import setup_hub
from app.store import MemoryStore
from tests.support.hostdb import PROMOTED_5, build_host_db
from tests.support.pg_cluster import server_bindir, start, stop
from tests.support.pg_host import libpq_conninfo

NOW = PROMOTED_5 + 30 * 86_400_000
SECRET = "correct horse battery"


def open_store(path: Path) -> MemoryStore:
    return MemoryStore.open(path, clock=ManualClock(NOW))


def opener(path: Path) -> Any:
    def open_local() -> AbstractContextManager[MemoryStore]:
        return closing(open_store(path))

    return open_local


def host_file(path: Path, *, memories: int = 0) -> Path:
    """The seeded host file (5 memories), plus `memories` more; the dashboard's tables made, one edit
    made through the store so there are revisions."""
    build_host_db(path)
    if memories:
        with closing(sqlite3.connect(path)) as conn, conn:
            conn.executemany(
                "INSERT INTO user_memories (id, content, status, promoted_at, source_candidate_ids,"
                " source_candidate_provenance, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?)",
                [
                    (100 + n, f"memory number {n}", "active", PROMOTED_5 + n, "[]", "[]", PROMOTED_5 + n,
                     PROMOTED_5 + n)
                    for n in range(memories)
                ],
            )  # fmt: skip
    with closing(open_store(path)) as store:
        store.edit(1, "Works mostly in Python, TypeScript and Rust")
    return path


def publish_file(path: Path, url: str, machine: str, batch: int = 20_000) -> PublishReport:
    return publish(opener(path), url, machine, batch=batch)


_roles = itertools.count(1)


def as_role(url: str, role: str) -> str:
    """`url` logging in as `role` instead."""
    return make_url(url).set(username=role).render_as_string(hide_password=False)


def make_role(admin_url: str, prefix: str, *options: str) -> str:
    """A new login role on the test server (no superuser, no rights of its own), by the administrator."""
    name = f"{prefix}_{os.getpid()}_{next(_roles)}"
    with psycopg.connect(libpq_conninfo(admin_url), autocommit=True) as conn:
        conn.execute(f'CREATE ROLE "{name}" LOGIN {" ".join(options)}')
    return name


def drop_role(admin_url: str, name: str) -> None:
    """Drop a role `make_role` made, and whatever it owns or was granted in the test's database."""
    with psycopg.connect(libpq_conninfo(admin_url), autocommit=True) as conn:
        conn.execute(f'DROP OWNED BY "{name}" CASCADE')
        conn.execute(f'DROP ROLE "{name}"')


@pytest.fixture
def hub_db(postgres_db: str) -> Iterator[str]:
    """A hub made by `hub setup` run as the test server's superuser (the administrator, whose URL is
    `postgres_db`); the URL of an ordinary role that publishes to it (no superuser, owning nothing).
    Imported by each hub test module that publishes."""
    setup_hub(postgres_db)
    publisher = make_role(postgres_db, "hub_publisher")
    yield as_role(postgres_db, publisher)
    drop_role(postgres_db, publisher)


def hub_query(url: str, sql: str, params: tuple[object, ...] = ()) -> list[tuple[Any, ...]]:
    """Plain SQL on the hub as the URL's role, the hub's schema first on the search path."""
    with psycopg.connect(libpq_conninfo(url), options=f"-c search_path={SCHEMA}") as conn:
        return list(conn.execute(sql, params or None).fetchall())


def hub_sql(url: str, sql: str, params: tuple[object, ...] = ()) -> None:
    """Write the hub's rows with plain SQL as the URL's role (the hub's schema first on the search path):
    what a publisher could leave there that the app would not."""
    with psycopg.connect(libpq_conninfo(url), options=f"-c search_path={SCHEMA}") as conn:
        conn.execute(sql, params or None)


def hub_tables(url: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the hub's data tables (and the watermarks), sorted: what "changes nothing" compares."""
    return {
        "memories": hub_query(url, "SELECT * FROM hub_memories ORDER BY 1, 2, 3"),
        "revisions": hub_query(url, "SELECT * FROM hub_revisions ORDER BY 1, 2, 3"),
        "evidence": hub_query(url, "SELECT * FROM hub_evidence ORDER BY 1, 2, 3"),
        "marks": hub_query(
            url, "SELECT publisher, machine, memory_mark, revision_mark, evidence_mark, published_at"
            " FROM hub_machines ORDER BY 1, 2"
        ),
    }  # fmt: skip


def local_memories(path: Path) -> list[tuple[Any, ...]]:
    with closing(sqlite3.connect(path)) as conn:
        return conn.execute(
            "SELECT id, content, status, promoted_at, created_at, updated_at, source_candidate_ids,"
            " source_candidate_provenance FROM user_memories ORDER BY id"
        ).fetchall()


def local_revision_ids(path: Path) -> list[int]:
    with closing(sqlite3.connect(path)) as conn:
        return [row[0] for row in conn.execute("SELECT id FROM mdash_revisions ORDER BY id")]


def machine_memories(url: str, machine: str) -> list[tuple[Any, ...]]:
    return hub_query(
        url, "SELECT memory_id, content, status, promoted_at, created_at, updated_at, source_candidate_ids,"
        " source_candidate_provenance FROM hub_memories WHERE machine = %s ORDER BY memory_id", (machine,)
    )  # fmt: skip


@pytest.fixture(autouse=True)
def pinned_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """The clock pinned (`MEMORY_DASHBOARD_NOW`), so times in the hub are exact: imported by each hub test
    module (autouse there)."""
    monkeypatch.setenv("MEMORY_DASHBOARD_NOW", str(NOW))


@pytest.fixture(scope="module")
def password_server() -> Iterator[str]:
    """A cluster of its own whose `hub_carol` logs in with a password only (scram-sha-256)."""
    if server_bindir() is None:
        pytest.fail("no PostgreSQL server programs: the password cases need a cluster of their own")
    folder, url = start()
    try:
        (folder / "data" / "pg_hba.conf").write_text(
            "local all postgres trust\nlocal all all scram-sha-256\n", encoding="utf-8"
        )
        with psycopg.connect(libpq_conninfo(url), autocommit=True) as conn:
            conn.execute("SELECT pg_reload_conf()")
            conn.execute(f"CREATE ROLE hub_carol LOGIN PASSWORD '{SECRET}'")
            conn.execute("CREATE DATABASE hub OWNER hub_carol")
        setup_hub(make_url(url).set(database="hub").render_as_string(hide_password=False))
        yield make_url(url).set(username="hub_carol", database="hub").render_as_string(hide_password=False)
    finally:
        stop(folder)


def pgpass(tmp_path: Path, password: str) -> Path:
    path = tmp_path / "pgpass"
    path.write_text(f"*:*:*:hub_carol:{password}\n", encoding="utf-8")
    path.chmod(0o600)
    return path
