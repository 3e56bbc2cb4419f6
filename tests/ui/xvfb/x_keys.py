"""The keyboard path under a real X server (run by `test_real_display.py` in a pytest session of its own
with QT_QPA_PLATFORM=xcb: Qt picks its platform once per process). Keys go in through the window system's
side of Qt (`QTest.keyClick` on the active window's QWindow: the shortcut map, then the focus widget), with
the platform's own key bindings (X11's: its Delete is also Ctrl+D) and Fusion's painting of the focus."""

from __future__ import annotations

import os
from concurrent.futures import Future
from pathlib import Path

import pytest
from PySide6.QtCore import QSize, Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialog, QMessageBox, QProgressDialog, QWidget
from pytestqt.qtbot import QtBot

from app.core.clock import ManualClock
from app.core.errors import DatabaseLockedError, DatabaseOpenError, StoreError
from app.core.models import MemoryStatus
from app.store import MemoryStore
from tests.support.host80 import ALPHA, NOW, build_host80
from tests.ui.every_window import CASES, Case, contents, each_window, openers, shown
from tests.ui.project.helpers import seed_window_file
from tests.ui.shortcut_clashes import clashes
from tests.ui.window_helpers import (
    card_content,
    give_up_later,
    make_window,
    reopened,
    saved_window,
    select,
    settle,
    with_older_revision_selected,
)
from tests.ui.xvfb.focus_walk import box_buttons, focused, walk
from ui.dialogs.launch_refusal import NextStep, ask_after_refusal
from ui.review.queue import ReviewQueue
from ui.widgets.dialog_keys import DialogKeys, accept_button
from ui.widgets.theme import apply_theme
from ui.window.launch_wait import OPENING, LaunchQuit, wait_saying_so
from ui.window.main_window import MainWindow
from ui.window.state import default_size

pytestmark = pytest.mark.skipif(
    os.environ.get("QT_QPA_PLATFORM") != "xcb",
    reason="needs a real X server (tests/ui/xvfb/test_real_display.py)",
)
CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier
NONE = Qt.KeyboardModifier.NoModifier
ALT = Qt.KeyboardModifier.AltModifier


@pytest.fixture(autouse=True, params=["light", "dark"])
def theme(request: pytest.FixtureRequest, qapp: QApplication) -> str:
    apply_theme(qapp, request.param)
    return str(request.param)


def press(key: Qt.Key, modifiers: Qt.KeyboardModifier = NONE) -> None:
    """One key on the active window, through its QWindow (as the window system delivers keys)."""
    active = QApplication.activeWindow()
    assert active is not None, "no active window"
    handle = active.windowHandle()
    assert handle is not None
    QTest.keyClick(handle, key, modifiers)


def test_no_two_actions_share_a_key_with_x11s_bindings(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path
) -> None:
    window = make_window(qtbot, store, tmp_path)
    shown(qtbot, window)
    select(qtbot, window, 5)
    window.list.setFocus()
    assert clashes(window) == []
    for name, opened in each_window(qtbot, window):
        assert clashes(opened) == [], name
    shown(qtbot, window)
    window.list.setFocus()
    press(Qt.Key.Key_D, CTRL)  # Dismiss: it was claimed by Delete too, and did nothing
    qtbot.waitUntil(lambda: (m := window.model.memory(5)) is not None and m.status == MemoryStatus.DISMISSED)
    settle(qtbot, window)


def tab() -> None:
    press(Qt.Key.Key_Tab)


def test_tab_goes_round_the_window_and_every_stop_paints_its_focus(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path
) -> None:
    window = with_older_revision_selected(qtbot, store, tmp_path)  # Restore enabled: one stop more
    shown(qtbot, window)
    window.filters.search.setFocus(Qt.FocusReason.TabFocusReason)
    went = walk(window, tab)
    assert went.problems(window) == []
    assert {window.list, window.panel.revisions, window.panel.restore_button} <= set(went.stops)
    settle(qtbot, window)


def test_tab_goes_round_every_dialog_to_its_buttons_and_every_stop_paints_its_focus(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path
) -> None:
    window = make_window(qtbot, store, tmp_path)
    shown(qtbot, window)
    problems: dict[str, list[str]] = {}
    walked_through: list[str] = []
    for name, opened in each_window(qtbot, window):
        went = walk(opened, tab)
        walked_through.append(name)
        if found := went.problems(opened):
            problems[name] = found
        if isinstance(opened, QDialog) and not isinstance(opened, ReviewQueue):
            assert box_buttons(opened), f"{name}: no buttons"  # each has OK/Save and Cancel, or Close
    assert walked_through == list(openers(qtbot, window))
    assert not problems, "\n".join(f"{name}: {'; '.join(found)}" for name, found in problems.items())
    settle(qtbot, window)


def walked(qtbot: QtBot, window: MainWindow, case: Case) -> QDialog:
    shown(qtbot, window)
    dialog = shown(qtbot, openers(qtbot, window)[case.opener]())
    assert isinstance(dialog, QDialog)
    case.type_in(qtbot, dialog)
    return dialog


@pytest.mark.parametrize("case", CASES, ids=[case.opener for case in CASES])
def test_every_dialog_saves_and_cancels_by_keys(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path, case: Case
) -> None:
    window = make_window(qtbot, store, tmp_path)
    select(qtbot, window, 5)
    dialog = walked(qtbot, window, case)
    press(Qt.Key.Key_Escape)  # typed: asks; Esc again keeps editing
    keys = dialog.findChild(DialogKeys)
    assert isinstance(keys, DialogKeys)
    qtbot.waitUntil(lambda: keys.question is not None and QApplication.activeWindow() is keys.question)
    box = keys.question
    assert box is not None
    press(Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not box.isVisible())
    shown(qtbot, dialog)  # no window manager here hands the focus back to the dialog: a desktop's does
    assert dialog.isVisible() and keys.question is None
    press(Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: isinstance(QApplication.activeWindow(), QMessageBox))
    press(Qt.Key.Key_D)  # Discard
    qtbot.waitUntil(lambda: not dialog.isVisible())
    settle(qtbot, window)
    assert not case.saved(window)
    dialog = walked(qtbot, window, case)
    went = walk(dialog, tab)  # typed: Save is on, and Tab reaches it too
    assert went.problems(dialog) == [] and accept_button(dialog) in went.stops
    press(Qt.Key.Key_Return, CTRL)
    qtbot.waitUntil(lambda: not dialog.isVisible(), timeout=10_000)
    qtbot.waitUntil(lambda: case.saved(window), timeout=10_000)
    window.leave_as_of()
    settle(qtbot, window)


def test_the_window_keys_under_x(qtbot: QtBot, store: MemoryStore, tmp_path: Path) -> None:
    """Enter in the search goes to the cards, J/K walk them, Restore then Ctrl+Z undoes it."""
    window = with_older_revision_selected(qtbot, store, tmp_path)
    shown(qtbot, window)
    press(Qt.Key.Key_F, CTRL)
    assert focused() is window.filters.search
    press(Qt.Key.Key_Return)
    assert focused() is window.list and window.commands.edit_dialog is None
    window.panel.revisions.setFocus(Qt.FocusReason.MouseFocusReason)
    window.panel.restore_button.setFocus(Qt.FocusReason.TabFocusReason)
    press(Qt.Key.Key_Space)  # Restore this version
    qtbot.waitUntil(lambda: (m := window.model.memory(5)) is not None and m.content == "Prefers pnpm v2")
    qtbot.waitUntil(lambda: not window.panel.restore_button.isEnabled())
    assert focused() is window.panel.revisions
    press(Qt.Key.Key_Z, CTRL)
    qtbot.waitUntil(lambda: (m := window.model.memory(5)) is not None and m.content == "Prefers pnpm v3")
    window.list.setFocus()
    before = window.list.current_id()
    press(Qt.Key.Key_J)
    assert window.list.current_id() != before
    settle(qtbot, window)


def test_the_review_queue_keys_under_x(qtbot: QtBot, store: MemoryStore, tmp_path: Path) -> None:
    """Ctrl+Enter in the text promotes the candidates selected; Enter in the merge box merges."""
    window = make_window(qtbot, store, tmp_path)
    shown(qtbot, window)
    window.show_queue()
    queue = shown(qtbot, window.queue)
    assert isinstance(queue, ReviewQueue)
    qtbot.waitUntil(lambda: queue.table.topLevelItemCount() == 6, timeout=10_000)
    queue.select_ids([141, 143])
    queue.text.setFocus(Qt.FocusReason.TabFocusReason)
    queue.text.selectAll()
    qtbot.keyClicks(queue.text, "Uses pnpm workspaces")
    press(Qt.Key.Key_Return, CTRL)
    qtbot.waitUntil(lambda: "Uses pnpm workspaces" in contents(window), timeout=10_000)
    qtbot.waitUntil(lambda: queue.table.topLevelItemCount() == 4, timeout=10_000)
    shown(qtbot, queue)  # the promoted card was selected in the main window
    queue.select_ids([145])
    queue.target.setFocus(Qt.FocusReason.TabFocusReason)
    queue.target.selectAll()
    qtbot.keyClicks(queue.target, "5")
    press(Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: card_content(window, 5) == "Prefers pnpm\nAsks for code first, explanation after")
    qtbot.waitUntil(lambda: queue.table.topLevelItemCount() == 3, timeout=10_000)
    settle(qtbot, window)


def test_a_project_by_keys_under_x(qtbot: QtBot, tmp_path: Path) -> None:
    """Ctrl+Shift+P opens the picker, arrows and Enter pick a project; J walks its cards, Ctrl+D archives
    with a reason typed and Enter, Ctrl+Z takes it back; no key is shared on the project page."""
    host = build_host80(tmp_path / "context.db")
    seeded = seed_window_file(host)
    store = MemoryStore.open(host, clock=ManualClock(NOW))
    try:
        window = make_window(qtbot, store, tmp_path)
        shown(qtbot, window)
        window.list.setFocus()
        press(Qt.Key.Key_P, CTRL | SHIFT)
        picker = window.projects.picker
        qtbot.waitUntil(lambda: picker.view().isVisible(), timeout=10_000)
        labels = [picker.itemText(row) for row in range(picker.count())]
        for _ in range(labels.index(f"{ALPHA} (18)")):
            press(Qt.Key.Key_Down)
        press(Qt.Key.Key_Return)
        page = window.projects.page
        qtbot.waitUntil(lambda: page.model.rowCount() == 18, timeout=10_000)
        assert focused() is page.list and clashes(window) == []
        first = page.current_id()
        press(Qt.Key.Key_J)
        assert page.current_id() == page.model.ids[1] != first
        assert page.select_id(seeded.active)
        press(Qt.Key.Key_D, CTRL)
        qtbot.waitUntil(lambda: page.dialog is not None and page.dialog.isVisible(), timeout=5_000)
        qtbot.keyClicks(focused(), "moved to bun")
        press(Qt.Key.Key_Return)
        archived = lambda: (m := page.model.memory(seeded.active)) is not None and m.status == "archived"  # noqa: E731
        qtbot.waitUntil(archived, timeout=10_000)
        settle(qtbot, window)
        shown(qtbot, window)
        press(Qt.Key.Key_Z, CTRL)
        qtbot.waitUntil(lambda: (m := page.model.memory(seeded.active)) is not None and m.status == "active")
        settle(qtbot, window)
    finally:
        store.close()


@pytest.mark.parametrize("saved", [QSize(2000, 1300), QSize(1200, 800)], ids=["too big", "fits"])
def test_a_saved_window_comes_back_whole_on_a_smaller_screen_under_x(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path, saved: QSize
) -> None:
    """Saved on a bigger screen than this one (this session's is 1600x1000): the first launch's size for
    this screen, not xcb's two thirds of it (Qt's rule in restoreGeometry); one that fits, as saved."""
    settings = saved_window(qtbot, store, tmp_path, saved)
    window = reopened(qtbot, store, settings)
    free = window.screen().availableGeometry()
    expected = saved if saved.width() <= free.width() else default_size(free.size())
    assert saved.width() > free.width() or saved.height() <= free.height()
    assert window.size() == expected
    window.show()
    qtbot.waitExposed(window)
    assert window.size() == expected and window.toolbar.isHidden()
    window.toolbar.show()
    qtbot.waitUntil(lambda: window.toolbar.isVisible())
    assert window.toolbar.width() <= window.width()


def _pressed_when_asked(
    key: Qt.Key,
    modifiers: Qt.KeyboardModifier = NONE,
    kind: type[QDialog] = QMessageBox,
    parents: list[QWidget | None] | None = None,
) -> list[QDialog]:
    """`key` pressed on the launch's box (`kind`) once the window system has made it the active window;
    `parents` gets the window it was asked over, as it is up (answered, a box goes)."""
    asked: list[QDialog] = []

    def look() -> None:
        box = QApplication.activeModalWidget()
        if isinstance(box, kind) and QApplication.activeWindow() is box and not asked:
            asked.append(box)
            if parents is not None:
                parents.append(box.parentWidget())
            press(key, modifiers)
        elif not asked:
            QTimer.singleShot(10, look)

    QTimer.singleShot(0, look)
    return asked


@pytest.mark.parametrize(
    ("refusal", "key", "modifiers", "step"),
    [
        (DatabaseOpenError("/x/context.db is damaged; nothing was changed."), Qt.Key.Key_Escape, NONE, None),
        (DatabaseLockedError("/x/context.db is locked"), Qt.Key.Key_Return, NONE, NextStep()),
        (DatabaseOpenError("/x/notes.db is not a SQLite database"), Qt.Key.Key_O, ALT, NextStep("/y/c.db")),
    ],
    ids=["Escape quits", "Enter tries a lock again", "Alt+O opens another"],
)
def test_a_refused_launch_is_answered_by_keys_under_x(
    qtbot: QtBot, refusal: StoreError, key: Qt.Key, modifiers: Qt.KeyboardModifier, step: NextStep | None
) -> None:
    """The launch's refusal comes up active, its keys work at once: Escape quits, Enter takes the default
    (Try Again for a lock), the mnemonic opens the chooser."""
    asked = _pressed_when_asked(key, modifiers)
    assert ask_after_refusal(refusal, lambda parent: "/y/c.db") == step
    assert len(asked) == 1


@pytest.mark.parametrize(
    ("key", "modifiers"), [(Qt.Key.Key_Escape, NONE), (Qt.Key.Key_Q, ALT)], ids=["Escape", "Alt+Q"]
)
def test_a_launch_that_waits_is_quit_by_keys_under_x(
    qtbot: QtBot, key: Qt.Key, modifiers: Qt.KeyboardModifier
) -> None:
    """The box a long launch shows comes up active with no window behind it: Escape (or Quit's mnemonic)
    quits at once, and what the launch waited for (its child's reads) is cancelled."""
    waited: Future[str] = Future()
    asked = _pressed_when_asked(key, modifiers, kind=QProgressDialog)
    give_up_later(waited)  # Quit unheard: the test fails rather than hangs
    with pytest.raises(LaunchQuit):
        wait_saying_so(waited, OPENING, after_ms=50)
    assert len(asked) == 1 and waited.cancelled()


def test_enter_on_a_launchs_wait_never_quits_it_under_x(qtbot: QtBot) -> None:
    """Enter typed as the box comes up (meant for the terminal the launch was typed into) goes to the box,
    which takes the keyboard: it must not end the launch."""
    waited: Future[str] = Future()
    asked = _pressed_when_asked(Qt.Key.Key_Return, kind=QProgressDialog)

    def read_once_pressed() -> None:
        if asked and not waited.done():
            waited.set_result("read")
        elif not waited.done():
            QTimer.singleShot(10, read_once_pressed)

    QTimer.singleShot(0, read_once_pressed)
    wait_saying_so(waited, OPENING, after_ms=50)  # returns: no LaunchQuit
    assert len(asked) == 1 and waited.result() == "read"


def test_a_refusal_after_the_first_frame_is_answered_by_keys_under_x(qtbot: QtBot, tmp_path: Path) -> None:
    """A never-opened file's damage, found once the window is up (its store checks every page then): the
    question comes up active over the window and Escape quits at once; the launch ends with the refusal."""
    import argparse
    from functools import partial

    from app.cli import window_opener
    from tests.support.hostdb import damaged_never_opened
    from ui import cli_hooks
    from ui.runtime.first_page import read_first_screen
    from ui.runtime.first_screen import FirstScreen
    from ui.window.app import run_window

    path = tmp_path / "context.db"
    damaged_never_opened(path)
    args = argparse.Namespace(db=str(path), demo=False, read_only=False)
    aside: Future[FirstScreen] = Future()
    with window_opener(args)(first_look=True) as store:
        aside.set_result(read_first_screen(store))
    parents: list[QWidget | None] = []
    asked = _pressed_when_asked(Qt.Key.Key_Escape, parents=parents)
    with pytest.raises(DatabaseOpenError, match="damaged"):
        run_window(window_opener(args), first_screen=aside, again=partial(cli_hooks._ask_again, args))
    assert len(asked) == 1 and isinstance(parents[0], MainWindow)  # over the window, not beside it
