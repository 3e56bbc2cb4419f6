"""A launch that waits with no window up yet says so once the wait lasts (`ui.window.launch_wait`): a
busy box with what it waits for and a Quit button. Quit (its button, Escape, closing it) ends the launch
as a closed window ends it (0) and stops waiting; a wait that ends sooner never shows the box."""

from __future__ import annotations

import argparse
import os
import signal
from collections.abc import Callable
from concurrent.futures import Future
from functools import partial
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QEvent, Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QProgressDialog, QPushButton, QWidget
from pytestqt.qtbot import QtBot

from app.cli import window_opener
from app.core import settings as saved
from app.core.errors import DatabaseOpenError
from app.store import MemoryStore
from tests.support.cli_run import digest
from tests.ui.window_helpers import give_up_later
from ui import cli_hooks
from ui.runtime.first_page import read_first_screen
from ui.runtime.first_screen import FirstScreen
from ui.runtime.hub_publishing import HubPublishing
from ui.window.app import run_window
from ui.window.launch_wait import (
    MIN_SHOWN_MS,
    OPENING,
    LaunchQuit,
    open_saying_so,
    wait_saying_so,
)
from ui.window.main_window import MainWindow

Answer = Callable[[QProgressDialog], None]


def shown_boxes() -> list[QProgressDialog]:
    return [w for w in QApplication.topLevelWidgets() if isinstance(w, QProgressDialog) and w.isVisible()]


def when_shown(answer: Answer) -> list[str]:
    """`answer` the wait's box once it is shown and is the active window (keys reach it then: its Escape
    is a shortcut of its window); gives what the box said."""
    said: list[str] = []

    def look() -> None:
        boxes = shown_boxes()
        if boxes and QApplication.activeWindow() is boxes[0]:
            said.append(boxes[0].labelText())
            answer(boxes[0])
        else:
            QTimer.singleShot(10, look)

    QTimer.singleShot(0, look)
    return said


def quit_button(box: QProgressDialog) -> None:
    (button,) = [b for b in box.findChildren(QPushButton) if b.isVisible()]
    assert button.text() == "&Quit"
    button.click()


def windows() -> set[QWidget]:
    return {w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow)}


def test_a_quick_open_never_shows_the_wait(qtbot: QtBot) -> None:
    """Not now, and not later either: the box, and the timer that would show it, are gone once it returns."""
    opened: list[str] = []
    open_saying_so(lambda: opened.append("open"), OPENING)
    assert opened == ["open"] and shown_boxes() == []
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    assert [w for w in QApplication.topLevelWidgets() if isinstance(w, QProgressDialog)] == []

    def refused() -> None:
        raise DatabaseOpenError("gone")

    with pytest.raises(DatabaseOpenError, match="gone"):  # an open's error is raised where it was asked for
        open_saying_so(refused, OPENING)


def test_a_wait_that_lasts_says_so_and_ends_when_its_work_does(qtbot: QtBot) -> None:
    waited: Future[str] = Future()
    said = when_shown(lambda box: waited.set_result("read"))  # settled on another thread, as a child's
    wait_saying_so(waited, OPENING, after_ms=50)
    assert said == [OPENING] and waited.result() == "read"
    assert shown_boxes() == []


@pytest.mark.parametrize(
    "answer",
    [quit_button, lambda box: QTest.keyClick(box, Qt.Key.Key_Escape), lambda box: box.close()],
    ids=["Quit", "Escape", "closed"],
)
def test_quit_while_waiting_stops_the_wait(qtbot: QtBot, answer: Answer) -> None:
    """Quit ends the launch: what it waited for is cancelled (a child reading aside is ended then)."""
    waited: Future[str] = Future()
    said = when_shown(answer)
    give_up_later(waited)  # Quit unheard: the test fails rather than hangs
    with pytest.raises(LaunchQuit):
        wait_saying_so(waited, OPENING, after_ms=50)
    assert said == [OPENING] and waited.cancelled()
    assert shown_boxes() == []


@pytest.mark.parametrize("key", [Qt.Key.Key_Return, Qt.Key.Key_Space], ids=["Enter", "Space"])
def test_enter_or_space_typed_as_the_box_comes_up_never_quits(qtbot: QtBot, key: Qt.Key) -> None:
    """The box takes the keyboard when it comes up: Enter or Space meant for another window must not
    end the launch (only Escape, Alt+Q or a click on Quit do)."""
    waited: Future[str] = Future()

    def type_then_read(box: QProgressDialog) -> None:
        QTest.keyClick(QApplication.focusWidget() or box, key)  # where the keyboard is
        waited.set_result("read")

    when_shown(type_then_read)
    wait_saying_so(waited, OPENING, after_ms=50)  # returns: no LaunchQuit
    assert waited.result() == "read"


def test_a_box_shown_stays_up_long_enough_to_be_read(qtbot: QtBot) -> None:
    """A wait that ends just after the box came up keeps it up a moment (`MIN_SHOWN_MS`): a box that
    blinks away before the window comes is a flash."""
    waited: Future[str] = Future()
    still_up: list[bool] = []

    def end_at_once(box: QProgressDialog) -> None:
        waited.set_result("read")
        QTimer.singleShot(MIN_SHOWN_MS // 2, lambda: still_up.append(box.isVisible()))

    when_shown(end_at_once)
    wait_saying_so(waited, OPENING, after_ms=50)
    assert still_up == [True] and shown_boxes() == []


def test_ctrl_c_while_waiting_ends_the_wait(qtbot: QtBot) -> None:
    """Ctrl+C in the terminal that started the launch: ended at once (130, as the command line ends),
    box shown or not, what it waited for cancelled."""
    waited: Future[str] = Future()
    QTimer.singleShot(0, lambda: os.kill(os.getpid(), signal.SIGINT))
    handler = signal.getsignal(signal.SIGINT)
    with pytest.raises(KeyboardInterrupt):
        wait_saying_so(waited, OPENING, after_ms=60_000)
    assert waited.cancelled() and signal.getsignal(signal.SIGINT) is handler


def launch_args(path: Path) -> argparse.Namespace:
    return argparse.Namespace(db=str(path), demo=False, read_only=False)


def launched(args: argparse.Namespace, aside: Future[FirstScreen]) -> int:
    """A launch seen by a person (`again`: it asks), its first screen read aside in `aside`."""
    again = partial(cli_hooks._ask_again, args)
    return run_window(window_opener(args), smoke=True, first_screen=aside, again=again)


def test_a_launch_whose_first_screen_is_slow_says_so_then_opens(qtbot: QtBot, host_db: Path) -> None:
    """The first screen's reads last (a large file never opened before, a slow disk): the box says the
    database is being opened; once the reads arrive the window opens as always."""
    args = launch_args(host_db)
    aside: Future[FirstScreen] = Future()

    def arrive(box: QProgressDialog) -> None:
        with window_opener(args)(first_look=True) as store:
            assert isinstance(store, MemoryStore)
            aside.set_result(read_first_screen(store))

    said = when_shown(arrive)
    assert launched(args, aside) == 0 and said == [OPENING]


def test_quit_while_a_launch_waits_ends_it_with_nothing_written(qtbot: QtBot, host_db: Path) -> None:
    """The hidden window's timers run while the box is up: none of them opens the store meanwhile (on
    this thread, a file the person then quits on), neither its minute nor its hub publishing."""
    saved.save_settings(saved.with_hub(saved.Settings(), "postgresql+psycopg://me@/hub", "laptop", 5))
    args = launch_args(host_db)
    before, beside, before_run = digest(host_db), sorted(host_db.parent.iterdir()), windows()
    aside: Future[FirstScreen] = Future()
    ticks: list[tuple[bool, bool, bool]] = []

    def tick_then_quit(box: QProgressDialog) -> None:
        for window in windows() - before_run:
            assert isinstance(window, MainWindow)
            publishing = window.findChild(HubPublishing)
            assert publishing is not None and publishing.every_min == 5
            published = publishing.publish_due()  # as its timer's tick would
            ticks.append((window.minute.isActive(), published, window.controller.store_open))
        quit_button(box)

    said = when_shown(tick_then_quit)
    assert launched(args, aside) == 0 and said == [OPENING] and aside.cancelled()
    assert ticks == [(False, False, False)]
    assert digest(host_db) == before  # never opened here: nothing migrated, nothing beside it
    assert sorted(host_db.parent.iterdir()) == beside
    assert windows() <= before_run  # the window built meanwhile is gone, its timers with it
