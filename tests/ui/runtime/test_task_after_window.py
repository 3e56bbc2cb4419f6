"""A worker that finishes after its window (and so its result's carrier) is gone drops the result
quietly: PySide raises "Signal source has been deleted" from the emit, which used to end the worker
thread with a traceback on every exit that closed a window with a read still running."""

from __future__ import annotations

import shiboken6
from pytestqt.qtbot import QtBot

from ui.runtime.tasks import _Carrier, _Task


def test_a_result_for_a_carrier_already_deleted_is_dropped(qtbot: QtBot) -> None:
    delivered: list[object] = []
    for work in (lambda: 42, lambda: 1 // 0):
        carrier = _Carrier(delivered.append, delivered.append, lambda: None)
        shiboken6.delete(carrier)  # the window closed while the work ran
        _Task(work, carrier).run()  # in the worker: must neither raise nor deliver
    assert delivered == []
