"""Helpers of the tests of `hub setup`: the hub's objects as the catalog describes them, the command
line in process, two ordinary roles of the test server, and rows as an older version published them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from app.cli import main
from app.core.hub_layout import SCHEMA
from tests.support.hub_host import drop_role, hub_query, make_role
from tests.support.pg_host import libpq_conninfo

# The hub's objects: owner, row-level security, rights (ACL), policies, triggers.
CATALOG = """
SELECT c.relname, c.relkind, pg_get_userbyid(c.relowner), c.relrowsecurity, c.relforcerowsecurity,
  c.relacl::text, (SELECT string_agg(p.polname || ':' || pg_get_expr(p.polqual, p.polrelid), ',')
                   FROM pg_policy p WHERE p.polrelid = c.oid),
  (SELECT count(*) FROM pg_trigger t WHERE t.tgrelid = c.oid AND NOT t.tgisinternal)
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = %s ORDER BY 1
"""
# A request's columns: name, identity (`a`: GENERATED ALWAYS), rights on the column.
REQUEST_COLUMNS = (
    "SELECT attname::text, attidentity::text, attacl::text FROM pg_attribute"
    f" WHERE attrelid = '{SCHEMA}.hub_requests'::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum"
)
SCHEMA_RIGHTS = "SELECT pg_get_userbyid(nspowner), nspacl::text FROM pg_namespace WHERE nspname = %s"
USER_TABLES = (
    "SELECT n.nspname, c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
    " WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%%'"
    " ORDER BY 1, 2"
)
OWNER_MEMBERS = (
    "SELECT pg_get_userbyid(member)::text FROM pg_auth_members WHERE roleid = %s::regrole ORDER BY 1"
)


def catalog(admin: str) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    return hub_query(admin, CATALOG, (SCHEMA,)), hub_query(admin, SCHEMA_RIGHTS, (SCHEMA,))


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def superuser_sql(admin: str, *statements: str) -> None:
    """Statements as the test server's superuser, each committed (what a careless administrator does)."""
    with psycopg.connect(libpq_conninfo(admin), autocommit=True) as conn:
        for statement in statements:
            conn.execute(statement)


@pytest.fixture
def roles(postgres_db: str) -> Iterator[tuple[str, str]]:
    """Two ordinary roles of the test server (alice, bob), dropped after the test."""
    names = (make_role(postgres_db, "hub_alice"), make_role(postgres_db, "hub_bob"))
    yield names
    for name in names:
        drop_role(postgres_db, name)


OLD_ROWS = (
    "INSERT INTO hub_machines (machine, memory_mark, revision_mark, published_at) VALUES (%s, 5, 9, 1234)",
    "INSERT INTO hub_memories (machine, memory_id, content, status, promoted_at, created_at, updated_at)"
    " VALUES (%s, 1, 'kept across the move', 'active', 1, 1, 5)",
    "INSERT INTO hub_requests (machine, memory_id, kind, requested_on, requested_at) VALUES (%s, 1,"
    " 'dismiss', 'elsewhere', 7)",
)


def publish_old(url: str, schema: str, machine: str) -> None:
    """Rows as an older version published them, as the URL's role (row-level security lets it)."""
    with psycopg.connect(libpq_conninfo(url), options=f"-c search_path={schema}") as conn:
        for statement in OLD_ROWS:
            conn.execute(statement, (machine,))
