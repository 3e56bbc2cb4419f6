"""Publishing what a host can hold: odd cells (blobs, text times, NUL, invalid UTF-8) and a local store on
PostgreSQL rather than a file."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest

from app.core.clock import ManualClock
from app.hub.publish import publish
from app.store import MemoryStore
from app.store.read.host_cells import TIME_MAX, TIME_MIN
from tests.support import hub_host
from tests.support.hostdb import host_sql
from tests.support.hub_host import NOW, host_file, hub_query, machine_memories, publish_file
from tests.support.pg_host import drop_database, fresh_database, seed_postgres

pinned_clock = hub_host.pinned_clock  # the clock pinned in every test here (autouse)
hub_db = hub_host.hub_db  # a hub set up by its administrator; the URL of an ordinary publisher


def test_odd_cells_are_published_as_text_and_times_in_range(hub_db: str, tmp_path: Path) -> None:
    laptop = host_file(tmp_path / "laptop.db")
    host_sql(laptop, "UPDATE user_memories SET content = X'6869FF00', updated_at = 'yesterday' WHERE id = 2")
    host_sql(
        laptop, "UPDATE user_memories SET content = ?, status = X'616374' WHERE id = 3", ("nul\x00inside",)
    )
    host_sql(laptop, "UPDATE user_memories SET source_candidate_ids = 7, updated_at = 1e300 WHERE id = 4")
    report = publish_file(laptop, hub_db, "laptop")
    assert report.memories == 5
    rows = {row[0]: row for row in machine_memories(hub_db, "laptop")}
    assert rows[2][1] == "hi\ufffd\ufffd" and rows[2][5] == TIME_MIN
    assert rows[3][1] == "nul\ufffdinside" and rows[3][2] == "x'616374'"  # a blob status is never 'active'
    assert rows[4][6] == "7" and rows[4][5] == TIME_MAX
    # the odd rows do not move the watermark past the sound ones, and a second publish changes nothing
    assert publish_file(laptop, hub_db, "laptop").changed is False
    [(mark,)] = hub_query(hub_db, "SELECT memory_mark FROM hub_machines")
    assert mark == max(row[5] for key, row in rows.items() if key != 4)


@pytest.fixture
def store_db(postgres_server: str) -> Iterator[str]:
    """A database of its own for the local store (the hub is `hub_db`'s)."""
    url = fresh_database(postgres_server)
    yield url
    drop_database(postgres_server, url)


def test_a_store_on_postgresql_publishes_like_a_file(store_db: str, hub_db: str, tmp_path: Path) -> None:
    seed_postgres(store_db, tmp_path)
    with closing(MemoryStore.open(store_db, clock=ManualClock(NOW))) as store:
        store.edit(1, "Works mostly in Python, TypeScript and Rust")

    def open_local() -> closing[MemoryStore]:
        return closing(MemoryStore.open(store_db, clock=ManualClock(NOW)))

    report = publish(open_local, hub_db, "server")
    assert (report.memories, report.revisions > 0) == (5, True)
    assert hub_query(hub_db, "SELECT content FROM hub_memories WHERE memory_id = 1") == [
        ("Works mostly in Python, TypeScript and Rust",)
    ]
    assert publish(open_local, hub_db, "server").changed is False


def test_ids_at_the_edge_of_64_bits_are_tallied_without_overflow(hub_db: str, tmp_path: Path) -> None:
    laptop = host_file(tmp_path / "laptop.db")
    for memory_id in (2**63 - 1, 2**63 - 2):
        host_sql(
            laptop,
            "INSERT INTO user_memories (id, content, status, promoted_at, created_at, updated_at)"
            " VALUES (?, ?, 'active', 1, 1, 1)",
            (memory_id, f"edge {memory_id}"),
        )
    publish_file(laptop, hub_db, "laptop")
    assert publish_file(laptop, hub_db, "laptop").changed is False
    assert [row[0] for row in machine_memories(hub_db, "laptop")][-2:] == [2**63 - 2, 2**63 - 1]
