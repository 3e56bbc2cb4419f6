"""Child process of the launch row: `python -m tests.bench.launch_child DB` starts the app as
`memory-dashboard --db DB --smoke` does (`app.cli.main`) and prints the `perf_counter` at the end of the
card list's first paint that shows a loaded card, then exits at once (no teardown).

It imports what the app imports on its way to the window, plus `tests.bench.paint_probe` (PySide6
only): nothing else may add to the time measured. The QApplication is made first, by the app's own
`application()` (the window then reuses it), so a zero-time timer can find the window once the event
loop runs and watch its card list; the first listing arrives from a worker thread well after that.
"""

from __future__ import annotations

import os
import sys

from PySide6.QtCore import QTimer

from app.cli import main as cli_main
from tests.bench.paint_probe import PaintProbe
from ui.cards.model import ID_ROLE
from ui.window.app import application
from ui.window.main_window import MainWindow


def _watch(window: MainWindow) -> None:
    model = window.model

    def first_card_loaded() -> bool:
        if model.rowCount() == 0:
            return False
        return model.memory(int(model.index(0, 0).data(ID_ROLE))) is not None  # not a placeholder

    def shown() -> None:
        print(probe.at, flush=True)
        os._exit(0)  # what is timed has happened: skip the smoke's wait for the complete listing

    probe = PaintProbe(window.list.viewport(), first_card_loaded)
    probe.painted.connect(shown)


def _find_window() -> None:
    app = application()
    windows = [widget for widget in app.topLevelWidgets() if isinstance(widget, MainWindow)]
    if not windows:
        print("no main window when the event loop started", file=sys.stderr)
        os._exit(3)
    _watch(windows[0])


def main() -> None:
    application(offscreen=True)
    QTimer.singleShot(0, _find_window)
    code = cli_main(["--db", sys.argv[1], "--smoke"])
    print(f"the window exited ({code}) before a card was painted", file=sys.stderr)
    os._exit(code or 4)


if __name__ == "__main__":
    main()
