"""The window when its database file is deleted or replaced while it is open: its watcher notices, the
banner and the title say so, and every write is refused (never "Saved #5" into a file without a name)."""

from __future__ import annotations

import os
import shutil
import sqlite3
import sys
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.store import MemoryStore
from tests.support.hostdb import build_host_db
from tests.ui.window_helpers import make_window, select, settle
from ui.window.main_window import MainWindow

pytestmark = pytest.mark.skipif(
    sys.platform == "win32", reason="Windows refuses to delete or rename over a file SQLite holds open"
)
GONE = "was deleted or replaced since it was opened"


def delete_database(path: Path) -> None:
    """`rm context.db*`."""
    for item in path.parent.glob(path.name + "*"):
        item.unlink()


def wait_for_the_banner(qtbot: QtBot, window: MainWindow) -> None:
    qtbot.waitUntil(lambda: window.banner.isVisible() and GONE in window.banner.label.text(), timeout=10_000)


def assert_writes_refused(qtbot: QtBot, window: MainWindow) -> None:
    assert "deleted or replaced" in window.windowTitle()
    assert window.banner.action.isVisible() and window.banner.action.text() == "Reopen"
    assert not window.acts.edit.isEnabled() and not window.acts.dismiss.isEnabled()
    assert not window.panel.restore_button.isEnabled()
    memory = window.selected_memory()
    assert memory is not None
    messages: list[str] = []
    window.controller.message.connect(messages.append)
    with qtbot.waitSignal(window.controller.error, timeout=5_000) as refused:
        window.controller.edit(memory, "Prefers yarn")  # what the dialog's Save does
    assert GONE in refused.args[0] and "Nothing was changed" in refused.args[0]
    settle(qtbot, window)
    assert not any(message.startswith("Saved") for message in messages)


def test_a_deleted_database_is_said_and_refuses_writes(
    qtbot: QtBot, store: MemoryStore, host_db: Path, tmp_path: Path
) -> None:
    window = make_window(qtbot, store, tmp_path, watch=True)
    select(qtbot, window, 5)
    delete_database(host_db)
    wait_for_the_banner(qtbot, window)
    assert_writes_refused(qtbot, window)
    assert not host_db.exists()  # nothing recreated it


def test_a_database_replaced_by_a_rename_is_said_and_left_as_it_is(
    qtbot: QtBot, store: MemoryStore, host_db: Path, tmp_path: Path
) -> None:
    window = make_window(qtbot, store, tmp_path, watch=True)
    select(qtbot, window, 5)
    (tmp_path / "other").mkdir()
    other = build_host_db(tmp_path / "other" / "context.db")
    with sqlite3.connect(other) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    before = other.read_bytes()
    os.replace(other, host_db)  # another file renamed over it: same name, another file
    wait_for_the_banner(qtbot, window)
    assert_writes_refused(qtbot, window)
    assert host_db.read_bytes() == before  # the new file is left as it is


def test_the_check_before_a_write_catches_what_the_watcher_has_not_told_yet(
    qtbot: QtBot, store: MemoryStore, host_db: Path, tmp_path: Path
) -> None:
    window = make_window(qtbot, store, tmp_path)  # no watcher at all
    select(qtbot, window, 5)
    shutil.move(host_db, tmp_path / "moved.db")
    memory = window.selected_memory()
    assert memory is not None
    with qtbot.waitSignal(window.controller.error, timeout=5_000) as refused:
        window.controller.dismiss(memory)
    assert GONE in refused.args[0]
    assert window.banner.isVisible() and "deleted or replaced" in window.windowTitle()
    assert window.banner.action.isVisible() and window.banner.action.text() == "Reopen"  # kept by the error


@pytest.mark.parametrize("read_only", [True, False])
def test_reopen_after_a_file_was_replaced_opens_it_as_it_was_asked_for(
    qtbot: QtBot, host_db: Path, tmp_path: Path, read_only: bool
) -> None:
    """`--read-only` stays asked for when the file at the path is opened again; a writable store stays one."""
    store = MemoryStore.open(host_db, read_only=read_only)
    window = make_window(qtbot, store, tmp_path, watch=True)
    select(qtbot, window, 5)
    (tmp_path / "other").mkdir()
    os.replace(build_host_db(tmp_path / "other" / "context.db"), host_db)
    wait_for_the_banner(qtbot, window)
    with qtbot.waitSignal(window.controller.storeChanged, timeout=10_000):
        window.banner.action.click()
    reopened = window.controller.store
    assert reopened is not store and reopened.asked_read_only is read_only
    assert reopened.read_only is read_only and window.status.read_only.isVisibleTo(window) is read_only
    assert "deleted or replaced" not in window.windowTitle()
    settle(qtbot, window)
