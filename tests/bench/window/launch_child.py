"""Child process of the launch row: `python -m tests.bench.window.launch_child DB` starts the app as
`memory-dashboard --db DB --smoke` does (`ui.main.main`) and prints the `perf_counter` at the end of the
card list's first paint that shows a loaded card (after `sqlalchemy=True|False`: whether SQLAlchemy was
imported by then), then exits at once (no teardown).

It imports nothing before the app does, in the app's order: the app starts its first screen's read
before it imports Qt and the window, and so must this child. A hook on the import of `ui.window.app`
wraps its `application()`: once the app has made its QApplication, a zero-time timer finds the window
when the event loop runs and watches its card list with `tests.bench.window.paint_probe` (PySide6 only).
"""

from __future__ import annotations

import importlib.machinery
import os
import sys
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ui.main import main as cli_main

if TYPE_CHECKING:
    from ui.window.main_window import MainWindow


def _watch(window: MainWindow) -> None:
    from tests.bench.window.paint_probe import PaintProbe
    from ui.cards.model import ID_ROLE  # imported by the app by now

    model = window.model

    def first_card_loaded() -> bool:
        if model.rowCount() == 0:
            return False
        return model.memory(int(model.index(0, 0).data(ID_ROLE))) is not None  # not a placeholder

    def shown() -> None:
        # whether SQLAlchemy was loaded before the first cards (tests/ui/window/test_window_first_screen.py)
        print(f"sqlalchemy={'sqlalchemy' in sys.modules} {probe.at}", flush=True)
        os._exit(0)  # what is timed has happened: skip the smoke's wait for the complete listing

    probe = PaintProbe(window.list.viewport(), first_card_loaded)
    probe.painted.connect(shown)


def _find_window() -> None:
    from PySide6.QtWidgets import QApplication

    from ui.window.main_window import MainWindow  # imported by the app by now: not timed twice

    windows = [widget for widget in QApplication.topLevelWidgets() if isinstance(widget, MainWindow)]
    if not windows:
        print("no main window when the event loop started", file=sys.stderr)
        os._exit(3)
    _watch(windows[0])


def _watching(application: Callable[..., Any]) -> Callable[..., Any]:
    """The app's `application()`, which also asks to find the window once the event loop runs."""

    def made(*args: Any, **kwargs: Any) -> Any:
        from PySide6.QtCore import QTimer

        app = application(*args, **kwargs)
        QTimer.singleShot(0, _find_window)
        return app

    return made


class _HookWindowApp:
    """Finds `ui.window.app` as usual, and wraps its `application` once the module has run. A finder by
    its `find_spec` alone: `importlib.abc` (with `importlib.resources`) is not what the app imports."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != "ui.window.app":
            return None
        sys.meta_path.remove(self)
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or spec.loader is None:
            return spec
        loader = spec.loader
        run_module = loader.exec_module

        def exec_module(module: ModuleType) -> None:
            run_module(module)
            module.__dict__["application"] = _watching(module.__dict__["application"])

        loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


def main() -> None:
    sys.meta_path.insert(0, _HookWindowApp())
    code = cli_main(["--db", sys.argv[1], "--smoke"])
    print(f"the window exited ({code}) before a card was painted", file=sys.stderr)
    os._exit(code or 4)


if __name__ == "__main__":
    main()
