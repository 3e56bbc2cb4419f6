"""`hub setup`: run once by the administrator, it makes the hub's schema and tables owned by a role that
cannot log in, row-level security forced, publishers given only USAGE and row rights; again, it changes
nothing or puts back what was changed. A publish never makes a hub: a database not set up, or holding a
schema `hub setup` did not make, is a message naming `hub setup`. No role is left a member of the owner
role (an administrator who is no superuser revokes its own membership), and a hub whose owner role has
a member is refused until `hub setup` revokes it. (An older version's hub: test_hub_legacy_move.)"""

from __future__ import annotations

import json
from pathlib import Path

import psycopg
import pytest
from sqlalchemy import make_url

from app.cli import main
from app.core.errors import EXIT_UNUSABLE_DATABASE
from app.core.hub_layout import OWNER, SCHEMA
from app.hub.schema.tables import SCHEMA_VERSION
from tests.support import hub_admin, hub_host
from tests.support.hostdb import host_dump
from tests.support.hub_admin import (
    OWNER_MEMBERS,
    REQUEST_COLUMNS,
    USER_TABLES,
    catalog,
    run,
    superuser_sql,
)
from tests.support.hub_host import (
    as_role,
    drop_role,
    host_file,
    hub_query,
    make_role,
    publish_file,
)
from tests.support.hub_legacy import make_legacy_hub
from tests.support.pg_host import libpq_conninfo

pinned_clock = hub_host.pinned_clock  # the clock pinned in every test here (autouse)

roles = hub_admin.roles  # two ordinary roles of the test server


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
        rows = "rd" if table == "hub_requests" else "arwd"  # a request's columns but its id apart
        assert acl == f"{{{OWNER}=arwdDxt/{OWNER},={rows}/{OWNER}}}"  # PUBLIC: rows only
        assert policies == "own_rows:(publisher = CURRENT_USER)"
    request_columns = hub_query(postgres_db, REQUEST_COLUMNS)
    assert request_columns[0] == ("id", "a", None)  # GENERATED ALWAYS, no right of anyone's
    assert {row[1:] for row in request_columns[1:]} == {("", f"{{=aw/{OWNER}}}")}
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
        assert hub_query(postgres_db, OWNER_MEMBERS, (OWNER,)) == []  # its own membership revoked
        admin_conn = psycopg.connect(libpq_conninfo(as_role(postgres_db, admin)))
        with admin_conn as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute(f"ALTER TABLE {SCHEMA}.hub_memories NO FORCE ROW LEVEL SECURITY")
        laptop = host_file(tmp_path / "laptop.db")
        assert publish_file(laptop, as_role(postgres_db, roles[0]), "laptop").memories == 5
        code, out, err = run(capsys, "hub", "setup", "--to", as_role(postgres_db, admin))  # again
        assert (code, err) == (0, "") and "checked (already set up)" in out
        assert hub_query(postgres_db, OWNER_MEMBERS, (OWNER,)) == []
    finally:
        drop_role(postgres_db, admin)


def test_a_member_of_the_owner_role_is_refused_until_setup_revokes_it(
    postgres_db: str, roles: tuple[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    alice, bob = roles
    assert run(capsys, "hub", "setup", "--to", postgres_db)[0] == 0
    superuser_sql(postgres_db, f'GRANT {OWNER} TO "{bob}"')  # bob may now lift row-level security
    laptop = host_file(tmp_path / "laptop.db")
    for argv in (["--db", str(laptop), "hub", "publish"], ["hub", "status"], ["hub", "list"]):
        code, out, err = run(capsys, *argv, "--to", as_role(postgres_db, alice))
        assert (code, out) == (EXIT_UNUSABLE_DATABASE, "")
        assert f"the role {OWNER} has the member(s) {bob}, who may lift row-level security" in err
        assert "hub setup" in err
    code, out, err = run(capsys, "hub", "setup", "--to", postgres_db)
    assert (code, err) == (0, "") and f"revoked the membership of {bob} in {OWNER}" in out
    assert hub_query(postgres_db, OWNER_MEMBERS, (OWNER,)) == []
    assert publish_file(laptop, as_role(postgres_db, alice), "laptop").memories == 5
