"""The window when its launch's store refuses as it opens, after the first frame: the first frame was read
by a first look, which leaves a never-opened file's pages unchecked, and the store that writes checks
them (a fifth of a second of a large file) once that frame is painted. A damaged file is then refused:
what is shown stays, the banner and the title say why, every change is refused, nothing is written, and
Reopen tries the launch's own store again. The refusal is said once, not once per read."""

from __future__ import annotations

import traceback
from concurrent.futures import Future
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, QTimer
from pytestqt.qtbot import QtBot

from app.core.clock import ManualClock
from app.core.errors import DatabaseOpenError, StoreError
from app.store import MemoryStore
from tests.conftest import REVIEW_TIME
from tests.support.cli_run import digest
from tests.support.hostdb import build_host_db, damaged_never_opened
from tests.ui.window_helpers import settle
from ui.cards.model import ID_ROLE
from ui.dialogs.export_file import export_file
from ui.runtime.controller import Controller
from ui.runtime.first_page import read_first_screen
from ui.runtime.first_screen import FirstScreen, StoreLater
from ui.window.app import refusals_said
from ui.window.main_window import MainWindow
from ui.window.status_line import MessageBar

REFUSED = "at launch; nothing can change until a database opens"


class Launch:
    """A window built as a launch builds it (`ui.window.app.run_window`): its first screen read through a
    first look, its own store opened on the runner's thread after the first frame."""

    def __init__(self, qtbot: QtBot, path: Path, tmp_path: Path) -> None:
        clock = ManualClock(REVIEW_TIME)
        look = MemoryStore.open(path, clock=clock, first_look=True)
        try:
            screen = read_first_screen(look)
            look.confirm_first_look()
        finally:
            look.close()
        self.aside: Future[FirstScreen] = Future()
        self.aside.set_result(screen)
        self.opened: list[MemoryStore] = []
        self.tries = 0

        def open_store() -> MemoryStore:
            self.tries += 1
            self.opened.append(MemoryStore.open(path, clock=clock))
            return self.opened[-1]

        self.controller = Controller(StoreLater(open_store, clock, screen.facts))
        self.errors: list[str] = []
        self.controller.error.connect(self.errors.append)
        settings = QSettings(str(tmp_path / "window.ini"), QSettings.Format.IniFormat)
        self.window = MainWindow(self.controller, settings=settings, watch=False)
        qtbot.addWidget(self.window, before_close_func=self.close)
        self.window.resize(1200, 800)
        self.window.show()
        self.controller.start(self.aside)

    def close(self, _window: MainWindow) -> None:
        self.controller.runner.wait_for_done(10_000)
        for store in self.opened:
            store.close()


def damaged_file(tmp_path: Path) -> tuple[Path, bytes]:
    path = tmp_path / "context.db"
    return path, damaged_never_opened(path)


def wait_refused(qtbot: QtBot, window: MainWindow) -> None:
    banner = window.banner
    qtbot.waitUntil(lambda: banner.isVisible() and REFUSED in banner.label.text(), timeout=10_000)
    settle(qtbot, window)


def test_a_damaged_file_is_refused_after_its_first_frame_and_nothing_changes(
    qtbot: QtBot, tmp_path: Path
) -> None:
    path, _sound = damaged_file(tmp_path)
    launch = Launch(qtbot, path, tmp_path)
    window, controller = launch.window, launch.controller
    before = digest(path)
    wait_refused(qtbot, window)
    assert window.model.rowCount() > 0  # the first frame stays
    assert "damaged" in window.banner.label.text() and "nothing was changed" in window.banner.label.text()
    assert "it could not be opened: changes are refused" in window.windowTitle()
    assert f"What is shown was read from {path} at launch" in window.banner.label.text()
    assert window.banner.action.isVisible() and window.banner.action.text() == "Reopen"
    assert not window.acts.edit.isEnabled() and not window.acts.dismiss.isEnabled()
    controller.load_counts()  # a read after the refusal: refused again, quietly, without a second check
    controller.refresh(force=True)
    settle(qtbot, window)
    assert launch.tries == 1 and launch.errors == [] and not controller.store_open
    first = window.model.memory(window.model.index(0, 0).data(ID_ROLE))
    assert first is not None
    with qtbot.waitSignal(controller.error, timeout=5_000) as refused:
        controller.edit(first, "Prefers yarn")  # what the dialog's Save does
    said = refused.args[0]
    assert "damaged" in said and said.lower().count("nothing was changed") == 1 and ".." not in said
    settle(qtbot, window)
    assert window.banner.label.text() == said  # the refused write is said, and Reopen stays beside it
    assert window.banner.action.isVisible() and window.banner.action.text() == "Reopen"
    assert digest(path) == before and sorted(p.name for p in tmp_path.iterdir() if p.is_file()) == [
        "context.db",
        "window.ini",
    ]


def test_reopen_tries_the_launch_store_again(qtbot: QtBot, tmp_path: Path) -> None:
    path, sound = damaged_file(tmp_path)
    launch = Launch(qtbot, path, tmp_path)
    window, controller = launch.window, launch.controller
    wait_refused(qtbot, window)
    with qtbot.waitSignal(controller.storeRefused, timeout=10_000):
        window.banner.action.click()  # still damaged: said again
    wait_refused(qtbot, window)
    assert launch.tries == 2 and launch.errors == []
    path.write_bytes(sound)  # mended meanwhile
    with qtbot.waitSignal(controller.storeChanged, timeout=10_000):
        window.banner.action.click()
    settle(qtbot, window)
    assert controller.store_open and controller.refused is None and controller.file_problem is None
    assert not window.banner.isVisible() and "changes are refused" not in window.windowTitle()
    assert window.model.rowCount() > 0 and launch.tries == 3


def test_an_action_that_needs_the_refused_store_says_why_in_the_status_bar(
    qtbot: QtBot, tmp_path: Path
) -> None:
    """An action run on the window's thread that needs the store (Export) meets the refusal in a slot:
    said where the person looks, not as a traceback on a terminal nobody reads; nothing is written."""
    path, _sound = damaged_file(tmp_path)
    launch = Launch(qtbot, path, tmp_path)
    wait_refused(qtbot, launch.window)
    out = tmp_path / "memories.json"
    with refusals_said(launch.window):
        QTimer.singleShot(0, lambda: export_file(launch.controller, str(out), "json"))
        bar = launch.window.statusBar()
        assert isinstance(bar, MessageBar)
        qtbot.waitUntil(lambda: "damaged" in bar.full_message, timeout=5_000)
    assert bar.full_message == launch.controller.file_problem and bar.currentMessage()
    assert not out.exists() and launch.tries == 1


def test_a_sound_file_never_opened_opens_after_its_first_frame(qtbot: QtBot, tmp_path: Path) -> None:
    path = build_host_db(tmp_path / "context.db")
    launch = Launch(qtbot, path, tmp_path)
    qtbot.waitUntil(lambda: launch.controller.store_open, timeout=10_000)
    settle(qtbot, launch.window)
    assert not launch.window.banner.isVisible() and launch.errors == [] and launch.tries == 1


def test_a_write_asked_before_the_refusal_is_known_is_refused_in_words(qtbot: QtBot, tmp_path: Path) -> None:
    """Save pressed right after the first paint: whether the refusal is known yet or only met by the write
    on the runner's thread, the person is told, once, that nothing was changed."""
    path, _sound = damaged_file(tmp_path)
    launch = Launch(qtbot, path, tmp_path)
    model = launch.window.model
    qtbot.waitUntil(lambda: model.rowCount() > 0, timeout=10_000)  # the first frame's cards
    first = model.memory(model.index(0, 0).data(ID_ROLE))
    assert first is not None
    launch.controller.edit(first, "Prefers yarn")
    qtbot.waitUntil(lambda: launch.controller.refused is not None and bool(launch.errors), timeout=10_000)
    settle(qtbot, launch.window)
    (said,) = launch.errors
    assert "damaged" in said and said.lower().count("nothing was changed") == 1 and ".." not in said


def test_the_file_changing_under_a_refused_store_opens_nothing_and_says_nothing(
    qtbot: QtBot, tmp_path: Path
) -> None:
    """The host writing the file the window watches (`refresh_if_changed_elsewhere`, on the window's
    thread): nothing to observe through a store that is not open."""
    path, _sound = damaged_file(tmp_path)
    launch = Launch(qtbot, path, tmp_path)
    wait_refused(qtbot, launch.window)
    launch.controller.refresh_if_changed_elsewhere()  # raised the refusal here before
    settle(qtbot, launch.window)
    assert launch.tries == 1 and launch.errors == []


def test_reopen_answered_after_another_database_took_its_place_leaves_that_one(
    qtbot: QtBot, tmp_path: Path
) -> None:
    """File → Open another database, then Reopen on the banner before it has opened: the launch's store is
    refused again, and the database chosen meanwhile stays, neither closed nor said to be refused."""
    path, _sound = damaged_file(tmp_path)
    launch = Launch(qtbot, path, tmp_path)
    window, controller = launch.window, launch.controller
    wait_refused(qtbot, window)
    (tmp_path / "other").mkdir()
    other = build_host_db(tmp_path / "other" / "context.db")
    controller.open_database(other)
    controller.reopen()
    controller.reopen()  # pressed twice: one open at a time
    qtbot.waitUntil(lambda: controller.store_open and not controller.runner.busy, timeout=10_000)
    settle(qtbot, window)
    assert controller.store.location == str(other) and launch.tries == 2
    assert controller.refused is None and controller.file_problem is None and not controller.read_only
    assert not window.banner.isVisible() and "changes are refused" not in window.windowTitle()
    controller.store.close()


def test_a_slot_told_of_the_refusal_may_ask_the_store_again(qtbot: QtBot, tmp_path: Path) -> None:
    """The refusal is said once its open has let go of the store's lock: a slot it reaches on the same
    thread (the window's, asking what it knows of the store) meets the refusal, not a deadlock."""
    clock = ManualClock(REVIEW_TIME)
    missing = tmp_path / "missing.db"
    controller = Controller(StoreLater(lambda: MemoryStore.open(missing, clock=clock), clock))
    met: list[str] = []

    def asks_again(_problem: object) -> None:
        try:
            controller.facts  # noqa: B018 (opens the store: none is known yet)
        except StoreError as refusal:
            met.append(refusal.message)

    controller.fileProblemChanged.connect(asks_again)
    with pytest.raises(DatabaseOpenError, match="does not exist"):
        controller.store  # noqa: B018 (on the window's thread)
    assert len(met) == 1 and "does not exist" in met[0]


def test_the_launch_own_open_tries_again_after_a_refusal(qtbot: QtBot, tmp_path: Path) -> None:
    """Before the window shows, the launch opens its store itself and asks the person after a refusal:
    Try Again and Open Another Database… each open anew, and nothing of the refusal is kept."""
    clock = ManualClock(REVIEW_TIME)
    targets = [tmp_path / "missing.db"]
    controller = Controller(StoreLater(lambda: MemoryStore.open(targets[-1], clock=clock), clock))
    with pytest.raises(DatabaseOpenError):
        controller.open_now()
    targets.append(build_host_db(tmp_path / "context.db"))  # the database chosen instead
    controller.open_now()
    assert controller.store.location == str(targets[-1])
    assert controller.refused is None and controller.file_problem is None and not controller.read_only
    controller.store.close()


def test_tidy_on_a_refused_store_says_why_instead_of_reading_for_ever(qtbot: QtBot, tmp_path: Path) -> None:
    from ui.tidy.dialog import TidyDialog
    from ui.window.menus import show_tidy

    path, _sound = damaged_file(tmp_path)
    launch = Launch(qtbot, path, tmp_path)
    wait_refused(qtbot, launch.window)
    show_tidy(launch.window)
    (dialog,) = launch.window.findChildren(TidyDialog)
    assert dialog.status.text().startswith("Tidy failed:") and "damaged" in dialog.status.text()
    assert not dialog.bar.isVisible() and launch.tries == 1
    dialog.close()


def test_a_refusal_once_kept_is_never_reported_and_its_trace_stays_short(
    qtbot: QtBot, tmp_path: Path
) -> None:
    """A read queued before Reopen succeeded may still meet the refusal after the store opened: never said
    as a new error. Raised again for every read, its traceback does not grow with each."""
    path, sound = damaged_file(tmp_path)
    launch = Launch(qtbot, path, tmp_path)
    controller = launch.controller
    wait_refused(qtbot, launch.window)
    refusal = controller.refused
    assert refusal is not None
    for _ in range(50):
        with pytest.raises(StoreError) as met:
            controller.store  # noqa: B018 (every read meets it)
    assert met.value is refusal and len(traceback.extract_tb(met.value.__traceback__)) < 5
    path.write_bytes(sound)
    with qtbot.waitSignal(controller.storeChanged, timeout=10_000):
        controller.reopen()
    settle(qtbot, launch.window)
    controller.report(refusal)  # what that late read's failure does
    assert launch.errors == [] and controller.refused is None
