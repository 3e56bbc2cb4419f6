"""A launch whose database is refused says why in a window (a window started from a desktop menu has no
terminal for the command line's message) and offers the ways on: Try Again for a lock another program
holds, Open Another Database…, or Quit (the refusal raised, said by the command line as always)."""

from __future__ import annotations

import argparse
import os
import signal
import sqlite3
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from functools import partial
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox, QProgressDialog, QWidget
from pytestqt.qtbot import QtBot

from app.cli import window_opener
from app.core.clock import NOW_ENV
from app.core.errors import DatabaseLockedError, DatabaseOpenError, InvalidInputError, StoreError
from tests.support.cli_run import digest
from tests.support.hostdb import damaged_never_opened
from ui import cli_hooks
from ui.dialogs import launch_refusal
from ui.dialogs.launch_refusal import HEADLINE, NextStep, ask_after_refusal
from ui.runtime.first_page import read_first_screen
from ui.runtime.first_screen import FirstScreen, StoreOpener
from ui.window.app import run_window
from ui.window.launch_wait import WAITING
from ui.window.main_window import MainWindow

Answer = Callable[[QMessageBox], None]


@pytest.fixture
def when_asked() -> Iterator[Callable[..., list[QMessageBox]]]:
    """Answers each refusal box as it comes up (the answers in order); gives the boxes seen, in order.
    It stops looking when the test ends."""
    ended: list[bool] = []

    def start(*answers: Answer) -> list[QMessageBox]:
        seen: list[QMessageBox] = []

        def look() -> None:
            box = QApplication.activeModalWidget()
            if (
                isinstance(box, QMessageBox)
                and box.isVisible()
                and box not in seen
                and len(seen) < len(answers)
            ):
                seen.append(box)
                answers[len(seen) - 1](box)
            if not ended:
                QTimer.singleShot(10, look)

        QTimer.singleShot(0, look)
        return seen

    yield start
    ended.append(True)


def button(text: str) -> Answer:
    def click(box: QMessageBox) -> None:
        found = [b for b in box.buttons() if b.text().replace("&", "") == text]
        assert found, f"no {text!r} in {[b.text() for b in box.buttons()]}"
        found[0].click()

    return click


def escape(box: QMessageBox) -> None:
    escape_button = box.escapeButton()
    assert escape_button is not None
    escape_button.click()


def windows() -> set[QWidget]:
    return {w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow)}


def launch_args(path: Path, **more: object) -> argparse.Namespace:
    return argparse.Namespace(**{"db": str(path), "demo": False, "read_only": False, **more})


def not_sqlite(tmp_path: Path) -> Path:
    path = tmp_path / "notes.db"
    path.write_text("these are my notes, not a database\n")
    return path


def counted(opener: StoreOpener, calls: list[str]) -> StoreOpener:
    def opening(*, first_look: bool = False) -> object:
        calls.append("open")
        return opener(first_look=first_look)

    return opening  # type: ignore[return-value]


def test_a_refused_file_is_said_in_a_window_and_quit_raises_it(
    when_asked: Callable[..., list[QMessageBox]], qtbot: QtBot, tmp_path: Path
) -> None:
    path = not_sqlite(tmp_path)
    before = digest(path)
    args = launch_args(path)
    seen, before_run = when_asked(escape), windows()
    with pytest.raises(DatabaseOpenError, match="is not a SQLite database") as refused:
        run_window(window_opener(args), smoke=True, again=lambda r, o: cli_hooks._ask_again(args, r, o))
    (box,) = seen
    assert box.text() == HEADLINE
    assert str(refused.value) in box.informativeText()
    names = sorted(b.text().replace("&", "") for b in box.buttons())
    assert names == ["Open Another Database…", "Quit"]  # nothing to try again: the file will not change
    assert box.defaultButton() is box.escapeButton()
    assert digest(path) == before
    assert windows() <= before_run  # the window built meanwhile is gone, its timers with it


@pytest.fixture
def chosen(host_db: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The database the file chooser of Open Another Database… answers with."""
    monkeypatch.setattr(launch_refusal, "choose_database", lambda parent: str(host_db))
    return host_db


def test_another_database_chosen_opens_the_window_on_it(
    when_asked: Callable[..., list[QMessageBox]], qtbot: QtBot, tmp_path: Path, chosen: Path
) -> None:
    args = launch_args(not_sqlite(tmp_path), read_only=True)
    host_db = chosen
    before = digest(host_db)
    seen = when_asked(button("Open Another Database…"))
    code = run_window(window_opener(args), smoke=True, again=lambda r, o: cli_hooks._ask_again(args, r, o))
    assert code == 0 and len(seen) == 1
    assert digest(host_db) == before  # opened as the launch asked: --read-only kept


def test_a_cancelled_chooser_asks_again(
    when_asked: Callable[..., list[QMessageBox]], qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    chosen: list[str | None] = []

    def cancel(parent: object) -> None:
        chosen.append(None)

    seen = when_asked(button("Open Another Database…"), escape)
    step = ask_after_refusal(DatabaseOpenError("/x/context.db is damaged; nothing was changed."), cancel)
    assert step is None and len(seen) == 2 and chosen == [None]


def test_a_lock_the_read_aside_met_is_tried_again_without_a_second_wait(
    when_asked: Callable[..., list[QMessageBox]], qtbot: QtBot, host_db: Path
) -> None:
    """The launch's child was refused for a lock (it waited the busy timeout): the box says so once, with
    Try Again as its default; the first try is the one the person asks for, not another wait."""
    aside: Future[FirstScreen] = Future()
    aside.set_exception(DatabaseLockedError(f"{host_db} is locked by another program; nothing was changed."))
    calls: list[str] = []
    asked: list[str] = []

    def again(refusal: StoreError, opener: StoreOpener) -> StoreOpener | None:
        asked.append(f"{calls}")
        step = ask_after_refusal(refusal)
        return opener if step == NextStep() else None

    seen = when_asked(lambda box: box.defaultButton().click())
    opener = counted(window_opener(launch_args(host_db)), calls)
    assert run_window(opener, smoke=True, first_screen=aside, again=again) == 0
    (box,) = seen
    assert box.defaultButton() is not None and box.defaultButton().text() == "&Try Again"
    assert asked == ["[]"] and calls == ["open"]  # asked before any open here; opened once, when asked


def test_a_window_nobody_sees_never_asks(
    when_asked: Callable[..., list[QMessageBox]], qtbot: QtBot, tmp_path: Path
) -> None:
    """Drawn offscreen (`--offscreen`, or the offscreen platform), a question would wait forever: the
    refusal is raised at once, as the command line says it."""
    args = launch_args(not_sqlite(tmp_path), offscreen=True, smoke=False)
    seen = when_asked(escape)  # a box shown anyway is closed, to fail here rather than wait
    before_run = windows()
    with pytest.raises(DatabaseOpenError, match="is not a SQLite database"):
        cli_hooks.open_window(args, window_opener(args))
    assert seen == [] and windows() <= before_run


def test_ctrl_c_in_the_terminal_closes_the_box_and_quits(
    when_asked: Callable[..., list[QMessageBox]], qtbot: QtBot, tmp_path: Path
) -> None:
    """Ctrl+C while the box waits quits at once, as anywhere in the command line (exit code 130), rather
    than waiting unseen for the next click and then ending the launch whatever was clicked."""
    args = launch_args(not_sqlite(tmp_path))

    def interrupt(box: QMessageBox) -> None:
        QTimer.singleShot(3000, box.reject)  # a box Ctrl+C left open: closed, to fail rather than wait
        os.kill(os.getpid(), signal.SIGINT)

    seen = when_asked(interrupt)
    handler = signal.getsignal(signal.SIGINT)
    with pytest.raises(KeyboardInterrupt):
        run_window(window_opener(args), smoke=True, again=lambda r, o: cli_hooks._ask_again(args, r, o))
    assert len(seen) == 1  # the box closed by Ctrl+C, never answered
    assert signal.getsignal(signal.SIGINT) is handler


def test_a_bad_clock_variable_is_no_database_question(
    when_asked: Callable[..., list[QMessageBox]],
    qtbot: QtBot,
    host_db: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An input that is not the database (MEMORY_DASHBOARD_NOW unreadable) is said as the command line
    says it: another database would meet it again, so no box asks for one."""
    monkeypatch.setenv(NOW_ENV, "not a time")
    args = launch_args(host_db)
    seen = when_asked(escape)  # a box shown anyway is closed, to fail here rather than wait
    with pytest.raises(InvalidInputError, match=NOW_ENV):
        run_window(window_opener(args), smoke=True, again=lambda r, o: cli_hooks._ask_again(args, r, o))
    assert seen == []


def test_trying_a_lock_again_says_it_waits_until_the_lock_is_let_go(
    when_asked: Callable[..., list[QMessageBox]], qtbot: QtBot, host_db: Path
) -> None:
    """Try Again on a lock another program still holds waits up to the busy timeout with no window up yet:
    a box says what it waits for, and the window opens once the lock is let go."""
    holder = sqlite3.connect(host_db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # the store's first open migrates: it needs this lock
    aside: Future[FirstScreen] = Future()
    aside.set_exception(DatabaseLockedError(f"{host_db} is locked by another program; nothing was changed."))
    args = launch_args(host_db)
    waits: list[str] = []

    def let_go_once_said() -> None:
        shown = [
            w for w in QApplication.topLevelWidgets() if isinstance(w, QProgressDialog) and w.isVisible()
        ]
        if shown:
            waits.append(shown[0].labelText())
            holder.rollback()
        else:
            QTimer.singleShot(20, let_go_once_said)

    def try_again(box: QMessageBox) -> None:
        QTimer.singleShot(0, let_go_once_said)
        button("Try Again")(box)

    seen = when_asked(try_again, escape)  # a second box (the wait unsaid, the lock kept): quit, to fail
    try:
        code = run_window(
            window_opener(args), smoke=True, first_screen=aside, again=partial(cli_hooks._ask_again, args)
        )
    finally:
        holder.close()
    assert code == 0 and len(seen) == 1
    assert waits == [WAITING]


@contextmanager
def ended_after(ms: int = 30_000) -> Iterator[list[str]]:
    """A launch's loop nobody ends (the question never asked) is ended after `ms`, and the list then says
    so: the test fails on what it expected instead of hanging."""
    fired: list[str] = []
    timer = QTimer()
    timer.setSingleShot(True)

    def end() -> None:
        fired.append("the launch was ended by the test")
        QApplication.exit(0)

    timer.timeout.connect(end)
    timer.start(ms)
    try:
        yield fired
    finally:
        timer.stop()


def damaged_launch(tmp_path: Path) -> tuple[argparse.Namespace, Future[FirstScreen]]:
    """A launch on a host file never opened here, damaged where its first screen does not read: the first
    screen read as the launch's child reads it (a first look, no page checked)."""
    (tmp_path / "host").mkdir()
    path = tmp_path / "host" / "context.db"
    damaged_never_opened(path)
    args = launch_args(path)
    aside: Future[FirstScreen] = Future()
    with window_opener(args)(first_look=True) as store:
        aside.set_result(read_first_screen(store))
    return args, aside


def test_damage_found_after_the_first_frame_is_asked_about_and_quit_raises_it(
    when_asked: Callable[..., list[QMessageBox]], qtbot: QtBot, tmp_path: Path
) -> None:
    """The window's store checks a never-opened file's pages after the first frame: damage is asked about
    as a launch's refusal is, over the window; Quit ends the launch with the refusal, as the command line
    says it (its exit code), nothing written."""
    args, aside = damaged_launch(tmp_path)
    before = digest(Path(args.db))
    seen = when_asked(button("Quit"))
    with ended_after() as fired, pytest.raises(DatabaseOpenError, match="damaged"):
        run_window(window_opener(args), first_screen=aside, again=partial(cli_hooks._ask_again, args))
    assert fired == [] and len(seen) == 1 and HEADLINE in seen[0].text()
    assert digest(Path(args.db)) == before


def test_another_database_chosen_after_a_late_refusal_takes_the_window(
    when_asked: Callable[..., list[QMessageBox]],
    qtbot: QtBot,
    tmp_path: Path,
    chosen: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    args, aside = damaged_launch(tmp_path)
    host_db = chosen
    parents: list[object] = []  # the file chooser goes over the window, as the question did

    def choose(parent: object) -> str:
        parents.append(parent)
        return str(host_db)

    monkeypatch.setattr(launch_refusal, "choose_database", choose)
    seen = when_asked(button("Open Another Database…"))
    before_run = windows()
    shown: list[str] = []

    def close_once_switched() -> None:
        for window in windows() - before_run:
            assert isinstance(window, MainWindow)
            c = window.controller
            if c.store_open and c.store.location == str(host_db) and not c.runner.busy:
                shown.append(window.windowTitle())
                # Closed as the person would; earlier tests' windows may still be up, so the launch's
                # loop is ended here, once (a last window closed would post a quit of its own).
                window.setAttribute(Qt.WidgetAttribute.WA_QuitOnClose, False)
                window.close()
                QApplication.exit(0)
                return
        QTimer.singleShot(10, close_once_switched)

    QTimer.singleShot(0, close_once_switched)
    with ended_after() as fired:
        code = run_window(window_opener(args), first_screen=aside, again=partial(cli_hooks._ask_again, args))
    assert fired == [] and code == 0 and len(seen) == 1
    assert shown == [f"Memory Dashboard — {host_db.name}"]  # nothing refused is said of the one chosen
    assert len(parents) == 1 and isinstance(parents[0], MainWindow) and seen[0].parent() is None


def test_a_smoke_run_on_a_damaged_file_ends_with_its_refusal(qtbot: QtBot, tmp_path: Path) -> None:
    """Nobody to ask (`--smoke`): the first frame is painted, the window's store is refused once it opens,
    and the launch ends with the refusal, as the command line says it (not 0)."""
    args, aside = damaged_launch(tmp_path)
    with pytest.raises(DatabaseOpenError, match="damaged"):
        run_window(window_opener(args), smoke=True, first_screen=aside)


def test_a_late_refusal_with_nobody_to_ask_ends_the_launch_with_it(qtbot: QtBot, tmp_path: Path) -> None:
    """A window drawn where nobody sees it (`--offscreen`, no question): the refusal after the first frame
    ends the launch as a refusal at launch does, not a window left up for ever."""
    args, aside = damaged_launch(tmp_path)
    with ended_after() as fired, pytest.raises(DatabaseOpenError, match="damaged"):
        run_window(window_opener(args), first_screen=aside)
    assert fired == []
