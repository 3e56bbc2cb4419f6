"""Read-only really read-only: files nobody may write are read, and no read leaves a file beside them.

An unwritable folder is tested for real: the command runs in a child process that file permissions bind.
Tests run as root here, and root writes anywhere, so as root the child drops the capabilities that
override permissions (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER) from its bounding set before it
runs Python; each test first proves that the child cannot create a file in the folder, and is skipped,
saying why, where no such child can be made.
"""

from __future__ import annotations

import ctypes
import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import app
from app.core.clock import ManualClock
from app.store import DatabaseLockedError, DatabaseOpenError, MemoryStore
from tests.support.hostdb import build_host_db, host_sql

NOW = 1_800_000_000_000
CODE = Path(app.__file__).resolve().parents[1]  # the child runs the code under test, wherever it lies
PR_CAPBSET_DROP = 24
PERMISSION_OVERRIDES = (1, 2, 3)  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions and journals")


def _drop_permission_overrides() -> None:
    """In the child, before exec: gone from the bounding set, the capabilities cannot come back."""
    libc = ctypes.CDLL(None, use_errno=True)
    for capability in PERMISSION_OVERRIDES:
        if libc.prctl(PR_CAPBSET_DROP, capability, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


def unprivileged(*argv: str) -> subprocess.CompletedProcess[str]:
    """Run `python argv...` in a process bound by file permissions (as root: without the overrides)."""
    as_root = os.geteuid() == 0
    return subprocess.run(
        [sys.executable, *argv],
        cwd=CODE,
        env={**os.environ, "PYTHONPATH": str(CODE), "MEMORY_DASHBOARD_NOW": str(NOW)},
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=_drop_permission_overrides if as_root else None,
        check=False,
    )


def cli(*argv: str) -> subprocess.CompletedProcess[str]:
    return unprivileged("-m", "app", *argv)


def listing(folder: Path) -> dict[str, str]:
    """Every file in the folder with a digest of its bytes."""
    return {item.name: hashlib.sha256(item.read_bytes()).hexdigest() for item in sorted(folder.iterdir())}


@pytest.fixture
def locked_folder(tmp_path: Path) -> Iterator[Path]:
    """A folder the unprivileged child cannot write (checked: a test here never passes by privilege)."""
    folder = tmp_path / "host"
    folder.mkdir()
    yield folder
    folder.chmod(0o755)


def lock(folder: Path) -> None:
    folder.chmod(0o555)
    try:
        probe = unprivileged("-c", f"open({str(folder / 'probe')!r}, 'x')")
    except (OSError, subprocess.SubprocessError) as exc:
        pytest.skip(f"cannot start a process bound by file permissions here: {exc}")
    if probe.returncode == 0:
        pytest.skip("a child process here can still write a folder of mode 0555; no honest test possible")
    assert "PermissionError" in probe.stderr


def hot_journal(path: Path) -> None:
    """Leave `path` as a crash mid-write leaves it: a rollback journal beside pages half written.

    A writer's transaction spills changed pages into the file (the journal holds the originals); the
    file and its journal are copied while that writer holds its lock, as a crash would leave them."""
    source = path.with_name("source.db")
    build_host_db(source)
    writer = sqlite3.connect(source, isolation_level=None)
    writer.execute("PRAGMA journal_mode=DELETE")
    writer.execute(
        "INSERT INTO user_memory_candidates (content, session_id, created_at) SELECT hex(randomblob(900)),"
        " 's', 1 FROM (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)"
        " SELECT i FROM n)"
    )
    writer.execute("PRAGMA cache_size=2")  # spill every changed page before COMMIT
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("UPDATE user_memory_candidates SET content = 'uncommitted ' || content")
    writer.execute("UPDATE user_memories SET content = 'uncommitted'")
    shutil.copyfile(source, path)
    shutil.copyfile(f"{source}-journal", f"{path}-journal")
    writer.execute("ROLLBACK")
    writer.close()
    source.unlink()


def test_wal_file_in_an_unwritable_folder_is_read(locked_folder: Path) -> None:
    db = build_host_db(locked_folder / "context.db")  # WAL mode; its -wal and -shm gone with a clean close
    before = listing(locked_folder)
    assert list(before) == ["context.db"]
    lock(locked_folder)
    done = cli("--db", str(db), "list", "--json")
    assert done.returncode == 0, done.stderr
    assert [item["id"] for item in json.loads(done.stdout)] == [1, 2, 3, 4, 5]
    reason = unprivileged(
        "-c", f"from app.store import MemoryStore; print(MemoryStore.open({str(db)!r}).read_only_reason)"
    )
    assert reason.stdout.strip() == (
        "the folder cannot be written; opened immutable: changes by the host are not seen"
        " until it is reopened"
    )
    assert listing(locked_folder) == before


def test_hot_journal_in_an_unwritable_folder_is_read_from_a_private_snapshot(locked_folder: Path) -> None:
    db = locked_folder / "context.db"
    hot_journal(db)
    before = listing(locked_folder)
    lock(locked_folder)
    done = cli("--db", str(db), "list", "--status", "all", "--json")
    assert done.returncode == 0, done.stderr
    contents = [item["content"] for item in json.loads(done.stdout)]
    assert contents[0] == "Works mostly in Python and TypeScript"  # as committed: the journal rolled back
    assert not any(text.startswith("uncommitted") for text in contents)
    candidates = cli("--db", str(db), "candidates", "--json")
    assert candidates.returncode == 0 and "uncommitted" not in candidates.stdout
    assert listing(locked_folder) == before  # the host's file and journal untouched, nothing added


def test_read_only_flag_with_a_hot_journal_rolls_back_only_a_copy(tmp_path: Path) -> None:
    db = tmp_path / "host" / "context.db"
    db.parent.mkdir()
    hot_journal(db)
    before = listing(db.parent)
    store = MemoryStore.open(db, read_only=True, clock=ManualClock(NOW))
    try:
        assert "a private snapshot as of" in (store.read_only_reason or "")
        assert store.get(1).content == "Works mostly in Python and TypeScript"
        assert not any(c.content.startswith("uncommitted") for c in store.candidates())
        assert listing(db.parent) == before
    finally:
        store.close()
    assert listing(db.parent) == before
    access = store.database.opened.access
    assert access is not None and access.private_folder is not None
    assert not access.private_folder.exists()  # the snapshot goes with the store


@pytest.mark.parametrize(
    "command", [("list",), ("show", "5"), ("history", "5"), ("profile",), ("export",), ("dismiss", "1")]
)
def test_read_only_flag_leaves_no_file_beside_the_database(tmp_path: Path, command: tuple[str, ...]) -> None:
    (tmp_path / "host").mkdir()
    db = build_host_db(tmp_path / "host" / "context.db")
    MemoryStore.open(db).close()  # with the dashboard's own tables, closed cleanly: only the file is left
    before = listing(db.parent)
    assert list(before) == ["context.db"]
    done = cli("--db", str(db), "--read-only", *command)
    assert done.returncode == (4 if command[0] == "dismiss" else 0), done.stderr
    assert listing(db.parent) == before


def test_read_only_store_reads_live_while_the_host_has_the_file_open(host_db: Path) -> None:
    host = sqlite3.connect(host_db)
    host.execute("SELECT count(*) FROM user_memories").fetchone()  # the host's -wal and -shm now exist
    before = sorted(item.name for item in host_db.parent.iterdir())
    store = MemoryStore.open(host_db, read_only=True, clock=ManualClock(NOW))
    try:
        assert store.read_only_reason == "opened with --read-only"
        store.observe()
        host_sql(host_db, "UPDATE user_memories SET content = 'Lives in Hamburg' WHERE id = 4")
        assert store.get(4).content == "Lives in Hamburg"
        store.close()
        assert sorted(item.name for item in host_db.parent.iterdir()) == before
    finally:
        store.close()
        host.close()


def _foreign_wal_file(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("CREATE TABLE notes (x)")
    conn.commit()
    conn.close()


def _damaged_wal_file(path: Path) -> None:
    build_host_db(path)
    conn = sqlite3.connect(path)
    conn.execute(
        "INSERT INTO user_memory_candidates (content, session_id, created_at) SELECT hex(randomblob(900)),"
        " 's', 1 FROM (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200)"
        " SELECT i FROM n)"
    )
    conn.commit()
    conn.close()
    data = bytearray(path.read_bytes())
    for offset in range(3 * 4096, len(data), 4096):
        data[offset : offset + 64] = b"\xde\xad\xbe\xef" * 16
    path.write_bytes(bytes(data))


def _newer_dashboard(path: Path) -> None:
    build_host_db(path)
    MemoryStore.open(path).close()
    host_sql(path, "UPDATE mdash_alembic_version SET version_num = '9999'")


@pytest.mark.parametrize("read_only", [False, True])
@pytest.mark.parametrize(
    ("make", "message"),
    [
        (_foreign_wal_file, "missing tables"),
        (_damaged_wal_file, "damaged|malformed"),
        (_newer_dashboard, "newer Memory Dashboard"),
    ],
)
def test_a_refused_open_leaves_no_file_beside_the_database(
    tmp_path: Path, make: object, message: str, read_only: bool
) -> None:
    db = tmp_path / "host" / "context.db"
    db.parent.mkdir()
    make(db)  # type: ignore[operator]
    before = listing(db.parent)
    assert list(before) == ["context.db"]
    with pytest.raises(DatabaseOpenError, match=message):
        MemoryStore.open(db, read_only=read_only)
    assert listing(db.parent) == before


def test_a_locked_file_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    (tmp_path / "host").mkdir()
    db = build_host_db(tmp_path / "host" / "context.db")
    host_sql(db, "PRAGMA journal_mode=DELETE")
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        before = listing(db.parent)
        with pytest.raises(DatabaseLockedError):
            MemoryStore.open(db, read_only=True)
        assert listing(db.parent) == before
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def test_what_a_killed_process_left_is_removed_by_its_id(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`remove_snapshots_of(pid)`: the folders that process made (named by its id) go; another process's
    (an id that starts with the same digits) stays."""
    from app.store import remove_snapshots_of
    from app.store.connect.file_access import SNAPSHOT_PREFIX

    temporary = tmp_path / "tmp"
    temporary.mkdir()
    monkeypatch.setattr("tempfile.tempdir", str(temporary))
    left = temporary / f"{SNAPSHOT_PREFIX}4242-a1"
    (left / "context.db").parent.mkdir()
    (left / "context.db").write_bytes(b"copy")
    other = temporary / f"{SNAPSHOT_PREFIX}42421-b2"
    other.mkdir()
    remove_snapshots_of(4242)
    assert not left.exists() and other.is_dir()
