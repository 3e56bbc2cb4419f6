"""`hub setup`: run once by the administrator, it makes the hub's schema and tables owned by a role that
cannot log in, row-level security forced, publishers given only USAGE and row rights; again, it changes
nothing or puts back what was changed. A publish never makes a hub: a database not set up, or holding a
schema `hub setup` did not make, is a message naming `hub setup`. An older version's hub (in `public` or
a role's own schema, owned by a publisher) is moved in with its rows, upgraded from version 1, and its
tables, triggers and policies left behind."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from sqlalchemy import make_url

from app.cli import main
from app.core.errors import EXIT_UNUSABLE_DATABASE
from app.core.hub_layout import OWNER, SCHEMA
from app.hub.schema.tables import SCHEMA_VERSION
from tests.support import hub_host
from tests.support.hostdb import host_dump
from tests.support.hub_host import (
    as_role,
    drop_role,
    host_file,
    hub_query,
    machine_memories,
    make_role,
    publish_file,
)
from tests.support.hub_legacy import make_legacy_hub
from tests.support.pg_host import libpq_conninfo

pinned_clock = hub_host.pinned_clock  # the clock pinned in every test here (autouse)

# The hub's objects as the catalog describes them: owner, row-level security, rights (ACL), policies.
CATALOG = """
SELECT c.relname, c.relkind, pg_get_userbyid(c.relowner), c.relrowsecurity, c.relforcerowsecurity,
  c.relacl::text, (SELECT string_agg(p.polname || ':' || pg_get_expr(p.polqual, p.polrelid), ',')
                   FROM pg_policy p WHERE p.polrelid = c.oid),
  (SELECT count(*) FROM pg_trigger t WHERE t.tgrelid = c.oid AND NOT t.tgisinternal)
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = %s ORDER BY 1
"""
SCHEMA_RIGHTS = "SELECT pg_get_userbyid(nspowner), nspacl::text FROM pg_namespace WHERE nspname = %s"
USER_TABLES = (
    "SELECT n.nspname, c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
    " WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%%'"
    " ORDER BY 1, 2"
)


def catalog(admin: str) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    return hub_query(admin, CATALOG, (SCHEMA,)), hub_query(admin, SCHEMA_RIGHTS, (SCHEMA,))


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def roles(postgres_db: str) -> Iterator[tuple[str, str]]:
    names = (make_role(postgres_db, "hub_alice"), make_role(postgres_db, "hub_bob"))
    yield names
    for name in names:
        drop_role(postgres_db, name)


def test_setup_makes_a_hub_owned_by_a_role_that_publishes_nothing_and_again_changes_nothing(
    postgres_db: str, roles: tuple[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "hub", "setup", "--to", postgres_db, "--json")
    assert (code, err) == (0, "")
    report = json.loads(out)
    assert (report["schema"], report["owner"], report["created"]) == (SCHEMA, OWNER, True)
    assert hub_query(postgres_db, "SELECT rolcanlogin FROM pg_roles WHERE rolname = %s", (OWNER,)) == [
        (False,)
    ]
    tables, rights = catalog(postgres_db)
    assert rights == [(OWNER, f"{{{OWNER}=UC/{OWNER},=U/{OWNER}}}")]  # PUBLIC: USAGE, never CREATE
    by_name = {row[0]: row for row in tables}
    for table in ("hub_machines", "hub_memories", "hub_revisions", "hub_evidence", "hub_requests"):
        _, _, owner, enabled, forced, acl, policies, triggers = by_name[table]
        assert (owner, enabled, forced, triggers) == (OWNER, True, True, 0)
        assert acl == f"{{{OWNER}=arwdDxt/{OWNER},=arwd/{OWNER}}}"  # PUBLIC: rows only
        assert policies == "own_rows:(publisher = CURRENT_USER)"
    assert by_name["hub_schema"][2:6] == (OWNER, False, False, f"{{{OWNER}=arwdDxt/{OWNER},=r/{OWNER}}}")
    assert by_name["hub_requests_id_seq"][5] == f"{{{OWNER}=rwU/{OWNER},=U/{OWNER}}}"
    assert hub_query(postgres_db, "SELECT version FROM hub_schema") == [(SCHEMA_VERSION,)]
    alice = roles[0]
    assert hub_query(postgres_db, "SELECT has_schema_privilege(%s, %s, 'CREATE')", (alice, SCHEMA)) == [
        (False,)
    ]

    before = catalog(postgres_db)
    code, out, _ = run(capsys, "hub", "setup", "--to", postgres_db)
    assert code == 0 and "checked (already set up)" in out
    assert catalog(postgres_db) == before


def test_setup_puts_back_what_was_changed_and_a_publish_refuses_it_meanwhile(
    postgres_db: str, roles: tuple[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    alice, bob = roles
    assert main(["hub", "setup", "--to", postgres_db]) == 0
    fresh = catalog(postgres_db)
    with psycopg.connect(libpq_conninfo(postgres_db), autocommit=True) as conn:  # a careless superuser
        conn.execute(f"SET search_path = {SCHEMA}")
        conn.execute("ALTER TABLE hub_memories NO FORCE ROW LEVEL SECURITY")
        conn.execute("CREATE POLICY everyone ON hub_revisions USING (true)")
        conn.execute(f'GRANT ALL ON hub_evidence TO "{bob}"')
        conn.execute(f'GRANT CREATE ON SCHEMA {SCHEMA} TO "{bob}"')
    laptop = host_file(tmp_path / "laptop.db")
    code, _, err = run(capsys, "--db", str(laptop), "hub", "publish", "--to", as_role(postgres_db, alice))
    assert code == EXIT_UNUSABLE_DATABASE
    assert "row-level security is not forced" in err and "hub setup" in err
    capsys.readouterr()
    assert main(["hub", "setup", "--to", postgres_db]) == 0
    assert catalog(postgres_db) == fresh
    assert publish_file(laptop, as_role(postgres_db, alice), "laptop").memories == 5


def test_a_publish_never_makes_a_hub_and_names_hub_setup(
    postgres_db: str, roles: tuple[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = hub_query(postgres_db, USER_TABLES)
    laptop = host_file(tmp_path / "laptop.db")
    dump = host_dump(laptop)
    for url in (postgres_db, as_role(postgres_db, roles[0])):
        code, out, err = run(capsys, "--db", str(laptop), "hub", "publish", "--to", url)
        assert (code, out) == (EXIT_UNUSABLE_DATABASE, "")
        assert "is not set up as a hub" in err and "memory-dashboard hub setup --to URL" in err
        assert "Traceback" not in err
    assert hub_query(postgres_db, USER_TABLES) == before
    assert host_dump(laptop) == dump  # the local file was not even opened
    code, _, err = run(capsys, "hub", "status", "--to", postgres_db)
    assert code == EXIT_UNUSABLE_DATABASE and "hub setup" in err


def test_setup_as_a_publisher_is_refused_and_changes_nothing(
    postgres_db: str, roles: tuple[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    before = hub_query(postgres_db, USER_TABLES)
    code, out, err = run(capsys, "hub", "setup", "--to", as_role(postgres_db, roles[0]))
    assert (code, out) == (EXIT_UNUSABLE_DATABASE, "")
    assert "a role that may create roles and schemas" in err and "nothing was changed" in err
    assert hub_query(postgres_db, USER_TABLES) == before


def test_a_schema_of_the_hubs_name_made_by_a_publisher_is_never_used(
    postgres_db: str, roles: tuple[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    alice, bob = roles
    database = make_url(postgres_db).database
    with psycopg.connect(libpq_conninfo(postgres_db), autocommit=True) as conn:
        conn.execute(f'GRANT CREATE ON DATABASE "{database}" TO "{bob}"')
    with psycopg.connect(libpq_conninfo(as_role(postgres_db, bob)), autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {SCHEMA}")  # before the administrator's setup
        conn.execute(f"GRANT USAGE ON SCHEMA {SCHEMA} TO PUBLIC")
    make_legacy_hub(as_role(postgres_db, bob), SCHEMA)
    laptop = host_file(tmp_path / "laptop.db")
    dump = host_dump(laptop)
    code, _, err = run(capsys, "--db", str(laptop), "hub", "publish", "--to", as_role(postgres_db, alice))
    assert code == EXIT_UNUSABLE_DATABASE
    assert f"the schema {SCHEMA} belongs to {bob}, not to {OWNER}" in err
    assert hub_query(postgres_db, "SELECT count(*) FROM hub_memories") == [(0,)]
    assert host_dump(laptop) == dump
    code, _, err = run(capsys, "hub", "setup", "--to", postgres_db)
    assert code == EXIT_UNUSABLE_DATABASE and f"belongs to {bob}" in err


# -- an older version's hub ---------------------------------------------------------------------------

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


def test_an_older_hub_in_public_is_moved_in_with_its_rows_and_without_its_owners_additions(
    postgres_db: str, roles: tuple[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    alice, bob = roles
    with psycopg.connect(libpq_conninfo(postgres_db), autocommit=True) as conn:
        conn.execute(f'GRANT CREATE ON SCHEMA public TO "{alice}"')  # as PostgreSQL 14 and older had it
    make_legacy_hub(as_role(postgres_db, alice), "public")  # the first publisher made and owns it
    publish_old(as_role(postgres_db, alice), "public", "alice-laptop")
    publish_old(as_role(postgres_db, bob), "public", "bob-desktop")
    with psycopg.connect(libpq_conninfo(as_role(postgres_db, alice)), autocommit=True) as conn:
        conn.execute("CREATE POLICY everyone ON public.hub_memories USING (true)")  # the owner's own
    laptop = host_file(tmp_path / "laptop.db")
    code, _, err = run(capsys, "--db", str(laptop), "hub", "publish", "--to", as_role(postgres_db, bob))
    assert code == EXIT_UNUSABLE_DATABASE and "made by an older version (schema public)" in err

    code, out, err = run(capsys, "hub", "setup", "--to", postgres_db, "--json")
    assert (code, err) == (0, "")
    report = json.loads(out)
    assert report["moved_from"] == "public"
    assert report["moved_rows"] == {
        "hub_machines": 2, "hub_memories": 2, "hub_revisions": 0, "hub_evidence": 0, "hub_requests": 2
    }  # fmt: skip
    assert hub_query(postgres_db, "SELECT to_regclass('public.hub_memories')") == [(None,)]
    assert hub_query(postgres_db, "SELECT publisher, machine, content FROM hub_memories ORDER BY 1") == [
        (alice, "alice-laptop", "kept across the move"),
        (bob, "bob-desktop", "kept across the move"),
    ]
    tables, _ = catalog(postgres_db)
    assert {row[2] for row in tables} == {OWNER}
    assert {row[6] for row in tables if row[3]} == {"own_rows:(publisher = CURRENT_USER)"}
    bob_url = as_role(postgres_db, bob)
    assert hub_query(bob_url, "SELECT machine FROM hub_memories") == [("bob-desktop",)]  # not alice's
    assert hub_query(bob_url, "SELECT memory_mark, published_at FROM hub_machines") == [(5, 1234)]
    old_owner = psycopg.connect(libpq_conninfo(as_role(postgres_db, alice)))
    with old_owner as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute(f"ALTER TABLE {SCHEMA}.hub_memories NO FORCE ROW LEVEL SECURITY")
    report_after = publish_file(laptop, bob_url, "bob-desktop")
    assert report_after.first is False and report_after.dismissed == (1,)  # the moved request applied
    assert hub_query(bob_url, "SELECT max(id) FROM hub_requests") == [(2,)]
    assert main(["hub", "request-dismiss", "bob-desktop", "5", "--to", bob_url]) == 0
    assert hub_query(bob_url, "SELECT max(id) FROM hub_requests") == [(3,)]  # ids go on after the moved


def test_a_version_1_hub_in_a_roles_schema_is_moved_and_upgraded(
    postgres_db: str, roles: tuple[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    alice = roles[0]
    with psycopg.connect(libpq_conninfo(postgres_db), autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{alice}" AUTHORIZATION "{alice}"')
    alice_url = as_role(postgres_db, alice)
    make_legacy_hub(alice_url, alice, version=1)
    publish_old(alice_url, alice, "desktop")
    code, out, _ = run(capsys, "hub", "setup", "--to", postgres_db)
    assert code == 0 and f"moved the older hub of schema {alice} here" in out
    assert hub_query(postgres_db, "SELECT version FROM hub_schema") == [(2,)]
    assert hub_query(
        alice_url, "SELECT memory_mark, revision_mark, evidence_mark, published_at FROM hub_machines"
    ) == [(5, 9, None, 1234)]
    laptop = host_file(tmp_path / "laptop.db")
    report = publish_file(laptop, alice_url, "laptop")
    assert report.first is True and report.evidence > 0
    assert len(machine_memories(alice_url, "laptop")) == 5


def test_several_older_hubs_are_moved_only_by_name(
    postgres_db: str, roles: tuple[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    alice, bob = roles
    with psycopg.connect(libpq_conninfo(postgres_db), autocommit=True) as conn:
        conn.execute(f'GRANT CREATE ON SCHEMA public TO "{alice}"')
        conn.execute(f'CREATE SCHEMA "{bob}" AUTHORIZATION "{bob}"')
    make_legacy_hub(as_role(postgres_db, alice), "public")
    make_legacy_hub(as_role(postgres_db, bob), bob)  # a look-alike, perhaps
    publish_old(as_role(postgres_db, alice), "public", "laptop")
    code, _, err = run(capsys, "hub", "setup", "--to", postgres_db)
    assert code == EXIT_UNUSABLE_DATABASE
    assert f"several schemas hold an older hub ({bob}, public): name the one to move with --from" in err
    assert hub_query(postgres_db, "SELECT count(*) FROM pg_namespace WHERE nspname = %s", (SCHEMA,)) == [(0,)]
    code, out, _ = run(capsys, "hub", "setup", "--to", postgres_db, "--from", "public")
    assert code == 0 and "moved the older hub of schema public" in out
    assert hub_query(postgres_db, "SELECT machine FROM hub_memories") == [("laptop",)]
    assert hub_query(postgres_db, f'SELECT count(*) FROM "{bob}".hub_memories') == [(0,)]  # left alone


def test_an_administrator_who_is_no_superuser_sets_up_a_hub(
    postgres_db: str, roles: tuple[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    admin = make_role(postgres_db, "hub_admin", "CREATEROLE")
    try:
        with psycopg.connect(libpq_conninfo(postgres_db), autocommit=True) as conn:
            conn.execute(f'GRANT CREATE ON DATABASE "{make_url(postgres_db).database}" TO "{admin}"')
        code, out, err = run(capsys, "hub", "setup", "--to", as_role(postgres_db, admin))
        assert (code, err) == (0, "") and "set up in schema" in out
        tables, rights = catalog(postgres_db)
        assert {row[2] for row in tables} == {OWNER} and rights[0][0] == OWNER
        laptop = host_file(tmp_path / "laptop.db")
        assert publish_file(laptop, as_role(postgres_db, roles[0]), "laptop").memories == 5
    finally:
        drop_role(postgres_db, admin)
