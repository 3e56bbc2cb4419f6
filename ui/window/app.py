"""Starting the window: `run_window` (the desktop app, with `--smoke` for packaging checks) and
`screenshot` (the main window rendered offscreen to a PNG, light or dark, with a memory selected).
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from contextlib import ExitStack, contextmanager
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, QSettings, Qt, QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication
from shiboken6 import delete

from app.core.clock import Clock, SystemClock, clock_from_env
from app.core.errors import DatabaseLockedError, DatabaseOpenError, StoreError, refusal_of
from ui.diff.slot import load_view
from ui.runtime.controller import Controller
from ui.runtime.first_screen import StoreLater, first_part, raise_refusal
from ui.runtime.interrupt import on_interrupt
from ui.runtime.qt_app import application, smoke_deadline, wait_until
from ui.widgets.theme import apply_theme
from ui.window.first_frame import FirstFrame
from ui.window.launch_wait import (
    LAUNCH_WAIT_MS,
    OPENING,
    SHOW_WAIT_MS,
    WAITING,
    LaunchQuit,
    open_saying_so,
    wait_saying_so,
)
from ui.window.main_window import MainWindow

if TYPE_CHECKING:
    from app.store import MemoryStore
    from ui.runtime.first_screen import FirstScreen, StoreOpener

# What to open after the launch's store was refused (the refusal, the opener refused): None to give up.
Again = Callable[[StoreError, "StoreOpener"], "StoreOpener | None"]
FIRST_CARDS = "first cards painted at"  # `--smoke`'s line, then the monotonic clock's seconds


class _FirstPaint(QObject):
    """Quits the app (exit 0) at the first paint of the card list (or the welcome page): the window is
    shown once its first frame is complete (`FirstFrame`). On the way it prints when the first cards
    were painted (`FIRST_CARDS`, the monotonic clock's seconds, which `time.perf_counter` reads on
    Linux): the launch's time in a build where the benchmark cannot hook in."""

    def __init__(self, window: MainWindow, app: QApplication) -> None:
        super().__init__(window)
        self.done = False
        self.app = app
        for widget in (window.list.viewport(), window.welcome):
            widget.installEventFilter(self)
        self.window = window

    def stop(self) -> None:
        """After the smoke run's `exec` returned, however it ended: a later paint (in a process that goes
        on, as the tests) must never exit another event loop."""
        self.done = True

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() != QEvent.Type.Paint or self.done:
            return False
        self.done = True  # once: a later paint (in a process that goes on) must not exit again
        if watched is self.window.list.viewport():
            QTimer.singleShot(0, lambda: print(f"{FIRST_CARDS} {time.perf_counter():.6f}", flush=True))
        QTimer.singleShot(0, lambda: self.app.exit(0))
        return False


def run_window(
    open_store: StoreOpener,
    *,
    smoke: bool = False,
    theme: str = "system",
    first_screen: Future[FirstScreen] | None = None,
    again: Again | None = None,
) -> int:
    """The window over the store `open_store` opens, shown once its first frame is complete
    (`FirstFrame`). `first_screen`: the first frame's reads, started (in a process of their own) before
    this module and Qt were imported; with them the window opens its own store after its first frame,
    on the runner's thread (`Controller.store`). Without them, or when they failed (the store's own
    open then says why, as the command line reports it), the store opens here first. A store refused
    before the window shows is raised, or with `again`, the person is asked what next (`_open_now`).
    With `again` (someone sees the screen), a wait with no window up yet says so once it lasts
    (`ui.window.launch_wait`); quit there, the launch ends with 0 as a closed window ends."""
    app = application(offscreen=smoke and not os.environ.get("DISPLAY"))
    apply_theme(app, theme)
    with ExitStack() as held:
        opened: list[MemoryStore] = []  # the store `open_store` opened: closed by it, on the way out
        openers = [open_store]  # the last is the one to open: another when a refused launch chose one

        def open_here() -> MemoryStore:
            opened.append(held.enter_context(openers[-1]()))
            return opened[-1]

        try:
            clock: Clock = clock_from_env()
        except ValueError:  # the store's open says what is wrong with the variable, as the command line does
            clock, first_screen = SystemClock(), None
        later = StoreLater(open_here, clock)
        controller = Controller(later)
        window = MainWindow(controller)  # built while the first screen is read aside
        try:
            if first_screen is not None and not first_screen.done():
                load_view()  # what the first frame's diff needs, loaded while the child still reads
                if again is not None:  # someone sees the screen: a long wait with nothing on it says so
                    wait_saying_so(first_screen, OPENING, LAUNCH_WAIT_MS)
            screen = first_part(first_screen, lambda screen: screen)
            if screen is None:  # no reads aside, or they failed: the store opens now (or says why not)
                _open_now(controller, first_screen, again, openers)
                first_screen = None
            else:
                later.facts = screen.facts
        except BaseException as exc:
            delete(window)  # refused, or quit while waiting: never to be shown, it goes now with its timers
            if isinstance(exc, LaunchQuit):
                return 0  # the person quit: the launch ends as a window they closed ends
            raise
        window.know_store()
        ended = _ask_when_refused(window, again, openers) if again is not None else []
        if again is None and not smoke:  # nobody to ask: a store refused after the first frame ends the
            controller.storeRefused.connect(lambda _refusal: QApplication.exit(0))  # launch, as at launch
        code = _run_window(app, window, smoke, first_screen)
        if controller.store_open and controller.store not in opened:
            controller.store.close()  # another database opened since
        if ended:
            raise ended[0]  # Ctrl+C while the refusal was asked about
        if code != 130 and controller.refused is not None and not controller.store_open:
            raise controller.refused  # quit on it (or a smoke run's): as the command line always said it
    return code


def _ask_when_refused(
    window: MainWindow, again: Again, openers: list[StoreOpener]
) -> list[KeyboardInterrupt]:
    """The launch's store, refused as it opens after the first frame (`Controller.storeRefused`: the pages
    of a file never opened are checked then; or the host held its write lock past the busy timeout), is
    asked about as a refusal before the window is: Try Again for a lock, Open Another Database…, or Quit,
    which closes the window (`run_window` then raises the refusal). The list gets a Ctrl+C in the box."""
    ended: list[KeyboardInterrupt] = []
    controller = window.controller

    def refused(refusal: StoreError) -> None:
        if refusal is not controller.refused or not isinstance(refusal, DatabaseOpenError):
            return  # opened since, or not the database's refusal: said in the window alone
        from ui.dialogs.launch_refusal import asked_over  # the question's modules: only when it is asked

        try:
            with asked_over(window):
                step = again(refusal, openers[-1])
        except KeyboardInterrupt as interrupt:
            ended.append(interrupt)
            step = None
        if step is None:  # the launch ends here, whatever other window is up, with one quit (closing the
            window.setAttribute(Qt.WidgetAttribute.WA_QuitOnClose, False)  # last window would post another)
            window.close()
            QApplication.exit(0)
            return
        if controller.refused is not refusal:
            return  # another database took the window while the question was up: it stays
        if step is not openers[-1]:
            openers.append(step)  # the store the launch opens from here (`open_here`)
        controller.reopen()

    controller.storeRefused.connect(refused)
    return ended


def _open_now(
    controller: Controller, aside: Future[FirstScreen] | None, again: Again | None, openers: list[StoreOpener]
) -> None:
    """Open the launch's store now, on this thread. Refused (by the read aside, said once, or by this
    open), `again` asks the person what next: the same store again or another (appended to `openers`);
    none (or no `again`) raises the refusal, as the command line says it."""
    saying: str | None = None  # once the person has answered, what the wait for their answer is
    while True:
        try:
            raise_refusal(aside)  # the child's open said why, as the store's own open would: once
            if again is None:  # nobody to see a box, or to answer one
                controller.open_now()
            else:
                after_ms = LAUNCH_WAIT_MS if saying is None else SHOW_WAIT_MS  # sooner once asked
                open_saying_so(controller.open_now, saying or OPENING, after_ms)
            return
        except Exception as exc:
            refusal = refusal_of(exc)  # the database refused; not another input (a bad variable's)
            if again is None or not isinstance(refusal, DatabaseOpenError):
                raise
            step = again(refusal, openers[-1])
            if step is None:
                raise
            locked = step is openers[-1] and isinstance(refusal, DatabaseLockedError)
            aside, saying = None, WAITING if locked else OPENING
            openers.append(step)


def _run_window(
    app: QApplication, window: MainWindow, smoke: bool, first_screen: Future[FirstScreen] | None
) -> int:
    controller = window.controller
    first_paint = _FirstPaint(window, app) if smoke else None
    deadline = smoke_deadline(app, window) if smoke else None

    # "Since you last looked", when something changed: after the first frame is painted.
    FirstFrame(window, window.show, painted=(lambda: None) if smoke else window.looks.check_on_open)
    controller.start(first_screen)
    # Ctrl+C where it was started: closed as by its menu
    with on_interrupt(window.close) as interrupted, refusals_said(window):
        code = app.exec()
    code = 130 if interrupted else code  # as the command line ends on Ctrl+C
    if deadline is not None and first_paint is not None:  # neither of the smoke run's exits outlives it
        deadline.stop()
        first_paint.stop()
    window.save_state()
    window.review.wait_for_done()  # a review run holds the host's lease: let it finish and release it
    controller.runner.wait_for_done()
    return code


@contextmanager
def refusals_said(window: MainWindow) -> Iterator[None]:
    """A store's refusal raised in a slot (an action that needs the store while the launch's, refused as
    it opened, is shut: `Controller.refused`; or any other `StoreError` a slot let through) is said in
    the status bar, not as a traceback on a terminal nobody reads; any other error as Python says it."""
    previous = sys.excepthook

    def said(kind: type[BaseException], error: BaseException, trace: TracebackType | None) -> None:
        if isinstance(error, StoreError):
            window.statusBar().showMessage(error.message, 10_000)
        else:
            previous(kind, error, trace)

    sys.excepthook = said
    try:
        yield
    finally:
        sys.excepthook = previous


def screenshot(
    store: MemoryStore,
    out_path: str | Path,
    *,
    select: int | None = None,
    size: tuple[int, int] = (1400, 900),
    theme: str = "light",
    as_of: int | None = None,
    project: str | None = None,
) -> None:
    """Render the main window offscreen (the history panel of `select`, else the first card) to a PNG;
    with `as_of`, looking back at that instant (As of…); with `project`, that project's memories
    (`select`: one of them), or with `as_of` too what the host injected for it then."""
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
        if select is not None and project is None:
            window.filters.set_status("all")
        wait_until(app, lambda: window.model.rowCount() > 0 or window.pages.currentIndex() == 1)
        if select is not None and project is None:
            wait_until(app, lambda: window.select_id(select, center=True))
        _settle(app, window)
        if project is not None:
            _show_project(app, window, project, select)
        if as_of is not None and project is not None:
            _project_past(app, window, as_of)
        elif as_of is not None:
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


def _project_past(app: QApplication, window: MainWindow, at: int) -> None:
    """The project shown as of `at`: what the host injected for it then."""
    page = window.projects.page
    page.look_back(at)
    wait_until(app, lambda: page.past.states != [] or not window.controller.runner.busy)
    QGuiApplication.processEvents()


def _show_project(app: QApplication, window: MainWindow, name: str, select: int | None) -> None:
    """The project `name` names (an identity or a display name), its memory `select` or its first one,
    with that memory's links and history."""
    from app.core.errors import InvalidInputError

    found = window.controller.store.project.find_project(name)
    if len(found) != 1:
        raise InvalidInputError(f"{len(found)} projects are named {name!r}: name one by its identity")
    window.projects.choose(found[0])
    page = window.projects.page
    wait_until(app, lambda: page.rows != [] and page.current_id() is not None)
    if select is not None and not page.select_id(select):
        raise InvalidInputError(f"project memory #{select} is not in {name!r}")
    wait_until(app, lambda: page.detail.history_memory_id == page.current_id())
    wait_until(app, lambda: page.detail.diff.settled, 5_000)
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
