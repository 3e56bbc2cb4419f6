"""The store on PostgreSQL beyond the conformance suite: its schema, the fence, opening errors, read-only
sessions, serialized writers, and every CLI command on a seeded database.

Each test gets an empty database of its own on the run's server (`postgres_db` in conftest).
"""

from __future__ import annotations

import json
import threading
import time
from contextlib import closing
from pathlib import Path

import psycopg
import pytest
from sqlalchemy import BigInteger, Integer, create_engine, make_url

from app.cli import main
from app.core.clock import ManualClock
from app.core.errors import EXIT_UNUSABLE_DATABASE, DatabaseLockedError, DatabaseOpenError, ReadOnlyError
from app.core.paths import embedded_database_path
from app.store import MemoryStore
from app.store.connect.server import WRITE_LOCK
from app.store.schema.fence import fence_fingerprints
from app.store.schema.migrate import HEAD_REVISION
from app.store.schema.tables import HOST_TABLES, OWN_TABLES, host_metadata, own_metadata
from tests.support.hostdb import PROMOTED_5
from tests.support.pg_host import PostgresHostDb, libpq_conninfo, seed_postgres

NOW = PROMOTED_5 + 30 * 86_400_000
INSTANTS = {
    "promoted_at",
    "created_at",
    "updated_at",
    "changed_at",
    "first_seen_at",
    "baseline_rewritten_at",
    "expires_at",
    "set_at",
    "added_at",
    "applied_at",
}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_no_column_is_a_32_bit_integer_after_every_migration(postgres_db: str) -> None:
    """Every whole number the store keeps (ids, epoch-ms instants, counters) is BIGINT: a migration that
    says `sa.Integer` where it means an id or an instant fails here (see the migrations' rules)."""
    MemoryStore.open(postgres_db, clock=ManualClock(NOW)).close()
    host = PostgresHostDb(postgres_db)
    rows = host.query(
        "SELECT table_name, column_name, data_type FROM information_schema.columns"
        " WHERE table_schema = current_schema()"
    )
    types = {(str(t), str(c)): str(d) for t, c, d in rows}
    assert {t for t, _ in types} >= set(HOST_TABLES) | set(OWN_TABLES)
    assert [key for key, kind in types.items() if kind in ("integer", "smallint")] == []
    instants = [key for key in types if key[1] in INSTANTS or key[1] in ("id", "memory_id")]
    assert len(instants) > 15
    assert {key: types[key] for key in instants} == dict.fromkeys(instants, "bigint")
    assert host.query("SELECT version_num FROM mdash_alembic_version") == [(HEAD_REVISION,)]


def test_every_whole_number_column_of_the_tables_module_is_64_bit() -> None:
    """SQLAlchemy casts a bound parameter to its column's type on PostgreSQL (`%s::INTEGER`): a column
    declared `Integer` in `tables.py` breaks every epoch-ms value there, whatever the table holds."""
    narrow = [
        f"{table.name}.{column.name}"
        for metadata in (host_metadata, own_metadata)
        for table in metadata.tables.values()
        for column in table.columns
        if isinstance(column.type, Integer) and not isinstance(column.type, BigInteger)
    ]
    assert narrow == []


def test_an_instant_past_32_bits_round_trips(postgres_db: str) -> None:
    far = 4_102_444_800_000  # 2100-01-01, far past 2**31
    host = PostgresHostDb(postgres_db)
    with closing(MemoryStore.open(postgres_db, clock=ManualClock(far))) as store:
        host.sql(
            "INSERT INTO user_memory_candidates (id, content, session_id, created_at) VALUES (?,?,?,?)",
            (7, "Prefers pnpm", "ses_x", far),
        )
        memory = store.promote([7])
        store.set_expiry(memory.id, far + 2**40)
        assert store.get(memory.id).expires_at == far + 2**40
        assert memory.promoted_at == far and store.history(memory.id)[0].changed_at == far


def test_migrations_leave_the_host_tables_fingerprint_alone(postgres_db: str, tmp_path: Path) -> None:
    seed_postgres(postgres_db, tmp_path)
    engine = create_engine(make_url(postgres_db))
    try:
        with engine.connect() as conn:
            before = fence_fingerprints(conn)
        MemoryStore.open(postgres_db, clock=ManualClock(NOW)).close()
        with engine.connect() as conn:
            assert fence_fingerprints(conn) == before
            conn.exec_driver_sql("CREATE INDEX probe_ix ON user_memories (updated_at)")
            assert fence_fingerprints(conn)["user_memories"] != before["user_memories"]
            assert fence_fingerprints(conn)["user_memory_candidates"] == before["user_memory_candidates"]
            conn.rollback()
            conn.exec_driver_sql(
                "ALTER TABLE user_memory_candidates ADD CONSTRAINT probe_ck CHECK (length(content) > 0)"
            )
            assert fence_fingerprints(conn)["user_memory_candidates"] != before["user_memory_candidates"]
            conn.rollback()
    finally:
        engine.dispose()


def _unreachable(tmp_path: Path) -> str:
    folder = tmp_path / "no-server"
    folder.mkdir(exist_ok=True)
    return f"postgresql+psycopg://postgres@/nothing?host={folder}"  # no server listens there


def test_a_server_that_is_down_is_a_message_and_exit_3(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "--db", _unreachable(tmp_path), "list")
    assert code == EXIT_UNUSABLE_DATABASE and out == ""
    assert "cannot use the PostgreSQL database" in err and "nothing was changed" in err
    assert "Traceback" not in err
    assert list((tmp_path / "no-server").iterdir()) == []
    assert not embedded_database_path().exists()  # no store opened in its place
    with pytest.raises(DatabaseOpenError):
        MemoryStore.open(_unreachable(tmp_path))


def test_a_refused_login_is_a_message_and_hides_the_password(
    postgres_db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    wrong = make_url(postgres_db).set(username="no_such_role", password="s3cret-pw")
    code, _, err = run(capsys, "--db", wrong.render_as_string(hide_password=False), "list")
    assert code == EXIT_UNUSABLE_DATABASE and "Traceback" not in err
    assert "no_such_role" in err and "s3cret-pw" not in err
    assert PostgresHostDb(postgres_db).query(
        "SELECT count(*) FROM pg_tables WHERE tablename LIKE 'mdash%'"
    ) == [(0,)]


def test_an_unrelated_database_with_some_host_tables_is_refused_untouched(postgres_db: str) -> None:
    host = PostgresHostDb(postgres_db)
    host.sql("CREATE TABLE user_memories (id bigint)")
    with pytest.raises(DatabaseOpenError, match="lacks the host's tables"):
        MemoryStore.open(postgres_db)
    assert host.query("SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()") == [(1,)]


def test_read_only_creates_nothing_and_the_server_refuses_writes(postgres_db: str, tmp_path: Path) -> None:
    host = PostgresHostDb(postgres_db)
    with pytest.raises(DatabaseOpenError, match="lacks the host's tables"):
        MemoryStore.open(postgres_db, read_only=True)
    assert host.query("SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()") == [(0,)]
    seed_postgres(postgres_db, tmp_path)
    with closing(MemoryStore.open(postgres_db, read_only=True, clock=ManualClock(NOW))) as store:
        assert store.get(5).content == "Prefers pnpm" and not store.has_own_tables
        with pytest.raises(ReadOnlyError):
            store.dismiss(5)
        with store.database.engine.connect() as conn, pytest.raises(Exception, match="read-only transaction"):
            conn.exec_driver_sql("DELETE FROM user_memories")
    assert host.query("SELECT status FROM user_memories WHERE id = 5") == [("active",)]


def _until_someone_waits_for_the_write_lock(host: PostgresHostDb) -> None:
    """Until the server shows a session waiting for the write lock (its `pg_locks` row not granted)."""
    waiting = "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
    deadline = time.monotonic() + 10
    while host.query(waiting) == [(0,)]:
        assert time.monotonic() < deadline, "the second writer never waited for the lock"
        time.sleep(0.01)


def test_a_writer_waits_for_the_one_before_and_gives_up_at_the_busy_timeout(
    postgres_db: str, tmp_path: Path
) -> None:
    seed_postgres(postgres_db, tmp_path)
    host = PostgresHostDb(postgres_db)
    with closing(MemoryStore.open(postgres_db, clock=ManualClock(NOW))) as store:
        version = host.profile_version()
        with psycopg.connect(libpq_conninfo(postgres_db)) as other:
            other.execute(
                "SELECT pg_advisory_xact_lock(%s)", (WRITE_LOCK,)
            )  # another writer, mid-transaction
            with pytest.raises(DatabaseLockedError, match="locked"):
                store.dismiss(5)
            assert host.query("SELECT status FROM user_memories WHERE id = 5") == [("active",)]
            done = threading.Event()

            def dismiss() -> None:
                store.dismiss(5)
                done.set()

            waiter = threading.Thread(target=dismiss)
            waiter.start()
            _until_someone_waits_for_the_write_lock(host)  # the server says the store waits...
            assert not done.is_set()
            other.commit()  # ...for the lock released with the other writer's transaction
            waiter.join(10)
            assert done.is_set()
        assert host.query("SELECT status FROM user_memories WHERE id = 5") == [("dismissed",)]
        assert host.profile_version() == version + 1


def test_init_makes_an_empty_database_a_store(postgres_db: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "init", "--db", postgres_db)
    assert code == 0 and "is ready" in out, err
    host = PostgresHostDb(postgres_db)
    assert host.query("SELECT version_num FROM mdash_alembic_version") == [(HEAD_REVISION,)]
    assert run(capsys, "init", "--db", postgres_db)[0] == 0  # again: nothing to do, still fine
    assert run(capsys, "list", "--db", postgres_db)[:2] == (0, "no memories match\n")


def test_every_command_on_a_seeded_database(
    postgres_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    host = seed_postgres(postgres_db, tmp_path)
    monkeypatch.setenv("MEMORY_DASHBOARD_NOW", str(NOW))
    db = ("--db", postgres_db)

    def ok(*argv: str) -> str:
        code, out, err = run(capsys, *argv, *db)
        assert code == 0, (argv, err)
        return out

    assert [m["id"] for m in json.loads(ok("list", "--json"))] == [1, 2, 3, 4, 5]
    assert "PNPM" not in ok("list", "--search", "PNPM") and "#5" in ok("list", "--search", "PNPM")
    assert json.loads(ok("show", "5", "--json"))["source_candidate_ids"] == [46, 47, 48]
    ok("edit", "5", "--content", "Prefers pnpm, always")
    ok("dismiss", "4", "--reason", "moved")
    ok("reactivate", "4")
    ok("expire", "1", "--at", str(NOW + 1000))
    ok("promote", "141", "143")
    history = json.loads(ok("history", "5", "--json"))
    assert [r["new_content"] for r in history if r["kind"] == "content"][-1] == "Prefers pnpm, always"
    ok("delete", "3")
    assert host.query("SELECT count(*) FROM user_memories WHERE id = 3") == [(0,)]
    revision = json.loads(ok("history", "3", "--json"))[-1]["id"]
    ok("restore", "3", str(revision))
    assert host.query("SELECT content FROM user_memories WHERE id = 3") == [
        ("Legacy memory without provenance",)
    ]
    verdict = tmp_path / "verdict.json"
    verdict.write_text(
        json.dumps(
            {
                "promote": [{"content": "Writes tests first", "candidate_ids": [151]}],
                "update_existing": [],
                "dismiss_existing": [{"memory_id": 2, "reason": "stale"}],
                "consume_candidate_ids": [151, 152],
            }
        )
    )
    ok("review", "apply", str(verdict), "--run-id", "run-pg")
    assert host.query("SELECT count(*) FROM user_memory_candidates WHERE id IN (151, 152)") == [(0,)]
    monkeypatch.setenv("MEMORY_DASHBOARD_NOW", str(NOW + 2000))
    assert "1" in ok("sweep")
    assert host.query("SELECT status FROM user_memories WHERE id = 1") == [("dismissed",)]
    profile = ok("profile")
    assert "Prefers pnpm, always" in profile and "Works mostly in Python" not in profile
    assert "Prefers pnpm, always" in ok("recall", "--search", "pnpm")
    exported = json.loads(ok("export", "--format", "json"))
    assert {m["id"] for m in exported["memories"]} >= {3, 4, 5}
    assert host.profile_version() > 7


def test_two_stores_editing_one_memory_at_once_keep_its_history_whole(
    postgres_db: str, tmp_path: Path
) -> None:
    """A writer reads the row, then writes it and its revision: serialized by the write lock, two
    processes' worth of writers editing the same memory leave one unbroken chain of revisions (each
    starts from the text the one before left), strictly later instants and every version bump."""
    host = seed_postgres(postgres_db, tmp_path)
    version = host.profile_version()
    rounds = 15
    stores = [MemoryStore.open(postgres_db, clock=ManualClock(NOW)) for _ in range(2)]
    failures: list[BaseException] = []

    def edit(store: MemoryStore, writer: int) -> None:
        try:
            for n in range(rounds):
                store.edit(5, f"edit {n} by writer {writer}")
        except BaseException as exc:
            failures.append(exc)

    writers = [threading.Thread(target=edit, args=(store, n)) for n, store in enumerate(stores)]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join(60)
    for store in stores:
        store.close()
    assert failures == []
    assert host.profile_version() == version + 2 * rounds
    chain = host.query(
        "SELECT previous_content, new_content, changed_at FROM mdash_revisions"
        " WHERE memory_id = 5 AND source = 'dashboard' ORDER BY id"
    )
    assert len(chain) == 2 * rounds
    texts = ["Prefers pnpm"] + [str(row[1]) for row in chain]
    assert [row[0] for row in chain] == texts[:-1]
    instants = [int(str(row[2])) for row in chain]
    assert instants == sorted(set(instants))


def test_tables_an_earlier_version_made_32_bit_are_widened_on_open(postgres_db: str) -> None:
    host = PostgresHostDb(postgres_db)
    MemoryStore.open(postgres_db).close()
    ours = host.query(
        "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()"
        " AND table_name LIKE 'mdash%' AND data_type = 'bigint'"
    )
    for table, column in ours:  # as the old 0001 made them on PostgreSQL
        host.sql(f'ALTER TABLE "{table}" ALTER COLUMN "{column}" TYPE integer')
    host.sql("ALTER SEQUENCE mdash_revisions_id_seq AS integer")
    host.sql(
        "INSERT INTO user_memory_candidates (id, content, session_id, created_at) VALUES (?,?,?,?)",
        (1, "Prefers pnpm", "ses_x", NOW),
    )
    with closing(MemoryStore.open(postgres_db, clock=ManualClock(NOW))) as store:
        assert store.promote([1]).promoted_at == NOW
        assert store.history(1)[0].changed_at == NOW
    widened = host.query(
        "SELECT count(*) FROM information_schema.columns WHERE table_schema = current_schema()"
        " AND table_name LIKE 'mdash%' AND data_type = 'integer'"
    )
    assert len(ours) > 10 and widened == [(0,)]
    assert host.query("SELECT data_type FROM pg_sequences WHERE sequencename = 'mdash_revisions_id_seq'") == [
        ("bigint",)
    ]


def test_host_tables_with_32_bit_times_are_a_message(
    postgres_db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    host = PostgresHostDb(postgres_db)
    MemoryStore.open(postgres_db).close()
    host.sql("ALTER TABLE user_memories ALTER COLUMN updated_at TYPE integer")  # made so by someone else
    host.sql(
        "INSERT INTO user_memories (id, content, status, promoted_at, created_at, updated_at)"
        " VALUES (1, 'Prefers pnpm', 'active', 1, 1, 1)"
    )
    monkeypatch.setenv("MEMORY_DASHBOARD_NOW", str(NOW))
    code, _, err = run(capsys, "--db", postgres_db, "dismiss", "1")
    assert code == EXIT_UNUSABLE_DATABASE and "too narrow" in err and "Traceback" not in err
    assert host.query("SELECT status FROM user_memories WHERE id = 1") == [("active",)]
