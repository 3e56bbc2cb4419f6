"""The evidence archive (`mdash_evidence`) in the hub: the first publish sends every archived candidate,
later ones those after the watermark (and any a host archived under an id below it), publishing twice
changes nothing, candidates the host deleted stay, odd cells arrive as text with what was odd; `hub
status` counts them; a hub of schema version 1 is upgraded by its owner and refused, with a message, to
anyone else."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import hub_host
import psycopg
import pytest
from hostdb import host_sql, query
from hub_host import NOW, host_file, hub_query, hub_tables, local_memories, machine_memories, publish_file
from pg_host import libpq_conninfo
from sqlalchemy import make_url

from app.cli import main
from app.core.errors import EXIT_UNUSABLE_DATABASE
from app.hub.connect import HubError, connect_hub
from app.hub.schema import SCHEMA_VERSION, ensure_schema, schema_version

pinned_clock = hub_host.pinned_clock  # the clock pinned in every test here (autouse)

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
    postgres_db: str, tmp_path: Path
) -> None:
    laptop = host_file(tmp_path / "laptop.db")
    report = publish_file(laptop, postgres_db, "laptop")
    assert [row[0] for row in archive(laptop)] == PENDING_IDS  # archived by the publish's own look
    assert report.evidence == len(PENDING_IDS)
    assert hub_evidence(postgres_db, "laptop") == archive(laptop)
    assert evidence_mark(postgres_db, "laptop") == PENDING_IDS[-1]
    before = hub_tables(postgres_db)
    again = publish_file(laptop, postgres_db, "laptop")
    assert (again.changed, again.evidence) == (False, 0)
    assert hub_tables(postgres_db) == before


def test_a_later_publish_sends_the_new_candidates_and_keeps_the_ones_the_host_deleted(
    postgres_db: str, tmp_path: Path
) -> None:
    laptop = host_file(tmp_path / "laptop.db")
    publish_file(laptop, postgres_db, "laptop")
    host_sql(laptop, "DELETE FROM user_memory_candidates WHERE id IN (141, 143)")  # consumed by the host
    add_candidates(laptop, 200, 3)
    report = publish_file(laptop, postgres_db, "laptop", batch=2)
    assert report.evidence == 3
    published = hub_evidence(postgres_db, "laptop")
    assert published == archive(laptop)
    assert [row[0] for row in published] == [*PENDING_IDS, 200, 201, 202]
    assert evidence_mark(postgres_db, "laptop") == 202


def test_a_candidate_archived_below_the_mark_is_still_published(postgres_db: str, tmp_path: Path) -> None:
    """A host whose candidate ids are handed out again (no AUTOINCREMENT) archives a row under an id below
    the watermark: the tallies differ, the ids are compared and it is sent."""
    laptop = host_file(tmp_path / "laptop.db")
    publish_file(laptop, postgres_db, "laptop")
    host_sql(
        laptop,
        "INSERT INTO mdash_evidence (candidate_id, content, session_id, created_at, first_seen_at)"
        " VALUES (5, 'an id used again', 'ses_old', 1, ?)",
        (NOW,),
    )
    report = publish_file(laptop, postgres_db, "laptop")
    assert report.evidence == 1
    assert hub_evidence(postgres_db, "laptop") == archive(laptop)
    assert evidence_mark(postgres_db, "laptop") == PENDING_IDS[-1]  # the mark does not go back
    assert publish_file(laptop, postgres_db, "laptop").changed is False


def test_odd_cells_of_the_archive_arrive_as_text_with_what_was_odd(postgres_db: str, tmp_path: Path) -> None:
    laptop = host_file(tmp_path / "laptop.db")
    host_sql(
        laptop,
        "INSERT INTO user_memory_candidates (id, content, session_id, source_compartment_start, created_at)"
        " VALUES (300, X'6869FF00', 42, 'seven', 'yesterday')",
    )
    publish_file(laptop, postgres_db, "laptop")
    [row] = hub_query(
        postgres_db,
        "SELECT content, session_id, source_compartment_start, detail FROM hub_evidence"
        " WHERE candidate_id = 300",
    )
    content, session, start, detail = row
    assert "\x00" not in content and content.startswith("hi")
    assert session == "42" and start is None
    assert "content" in detail and "created_at" in detail and "source_compartment_start" in detail
    assert hub_query(postgres_db, "SELECT detail FROM hub_evidence WHERE candidate_id = 141") == [(None,)]


def test_hub_status_counts_the_evidence(
    postgres_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    publish_file(host_file(tmp_path / "laptop.db"), postgres_db, "laptop")
    capsys.readouterr()
    assert main(["hub", "status", "--hub", postgres_db, "--json"]) == 0
    [machine] = json.loads(capsys.readouterr().out)["machines"]
    assert (machine["machine"], machine["evidence"]) == ("laptop", len(PENDING_IDS))
    assert main(["hub", "status", "--hub", postgres_db]) == 0
    header, line = capsys.readouterr().out.splitlines()
    assert "evidence" in header
    assert line.split()[-2] == str(len(PENDING_IDS))


# -- a hub of version 1 -------------------------------------------------------------------------------

# What version 1 made differently (frozen here, as that version wrote it).
VERSION_1 = (
    "ALTER TABLE hub_machines DROP COLUMN evidence_mark",
    "DROP TABLE hub_evidence",
    """CREATE TABLE hub_evidence (
        publisher name NOT NULL DEFAULT current_user, machine text NOT NULL, memory_id bigint NOT NULL,
        candidate_id bigint NOT NULL, session_id text, content text, detail text,
        PRIMARY KEY (publisher, machine, memory_id, candidate_id))""",
    "ALTER TABLE hub_evidence ENABLE ROW LEVEL SECURITY",
    "ALTER TABLE hub_evidence FORCE ROW LEVEL SECURITY",
    "CREATE POLICY own_rows ON hub_evidence USING (publisher = current_user)"
    " WITH CHECK (publisher = current_user)",
    "GRANT SELECT, INSERT, UPDATE, DELETE ON hub_evidence TO PUBLIC",
    "UPDATE hub_schema SET version = 1",
)


def make_version_1(url: str) -> None:
    with closing(connect_hub(url)) as hub:
        ensure_schema(hub)
        with hub.transaction():
            for statement in VERSION_1:
                hub.execute(statement)


def test_a_hub_of_version_1_is_upgraded_and_keeps_what_was_published(
    postgres_db: str, tmp_path: Path
) -> None:
    make_version_1(postgres_db)
    insert = "INSERT INTO hub_machines (machine, memory_mark, revision_mark, published_at) VALUES"
    with psycopg.connect(libpq_conninfo(postgres_db), autocommit=True) as conn:
        conn.execute(f"{insert} ('desktop', 5, 9, 1234)")
    laptop = host_file(tmp_path / "laptop.db")
    report = publish_file(laptop, postgres_db, "laptop")
    assert report.evidence == len(PENDING_IDS)
    with closing(connect_hub(postgres_db)) as hub:
        assert schema_version(hub) == SCHEMA_VERSION == 2
    assert hub_query(
        postgres_db, "SELECT memory_mark, revision_mark, evidence_mark, published_at FROM hub_machines"
        " WHERE machine = 'desktop'"
    ) == [(5, 9, None, 1234)]  # fmt: skip
    assert hub_evidence(postgres_db, "laptop") == archive(laptop)
    assert machine_memories(postgres_db, "laptop") == local_memories(laptop)


@pytest.fixture
def other_role(postgres_db: str) -> Iterator[str]:
    name = f"hub_dave_{os.getpid()}"
    with psycopg.connect(libpq_conninfo(postgres_db), autocommit=True) as conn:
        conn.execute(f'CREATE ROLE "{name}" LOGIN')
        yield make_url(postgres_db).set(username=name).render_as_string(hide_password=False)
        conn.execute(f'DROP OWNED BY "{name}"')
        conn.execute(f'DROP ROLE "{name}"')


def test_a_hub_of_version_1_is_upgraded_only_by_its_owner_and_anyone_else_is_told(
    postgres_db: str, other_role: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make_version_1(postgres_db)
    laptop = host_file(tmp_path / "laptop.db")
    with pytest.raises(HubError, match="upgraded from version 1 to 2 by the role that made it"):
        publish_file(laptop, other_role, "laptop")
    code = main(["--db", str(laptop), "hub", "publish", "--to", other_role, "--machine", "laptop"])
    _, err = capsys.readouterr()
    assert code == EXIT_UNUSABLE_DATABASE
    assert "must be owner" in err and "Traceback" not in err
    with closing(connect_hub(postgres_db)) as hub:
        assert schema_version(hub) == 1  # nothing half done
    publish_file(laptop, postgres_db, "laptop")  # the owner upgrades it
    assert publish_file(laptop, other_role, "laptop").evidence == len(PENDING_IDS)


# -- killed midway ------------------------------------------------------------------------------------

BATCH = 50
CHILD = """
import sys
sys.path[:0] = [sys.argv[3], sys.argv[3] + "/tests/support"]
from hub_host import publish_file
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
    postgres_db: str, tmp_path: Path
) -> None:
    box = host_file(tmp_path / "box.db")
    add_candidates(box, 1_000, 20_000)
    with closing(connect_hub(postgres_db)) as hub:
        ensure_schema(hub)
    with psycopg.connect(libpq_conninfo(postgres_db), autocommit=True) as listener:
        for statement in NOTIFY_ON_EVIDENCE:  # a test's own trigger: told when a batch commits, no polling
            listener.execute(statement)
        listener.execute("LISTEN evidence_batch")
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD.format(batch=BATCH), str(box), postgres_db, str(ROOT)],
            stderr=subprocess.PIPE,
        )
        next(listener.notifies(timeout=120))  # the first evidence batch committed
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
    assert child.stderr is not None
    stderr = child.stderr.read()
    child.stderr.close()
    assert child.returncode == -signal.SIGKILL, stderr
    published = hub_evidence(postgres_db, "box")
    local = archive(box)
    assert 0 < len(published) < len(local)
    assert len(published) % BATCH == 0  # whole batches only
    assert published == local[: len(published)]  # the lowest ids, up to the mark
    assert evidence_mark(postgres_db, "box") == published[-1][0]
    report = publish_file(box, postgres_db, "box")
    assert report.evidence == len(local) - len(published)
    assert hub_evidence(postgres_db, "box") == local
