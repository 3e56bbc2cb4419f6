"""The window's store after a launch (`Controller.store` over a `StoreLater`): opened on first use, after
the first frame. When that open fails (the file went away between the launch's first-screen read and
the window's own open), the window still opens another database, and that one stays."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from app.core.clock import ManualClock
from app.store import MemoryStore
from tests.conftest import REVIEW_TIME
from tests.support.hostdb import build_host_db
from ui.runtime.controller import Controller
from ui.runtime.first_screen import StoreFacts, StoreLater


def gone_launch_store(tmp_path: Path) -> StoreLater:
    """A launch's store whose file was read for the first screen, then removed before the window's open."""
    path = build_host_db(tmp_path / "context.db")
    path.unlink()
    clock = ManualClock(REVIEW_TIME)
    later = StoreLater(lambda: MemoryStore.open(path, clock=clock), clock)
    later.facts = StoreFacts(str(path), None)
    return later


def test_another_database_opens_when_the_launch_store_could_not(qtbot: QtBot, tmp_path: Path) -> None:
    controller = Controller(gone_launch_store(tmp_path))
    errors: list[str] = []
    controller.error.connect(errors.append)
    with qtbot.waitSignal(controller.fileProblemChanged, timeout=10_000) as said:
        controller.load_counts()  # the launch's store, opened on the runner's thread: it is gone
    assert not controller.store_open and "does not exist" in said.args[0]
    assert controller.read_only and controller.refused is not None
    first_refusal = controller.refused
    controller.load_counts()  # refused again, without opening it again, and not said again
    qtbot.waitUntil(lambda: not controller.runner.busy, timeout=10_000)  # its failure delivered
    assert errors == [] and controller.refused is first_refusal
    other = build_host_db(tmp_path / "other.db")
    with qtbot.waitSignal(controller.storeChanged, timeout=10_000):
        controller.open_database(other)
    assert controller.store.location == str(other)
    with qtbot.waitSignal(controller.countsChanged, timeout=10_000):
        controller.load_counts()
    controller.runner.wait_for_done(10_000)
    controller.store.close()


def test_a_database_opened_while_the_launch_store_opens_stays(tmp_path: Path) -> None:
    clock = ManualClock(REVIEW_TIME)
    launch = build_host_db(tmp_path / "context.db")
    other = MemoryStore.open(build_host_db(tmp_path / "other.db"), clock=clock)
    opened: list[MemoryStore] = []

    def open_launch_store() -> MemoryStore:
        controller.replace_store(other)  # File → Open's switch, while the runner opens the launch's store
        opened.append(MemoryStore.open(launch, clock=clock))
        return opened[-1]

    controller = Controller(StoreLater(open_launch_store, clock))
    assert controller.store is other
    for store in (*opened, other):
        store.close()
