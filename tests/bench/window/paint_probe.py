"""The moment a widget's paint shows a result, and the bare PySide6 window the launch row compares against.

`PaintProbe` filters one widget's paint events (a view's viewport). At the first paint for which
`shows()` holds (what is about to be painted is the result), it lets the widget paint at once and notes
`time.perf_counter()` when that paint has ended, so the time includes the paint a person waits for.

`python -m tests.bench.window.paint_probe` is the floor of the launch row: a bare PySide6 process (a
QMainWindow holding a QListView over a QStringListModel) that prints the `perf_counter` of its list's
first paint and exits; with `--stay` it keeps its window until it is killed (the first-sight row's
floor, watched on the screen). This module imports PySide6 only, never `app`/`ui`, so that child stays bare;
`perf_counter` is the system-wide monotonic clock on Linux, comparable across processes.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Sequence

from PySide6.QtCore import QCoreApplication, QEvent, QEventLoop, QObject, QStringListModel, QTimer, Signal
from PySide6.QtWidgets import QApplication, QListView, QMainWindow, QWidget


class PaintProbe(QObject):
    """Notes when the first paint of `widget` that shows the result (`shows()` true) has ended."""

    painted = Signal()

    def __init__(self, widget: QWidget, shows: Callable[[], bool]) -> None:
        super().__init__(widget)
        self.at: float | None = None  # perf_counter() once the paint showing the result has ended
        self.began: float | None = None  # when that paint began
        self._widget = widget
        self._shows = shows
        self._painting = False
        self._removed = False
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if self.at is not None or self._painting or event.type() != QEvent.Type.Paint or not self._shows():
            return False
        # Paint now, inside the paint Qt is delivering (its painter is set up), to note when it ended;
        # the filters after this one (the scroll area's, which calls paintEvent) run as usual.
        self._painting = True
        self.began = time.perf_counter()
        try:
            QCoreApplication.sendEvent(watched, event)
        finally:
            self._painting = False
        self.at = time.perf_counter()
        self.painted.emit()
        return True  # painted above: the original delivery stops here

    def remove(self) -> None:
        if not self._removed:
            self._removed = True
            self._widget.removeEventFilter(self)
            self.deleteLater()


def wait_for_paints(probes: Sequence[PaintProbe], what: str, timeout_s: float = 60.0) -> float:
    """Run the event loop until every probe saw its paint; the last one's time. No polling, no sleep:
    the loop wakes for events and quits when a probe reports."""
    loop = QEventLoop()
    guard = QTimer()
    guard.setSingleShot(True)
    guard.timeout.connect(loop.quit)
    for probe in probes:
        probe.painted.connect(loop.quit)
    deadline = time.perf_counter() + timeout_s
    try:
        while any(probe.at is None for probe in probes):
            left = deadline - time.perf_counter()
            if left <= 0:
                raise TimeoutError(f"{what}: not on screen after {timeout_s:.0f} s")
            guard.start(int(left * 1000) + 1)
            loop.exec()
    finally:
        guard.stop()
        for probe in probes:
            probe.painted.disconnect(loop.quit)
    return max(probe.at for probe in probes if probe.at is not None)


def bare_window(*, stay: bool = False) -> None:
    """The floor: start to the first paint of a QMainWindow with a QListView of a few hundred rows;
    `stay`: the window stays up after that paint, until the process is killed."""
    app = QApplication(sys.argv[:1])
    window = QMainWindow()
    view = QListView(window)
    view.setModel(QStringListModel([f"row {number}" for number in range(200)]))
    window.setCentralWidget(view)
    window.resize(1400, 900)

    def shown() -> None:
        print(probe.at, flush=True)
        os._exit(0)  # no teardown: the paint is what is timed

    if stay:
        window.show()
        sys.exit(app.exec())
    probe = PaintProbe(view.viewport(), lambda: view.model().rowCount() > 0)
    probe.painted.connect(shown)
    window.show()
    QTimer.singleShot(30_000, lambda: app.exit(1))
    sys.exit(app.exec())


if __name__ == "__main__":
    bare_window(stay=sys.argv[1:] == ["--stay"])
