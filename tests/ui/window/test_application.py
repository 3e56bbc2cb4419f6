"""The app's QApplication: the window's thread waits at most a short switch interval for the Python
lock a worker thread holds (reads run Python in the store's thread while the window answers input)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QEventLoop, QTimer
from pytestqt.qtbot import QtBot

from app.cli import main
from ui.window import app as window_app
from ui.window.app import GIL_SWITCH_S, application


def test_the_window_thread_waits_little_for_a_worker(qtbot: QtBot) -> None:
    before = sys.getswitchinterval()
    sys.setswitchinterval(0.005)  # Python's default
    try:
        assert application() is not None
        assert sys.getswitchinterval() == pytest.approx(GIL_SWITCH_S)
        assert GIL_SWITCH_S < 0.005
    finally:
        sys.setswitchinterval(before)


def test_a_smoke_run_leaves_no_exit_behind_for_the_rest_of_the_process(
    qtbot: QtBot, host_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--smoke` in a process that goes on (the tests): its deadline must not fire after it returned. A
    late `app.exit` would make every later event loop return at once (Qt keeps its quit flag set)."""
    monkeypatch.setattr(window_app, "SMOKE_TIMEOUT_MS", 300)
    assert main(["--db", str(host_db), "--smoke", "--offscreen"]) == 0
    ticked = QTimer()
    ticked.setSingleShot(True)
    ticked.setInterval(2 * window_app.SMOKE_TIMEOUT_MS)  # past the smoke run's deadline
    with qtbot.waitSignal(ticked.timeout, timeout=10_000):
        ticked.start()
    loop = QEventLoop()
    QTimer.singleShot(50, lambda: loop.exit(7))
    assert loop.exec() == 7  # a loop started now runs until it is asked to stop
