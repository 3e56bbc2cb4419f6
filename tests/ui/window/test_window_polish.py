"""The window's everyday polish: expiry as people read it (and its exact date in the panel), compartment
ranges, candidates counted by origin, a memory rewritten before the dashboard saw it, the status bar's
"other" and long messages, Preferences (and Run review without a reviewer), Help → Keyboard shortcuts."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu, QTableWidget
from pytestqt.qtbot import QtBot

from app.core.clock import format_instant
from app.core.models import Counts
from app.core.settings import load_settings, settings_path
from app.store import MemoryStore
from tests.support.hostdb import DAY, PROMOTED_5, host_sql
from tests.ui.window_helpers import make_window, select, settle
from ui.dialogs.shortcuts import action_keys, window_shortcuts
from ui.window.status_line import counts_text


def cell(table: QTableWidget, row: int, column: int) -> str:
    item = table.item(row, column)
    assert item is not None
    return item.text()


def test_panel_header_has_the_exact_expiry_and_compartments_read_whole(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path
) -> None:
    store.set_expiry(5, store.now() + 7 * DAY - 60_000)  # "in 7 days", a minute ago
    window = make_window(qtbot, store, tmp_path)
    select(qtbot, window, 5)
    meta = window.panel.meta.text()
    assert "expires 2026-10-28 03:12:32 UTC (in 7d)" in meta
    provenance = window.panel.provenance
    assert [cell(provenance, row, 2) for row in range(3)] == ["4–9", "10–12", "from 2"]
    settle(qtbot, window)


def test_a_memory_rewritten_before_the_dashboard_saw_it_says_so(
    qtbot: QtBot, host_db: Path, store: MemoryStore, tmp_path: Path
) -> None:
    updated = PROMOTED_5 + 3 * DAY
    host_sql(
        host_db,
        "INSERT INTO user_memories (id, content, status, promoted_at, source_candidate_ids,"
        " source_candidate_provenance, created_at, updated_at) VALUES (9, 'Rewritten long ago', 'active',"
        " ?, '[]', '[]', ?, ?)",
        (PROMOTED_5, PROMOTED_5, updated),
    )
    window = make_window(qtbot, store, tmp_path)
    select(qtbot, window, 9)
    qtbot.waitUntil(lambda: window.panel.revision_summary.text() != "", timeout=10_000)
    text = window.panel.revision_summary.text()
    first_seen = format_instant(store.now())  # the window's first listing read it (the clock stands still)
    assert text.startswith(
        f"Updated on 2026-09-30 14:58:00 UTC, before the dashboard first saw it on {first_seen}: "
    )
    assert "as it was promoted" not in text
    select(qtbot, window, 4)  # never rewritten: as promoted
    qtbot.waitUntil(lambda: "as it was promoted" in window.panel.revision_summary.text(), timeout=10_000)
    settle(qtbot, window)


def test_the_status_bar_explains_other_and_never_runs_a_message_into_its_counts(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path
) -> None:
    counts = Counts(active=3, dismissed=1, other=2, expired=0, candidates=6)
    assert counts_text(counts) == "3 active · 1 dismissed · 2 other status · 6 candidates"
    window = make_window(qtbot, store, tmp_path)
    assert "other status: a status the host does not know" in window.status.counts.toolTip()
    bar = window.statusBar()
    long_message = "Review run-7: " + " ".join(f"updated #{n}" for n in range(120))
    bar.showMessage(long_message, 10_000)
    shown = bar.currentMessage()
    assert shown.endswith("…") and len(shown) < len(long_message)
    assert bar.fontMetrics().horizontalAdvance(shown) <= window.status.counts.x()
    assert "updated #119" in bar.toolTip()
    bar.showMessage("Saved #5", 10_000)
    assert bar.currentMessage() == "Saved #5" and bar.toolTip() == ""
    settle(qtbot, window)


def test_run_review_without_a_reviewer_opens_preferences_which_saves_and_runs_it(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path
) -> None:
    window = make_window(qtbot, store, tmp_path)
    assert "none is set yet: opens Preferences" in window.acts.run_review.toolTip()
    window.acts.run_review.trigger()
    dialog = window.commands.preferences_dialog
    assert dialog is not None and dialog.isVisible()
    assert window.commands.progress is None  # nothing ran
    assert "needs a reviewer command" in dialog.reason.text()
    dialog.command.setText("bad\0command")
    assert not dialog.save_button.isEnabled() and "NUL" in dialog.problem.text()
    script = tmp_path / "reviewer.py"
    verdict: dict[str, list[object]] = {
        "promote": [],
        "update_existing": [],
        "dismiss_existing": [],
        "consume_candidate_ids": [],
    }
    script.write_text(f"import sys; sys.stdin.read(); print({json.dumps(json.dumps(verdict))})")
    dialog.command.setText(f"{sys.executable} {script}")
    dialog.timeout.setValue(120)
    with qtbot.waitSignal(window.review.reviewFinished, timeout=20_000):
        dialog.save_button.click()
    saved = load_settings(settings_path())
    assert saved.reviewer_command == f"{sys.executable} {script}" and saved.reviewer_timeout_s == 120
    assert f"Run the reviewer ({sys.executable}" in window.acts.run_review.toolTip()
    settle(qtbot, window)


def test_preferences_is_in_the_edit_menu_with_the_standard_key(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path
) -> None:
    window = make_window(qtbot, store, tmp_path)
    menus = {action.text(): action.menu() for action in window.menuBar().actions()}
    edit_menu = menus["&Edit"]
    assert isinstance(edit_menu, QMenu) and window.acts.preferences in edit_menu.actions()
    assert QKeySequence("Ctrl+,") in window.acts.preferences.shortcuts()
    qtbot.keyClick(window, Qt.Key.Key_Comma, Qt.KeyboardModifier.ControlModifier)
    dialog = window.commands.preferences_dialog
    assert dialog is not None and dialog.isVisible() and dialog.reason.isHidden()
    dialog.reject()
    settle(qtbot, window)


def test_keyboard_shortcuts_lists_every_key_of_the_windows_actions(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path
) -> None:
    window = make_window(qtbot, store, tmp_path)
    qtbot.keyClick(window, Qt.Key.Key_F1)
    dialog = window.commands.shortcuts_dialog
    assert dialog is not None and dialog.isVisible()
    listed = {row.action for row in dialog.rows if row.action is not None}
    with_keys = {a for a in window.findChildren(QAction) if a.shortcuts() and a.parent() is not None}
    inside = {a for a in with_keys if a.parent() is window or window.isAncestorOf(a.parent())}  # type: ignore[arg-type]
    assert listed == inside == set(window_shortcuts(window))
    for attribute in ("edit", "dismiss", "delete", "undo", "find", "preferences", "shortcuts", "next"):
        action = getattr(window.acts, attribute)
        assert action in listed
    table = dialog.table
    rows = {cell(table, r, 1): (cell(table, r, 0), cell(table, r, 2)) for r in range(table.rowCount())}
    assert rows["Delete"] == (action_keys(window.acts.delete), "in Memory cards")
    assert rows["Next change"][0] == "F7" and rows["Next change"][1] == "anywhere"
    assert rows["Review queue"] == ("Ctrl+Shift+R", "anywhere")  # without the count it shows
    assert rows["Preferences"][0].startswith("Ctrl+,") or "Ctrl+," in rows["Preferences"][0]
    assert "Tab · Shift+Tab" in [cell(table, r, 0) for r in range(table.rowCount())]
    assert "Ctrl+Enter · Ctrl+S · Esc" in [cell(table, r, 0) for r in range(table.rowCount())]
    assert rows["Delete"][0] == "Del"  # not the platform's Delete, which on X11 is also Dismiss's Ctrl+D
    assert "Ctrl+Enter · Enter" in [cell(table, r, 0) for r in range(table.rowCount())]  # the queue's
    assert table.rowCount() == len(listed) + 3
    dialog.reject()
    settle(qtbot, window)


def test_the_expiring_expired_filter_lists_every_memory_with_an_expiry_in_order(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path
) -> None:
    """The filter is one store query (`expiring_or_expired`): an expiring memory and one already expired
    (dismissed by it), newest promoted first as in every listing; the others are not listed."""
    store.set_expiry(4, PROMOTED_5 + 400 * DAY)  # in the future of the test clock
    store.set_expiry(3, PROMOTED_5 - DAY)  # passed: dismissed at once
    window = make_window(qtbot, store, tmp_path)
    settle(qtbot, window)
    window.filters.status.setCurrentIndex(window.filters.status.findText("Expiring/Expired"))
    qtbot.waitUntil(lambda: list(window.model.ids) == [4, 3], timeout=10_000)
    settle(qtbot, window)
