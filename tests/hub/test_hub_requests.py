""" "Dismiss on every machine": a request queued in the hub, applied by each machine on its next publish
as a dashboard write with its own revision, through the store's dismiss."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from app.cli import main
from tests.support import hub_host
from tests.support.hub_host import host_file, hub_query, publish_file

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
