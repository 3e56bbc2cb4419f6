"""Starting the window: `run_window` (the desktop app, with `--smoke` for packaging checks) and
`screenshot` (the main window rendered offscreen to a PNG, light or dark, with a memory selected).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, QSettings, QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication

from ui.cards.listing import Listing
from ui.cards.model import ID_ROLE
from ui.runtime.controller import Controller
from ui.runtime.first_page import FirstPageRead
from ui.runtime.pending_store import PendingStore
from ui.runtime.qt_app import application, smoke_deadline, wait_until
from ui.widgets.theme import apply_theme
from ui.window.main_window import MainWindow

if TYPE_CHECKING:
    from app.store import MemoryStore

FIRST_CARDS = "first cards painted at"  # `--smoke`'s line, then the monotonic clock's seconds
OPEN_ANYWAY_MS = 2_000  # a window never painted (started hidden) still opens its store


class _FirstPaint(QObject):
    """Quits the app (exit 0) at the first paint of the card list (or the welcome page) after loading,
    once the store is open (a first screen read before it opened counts from then on). On the way it
    prints when the first cards were painted (`FIRST_CARDS`, the monotonic clock's seconds, which
    `time.perf_counter` reads on Linux): the launch's time in a build where the benchmark cannot hook in."""

    def __init__(self, window: MainWindow, app: QApplication) -> None:
        super().__init__(window)
        self.loaded = False
        self.done = False
        self.reported = False
        self.app = app
        window.controller.memoriesLoaded.connect(self._loaded)
        window.controller.storeOpened.connect(self._loaded)  # the first screen's cards, now with a store
        for widget in (window.list.viewport(), window.welcome):
            widget.installEventFilter(self)
        self.window = window

    def stop(self) -> None:
        """After the smoke run's `exec` returned, however it ended: a later paint (in a process that goes
        on, as the tests) must never exit another event loop."""
        self.done = self.reported = True

    def _loaded(self, _listing: object) -> None:
        if self.window.controller.store_pending:
            return
        self.loaded = True
        self.window.list.viewport().update()
        self.window.welcome.update()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() != QEvent.Type.Paint:
            return False
        if not self.reported and watched is self.window.list.viewport() and self._card_loaded():
            self.reported = True  # this paint shows a card: noted once it has ended
            QTimer.singleShot(0, lambda: print(f"{FIRST_CARDS} {time.perf_counter():.6f}", flush=True))
        if self.loaded and not self.done:
            self.done = True  # once: a later paint (in a process that goes on) must not exit again
            QTimer.singleShot(0, lambda: self.app.exit(0))
        return False

    def _card_loaded(self) -> bool:
        model = self.window.model
        return model.rowCount() > 0 and model.memory(int(model.index(0, 0).data(ID_ROLE))) is not None


class _AfterCardsPainted(QObject):
    """Calls `then` once, as soon as the card list's first paint showing cards has ended (a zero-time
    timer queued from that paint), or `OPEN_ANYWAY_MS` after the event loop started if the window is
    never painted (started hidden)."""

    def __init__(self, window: MainWindow, then: Callable[[], None]) -> None:
        super().__init__(window)
        self.window = window
        self.then: Callable[[], None] | None = then
        window.list.viewport().installEventFilter(self)
        QTimer.singleShot(0, lambda: QTimer.singleShot(OPEN_ANYWAY_MS, self._now))  # from the loop's start

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint and self.window.model.rowCount() > 0:
            watched.removeEventFilter(self)
            QTimer.singleShot(0, self._now)
        return False

    def _now(self) -> None:
        then, self.then = self.then, None
        if then is not None:
            then()


def _application(smoke: bool, theme: str) -> QApplication:
    app = application(offscreen=smoke and not os.environ.get("DISPLAY"))
    apply_theme(app, theme)
    return app


def _start(
    app: QApplication, controller: Controller, smoke: bool, start: Callable[[MainWindow], None]
) -> int:
    """Build and show the window, `start` its first reads, run the event loop; then wait for the work
    that must end before the process does."""
    window = MainWindow(controller)
    first_paint = _FirstPaint(window, app) if smoke else None
    deadline = smoke_deadline(app, window) if smoke else None
    window.show()
    start(window)
    code = app.exec()
    if deadline is not None and first_paint is not None:  # neither of the smoke run's exits outlives it
        deadline.stop()
        first_paint.stop()
    window.save_state()
    window.review.wait_for_done()  # a review run holds the host's lease: let it finish and release it
    controller.runner.wait_for_done()
    return code


def run_window(
    store: MemoryStore, *, smoke: bool = False, theme: str = "system", first_page: FirstPageRead | None = None
) -> int:
    """`first_page`: the first screen's read, started before this module (and Qt) was imported."""
    app = _application(smoke, theme)
    controller = Controller(store)

    def start(window: MainWindow) -> None:
        if not smoke:
            window.looks.check_on_open()  # "since you last looked", when something changed
        controller.refresh(quick_first=True, first_page=first_page)
        controller.load_candidates()

    code = _start(app, controller, smoke, start)
    if controller.store is not store:
        controller.store.close()
    return code


def run_first_screen(
    first: Listing,
    pending: PendingStore,
    open_store: Callable[[], MemoryStore],
    *,
    smoke: bool = False,
    theme: str = "system",
) -> int:
    """The window over a first screen read before its store (`first_screen_read`): it shows those cards
    read-only, opens the store (`open_store`, on the controller's worker) once they are painted, and then
    works as `run_window`'s. A store that fails to open ends the app and its error is raised here."""
    app = _application(smoke, theme)
    controller = Controller(pending)
    failure: list[BaseException] = []

    def start(window: MainWindow) -> None:
        def failed(exc: BaseException) -> None:
            failure.append(exc)
            app.exit(1)

        def opened(_store: MemoryStore) -> None:
            if not smoke:
                window.looks.check_on_open()

        def cards_painted() -> None:  # the selected card's details next, then the store opens
            window.panel.release()
            QTimer.singleShot(0, lambda: controller.open_pending(open_store, failed))

        controller.storeOpened.connect(opened)
        window.panel.hold()
        controller.show_first_screen(first)
        _AfterCardsPainted(window, cards_painted)

    code = _start(app, controller, smoke, start)
    if failure:
        raise failure[0]
    if not controller.store_pending and controller.store is not pending.real:
        controller.store.close()  # another database opened since (the first is closed by its opener)
    return code


def screenshot(
    store: MemoryStore,
    out_path: str | Path,
    *,
    select: int | None = None,
    size: tuple[int, int] = (1400, 900),
    theme: str = "light",
    as_of: int | None = None,
) -> None:
    """Render the main window offscreen (the history panel of `select`, else the first card) to a PNG;
    with `as_of`, looking back at that instant (As of…)."""
    import tempfile  # not on the launch's path

    app = application(offscreen=True)
    apply_theme(app, theme)
    with tempfile.TemporaryDirectory() as folder:
        settings = QSettings(str(Path(folder) / "window.ini"), QSettings.Format.IniFormat)
        controller = Controller(store)
        window = MainWindow(controller, settings=settings, watch=False)
        window.resize(*size)
        window.show()
        controller.refresh()
        controller.load_candidates()
        if select is not None:
            window.filters.set_status("all")
        wait_until(app, lambda: window.model.rowCount() > 0 or window.pages.currentIndex() == 1)
        if select is not None:
            wait_until(app, lambda: window.select_id(select, center=True))
        _settle(app, window)
        if as_of is not None:
            _look_back(app, window, as_of)
        image = window.grab()
        if not image.save(str(out_path), "PNG"):
            raise OSError(f"cannot write {out_path}")
        window.close()
        controller.runner.wait_for_done(10_000)
        app.processEvents()


def _look_back(app: QApplication, window: MainWindow, at: int) -> None:
    """The window as of `at`, every memory read, the selected one's history up to then and its diff."""
    window.look_back(at)
    past = window.as_of_view
    wait_until(app, lambda: window.looking_back and past.complete)
    wait_until(app, lambda: past.panel.state is None or past.panel.history_memory_id == past.current_id())
    wait_until(app, lambda: past.panel.diff.settled, 5_000)
    wait_until(app, lambda: not window.controller.runner.busy)
    QGuiApplication.processEvents()


def _settle(app: QApplication, window: MainWindow) -> None:
    """Wait for the selected memory's history (and its diff) and for every visible card's row."""

    def history_shown() -> bool:
        memory = window.selected_memory()
        return memory is None or window.panel.history_memory_id == memory.id

    wait_until(app, history_shown)
    wait_until(app, lambda: window.panel.diff.settled, 5_000)
    wait_until(app, lambda: all(window.model.memory(i) is not None for i in window.list.visible_ids()))
    wait_until(app, lambda: not window.controller.runner.busy)
    end = time.monotonic() + 0.3
    wait_until(app, lambda: time.monotonic() > end)
    QGuiApplication.processEvents()
