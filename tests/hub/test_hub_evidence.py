"""The evidence archive (`mdash_evidence`) in the hub: the first publish sends every archived candidate,
later ones those after the watermark (and any a host archived under an id below it), publishing twice
changes nothing, candidates the host deleted stay, odd cells arrive as text with what was odd; `hub
status` counts them; a publish killed among the evidence batches leaves whole batches. (A hub of version 1
is moved and upgraded by `hub setup`: tests/hub/test_hub_setup.py.)"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path
from typing import Any

import psycopg
import pytest

from app.cli import main
from app.core.hub_layout import SCHEMA
from tests.support import hub_host
from tests.support.hostdb import host_sql, query
from tests.support.hub_host import NOW, host_file, hub_query, hub_tables, publish_file
from tests.support.pg_host import libpq_conninfo

pinned_clock = hub_host.pinned_clock  # the clock pinned in every test here (autouse)
hub_db = hub_host.hub_db  # a hub set up by its administrator; the URL of an ordinary publisher

ROOT = Path(__file__).resolve().parents[2]
PENDING_IDS = [141, 143, 145, 146, 151, 152]  # the seeded host file's candidates (tests/support/hostdb.py)


def archive(path: Path) -> list[tuple[Any, ...]]:
    return query(
        path,
        "SELECT candidate_id, content, session_id, source_compartment_start, source_compartment_end,"
        " created_at, first_seen_at FROM mdash_evidence ORDER BY candidate_id",
    )


def hub_evidence(url: str, machine: str) -> list[tuple[Any, ...]]:
    return hub_query(
        url,
        "SELECT candidate_id, content, session_id, source_compartment_start, source_compartment_end,"
        " created_at, first_seen_at FROM hub_evidence WHERE machine = %s ORDER BY candidate_id",
        (machine,),
    )


def evidence_mark(url: str, machine: str) -> int | None:
    [(mark,)] = hub_query(url, "SELECT evidence_mark FROM hub_machines WHERE machine = %s", (machine,))
    return None if mark is None else int(mark)


def add_candidates(path: Path, first_id: int, count: int) -> None:
    with closing(sqlite3.connect(path)) as conn, conn:
        conn.executemany(
            "INSERT INTO user_memory_candidates (id, content, session_id, created_at) VALUES (?, ?, ?, ?)",
            [
                (first_id + n, f"candidate words {first_id + n}", f"ses_{n % 7}", NOW - n)
                for n in range(count)
            ],
        )


def test_the_first_publish_sends_the_archive_and_a_second_changes_nothing(
    hub_db: str, tmp_path: Path
) -> None:
    laptop = host_file(tmp_path / "laptop.db")
    report = publish_file(laptop, hub_db, "laptop")
    assert [row[0] for row in archive(laptop)] == PENDING_IDS  # archived by the publish's own look
    assert report.evidence == len(PENDING_IDS)
    assert hub_evidence(hub_db, "laptop") == archive(laptop)
    assert evidence_mark(hub_db, "laptop") == PENDING_IDS[-1]
    before = hub_tables(hub_db)
    again = publish_file(laptop, hub_db, "laptop")
    assert (again.changed, again.evidence) == (False, 0)
    assert hub_tables(hub_db) == before


def test_a_later_publish_sends_the_new_candidates_and_keeps_the_ones_the_host_deleted(
    hub_db: str, tmp_path: Path
) -> None:
    laptop = host_file(tmp_path / "laptop.db")
    publish_file(laptop, hub_db, "laptop")
    host_sql(laptop, "DELETE FROM user_memory_candidates WHERE id IN (141, 143)")  # consumed by the host
    add_candidates(laptop, 200, 3)
    report = publish_file(laptop, hub_db, "laptop", batch=2)
    assert report.evidence == 3
    published = hub_evidence(hub_db, "laptop")
    assert published == archive(laptop)
    assert [row[0] for row in published] == [*PENDING_IDS, 200, 201, 202]
    assert evidence_mark(hub_db, "laptop") == 202


def test_a_candidate_archived_below_the_mark_is_still_published(hub_db: str, tmp_path: Path) -> None:
    """A host whose candidate ids are handed out again (no AUTOINCREMENT) archives a row under an id below
    the watermark: the tallies differ, the ids are compared and it is sent."""
    laptop = host_file(tmp_path / "laptop.db")
    publish_file(laptop, hub_db, "laptop")
    host_sql(
        laptop,
        "INSERT INTO mdash_evidence (candidate_id, content, session_id, created_at, first_seen_at)"
        " VALUES (5, 'an id used again', 'ses_old', 1, ?)",
        (NOW,),
    )
    report = publish_file(laptop, hub_db, "laptop")
    assert report.evidence == 1
    assert hub_evidence(hub_db, "laptop") == archive(laptop)
    assert evidence_mark(hub_db, "laptop") == PENDING_IDS[-1]  # the mark does not go back
    assert publish_file(laptop, hub_db, "laptop").changed is False


def test_odd_cells_of_the_archive_arrive_as_text_with_what_was_odd(hub_db: str, tmp_path: Path) -> None:
    laptop = host_file(tmp_path / "laptop.db")
    host_sql(
        laptop,
        "INSERT INTO user_memory_candidates (id, content, session_id, source_compartment_start, created_at)"
        " VALUES (300, X'6869FF00', 42, 'seven', 'yesterday')",
    )
    publish_file(laptop, hub_db, "laptop")
    [row] = hub_query(
        hub_db,
        "SELECT content, session_id, source_compartment_start, detail FROM hub_evidence"
        " WHERE candidate_id = 300",
    )
    content, session, start, detail = row
    assert "\x00" not in content and content.startswith("hi")
    assert session == "42" and start is None
    assert "content" in detail and "created_at" in detail and "source_compartment_start" in detail
    assert hub_query(hub_db, "SELECT detail FROM hub_evidence WHERE candidate_id = 141") == [(None,)]


def test_hub_status_counts_the_evidence(
    hub_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    publish_file(host_file(tmp_path / "laptop.db"), hub_db, "laptop")
    capsys.readouterr()
    assert main(["hub", "status", "--hub", hub_db, "--json"]) == 0
    [machine] = json.loads(capsys.readouterr().out)["machines"]
    assert (machine["machine"], machine["evidence"]) == ("laptop", len(PENDING_IDS))
    assert main(["hub", "status", "--hub", hub_db]) == 0
    header, line = capsys.readouterr().out.splitlines()
    assert "evidence" in header
    assert line.split()[-2] == str(len(PENDING_IDS))


# -- killed midway ------------------------------------------------------------------------------------

BATCH = 50
CHILD = """
import sys
sys.path[:0] = [sys.argv[3]]
from tests.support.hub_host import publish_file
from pathlib import Path
publish_file(Path(sys.argv[1]), sys.argv[2], "box", batch={batch})
"""
NOTIFY_ON_EVIDENCE = (
    "CREATE FUNCTION evidence_batch() RETURNS trigger LANGUAGE plpgsql AS"
    " $$ BEGIN PERFORM pg_notify('evidence_batch', ''); RETURN NULL; END $$",
    "CREATE TRIGGER evidence_batch AFTER INSERT ON hub_evidence FOR EACH STATEMENT"
    " EXECUTE FUNCTION evidence_batch()",
)


def test_a_publish_killed_among_the_evidence_batches_leaves_whole_batches(
    postgres_db: str, hub_db: str, tmp_path: Path
) -> None:
    box = host_file(tmp_path / "box.db")
    add_candidates(box, 1_000, 20_000)
    with psycopg.connect(libpq_conninfo(postgres_db), autocommit=True) as listener:
        # a test's own trigger, made by the administrator (`postgres_db`): told when a batch commits, no
        # polling (`hub setup` would remove it: it leaves no trigger of anyone's on the hub's tables)
        listener.execute(f"SET search_path = {SCHEMA}")
        for statement in NOTIFY_ON_EVIDENCE:
            listener.execute(statement)
        listener.execute("LISTEN evidence_batch")
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD.format(batch=BATCH), str(box), hub_db, str(ROOT)],
            stderr=subprocess.PIPE,
        )
        next(listener.notifies(timeout=120))  # the first evidence batch committed
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
    assert child.stderr is not None
    stderr = child.stderr.read()
    child.stderr.close()
    assert child.returncode == -signal.SIGKILL, stderr
    published = hub_evidence(hub_db, "box")
    local = archive(box)
    assert 0 < len(published) < len(local)
    assert len(published) % BATCH == 0  # whole batches only
    assert published == local[: len(published)]  # the lowest ids, up to the mark
    assert evidence_mark(hub_db, "box") == published[-1][0]
    report = publish_file(box, hub_db, "box")
    assert report.evidence == len(local) - len(published)
    assert hub_evidence(hub_db, "box") == local
