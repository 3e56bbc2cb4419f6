"""The command line never writes over a database: export and screenshot refuse the open database and
any SQLite file, replace a file only with --force and only whole (a write failing midway or a full disk
leaves the old file and no temporary one). Real host-shaped files; full disks go through a real process."""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.cli_run import NOW, child, digest, leftovers, posix, resource, run, tmpfs
from tests.support.hostdb import build_host_db, query


@pytest.fixture(autouse=True)
def _fixed_now(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORY_DASHBOARD_NOW", NOW)


# -- 1. never write over a database ---------------------------------------------------------------------


@posix
def test_export_refuses_the_open_database_and_its_companions_while_the_host_is_connected(
    host_db: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    host = sqlite3.connect(host_db)  # the host, connected in WAL mode with pages in its -wal
    host.execute("UPDATE user_memories SET content = 'Prefers pnpm!' WHERE id = 5")
    host.commit()
    (host_db.parent / "alias.db").symlink_to(host_db)
    monkeypatch.chdir(host_db.parent)
    for target in (
        "context.db",
        "./context.db",
        "alias.db",
        "context.db-wal",
        "context.db-shm",
        "context.db-journal",
    ):
        for force in ((), ("--force",)):
            code, out, err = run(capsys, "--db", "context.db", "export", "-o", target, *force)
            assert code == 1 and out == "", (target, force)
            assert err.startswith(f"error: refused to write {target}: it is ") and "Traceback" not in err
    assert not (host_db.parent / "context.db-journal").exists()
    assert host.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert host.execute("SELECT content FROM user_memories WHERE id = 5").fetchone() == ("Prefers pnpm!",)
    host.close()


def test_export_refuses_any_sqlite_file_even_with_force(
    host_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = build_host_db(tmp_path / "other.db")
    before = digest(other)
    for force in ((), ("--force",)):
        code, _, err = run(capsys, "--db", str(host_db), "export", "-o", str(other), *force)
        assert code == 1 and "it is a SQLite database" in err
        code, _, err = run(capsys, "--db", str(host_db), "export", "-o", f"{other}-journal", *force)
        assert code == 1 and f"journal file of the database {other}" in err
    assert digest(other) == before and not Path(f"{other}-journal").exists()


def test_an_existing_file_is_replaced_only_with_force(
    host_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "notes.json"
    target.write_text("my notes")
    target.chmod(0o640)
    code, _, err = run(capsys, "--db", str(host_db), "export", "-o", str(target))
    assert code == 1 and "already exists; add --force" in err and target.read_text() == "my notes"
    assert run(capsys, "--db", str(host_db), "export", "-o", str(target), "--force")[0] == 0
    assert len(json.loads(target.read_text())["memories"]) == 5
    assert target.stat().st_mode & 0o777 == 0o640 and leftovers(tmp_path) == []


@posix
@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("missing/out.json", "does not exist"),
        (".", "it is a folder"),
        ("/dev/null", "it is not a regular file"),
    ],
)
def test_export_to_a_missing_folder_a_folder_or_a_device_is_a_message(
    host_db: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    target: str,
    message: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "--db", str(host_db), "export", "-o", target)
    assert code == 1 and out == "" and message in err and "Traceback" not in err


def _export_failing_midway(host_db: Path, target: Path, existing: bool, limits: dict[int, int]) -> None:
    """Export ~1 MB to `target` (over an old file, with --force, when `existing`) where the write fails:
    a message, the old file as it was (or none at all), and no temporary file left behind."""
    conn = sqlite3.connect(host_db)
    conn.executemany(
        "INSERT INTO user_memories (id, content, status, promoted_at, source_candidate_ids, created_at,"
        " updated_at) VALUES (?, ?, 'active', 0, '[]', 0, 0)",
        [(1000 + i, f"memory {i} " + "x" * 3000) for i in range(300)],
    )
    conn.commit()
    conn.close()
    if existing:
        target.write_text("the previous export")
    force = ["--force"] if existing else []
    done = child("--db", str(host_db), "--read-only", "export", "-o", str(target), *force, limits=limits)
    err = done.stderr.decode()
    assert done.returncode == 1 and "Traceback" not in err, err
    assert err.startswith(f"error: cannot write {target}") and "nothing was changed" in err
    assert (target.read_text() if target.exists() else None) == ("the previous export" if existing else None)
    assert leftovers(target.parent) == []


@posix
@pytest.mark.parametrize("existing", [False, True])
def test_a_write_that_fails_midway_leaves_the_old_file_and_no_temporary_file(
    host_db: Path, tmp_path: Path, existing: bool
) -> None:
    """A real failed write(2): the file-size limit makes the kernel refuse bytes past 256 KiB (EFBIG),
    as a full disk would (ENOSPC), in the middle of a 1 MB export."""
    (tmp_path / "out").mkdir()
    limits = {resource.RLIMIT_FSIZE: 256 * 1024}
    _export_failing_midway(host_db, tmp_path / "out" / "export.json", existing, limits)


@pytest.fixture
def full_disk(tmp_path: Path) -> Iterator[Path]:
    """A real, tiny filesystem (64 KiB of tmpfs): needs root and a kernel that lets this process mount."""
    folder = tmp_path / "full"
    folder.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a tiny tmpfs needs root; the file-size-limit test covers a failed write")
    yield from tmpfs(folder, "size=64k", "cannot mount a tmpfs here")


@posix
@pytest.mark.parametrize("existing", [False, True])
def test_export_onto_a_full_disk_leaves_the_old_file(host_db: Path, full_disk: Path, existing: bool) -> None:
    _export_failing_midway(host_db, full_disk / "export.json", existing, {})


def test_screenshot_refuses_the_open_database(host_db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for target in (host_db, Path(f"{host_db}-wal")):
        code, _, err = run(capsys, "--db", str(host_db), "screenshot", str(target))
        assert code == 1 and f"refused to write {target}" in err
    assert query(host_db, "SELECT count(*) FROM user_memories") == [(5,)]
    assert query(host_db, "PRAGMA integrity_check") == [("ok",)]
