"""Opening databases: the choice of file, refusals that never modify a file, read-only mode, the fence."""

from __future__ import annotations

import os
import sqlite3
import threading
from pathlib import Path

import pytest

from app.core.clock import ManualClock
from app.core.paths import choose_database, host_database_path
from app.store import DatabaseLockedError, DatabaseOpenError, MemoryStore, ReadOnlyError
from app.store.connect.engine import transaction
from app.store.schema.fence import fence_fingerprints
from tests.support.cli_run import digest
from tests.support.hostdb import build_host_db, host_sql, query

NOW = 1_800_000_000_000


def test_choice_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert choose_database(None).origin == "embedded"
    host = host_database_path()
    host.parent.mkdir(parents=True)
    build_host_db(host)
    assert choose_database(None) == choose_database(None).__class__(str(host), "host")
    monkeypatch.setenv("MEMORY_DASHBOARD_DB", str(tmp_path / "env.db"))
    assert choose_database(None).origin == "MEMORY_DASHBOARD_DB"
    assert choose_database(str(tmp_path / "x.db")).target == str(tmp_path / "x.db")


def test_host_path_follows_xdg(tmp_path: Path) -> None:
    assert host_database_path({"XDG_DATA_HOME": "/data"}) == Path("/data/cortexkit/magic-context/context.db")


def test_not_sqlite_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_text("hello, I am a text file\n" * 50)
    before = digest(path)
    with pytest.raises(DatabaseOpenError, match="not a SQLite database"):
        MemoryStore.open(path)
    assert digest(path) == before


def test_a_fifo_named_as_the_database_is_refused_without_waiting(tmp_path: Path) -> None:
    path = tmp_path / "context.db"
    os.mkfifo(path)  # opened to read, a FIFO waits for a writer that never comes
    with pytest.raises(DatabaseOpenError, match="not a SQLite database"):
        MemoryStore.open(path)


def test_foreign_sqlite_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE t (x)")
    conn.commit()
    conn.close()
    before = digest(path)
    with pytest.raises(DatabaseOpenError, match="missing tables"):
        MemoryStore.open(path)
    assert digest(path) == before
    assert not Path(str(path) + "-wal").exists()


def test_missing_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(DatabaseOpenError, match="does not exist"):
        MemoryStore.open(tmp_path / "nope.db")


def test_embedded_store_is_created_in_host_shape() -> None:
    store = MemoryStore.open(None)
    try:
        assert store.origin == "embedded" and not store.read_only
        assert store.list_memories() == []
        with transaction(store.database.engine, write=False, location=store.location) as conn:
            assert set(fence_fingerprints(conn))  # host tables exist
    finally:
        store.close()


def test_locked_database_is_a_message(host_db: Path) -> None:
    MemoryStore.open(host_db).close()  # migrate first
    holder = sqlite3.connect(host_db, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")
    try:
        store = MemoryStore.open(host_db, clock=ManualClock(NOW), sweep=False)
        with pytest.raises(DatabaseLockedError, match="locked by another process"):
            store.dismiss(1)
        store.close()
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def test_exclusive_lock_at_open_is_a_message(host_db: Path) -> None:
    conn = sqlite3.connect(host_db)
    conn.execute("PRAGMA journal_mode=DELETE")
    conn.close()
    holder = sqlite3.connect(host_db, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(DatabaseLockedError):
            MemoryStore.open(host_db)
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def test_read_only_flag_writes_nothing(host_db: Path) -> None:
    before = digest(host_db)
    store = MemoryStore.open(host_db, read_only=True, clock=ManualClock(NOW))
    try:
        assert store.read_only and not store.has_own_tables
        assert [m.id for m in store.list_memories()] == [1, 2, 3, 4, 5]
        assert store.history(5) == []
        with pytest.raises(ReadOnlyError, match="read-only"):
            store.edit(5, "changed")
        with pytest.raises(ReadOnlyError):
            store.promote([141])
    finally:
        store.close()
    assert digest(host_db) == before
    tables = {row[0] for row in query(host_db, "SELECT name FROM sqlite_master WHERE type='table'")}
    assert not any(str(name).startswith("mdash_") for name in tables)


def test_read_only_observes_in_memory(host_db: Path) -> None:
    host = sqlite3.connect(host_db)  # the host has the file open (its -wal, -shm exist): a live read
    host.execute("SELECT count(*) FROM user_memories").fetchone()
    store = MemoryStore.open(host_db, read_only=True, clock=ManualClock(NOW))
    try:
        store.observe()
        host_sql(host_db, "UPDATE user_memories SET content='rewritten', updated_at=updated_at+1 WHERE id=4")
        observed = store.observe()
        assert [(r.memory_id, r.source, r.new_content) for r in observed] == [(4, "observed", "rewritten")]
        assert observed[0].id < 0
        assert store.get(4).rewritten
        assert [r.new_content for r in store.history(4)] == ["rewritten"]
    finally:
        store.close()
        host.close()


def test_unwritable_file_opens_read_only(host_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    host_db.chmod(0o444)
    if os.geteuid() == 0:  # root may write any file; make the permission check see what a user sees
        real_access = os.access
        monkeypatch.setattr(os, "access", lambda p, mode: mode != os.W_OK and real_access(p, mode))
    before = digest(host_db)
    store = MemoryStore.open(host_db)
    try:
        assert store.read_only and "cannot be written" in (store.read_only_reason or "")
        assert len(store.list_memories()) == 5
        with pytest.raises(ReadOnlyError):
            store.dismiss(1)
    finally:
        store.close()
    assert digest(host_db) == before


def test_fence_unchanged_after_migration_and_every_writer(host_db: Path) -> None:
    conn = sqlite3.connect(host_db)
    conn.close()

    def fingerprints() -> dict[str, str]:
        store = MemoryStore.open(host_db, read_only=True)
        try:
            with transaction(store.database.engine, write=False, location=store.location) as c:
                return fence_fingerprints(c)
        finally:
            store.close()

    before = fingerprints()
    clock = ManualClock(NOW)
    store = MemoryStore.open(host_db, clock=clock)
    try:
        memory = store.promote([141, 143])
        store.update_content(5, "Prefers pnpm, always", [145, 146], run_id="r", source="review")
        store.edit(1, "Works in Python")
        store.dismiss(4)
        store.reactivate(4)
        store.set_expiry(1, NOW + 1000)
        clock.advance(1000)
        store.sweep()
        deleted = store.delete(memory.id)
        store.restore(memory.id, deleted.id)
        store.restore(1, store.history(1)[0].id)
        store.discard_candidates([151])
        host_sql(host_db, "UPDATE user_memories SET content='x', updated_at=updated_at+9 WHERE id=3")
        store.observe()
    finally:
        store.close()
    assert fingerprints() == before


def test_concurrent_reader_threads(host_db: Path) -> None:
    store = MemoryStore.open(host_db)
    errors: list[BaseException] = []

    def work() -> None:
        try:
            for _ in range(20):
                store.get_many([1, 2, 3, 4, 5])
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    store.close()
    assert errors == []


def test_database_not_in_wal_mode_opens_writable(host_db: Path) -> None:
    conn = sqlite3.connect(host_db)
    conn.execute("PRAGMA journal_mode=DELETE")
    conn.close()
    store = MemoryStore.open(host_db, clock=ManualClock(NOW))
    try:
        assert not store.read_only
        assert store.dismiss(4).status == "dismissed"
    finally:
        store.close()
    assert query(host_db, "PRAGMA journal_mode") == [("wal",)]


def test_corrupt_file_with_valid_header_is_refused_untouched(host_db: Path) -> None:
    conn = sqlite3.connect(host_db)
    conn.execute("PRAGMA journal_mode=DELETE")
    conn.execute(
        "INSERT INTO user_memory_candidates (content, session_id, created_at) "
        "SELECT hex(randomblob(900)), 's', 1 FROM (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL "
        "SELECT i+1 FROM n WHERE i < 200) SELECT i FROM n)"
    )
    conn.commit()
    conn.close()
    data = bytearray(host_db.read_bytes())
    page = 4096
    for offset in range(3 * page, len(data), page):
        data[offset : offset + 64] = b"\xde\xad\xbe\xef" * 16
    host_db.write_bytes(bytes(data))
    before = digest(host_db)
    with pytest.raises(DatabaseOpenError, match=r"damaged|malformed"):
        MemoryStore.open(host_db)
    assert digest(host_db) == before


def test_many_threads_and_a_writer_share_one_store(host_db: Path) -> None:
    store = MemoryStore.open(host_db, clock=ManualClock(NOW))
    errors: list[BaseException] = []
    started = threading.Event()

    def write() -> None:
        try:
            with store.write() as ctx:
                started.set()
                from app.store.write import writes

                writes.set_status(ctx, 4, "dismissed")
                for _ in range(50):
                    ctx.conn.exec_driver_sql("SELECT count(*) FROM user_memories").scalar()
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    def read() -> None:
        started.wait(5)
        try:
            for _ in range(10):
                store.get_many([1, 2, 3])
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=write)] + [threading.Thread(target=read) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    try:
        assert errors == []
        assert store.get(4).status == "dismissed"
    finally:
        store.close()


def test_sqlite_url_gets_the_file_checks(tmp_path: Path, host_db: Path) -> None:
    missing = tmp_path / "new.db"
    with pytest.raises(DatabaseOpenError, match="does not exist"):
        MemoryStore.open(f"sqlite:///{missing}")
    assert not missing.exists()
    store = MemoryStore.open(f"sqlite:///{host_db}", read_only=True)
    try:
        assert len(store.list_memories()) == 5
    finally:
        store.close()


@pytest.mark.parametrize("url", ["nosuchdialect://x/y", "postgresql+nosuchdriver://u@h/db"])
def test_unusable_urls_are_messages(url: str) -> None:
    with pytest.raises(DatabaseOpenError, match="cannot use the database URL"):
        MemoryStore.open(url)


def test_tables_of_a_newer_version_are_refused(host_db: Path) -> None:
    MemoryStore.open(host_db).close()
    host_sql(host_db, "UPDATE mdash_alembic_version SET version_num = '9999'")
    for read_only in (False, True):
        with pytest.raises(DatabaseOpenError, match="newer Memory Dashboard"):
            MemoryStore.open(host_db, read_only=read_only)


def test_opening_a_ready_store_takes_no_write_lock(host_db: Path) -> None:
    MemoryStore.open(host_db).close()
    holder = sqlite3.connect(host_db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        store = MemoryStore.open(host_db, clock=ManualClock(NOW))
        try:
            assert store.warnings == []
            assert [m.id for m in store.list_memories()] == [1, 2, 3, 4, 5]
        finally:
            store.close()
    finally:
        holder.execute("ROLLBACK")
        holder.close()
