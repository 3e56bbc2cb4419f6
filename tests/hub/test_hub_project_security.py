"""The hub's project memories are bound as its user memories are: row-level security keyed on the
publishing role (another publisher neither reads nor changes my project rows, nor writes rows in my
name); a hostile row a publisher wrote (a status the host never writes, a huge text, hidden characters,
a path's bytes that are not hex, a time out of range) is listed as refused, with why, its texts escaped,
never taken as it is; a hub made before the table existed is told to run `hub setup`, which adds it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from app.core.errors import EXIT_UNUSABLE_DATABASE
from app.core.hub_layout import OWNER, SCHEMA
from app.hub.publish import publish
from app.hub.schema.setup import setup_hub
from tests.support import hub_host
from tests.support.host80 import ALPHA, build_host80, seed_projects
from tests.support.hub_admin import catalog, run, superuser_sql
from tests.support.hub_host import as_role, drop_role, hub_query, make_role, opener
from tests.support.pg_host import libpq_conninfo

pinned_clock = hub_host.pinned_clock  # the clock pinned in every test here (autouse)


@pytest.fixture
def two_roles(postgres_db: str) -> Iterator[tuple[str, str]]:
    """Two ordinary roles of a hub set up by its administrator (`postgres_db`: the superuser's URL)."""
    setup_hub(postgres_db)
    names = (make_role(postgres_db, "hub_alice"), make_role(postgres_db, "hub_bob"))
    yield names
    for name in names:
        drop_role(postgres_db, name)


def seeded_file(path: Path) -> Path:
    build_host80(path)
    seed_projects(path)
    return path


def connect_as(url: str, role: str) -> psycopg.Connection[Any]:
    """Plain SQL as `role` (what a publisher with psql does), the hub's schema on its search path."""
    return psycopg.connect(
        libpq_conninfo(as_role(url, role)), options=f"-c search_path={SCHEMA}", autocommit=True
    )


HOSTILE = "INSERT INTO hub_project_memories (machine, memory_id, project_path, category, content, scope,"
HOSTILE += " shareable, first_seen_at, created_at, updated_at, last_seen_at, status, project_path_hex)"
HOSTILE += " VALUES ('bob-box', %s, %s, 'ARCHITECTURE', %s, 'project', false, 1, 1, %s, 1, %s, %s)"
FORGED = HOSTILE.replace("(machine,", "(publisher, machine,").replace("VALUES (", "VALUES (%s, ")
HIDDEN = "Deploy with\u200b care \u202eesrever"
ROWS = (
    (1, ALPHA, "A memory whose status the host never writes", 1, "active\u202e", None),
    (2, ALPHA, "x" * 200_000, 1, "active", None),
    (3, ALPHA, HIDDEN, 1, "active", None),
    (4, "dir:/srv/caf\ufffd", "A path whose bytes are no hex", 1, "active", "zz\u202e"),
    (5, ALPHA, "An update before 1970", -5, "active", None),
    (6, ALPHA, "A sound row between the hostile ones", 1, "active", None),
)


def test_another_publisher_neither_reads_nor_changes_my_project_rows(
    postgres_db: str, two_roles: tuple[str, str], tmp_path: Path
) -> None:
    alice, bob = two_roles
    alice_url = as_role(postgres_db, alice)
    sent = publish(opener(seeded_file(tmp_path / "a.db")), alice_url, "alice-laptop").projects.memories
    publish(opener(seeded_file(tmp_path / "b.db")), as_role(postgres_db, bob), "bob-box")
    counts = "SELECT publisher, count(*) FROM hub_project_memories GROUP BY 1 ORDER BY 1"
    assert hub_query(postgres_db, counts) == sorted([(alice, sent), (bob, sent)])
    with connect_as(postgres_db, bob) as conn:
        seen = conn.execute("SELECT DISTINCT publisher, machine FROM hub_project_memories").fetchall()
        assert seen == [(bob, "bob-box")]
        assert conn.execute("UPDATE hub_project_memories SET content = 'mine now' WHERE publisher = %s",
                            (alice,)).rowcount == 0  # fmt: skip
        assert conn.execute("DELETE FROM hub_project_memories WHERE machine = 'alice-laptop'").rowcount == 0
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="row-level security"):
            conn.execute(FORGED, (alice, 99, ALPHA, "forged", 1, "active", None))
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="row-level security"):
            conn.execute("UPDATE hub_project_memories SET publisher = %s", (alice,))
    assert hub_query(alice_url, "SELECT DISTINCT publisher FROM hub_project_memories") == [(alice,)]
    assert hub_query(postgres_db, counts) == sorted([(alice, sent), (bob, sent)])
    assert hub_query(postgres_db, "SELECT count(*) FROM hub_project_memories WHERE content = 'mine now'") == [
        (0,)
    ]


def test_hostile_project_rows_are_listed_as_refused_never_taken(
    postgres_db: str, two_roles: tuple[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    alice, bob = two_roles
    with connect_as(postgres_db, bob) as conn:
        for row in ROWS:
            conn.execute(HOSTILE, row)
    code, out, err = run(
        capsys, "hub", "list", "--kind", "project", "--json", "--to", as_role(postgres_db, bob)
    )
    assert code == 0, err
    listed = {item["memory_id"]: item for item in json.loads(out)["project_memories"]}
    assert 'its status is "active\\u202e", not one the host writes' in listed[1]["refused"]
    assert "the limit is 65,536 (64 KiB)" in listed[2]["refused"] and len(listed[2]["content"]) <= 200
    assert "U+200B" in listed[3]["refused"] and "\u200b" not in listed[3]["content"]
    assert "is not the hex of a path's bytes" in listed[4]["refused"]
    assert "#5.updated_at is -5, not epoch milliseconds" in listed[5]["refused"]
    assert listed[6]["refused"] is None and listed[6]["content"] == ROWS[5][2]

    code, out, err = run(capsys, "hub", "list", "--kind", "project", "--to", as_role(postgres_db, bob))
    assert code == 0 and "Traceback" not in err
    assert "6 project memories (5 refused)" in out
    assert "\u200b" not in out and "\u202e" not in out  # hidden characters reach no terminal
    code, out, _ = run(capsys, "hub", "list", "--kind", "project", "--to", as_role(postgres_db, alice))
    assert (code, out.strip()) == (0, "the hub holds no project memory this role published")


def test_a_hub_made_before_project_memories_is_told_to_run_setup_which_adds_them(
    postgres_db: str, two_roles: tuple[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    alice_url = as_role(postgres_db, two_roles[0])
    superuser_sql(
        postgres_db,
        f"DROP TABLE {SCHEMA}.hub_project_memories",
        f"UPDATE {SCHEMA}.hub_schema SET version = 2",
    )
    laptop = seeded_file(tmp_path / "laptop.db")
    code, out, err = run(capsys, "--db", str(laptop), "hub", "publish", "--to", alice_url)
    assert (code, out) == (EXIT_UNUSABLE_DATABASE, "")
    assert "the hub's schema is version 2" in err and "hub setup" in err and "cannot trust" not in err

    assert run(capsys, "hub", "setup", "--to", postgres_db)[0] == 0
    tables = {row[0]: row for row in catalog(postgres_db)[0]}
    _, _, owner, enabled, forced, acl, policies, triggers = tables["hub_project_memories"]
    assert (owner, enabled, forced, triggers) == (OWNER, True, True, 0)
    assert acl == f"{{{OWNER}=arwdDxt/{OWNER},=arwd/{OWNER}}}"  # PUBLIC: rows only
    assert policies == "own_rows:(publisher = CURRENT_USER)"
    assert publish(opener(laptop), alice_url, "laptop").projects.memories > 0
