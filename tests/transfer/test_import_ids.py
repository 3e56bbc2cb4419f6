"""`import` never leaves the host unable to insert: an id past the ceiling (`MAX_KEPT_ID`) is renumbered, not
kept (SQLite's AUTOINCREMENT would count on from it), and on PostgreSQL the identity moves past the ids kept.
After every import both writers still insert: the host's own INSERT (no id given) and `add`.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from app.cli import main
from app.core.clock import ManualClock
from app.store import MemoryStore
from app.transfer.export_format import MAX_KEPT_ID, parse_export
from tests.conftest import REVIEW_TIME
from tests.support.hostdb import query
from tests.support.pg_host import HostDb, PostgresHostDb

HOST_INSERT = (
    "INSERT INTO user_memories (content, status, promoted_at, created_at, updated_at)"
    " VALUES (?, 'active', ?, ?, ?)"
)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def export_file(path: Path, ids: list[int]) -> Path:
    memories = [
        {
            "id": memory_id,
            "content": f"Imported memory {number}",
            "status": "active",
            "promoted_at": REVIEW_TIME,
            "created_at": REVIEW_TIME,
            "updated_at": REVIEW_TIME,
            "source_candidate_ids": [],
            "provenance": [],
        }
        for number, memory_id in enumerate(ids)
    ]
    data = {
        "format": "memory-dashboard-export",
        "version": 1,
        "exported_at": REVIEW_TIME,
        "memories": memories,
    }
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def imported(capsys: pytest.CaptureFixture[str], target: str, path: Path) -> dict[int, int]:
    """The import of `path` into `target` through the CLI: {id in the file: id here}."""
    code, out, err = run(capsys, "--db", target, "import", str(path), "--json")
    assert code == 0, err
    return {item["from_id"]: item["memory_id"] for item in json.loads(out)["imported"]}


def both_writers_insert(capsys: pytest.CaptureFixture[str], host: HostDb) -> tuple[int, int]:
    """The host's INSERT and `add` after the import: the ids each got."""
    host.sql(HOST_INSERT, ("Written by the host", REVIEW_TIME, REVIEW_TIME, REVIEW_TIME))
    (row,) = host.query("SELECT id FROM user_memories WHERE content = ?", ("Written by the host",))
    code, out, err = run(capsys, "--db", host.target, "add", "--content", "Written by add", "--json")
    assert code == 0, err
    return int(str(row[0])), int(json.loads(out)["id"])


@pytest.mark.parametrize("far", [2**63 - 1, MAX_KEPT_ID + 1, 0, -4])
def test_an_id_out_of_range_is_renumbered_and_the_host_still_inserts(
    seeded_host: HostDb, tmp_path: Path, capsys: pytest.CaptureFixture[str], far: int
) -> None:
    ids = imported(capsys, seeded_host.target, export_file(tmp_path / "far.json", [far]))
    assert 5 < ids[far] < 100  # the next id the database hands out
    by_host, by_add = both_writers_insert(capsys, seeded_host)
    assert ids[far] < by_host < by_add < 100


def test_an_id_at_the_ceiling_is_kept_and_leaves_room_after_it(
    seeded_host: HostDb, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ids = imported(capsys, seeded_host.target, export_file(tmp_path / "top.json", [MAX_KEPT_ID]))
    assert ids == {MAX_KEPT_ID: MAX_KEPT_ID}
    assert both_writers_insert(capsys, seeded_host) == (MAX_KEPT_ID + 1, MAX_KEPT_ID + 2)


@pytest.mark.parametrize(("file_ids", "expected"), [([6, -4], {6: 6, -4: 7}), ([1, 6], {1: 7, 6: 6})])
def test_a_new_id_handed_out_during_the_import_is_never_one_the_import_keeps(
    seeded_host: HostDb,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    file_ids: list[int],
    expected: dict[int, int],
) -> None:
    """#1..#5 are taken here: a memory renumbered (#1, #-4) takes an id past #6, which a memory keeps,
    whichever comes first in the file (on PostgreSQL the identity had not moved past #6 yet)."""
    assert imported(capsys, seeded_host.target, export_file(tmp_path / "two.json", file_ids)) == expected
    assert both_writers_insert(capsys, seeded_host) == (8, 9)


def test_on_postgresql_the_identity_moves_past_the_ids_imported(
    postgres_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    MemoryStore.open(postgres_db, clock=ManualClock(REVIEW_TIME)).close()  # the host's tables, empty
    host = PostgresHostDb(postgres_db)
    ids = imported(capsys, postgres_db, export_file(tmp_path / "hundred.json", list(range(1, 101))))
    assert ids == {i: i for i in range(1, 101)}
    assert both_writers_insert(capsys, host) == (101, 102)


def test_on_postgresql_an_identity_already_further_is_not_moved_back(
    postgres_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    MemoryStore.open(postgres_db, clock=ManualClock(REVIEW_TIME)).close()
    host = PostgresHostDb(postgres_db)
    host.sql("SELECT setval(pg_get_serial_sequence('user_memories', 'id'), 500)")  # ids the host used
    assert imported(capsys, postgres_db, export_file(tmp_path / "one.json", [50])) == {50: 50}
    assert both_writers_insert(capsys, host) == (501, 502)


def test_an_id_the_host_deleted_unobserved_is_not_kept(host_db: Path, tmp_path: Path) -> None:
    """A memory the host deleted since the dashboard last looked still has its copy here (`mdash_seen`,
    with no revision yet): an import's memory of that id is renumbered, never put under that copy."""
    store = MemoryStore.open(host_db, clock=ManualClock(REVIEW_TIME))
    try:
        store.observe()  # every memory's copy kept
        unrevised = (
            "SELECT max(id) FROM user_memories WHERE id NOT IN (SELECT memory_id FROM mdash_revisions)"
        )
        (gone,) = query(host_db, unrevised)[0]
        assert isinstance(gone, int)
        with sqlite3.connect(host_db) as conn:
            conn.execute("DELETE FROM user_memories WHERE id = ?", (gone,))
        text = export_file(tmp_path / "file.json", [gone]).read_text(encoding="utf-8")
        result = store.import_export(parse_export(text), "file.json")
    finally:
        store.close()
    (item,) = result.imported
    assert item.memory_id != gone
    assert query(host_db, "SELECT content FROM user_memories WHERE id = ?", (item.memory_id,)) == [
        ("Imported memory 0",)
    ]
