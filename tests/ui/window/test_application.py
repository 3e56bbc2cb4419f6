"""The app's QApplication: the window's thread waits at most a short switch interval for the Python
lock a worker thread holds (reads run Python in the store's thread while the window answers input)."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QEventLoop, QTimer
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from ui.main import main
from ui.runtime import qt_app as window_app
from ui.runtime.qt_app import GIL_SWITCH_S, application
from ui.window.main_window import MainWindow


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
    late `app.exit` would make every later event loop return at once (Qt keeps its quit flag set). The
    deadline is long enough for a loaded machine's first paint; the wait just past it (Qt fires timers
    in the order they fall due, so the deadline would fire first)."""
    monkeypatch.setattr(window_app, "SMOKE_TIMEOUT_MS", 3_000)
    assert main(["--db", str(host_db), "--smoke", "--offscreen"]) == 0
    ticked = QTimer()
    ticked.setSingleShot(True)
    ticked.setInterval(window_app.SMOKE_TIMEOUT_MS + 100)  # past the smoke run's deadline
    with qtbot.waitSignal(ticked.timeout, timeout=10_000):
        ticked.start()
    assert _a_new_loop_runs_until_asked()


def test_a_smoke_run_past_its_deadline_leaves_no_exit_behind_either(
    qtbot: QtBot, host_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The deadline fired (exit 1) before the first cards were painted: the window lives on in this
    process, and its first paint with cards, later, must not exit another event loop."""
    monkeypatch.setattr(window_app, "SMOKE_TIMEOUT_MS", 1)
    earlier = set(QApplication.topLevelWidgets())  # windows of earlier tests in this process
    assert main(["--db", str(host_db), "--smoke", "--offscreen"]) == 1
    (window,) = [w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow) and w not in earlier]
    qtbot.waitUntil(lambda: window.model.rowCount() > 0 and not window.controller.runner.busy, timeout=10_000)
    window.list.viewport().repaint()  # the paint the smoke run waited for, now
    assert _a_new_loop_runs_until_asked()
    window.close()


def _a_new_loop_runs_until_asked() -> bool:
    loop = QEventLoop()
    QTimer.singleShot(50, lambda: loop.exit(7))
    return loop.exec() == 7  # no exit left behind: the loop runs until it is asked to stop


def test_ctrl_c_where_it_was_started_closes_the_window_and_ends_as_the_command_line_does(
    qtbot: QtBot, host_db: Path
) -> None:
    """Ctrl+C in the terminal that started the window, while Qt's loop waits: the window closes as by its
    menu and the run ends with 130, as the command line ends on Ctrl+C, instead of a traceback from
    whichever timer ran Python next and a window going on."""
    earlier = set(QApplication.topLevelWidgets())
    app = QApplication.instance()
    assert app is not None
    safety = QTimer()
    safety.setSingleShot(True)
    safety.timeout.connect(lambda: app.exit(1))  # Ctrl+C not handled: the run ends anyway, and fails here

    def interrupt_once_shown() -> None:
        if any(
            isinstance(w, MainWindow) and w.isVisible() and w not in earlier
            for w in QApplication.topLevelWidgets()
        ):
            safety.start(20_000)
            os.kill(os.getpid(), signal.SIGINT)
        else:
            QTimer.singleShot(20, interrupt_once_shown)

    handler = signal.getsignal(signal.SIGINT)
    QTimer.singleShot(0, interrupt_once_shown)
    assert main(["--db", str(host_db), "--offscreen"]) == 130
    safety.stop()
    assert signal.getsignal(signal.SIGINT) is handler
