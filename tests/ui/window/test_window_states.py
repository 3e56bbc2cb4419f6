"""Window states: live refresh after an outside write, read-only, the welcome state, expiry, screenshots."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

from PySide6.QtCore import QSettings, QSize, Qt
from PySide6.QtGui import QImage
from pytestqt.qtbot import QtBot

from app.core.clock import ManualClock
from app.present.timefmt import DAY_MS
from app.store import MemoryStore
from tests.conftest import REVIEW_TIME
from tests.support.hostdb import HOUR, T0, build_host_db, host_sql, memory_row
from tests.ui.window_helpers import card_content, make_window, reopened, saved_window, select, settle
from ui.dialogs.expiry import NEVER
from ui.runtime.controller import Controller
from ui.window.main_window import MainWindow
from ui.window.state import DEFAULT_SIZE, default_size


def test_live_refresh_after_an_outside_write_keeps_the_selection(
    qtbot: QtBot, store: MemoryStore, host_db: Path, tmp_path: Path
) -> None:
    window = make_window(qtbot, store, tmp_path, watch=True)
    select(qtbot, window, 4)
    host_sql(
        host_db,
        "UPDATE user_memories SET content = 'Lives in Hamburg (CET)', updated_at = ? WHERE id = 4",
        (REVIEW_TIME,),
    )
    qtbot.waitUntil(lambda: card_content(window, 4) == "Lives in Hamburg (CET)", timeout=15_000)
    selected = window.selected_memory()
    assert selected is not None and selected.id == 4
    qtbot.waitUntil(lambda: window.panel.content.toPlainText() == "Lives in Hamburg (CET)", timeout=10_000)
    qtbot.waitUntil(
        lambda: any(
            (item := window.panel.revisions.topLevelItem(i)) is not None and item.text(2) == "observed"
            for i in range(window.panel.revisions.topLevelItemCount())
        ),
        timeout=10_000,
    )
    host_sql(
        host_db,
        "INSERT INTO user_memories (id, content, status, promoted_at, source_candidate_ids,"
        " source_candidate_provenance, created_at, updated_at) VALUES (9, 'New from host', 'active', ?, '[]',"
        " NULL, ?, ?)",
        (REVIEW_TIME, REVIEW_TIME, REVIEW_TIME),
    )
    qtbot.waitUntil(lambda: window.model.row_of(9) == 0, timeout=15_000)
    assert window.selected_memory() is not None and window.selected_memory().id == 4  # type: ignore[union-attr]
    settle(qtbot, window)


def test_read_only_store_disables_writers_with_a_reason(qtbot: QtBot, host_db: Path, tmp_path: Path) -> None:
    store = MemoryStore.open(host_db, read_only=True, clock=ManualClock(REVIEW_TIME))
    try:
        window = make_window(qtbot, store, tmp_path)
        select(qtbot, window, 5)
        for action in (window.acts.edit, window.acts.delete, window.acts.dismiss, window.acts.run_review):
            assert not action.isEnabled()
            assert action.toolTip().startswith("Read-only:")
        assert window.status.read_only.isVisibleTo(window)
        assert not window.panel.restore_button.isEnabled()
        settle(qtbot, window)
        window.close()
    finally:
        store.close()


def test_welcome_state_when_the_database_has_no_memories(qtbot: QtBot, tmp_path: Path) -> None:
    path = build_host_db(tmp_path / "empty.db", seed=False)
    store = MemoryStore.open(path, clock=ManualClock(REVIEW_TIME))
    try:
        window = make_window(qtbot, store, tmp_path)
        qtbot.waitUntil(lambda: window.pages.currentIndex() == 1)
        assert str(path) in window.welcome.location.text()
        assert window.welcome.demo_button.isEnabled() and window.welcome.open_button.isEnabled()
        settle(qtbot, window)
        window.close()
    finally:
        store.close()


def test_set_expiry_then_reactivating_an_expired_memory_asks_for_a_new_one(
    qtbot: QtBot, host_db: Path, tmp_path: Path
) -> None:
    clock = ManualClock(REVIEW_TIME)
    store = MemoryStore.open(host_db, clock=clock)
    try:
        window = make_window(qtbot, store, tmp_path)
        select(qtbot, window, 4)
        window.acts.expiry.trigger()
        dialog = window.commands.expiry_dialog
        assert dialog is not None
        dialog.select(1)  # in 1 day
        dialog.accept()
        qtbot.waitUntil(lambda: (m := window.model.memory(4)) is not None and m.expires_at is not None)
        clock.advance(2 * DAY_MS)
        window.filters.set_status("all")
        window.controller.sweep()
        qtbot.waitUntil(
            lambda: (m := window.model.memory(4)) is not None and m.status == "dismissed", timeout=10_000
        )
        select(qtbot, window, 4)
        window.acts.reactivate.trigger()
        dialog = window.commands.expiry_dialog
        assert dialog is not None and dialog.windowTitle() == "Reactivate memory #4"
        dialog.select(NEVER)
        dialog.accept()
        qtbot.waitUntil(
            lambda: (m := window.model.memory(4)) is not None and m.status == "active", timeout=10_000
        )
        memory = window.model.memory(4)
        assert memory is not None and memory.expires_at is None
        settle(qtbot, window)
        window.close()
    finally:
        store.close()


def test_screenshot_renders_light_and_dark(store: MemoryStore, tmp_path: Path) -> None:
    from ui.window.app import screenshot

    for theme in ("light", "dark"):
        out = tmp_path / f"{theme}.png"
        screenshot(store, out, select=5, size=(1000, 700), theme=theme)
        image = QImage(str(out))
        assert image.width() == 1000 and image.height() == 700
        corner = image.pixelColor(5, image.height() // 2).lightness()
        assert (corner < 128) == (theme == "dark")
    from PySide6.QtWidgets import QApplication

    from ui.widgets.theme import apply_theme

    app = QApplication.instance()
    assert isinstance(app, QApplication)
    apply_theme(app, "light")


def test_cli_screenshot_and_smoke_run(host_db: Path, tmp_path: Path) -> None:
    out = tmp_path / "shot.png"
    base = [sys.executable, "-m", "ui", "--db", str(host_db)]
    done = subprocess.run(
        [*base, "screenshot", str(out), "--select", "5", "--size", "900x600", "--theme", "dark"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert QImage(str(out)).width() == 900
    smoke = subprocess.run([*base, "--smoke"], capture_output=True, text=True, timeout=120)
    assert smoke.returncode == 0, smoke.stderr


def test_untrusted_content_is_plain_text_with_hidden_characters_visible(
    qtbot: QtBot, store: MemoryStore, host_db: Path, tmp_path: Path
) -> None:
    host_sql(
        host_db,
        "UPDATE user_memories SET content = ?, updated_at = ? WHERE id = 4",
        ("<b>Lives</b> in\u200b Berlin <img src=x>", REVIEW_TIME),
    )
    window = make_window(qtbot, store, tmp_path)
    select(qtbot, window, 4)
    row = window.model.row_of(4)
    assert row is not None
    assert window.model.data(window.model.index(row, 0)) == "<b>Lives</b> in⟦U+200B⟧ Berlin <img src=x>"
    panel = window.panel
    assert panel.content.toPlainText() == "<b>Lives</b> in⟦U+200B⟧ Berlin <img src=x>"
    assert panel.warning.isVisibleTo(panel) and "U+200B" in panel.warning.text()
    for label in (panel.title, panel.meta, panel.warning, panel.sources, panel.revision_summary):
        assert label.textFormat() == Qt.TextFormat.PlainText
    settle(qtbot, window)


def test_geometry_and_splitter_state_persist(qtbot: QtBot, store: MemoryStore, tmp_path: Path) -> None:
    window = make_window(qtbot, store, tmp_path)
    window.splitter.setSizes([300, 900])
    sizes = window.splitter.sizes()
    window.save_state()
    settle(qtbot, window)
    again = make_window(qtbot, store, tmp_path)
    assert again.splitter.sizes() == sizes
    settle(qtbot, again)


def test_a_first_launch_fits_the_screen(qtbot: QtBot, store: MemoryStore, tmp_path: Path) -> None:
    """Nothing saved yet: the window takes its default size, or less on a smaller screen (the offscreen
    platform's is 800x800), never a window wider or taller than the screen, cut off at its edge."""
    settings = QSettings(str(tmp_path / "first.ini"), QSettings.Format.IniFormat)
    window = MainWindow(Controller(store), settings=settings, watch=False)
    qtbot.addWidget(window, before_close_func=lambda w: w.controller.runner.wait_for_done(10_000))
    free = window.screen().availableGeometry()
    assert free.width() < DEFAULT_SIZE.width()
    assert 0 < window.width() <= free.width() and 0 < window.height() <= free.height()
    small = default_size(QSize(1024, 700))
    assert small.width() <= 1024 and small.height() <= 700
    assert default_size(QSize(2560, 1400)) == DEFAULT_SIZE


def test_a_saved_window_too_big_for_the_screen_comes_back_at_the_first_launchs_size(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path
) -> None:
    """Saved on a bigger screen than this one (the offscreen platform's is 800x800): the size a first
    launch takes on this screen, not Qt's own shrink; its panels' split and its toolbar as saved."""
    settings = saved_window(qtbot, store, tmp_path, QSize(1200, 900))
    window = reopened(qtbot, store, settings)
    free = window.screen().availableGeometry().size()
    assert window.size() == default_size(free) != QSize(1200, 900)
    assert window.splitter.saveState() == settings.value("window/splitter")
    assert window.toolbar.isHidden()


def test_a_saved_window_that_fits_the_screen_comes_back_as_saved(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path
) -> None:
    settings = saved_window(qtbot, store, tmp_path, QSize(700, 600))
    window = reopened(qtbot, store, settings)
    assert window.size() == QSize(700, 600)
    assert window.toolbar.isHidden()


def test_a_selected_card_not_read_yet_is_said_in_the_panel(qtbot: QtBot, tmp_path: Path) -> None:
    """A jump far down the list (End at launch) selects a card whose row is still being read: the panel
    says it is reading that memory, never "Select a memory" while a card is selected."""
    path = build_host_db(tmp_path / "many.db", seed=False)
    with sqlite3.connect(path) as conn:
        for memory_id in range(1, 451):  # the last page of 200 is read when wanted
            memory_row(conn, memory_id, f"Memory number {memory_id}", promoted_at=T0 + memory_id * HOUR)
    conn.close()
    store = MemoryStore.open(path, clock=ManualClock(REVIEW_TIME))
    try:
        window = make_window(qtbot, store, tmp_path)
        last = window.model.rowCount() - 1
        memory_id = list(window.model.ids)[last]
        assert window.model.memory(memory_id) is None  # not read: far below the first screen
        gate = threading.Event()
        window.controller.runner.submit(lambda: gate.wait(10), lambda _ok: None, window.controller.report)
        try:  # the row's read waits behind the store thread's work
            window.list.setCurrentIndex(window.model.index(last, 0))
            qtbot.waitUntil(lambda: window.panel.empty.isVisible())
            assert window.panel.empty.text() == f"Reading memory #{memory_id}…"
        finally:
            gate.set()
        qtbot.waitUntil(lambda: window.panel.memory is not None and window.panel.memory.id == memory_id)
        assert window.panel.title.text() == f"Memory #{memory_id}"
        settle(qtbot, window)
    finally:
        store.close()


def test_an_error_is_a_message_in_the_banner(
    qtbot: QtBot, store: MemoryStore, host_db: Path, tmp_path: Path
) -> None:
    window = make_window(qtbot, store, tmp_path)
    select(qtbot, window, 4)
    host_sql(host_db, "DELETE FROM user_memories WHERE id = 4")
    window.acts.dismiss.trigger()
    qtbot.waitUntil(lambda: window.banner.isVisible(), timeout=10_000)
    assert "#4" in window.banner.label.text() and "Traceback" not in window.banner.label.text()
    settle(qtbot, window)


def test_expiring_filter_and_opening_another_database(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path
) -> None:
    store.set_expiry(1, REVIEW_TIME + 3 * DAY_MS)
    window = make_window(qtbot, store, tmp_path)
    window.filters.set_status("expiring_or_expired")
    qtbot.waitUntil(lambda: list(window.model.ids) == [1], timeout=10_000)
    select(qtbot, window, 1)
    other = build_host_db(tmp_path / "other.db", seed=False)
    with qtbot.waitSignal(window.controller.storeChanged, timeout=10_000):
        window.controller.open_database(other)
    qtbot.waitUntil(lambda: window.pages.currentIndex() == 1, timeout=10_000)
    assert window.status.path.text().endswith("other.db")
    assert window.model.rowCount() == 0 and window.controller.undo_label == ""
    settle(qtbot, window)
    window.controller.store.close()


def test_switching_light_to_dark_retints_the_labels(qtbot: QtBot, store: MemoryStore, tmp_path: Path) -> None:
    from PySide6.QtGui import QPalette
    from PySide6.QtWidgets import QApplication

    from ui.widgets.theme import apply_theme

    app = QApplication.instance()
    assert isinstance(app, QApplication)
    apply_theme(app, "light")
    window = make_window(qtbot, store, tmp_path)
    select(qtbot, window, 5)
    role = QPalette.ColorRole.WindowText
    try:
        apply_theme(app, "dark")
        qtbot.waitUntil(lambda: window.panel.meta.palette().color(role).lightness() > 128)
        assert window.list_header.palette().color(role).lightness() > 128
    finally:
        apply_theme(app, "light")
    settle(qtbot, window)


def test_own_writes_are_not_reloaded_again_by_the_file_watcher(
    qtbot: QtBot, store: MemoryStore, host_db: Path, tmp_path: Path
) -> None:
    window = make_window(qtbot, store, tmp_path, watch=True)
    select(qtbot, window, 4)
    listings: list[object] = []
    window.controller.memoriesLoaded.connect(listings.append)
    window.controller.write(lambda s: s.edit(1, "Edited in the window"), lambda _memory: None)
    qtbot.waitUntil(lambda: len(listings) == 1, timeout=10_000)  # the write's own refresh
    # The file did change, but nobody else committed: what the watcher calls on a change reloads nothing.
    window.controller.refresh_if_changed_elsewhere()
    settle(qtbot, window)  # its check and anything it started have delivered their results
    assert len(listings) == 1
    host_sql(
        host_db,
        "UPDATE user_memories SET content = 'Host: Hamburg', updated_at = ? WHERE id = 4",
        (REVIEW_TIME,),
    )
    qtbot.waitUntil(lambda: card_content(window, 4) == "Host: Hamburg", timeout=15_000)
    qtbot.waitUntil(lambda: len(listings) >= 2, timeout=15_000)  # the listing follows the card
    settle(qtbot, window)
