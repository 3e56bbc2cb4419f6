"""The database watcher: a write to the file or its `-wal` is one coalesced `changed`, even after the
`-wal` file was replaced (a replaced file leaves a QFileSystemWatcher and must be watched again)."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from ui.runtime.live_refresh import DatabaseWatcher


def test_changes_to_the_file_and_a_replaced_wal_are_noticed(qtbot: QtBot, tmp_path: Path) -> None:
    database = tmp_path / "context.db"
    database.write_bytes(b"x")
    wal = Path(f"{database}-wal")
    watcher = DatabaseWatcher(database, poll_ms=50)
    try:
        with qtbot.waitSignal(watcher.changed, timeout=5_000):
            database.write_bytes(b"xy")
        with qtbot.waitSignal(watcher.changed, timeout=5_000):
            wal.write_bytes(b"new wal")  # appears after the watcher started
        wal.unlink()
        with qtbot.waitSignal(watcher.changed, timeout=5_000):
            wal.write_bytes(b"replaced wal, longer")
        assert str(wal) in watcher._watcher.files()
        with qtbot.waitSignal(watcher.changed, timeout=5_000):
            wal.write_bytes(b"written again after the replacement")
    finally:
        watcher.stop()
