"""The app's QApplication: the window's thread waits at most a short switch interval for the Python
lock a worker thread holds (reads run Python in the store's thread while the window answers input)."""

from __future__ import annotations

import sys

import pytest
from pytestqt.qtbot import QtBot

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
