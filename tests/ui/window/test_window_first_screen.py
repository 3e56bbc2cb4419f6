"""A launch's window before its store (`ui.runtime.pending_store`, `Controller.open_pending`): it shows
the first screen read with `sqlite3`, reads and writes nothing until the store has opened (its write
actions off, a write asked for anyway refused), then works; a store that fails to open is reported.
And the launch itself: the first cards are painted before SQLAlchemy is imported, where that applies."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from app.cli import window_arguments
from app.core.clock import ManualClock
from app.core.errors import DatabaseOpenError
from app.store import MemoryStore
from tests.conftest import REVIEW_TIME
from tests.support.hostdb import query
from tests.ui.window_helpers import settle
from ui.cards.listing import Listing
from ui.runtime.controller import Controller
from ui.runtime.first_page import first_screen_read
from ui.runtime.pending_store import OPENING, PendingStore
from ui.window.app import FIRST_CARDS
from ui.window.main_window import MainWindow

ROOT = Path(__file__).resolve().parents[3]


def first_screen(host_db: Path, clock: ManualClock) -> Listing:
    MemoryStore.open(host_db, clock=clock).close()  # as a launch finds it: opened before, at head
    listing = first_screen_read(host_db, clock.now_ms()).result()
    assert listing is not None
    return listing


def pending_window(qtbot: QtBot, host_db: Path, tmp_path: Path, clock: ManualClock) -> MainWindow:
    listing = first_screen(host_db, clock)
    settings = QSettings(str(tmp_path / "window.ini"), QSettings.Format.IniFormat)
    controller = Controller(PendingStore(str(host_db), clock))
    window = MainWindow(controller, settings=settings, watch=False)
    qtbot.addWidget(window, before_close_func=lambda w: w.controller.runner.wait_for_done(10_000))
    window.resize(1200, 800)
    window.show()
    with qtbot.waitSignal(controller.memoriesLoaded, timeout=10_000):
        controller.show_first_screen(listing)
    return window


def test_the_window_waits_for_its_store_then_works(qtbot: QtBot, host_db: Path, tmp_path: Path) -> None:
    clock = ManualClock(REVIEW_TIME)
    window = pending_window(qtbot, host_db, tmp_path, clock)
    controller = window.controller
    assert list(window.model.ids) == [5, 4, 3, 1]  # the first screen: active, newest promoted first
    qtbot.waitUntil(lambda: window.select_id(4), timeout=10_000)
    memory = window.selected_memory()
    assert memory is not None and memory.content == "Lives in Berlin (CET)"
    # Read-only while the store opens: no write action, and a write asked for anyway is refused.
    assert controller.store_pending and controller.write_refusal == f"Read-only: {OPENING}"
    for action in (window.acts.edit, window.acts.dismiss, window.acts.new_memory, window.acts.delete):
        assert not action.isEnabled(), action.text()
    with qtbot.waitSignal(controller.error, timeout=10_000) as refused:
        controller.dismiss(memory)
    assert OPENING in str(refused.args[0]) and "Nothing was changed" in str(refused.args[0])
    # The history asked for by the selection waits for the store (the runner is held): nothing ran.
    assert window.panel.history_memory_id != 4
    assert query(host_db, "SELECT status FROM user_memories WHERE id = 4") == [("active",)]
    opened: list[MemoryStore] = []
    failures: list[BaseException] = []

    def open_store() -> MemoryStore:
        opened.append(MemoryStore.open(host_db, clock=clock))
        return opened[0]

    with qtbot.waitSignal(controller.storeOpened, timeout=10_000):
        controller.open_pending(open_store, failures.append)
    try:
        assert not failures and controller.store is opened[0] and not controller.store_pending
        qtbot.waitUntil(lambda: window.panel.history_memory_id == 4, timeout=10_000)  # the held read ran
        qtbot.waitUntil(window.acts.dismiss.isEnabled, timeout=10_000)
        assert window.acts.edit.isEnabled() and window.acts.new_memory.isEnabled()
        window.acts.dismiss.trigger()
        qtbot.waitUntil(lambda: window.model.row_of(4) is None, timeout=10_000)
        assert query(host_db, "SELECT status FROM user_memories WHERE id = 4") == [("dismissed",)]
        settle(qtbot, window)
    finally:
        window.controller.runner.wait_for_done(10_000)
        opened[0].close()


def test_a_store_that_fails_to_open_is_reported(qtbot: QtBot, host_db: Path, tmp_path: Path) -> None:
    window = pending_window(qtbot, host_db, tmp_path, ManualClock(REVIEW_TIME))

    def refuse() -> MemoryStore:
        raise DatabaseOpenError("the file went away")

    failures: list[BaseException] = []
    window.controller.open_pending(refuse, failures.append)
    qtbot.waitUntil(lambda: bool(failures), timeout=10_000)
    assert isinstance(failures[0], DatabaseOpenError)
    assert window.controller.store_pending and not window.acts.edit.isEnabled()


# -- the launch -------------------------------------------------------------------------------------


def test_a_plain_launch_is_read_without_the_parser() -> None:
    found = window_arguments(["--db", "x.db", "--smoke"])
    assert found is not None and (found.db, found.smoke, found.offscreen) == ("x.db", True, False)
    assert window_arguments(["--db=y.db", "--offscreen"]) is not None
    assert window_arguments([]) is not None
    for other in (
        ["list"],
        ["--read-only"],
        ["--demo"],
        ["--db"],
        ["--db", "--smoke"],
        ["-h"],
        ["--smoke"] * 2,
    ):
        assert window_arguments(other) is None, other


def launched(db: Path, tmp_path: Path) -> str:
    """`tests.bench.window.launch_child`: a real launch up to its first painted card, in a fresh process."""
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "QT_QPA_PLATFORM": "offscreen",
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "MEMORY_DASHBOARD_DATA_DIR": str(tmp_path / "data"),
    }
    done = subprocess.run(
        [sys.executable, "-m", "tests.bench.window.launch_child", str(db)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("ready", [True, False], ids=["opened before", "never opened"])
def test_the_first_cards_are_painted_before_sqlalchemy_loads(
    host_db: Path, tmp_path: Path, ready: bool
) -> None:
    if ready:
        MemoryStore.open(host_db).close()
    # Where the fast read does not apply (our tables not made yet) the store opens first, as before.
    assert f"sqlalchemy={not ready} " in launched(host_db, tmp_path)


def test_the_smoke_run_waits_for_the_store(host_db: Path, tmp_path: Path) -> None:
    MemoryStore.open(host_db).close()
    assert query(host_db, "SELECT count(*) FROM mdash_seen") == [(0,)]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen"}
    env["XDG_CONFIG_HOME"] = str(tmp_path / "config")
    args = [sys.executable, "-m", "ui", "--db", str(host_db), "--smoke"]
    started = time.perf_counter()
    done = subprocess.run(args, capture_output=True, text=True, timeout=120, env=env, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert query(host_db, "SELECT count(*) FROM mdash_seen") != [(0,)]  # the store's complete listing ran
    # It says when its first cards were painted (the frozen build's launch row reads this line), on
    # the monotonic clock `perf_counter` reads: after this process started it, before it ended.
    (line,) = [line for line in done.stdout.splitlines() if line.startswith(FIRST_CARDS)]
    assert started < float(line.split()[-1]) < time.perf_counter()
