"""`MemoryStore.reopened`: the same database opened once more (for work on another thread, the window's
hub publish), in the same mode and on the same clock, with connections of its own."""

from __future__ import annotations

from contextlib import closing
from pathlib import Path

from app.core.clock import ManualClock
from app.store import MemoryStore
from tests.support.pg_host import seed_postgres


def test_a_file_is_reopened_in_the_same_mode_on_the_same_clock(store: MemoryStore, host_db: Path) -> None:
    with closing(store.reopened()) as again:
        assert (again.location, again.read_only, again.clock) == (store.location, False, store.clock)
        again.edit(1, "Written through the other store")
    assert store.get(1).content == "Written through the other store"  # one database
    with closing(MemoryStore.open(host_db, read_only=True)) as reader, closing(reader.reopened()) as again:
        assert again.read_only and again.read_only_reason == reader.read_only_reason
        assert again.get(1).content == reader.get(1).content == "Written through the other store"


def test_a_server_is_reopened_with_its_login(postgres_db: str, tmp_path: Path) -> None:
    seed_postgres(postgres_db, tmp_path)
    clock = ManualClock(1_800_000_000_000)
    with closing(MemoryStore.open(postgres_db, clock=clock)) as store, closing(store.reopened()) as again:
        assert again.location == store.location and again.now() == clock.now_ms()
        assert again.get(5).content == store.get(5).content == "Prefers pnpm"
