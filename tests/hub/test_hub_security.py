"""The hub's security: row-level security keyed on the publishing role (two roles, neither reads nor
changes the other's rows); passwords from libpq's own sources (PGPASSFILE), never from our settings; a
refused password is a message and exit 3; libpq options (`sslmode`) pass through the URL."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import hub_host
import psycopg
import pytest
from hostdb import build_host_db, has_table, host_dump
from hub_host import SECRET, host_file, hub_query, pgpass, publish_file
from pg_host import libpq_conninfo
from sqlalchemy import make_url

from app.cli import main
from app.core.errors import EXIT_UNUSABLE_DATABASE
from app.core.settings import load_settings
from app.hub.connect import connect_hub
from app.hub.schema import ensure_schema

pinned_clock = hub_host.pinned_clock  # the clock pinned in every test here (autouse)
password_server = hub_host.password_server  # a cluster whose role logs in with a password only


def as_role(url: str, role: str) -> str:
    return make_url(url).set(username=role).render_as_string(hide_password=False)


@pytest.fixture
def two_roles(postgres_db: str) -> Iterator[tuple[str, str]]:
    names = (f"hub_alice_{os.getpid()}", f"hub_bob_{os.getpid()}")
    with psycopg.connect(libpq_conninfo(postgres_db), autocommit=True) as conn:
        for name in names:
            conn.execute(f'CREATE ROLE "{name}" LOGIN')
        with closing(connect_hub(postgres_db)) as hub:  # the hub made by its administrator
            ensure_schema(hub)
        yield names
        for name in names:
            conn.execute(f'DROP ROLE "{name}"')


def test_row_level_security_keeps_each_role_to_its_own_rows(
    postgres_db: str, two_roles: tuple[str, str], tmp_path: Path
) -> None:
    alice, bob = two_roles
    publish_file(host_file(tmp_path / "a.db"), as_role(postgres_db, alice), "alice-laptop")
    publish_file(host_file(tmp_path / "b.db", memories=2), as_role(postgres_db, bob), "bob-desktop")
    assert hub_query(postgres_db, "SELECT publisher, count(*) FROM hub_memories GROUP BY 1 ORDER BY 2") == [
        (alice, 5),
        (bob, 7),
    ]
    with psycopg.connect(libpq_conninfo(as_role(postgres_db, bob)), autocommit=True) as conn:
        for table in ("hub_memories", "hub_revisions", "hub_machines"):
            publishers = conn.execute(f"SELECT DISTINCT publisher FROM {table}").fetchall()
            assert publishers == [(bob,)]
        assert conn.execute(
            "SELECT count(*) FROM hub_memories WHERE machine = 'alice-laptop'"
        ).fetchone() == (0,)
        changed = conn.execute("UPDATE hub_memories SET content = 'mine now' WHERE machine = 'alice-laptop'")
        assert changed.rowcount == 0
        assert conn.execute("DELETE FROM hub_revisions WHERE publisher = %s", (alice,)).rowcount == 0
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="row-level security"):
            conn.execute(
                "INSERT INTO hub_memories (publisher, machine, memory_id, content, status, promoted_at,"
                " created_at, updated_at) VALUES (%s, 'alice-laptop', 999, 'forged', 'active', 0, 0, 0)",
                (alice,),
            )
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="row-level security"):
            conn.execute("UPDATE hub_memories SET publisher = %s", (alice,))
    with psycopg.connect(libpq_conninfo(as_role(postgres_db, alice))) as conn:
        assert conn.execute("SELECT DISTINCT machine FROM hub_memories").fetchall() == [("alice-laptop",)]
    assert hub_query(postgres_db, "SELECT count(*) FROM hub_memories WHERE content = 'mine now'") == [(0,)]
    assert hub_query(postgres_db, "SELECT count(*) FROM hub_memories WHERE publisher = %s", (alice,)) == [
        (5,)
    ]


def test_the_password_comes_from_pgpassfile_and_never_from_our_settings(
    password_server: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PGPASSFILE", str(pgpass(tmp_path, SECRET)))
    laptop = host_file(tmp_path / "laptop.db")
    assert main(["hub", "configure", "--url", password_server, "--machine", "laptop"]) == 0
    assert "machine: laptop" in capsys.readouterr().out
    assert main(["--db", str(laptop), "hub", "publish", "--json"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert (json.loads(out)["memories"], json.loads(out)["machine"]) == (5, "laptop")
    assert SECRET not in json.dumps(load_settings().to_json())
    code = main(["hub", "configure", "--url", password_server.replace("hub_carol@", f"hub_carol:{SECRET}@")])
    _, err = capsys.readouterr()
    assert code == 1
    assert "holds a password" in err and SECRET not in err
    assert load_settings().to_json()["hub_url"] == password_server


def test_a_refused_password_is_a_message_and_the_local_file_is_untouched(
    password_server: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:

    monkeypatch.setenv("PGPASSFILE", str(pgpass(tmp_path, "wrong")))
    fresh = build_host_db(tmp_path / "fresh.db")
    dump = host_dump(fresh)
    code = main(["--db", str(fresh), "hub", "publish", "--to", password_server])
    out, err = capsys.readouterr()
    assert (code, out) == (EXIT_UNUSABLE_DATABASE, "")
    assert "password authentication failed" in err and "Traceback" not in err
    assert not has_table(fresh, "mdash_revisions")
    assert host_dump(fresh) == dump
    shown = password_server.replace("hub_carol@", "hub_carol:hunter2@")
    assert main(["hub", "status", "--hub", shown]) == EXIT_UNUSABLE_DATABASE
    _, err = capsys.readouterr()
    assert "password authentication failed" in err and "hunter2" not in err


def test_libpq_options_pass_through_the_url(postgres_db: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hub", "status", "--hub", f"{postgres_db}&sslmode=disable", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"machines": []}
    assert main(["hub", "status", "--hub", f"{postgres_db}&sslmode=bogus"]) == EXIT_UNUSABLE_DATABASE
    assert 'invalid sslmode value: "bogus"' in capsys.readouterr().err
