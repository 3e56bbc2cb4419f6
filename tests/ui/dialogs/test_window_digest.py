"""The digest in the window: shown on open after an outside rewrite, on demand, each change opening its card,
"Mark all as seen" moving the watermark; cards changed since the last look marked across windows; File →
Import… merging an export."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QMessageBox
from pytestqt.qtbot import QtBot

from app.cli import main
from app.core.clock import ManualClock
from app.core.models.imports import ImportResult
from app.store import MemoryStore
from tests.conftest import REVIEW_TIME
from tests.support.hostdb import HOUR, host_sql, memory_row, query
from tests.ui.window_helpers import make_window, settle
from ui.cards.model import HIGHLIGHT_ROLE
from ui.dialogs.digest import DigestDialog
from ui.dialogs.import_file import import_file
from ui.window.main_window import MainWindow


def marked(window: MainWindow, memory_id: int) -> bool:
    row = window.model.row_of(memory_id)
    return row is not None and bool(window.model.index(row, 0).data(HIGHLIGHT_ROLE))


def menu_actions(window: MainWindow, title: str) -> list[QAction]:
    menu = next(a.menu() for a in window.menuBar().actions() if a.text() == title)
    assert isinstance(menu, QMenu)
    return menu.actions()


def looked_then_rewritten(host_db: Path) -> None:
    """A look, then the host rewrites #4 while nothing has the file open."""
    store = MemoryStore.open(host_db, clock=ManualClock(REVIEW_TIME))
    store.observe()
    store.mark_seen()
    store.close()
    host_sql(
        host_db,
        "UPDATE user_memories SET content = 'Lives in Paris', updated_at = ? WHERE id = 4",
        (REVIEW_TIME + HOUR,),
    )


def shown_digest(qtbot: QtBot, window: MainWindow) -> DigestDialog:
    qtbot.waitUntil(lambda: getattr(window, "digest_dialog", None) is not None, timeout=10_000)
    dialog: DigestDialog = window.digest_dialog
    qtbot.waitUntil(dialog.isVisible, timeout=10_000)
    return dialog


def test_the_digest_opens_with_the_outside_rewrite_and_opens_its_card(
    qtbot: QtBot, host_db: Path, tmp_path: Path
) -> None:
    looked_then_rewritten(host_db)
    store = MemoryStore.open(host_db, clock=ManualClock(REVIEW_TIME + 2 * HOUR))
    window = make_window(qtbot, store, tmp_path)
    window.looks.check_on_open()
    dialog = shown_digest(qtbot, window)
    assert dialog.header.text().startswith(
        "Since you last looked (2026-10-21 03:13:32 UTC, 2h ago): 1 rewritten"
    )
    group = dialog.tree.topLevelItem(0)
    assert group is not None and group.text(0) == "Another process (seen from outside) (1)"
    child = group.child(0)
    assert child is not None and child.text(0).startswith("#4 rewritten · 1h ago · Lives in Paris")
    qtbot.waitUntil(lambda: "Paris" in dialog.diff.text() and "Berlin" in dialog.diff.text(), timeout=10_000)
    qtbot.waitUntil(lambda: marked(window, 4), timeout=10_000)
    assert not marked(window, 5)
    dialog.open_button.click()
    qtbot.waitUntil(lambda: (window.selected_memory() or store.get(1)).id == 4, timeout=10_000)
    dialog.seen_button.click()
    qtbot.waitUntil(lambda: not marked(window, 4), timeout=10_000)
    settle(qtbot, window)
    mark = store.watermark()
    assert mark is not None and mark == dialog.digest.upto
    assert not store.digest()


def test_a_change_the_filter_hides_opens_under_all(qtbot: QtBot, host_db: Path, tmp_path: Path) -> None:
    store = MemoryStore.open(host_db, clock=ManualClock(REVIEW_TIME))
    store.observe()
    store.mark_seen()
    store.dismiss(1)
    window = make_window(qtbot, store, tmp_path)
    assert window.filters.current().status == "active" and window.model.row_of(1) is None
    window.acts.digest.trigger()
    dialog = shown_digest(qtbot, window)
    assert dialog.selected_change() is not None and dialog.selected_change().memory_id == 1  # type: ignore[union-attr]
    dialog.open_selected()
    qtbot.waitUntil(lambda: (window.selected_memory() or store.get(5)).id == 1, timeout=10_000)
    assert window.filters.current().status == "all"
    settle(qtbot, window)


def test_the_marker_outlives_the_window_until_seen(qtbot: QtBot, host_db: Path, tmp_path: Path) -> None:
    looked_then_rewritten(host_db)
    for _ in range(2):  # two windows, one after the other: the marker comes from the stored watermark
        store = MemoryStore.open(host_db, clock=ManualClock(REVIEW_TIME + 2 * HOUR))
        window = make_window(qtbot, store, tmp_path)
        qtbot.waitUntil(lambda w=window: marked(w, 4), timeout=10_000)  # type: ignore[misc]
        window.close()
        settle(qtbot, window)
        store.close()


def test_a_first_open_records_the_look_and_shows_nothing(qtbot: QtBot, host_db: Path, tmp_path: Path) -> None:
    store = MemoryStore.open(host_db, clock=ManualClock(REVIEW_TIME))
    window = make_window(qtbot, store, tmp_path)
    window.looks.check_on_open()
    qtbot.waitUntil(lambda: store.watermark() is not None, timeout=10_000)
    settle(qtbot, window)
    assert getattr(window, "digest_dialog", None) is None


def test_on_demand_from_the_view_menu_and_its_key(qtbot: QtBot, host_db: Path, tmp_path: Path) -> None:
    store = MemoryStore.open(host_db, clock=ManualClock(REVIEW_TIME))
    store.observe()
    store.mark_seen()
    window = make_window(qtbot, store, tmp_path)
    assert window.acts.digest.shortcut().toString() == "Ctrl+Shift+L"
    assert window.acts.digest in menu_actions(window, "&View")
    window.acts.digest.trigger()
    dialog = shown_digest(qtbot, window)
    assert dialog.header.text().endswith("nothing changed.")
    assert not dialog.seen_button.isEnabled()
    dialog.close()


def test_a_read_only_window_marks_seen_in_memory_only(qtbot: QtBot, host_db: Path, tmp_path: Path) -> None:
    looked_then_rewritten(host_db)
    before = query(host_db, "SELECT key, value FROM mdash_meta ORDER BY key")
    store = MemoryStore.open(host_db, clock=ManualClock(REVIEW_TIME + 2 * HOUR), read_only=True)
    window = make_window(qtbot, store, tmp_path)
    window.looks.check_on_open()
    dialog = shown_digest(qtbot, window)
    qtbot.waitUntil(lambda: marked(window, 4), timeout=10_000)
    dialog.seen_button.click()
    qtbot.waitUntil(lambda: not marked(window, 4), timeout=10_000)
    settle(qtbot, window)
    assert query(host_db, "SELECT key, value FROM mdash_meta ORDER BY key") == before


def test_file_import_merges_an_export(qtbot: QtBot, host_db: Path, tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    assert main(["--db", str(other), "init"]) == 0
    conn = sqlite3.connect(other)
    memory_row(conn, 1, "Likes dark themes", promoted_at=REVIEW_TIME)
    conn.commit()
    conn.close()
    exported = tmp_path / "export.json"
    assert main(["--db", str(other), "export", "-o", str(exported)]) == 0
    assert json.loads(exported.read_text(encoding="utf-8"))["memories"][0]["content"] == "Likes dark themes"
    store = MemoryStore.open(host_db, clock=ManualClock(REVIEW_TIME))
    window = make_window(qtbot, store, tmp_path)
    assert window.acts.import_file in menu_actions(window, "&File")
    results: list[ImportResult] = []
    import_file(window.controller, str(exported), window, results.append)
    qtbot.waitUntil(lambda: bool(results), timeout=10_000)
    new_id = results[0].imported[0].memory_id
    qtbot.waitUntil(lambda: window.model.row_of(new_id) is not None, timeout=10_000)
    boxes = [w for w in window.findChildren(QMessageBox) if w.isVisible()]
    assert boxes and boxes[0].text().startswith("imported 1 memory, skipped 0")
    boxes[0].close()
    settle(qtbot, window)
