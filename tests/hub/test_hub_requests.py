""" "Dismiss on every machine": a request queued in the hub, applied by each machine on its next publish
as a dashboard write with its own revision, through the store's dismiss. A request's id is PostgreSQL's
to hand out (no publisher takes the ids others would get next); its values are checked where they come
in, and one refused is named in the publish's report, left pending, and never blocks the publish."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import psycopg
import pytest
from sqlalchemy import make_url

from app.cli import main
from app.core.errors import EXIT_UNUSABLE_DATABASE
from app.core.hub_layout import SCHEMA
from tests.support import hub_host
from tests.support.hub_admin import run, superuser_sql
from tests.support.hub_host import host_file, hub_query, hub_sql, publish_file

pinned_clock = hub_host.pinned_clock  # the clock pinned in every test here (autouse)
hub_db = hub_host.hub_db  # a hub set up by its administrator; the URL of an ordinary publisher


def last_revision(path: Path, memory_id: int) -> tuple[object, ...]:
    with closing(sqlite3.connect(path)) as conn:
        row = conn.execute(
            "SELECT kind, source, new_status, detail FROM mdash_revisions WHERE memory_id = ?"
            " ORDER BY id DESC",
            (memory_id,),
        ).fetchone()
    return tuple(row)


def status_of(path: Path, memory_id: int) -> str:
    with closing(sqlite3.connect(path)) as conn:
        return str(conn.execute("SELECT status FROM user_memories WHERE id = ?", (memory_id,)).fetchone()[0])


def pending(url: str) -> dict[str, int]:
    rows = hub_query(url, "SELECT machine, count(*) FROM hub_requests WHERE applied_at IS NULL GROUP BY 1")
    return {str(machine): int(count) for machine, count in rows}


def test_dismiss_on_every_machine_is_applied_by_each_machine_on_its_next_publish(
    hub_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    laptop, desktop = host_file(tmp_path / "laptop.db"), host_file(tmp_path / "desktop.db", memories=2)
    publish_file(laptop, hub_db, "laptop")
    publish_file(desktop, hub_db, "desktop")
    argv = ["hub", "request-dismiss", "laptop", "5", "--to", hub_db, "--machine", "phone"]
    assert main([*argv, "--reason", "not true any more", "--json"]) == 0
    queued = json.loads(capsys.readouterr().out)["queued"]
    assert queued == [{"machine": "desktop", "memory_id": 5}, {"machine": "laptop", "memory_id": 5}]
    assert pending(hub_db) == {"desktop": 1, "laptop": 1}
    assert main(argv) == 0  # asked again while pending: nothing more queued
    assert "nothing queued" in capsys.readouterr().out
    assert pending(hub_db) == {"desktop": 1, "laptop": 1}

    assert main(["--db", str(laptop), "hub", "publish", "--to", hub_db, "--machine", "laptop"]) == 0
    assert "dismissed on the hub's request: #5" in capsys.readouterr().out
    assert status_of(laptop, 5) == "dismissed"
    assert last_revision(laptop, 5) == (
        "status",
        "dashboard",
        "dismissed",
        json.dumps({"reason": "dismissed from the hub, requested on phone: not true any more"}),
    )
    assert hub_query(hub_db, "SELECT machine, status FROM hub_memories WHERE memory_id = 5 ORDER BY 1") == [
        ("desktop", "active"),
        ("laptop", "dismissed"),
    ]
    assert pending(hub_db) == {"desktop": 1}
    assert status_of(desktop, 5) == "active"  # nothing wrote the other machine's file

    report = publish_file(desktop, hub_db, "desktop")
    assert report.dismissed == (5,)
    assert status_of(desktop, 5) == "dismissed"
    assert pending(hub_db) == {}
    assert publish_file(desktop, hub_db, "desktop").changed is False


def test_a_request_for_an_unknown_memory_is_refused(
    hub_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    publish_file(host_file(tmp_path / "laptop.db"), hub_db, "laptop")
    assert main(["hub", "request-dismiss", "laptop", "77", "--to", hub_db]) == 1
    assert "no memory #77 of machine 'laptop'" in capsys.readouterr().err
    assert pending(hub_db) == {}


def test_a_read_only_publish_leaves_the_requests_waiting(
    hub_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:

    laptop = host_file(tmp_path / "laptop.db")
    publish_file(laptop, hub_db, "laptop")
    assert main(["hub", "request-dismiss", "laptop", "1", "--to", hub_db, "--machine", "phone"]) == 0
    capsys.readouterr()
    code = main(["--db", str(laptop), "--read-only", "hub", "publish", "--to", hub_db, "--machine", "laptop"])
    assert code == 0
    assert "they wait for a writable database" in capsys.readouterr().out
    assert status_of(laptop, 1) == "active"
    assert pending(hub_db) == {"laptop": 1}


# -- a request's values and ids, as any publisher may write them ---------------------------------------

FORGED = (
    "INSERT INTO hub_requests (id, machine, memory_id, kind, requested_on, requested_at)"
    " SELECT g, 'laptop', 3, 'dismiss', 'x', 1 FROM generate_series(1, 1000) g ON CONFLICT DO NOTHING"
)
FORGERIES = (
    FORGED,
    FORGED.replace(" SELECT", " OVERRIDING SYSTEM VALUE SELECT"),
    "UPDATE hub_requests SET id = id + 1000",
)
REFUSED = (psycopg.errors.InsufficientPrivilege, psycopg.errors.GeneratedAlways)


def test_a_publisher_may_not_choose_a_requests_id(
    hub_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    publish_file(host_file(tmp_path / "laptop.db"), hub_db, "laptop")
    assert main(["hub", "request-dismiss", "laptop", "4", "--to", hub_db]) == 0
    for statement in FORGERIES:
        with pytest.raises(REFUSED):
            hub_sql(hub_db, statement)
    capsys.readouterr()
    assert main(["hub", "request-dismiss", "laptop", "3", "--to", hub_db]) == 0
    assert "queued: dismiss on laptop #3" in capsys.readouterr().out
    assert hub_query(hub_db, "SELECT id, memory_id FROM hub_requests ORDER BY id") == [(1, 4), (2, 3)]


@pytest.mark.parametrize(
    "given",
    [
        f"ALTER TABLE {SCHEMA}.hub_requests ALTER COLUMN id SET GENERATED BY DEFAULT",  # as before
        f"GRANT INSERT, UPDATE ON {SCHEMA}.hub_requests TO PUBLIC",  # every column, the id too
        f'GRANT INSERT (id), UPDATE (id) ON {SCHEMA}.hub_requests TO "{{publisher}}"',
    ],
)
def test_a_hub_whose_publishers_may_choose_request_ids_is_refused_until_setup_mends_it(
    hub_db: str, postgres_db: str, given: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    superuser_sql(postgres_db, given.format(publisher=make_url(hub_db).username))
    laptop = host_file(tmp_path / "laptop.db")
    code, out, err = run(capsys, "--db", str(laptop), "hub", "publish", "--to", hub_db)
    assert (code, out) == (EXIT_UNUSABLE_DATABASE, "")
    assert "publishers may choose a request's id" in err and "hub setup" in err
    assert run(capsys, "hub", "setup", "--to", postgres_db)[0] == 0
    publish_file(laptop, hub_db, "laptop")
    for statement in FORGERIES:
        with pytest.raises(REFUSED):
            hub_sql(hub_db, statement)


BAD_REQUESTS = (
    "INSERT INTO hub_requests (machine, memory_id, kind, requested_on, requested_at, reason) VALUES"
    " ('laptop', 1, 'dismiss', %s, 1, NULL), ('laptop', 3, 'dismiss', 'phone', 1, %s),"
    " ('laptop', 4, 'dismiss', 'phone', 1, 'no longer true')"
)


def test_a_request_whose_values_are_refused_is_named_skipped_and_never_blocks_the_publish(
    hub_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    laptop = host_file(tmp_path / "laptop.db")
    publish_file(laptop, hub_db, "laptop")
    hub_sql(hub_db, BAD_REQUESTS, ("x" * 100_000 + "\u202e\x1b[2J\x07", "looks fine \uffff"))
    first, second, third = (row[0] for row in hub_query(hub_db, "SELECT id FROM hub_requests ORDER BY id"))
    local = ["--db", str(laptop), "hub", "publish", "--to", hub_db, "--machine", "laptop"]
    code, out, err = run(capsys, *local)
    assert (code, err) == (0, "")
    assert "dismissed on the hub's request: #4" in out
    assert f"  - #{first}: requested_on: is longer than 200 characters\n" in out
    assert f"  - #{second}: reason: holds a Unicode non-character (U+FFFF) at character 12\n" in out
    assert "\x1b" not in out and "\u202e" not in out
    assert [status_of(laptop, memory_id) for memory_id in (1, 3, 4)] == ["active", "active", "dismissed"]
    assert pending(hub_db) == {"laptop": 2}  # the refused wait; the publish itself went on
    assert hub_query(hub_db, "SELECT memory_id FROM hub_memories WHERE status = 'dismissed' ORDER BY 1") == [
        (2,),
        (4,),
    ]
    code, out, _ = run(capsys, *local, "--json")
    refused = json.loads(out)["refused_requests"]
    assert [item["id"] for item in refused] == [first, second] and third not in (first, second)

    hub_sql(hub_db, "UPDATE hub_requests SET requested_on = %s WHERE id = %s", ("phone\u202e", first))
    code, out, _ = run(capsys, *local)
    assert f"  - #{first}: requested_on: holds 1 hidden character(s) (U+202E RIGHT-TO-LEFT OVERRIDE)" in out
