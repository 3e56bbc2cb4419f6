"""The window's Blame tab and its view of the past (As of…), on a real file and on PostgreSQL, by keys."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hostdb import HOUR
from pg_host import HostDb
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QTreeWidget, QTreeWidgetItem
from pytestqt.qtbot import QtBot
from window_helpers import make_window, select, settle

from app.core.clock import ManualClock
from app.core.models import RevisionSource
from app.store import MemoryStore
from ui.history.as_of_view import AsOfView
from ui.history.blame_view import ORIGIN_ROLE
from ui.window.main_window import MainWindow

SHOTS = os.environ.get("MDASH_TEST_SHOTS")  # a folder: save what the tests looked at, to look at it too


def shoot(widget: object, name: str) -> None:
    if SHOTS:
        widget.grab().save(str(Path(SHOTS) / f"{name}.png"))  # type: ignore[attr-defined]


def row(tree: QTreeWidget, number: int) -> QTreeWidgetItem:
    item = tree.topLevelItem(number)
    assert item is not None
    return item


def edited_store(target: str, clock: ManualClock) -> MemoryStore:
    store = MemoryStore.open(target, clock=clock)
    store.list_ids()
    clock.advance(HOUR)
    store.edit(4, "Lives in Berlin (CET)\nWorks remotely.")
    clock.advance(HOUR)
    store.update_content(
        4, "Lives in Berlin (CET)\nWorks remotely.\nRuns pytest -q.", [151], run_id="run-5", source="review"
    )
    clock.advance(HOUR)
    return store


@pytest.fixture
def window(qtbot: QtBot, seeded_host: HostDb, clock: ManualClock, tmp_path: Path) -> MainWindow:
    """The window on `edited_store` (a host-shaped file, or PostgreSQL), #4 selected."""
    shown = make_window(qtbot, edited_store(seeded_host.target, clock), tmp_path)
    select(qtbot, shown, 4)
    return shown


def test_ctrl_b_shows_blame_and_enter_selects_the_revision(qtbot: QtBot, window: MainWindow) -> None:
    store = window.controller.store
    window.list.setFocus()
    qtbot.keyClick(window.list, Qt.Key.Key_B, Qt.KeyboardModifier.ControlModifier)
    blame = window.panel.blame
    assert window.panel.history_tabs.currentWidget() is blame
    qtbot.waitUntil(lambda: blame.memory_id == 4 and blame.topLevelItemCount() == 3, timeout=10_000)
    history = store.history(4)
    edit_rev, review_rev = history[-2], history[-1]
    assert blame.revision_ids() == [None, edit_rev.id, review_rev.id]
    last = blame.topLevelItem(2)
    assert last is not None
    assert last.text(2) == "review run run-5" and last.text(3) == "Runs pytest -q."
    assert last.text(4) == '#151 "Runs tests with pytest -q before commit…"'
    assert "#151 [session ses_e004]" in last.toolTip(3) and row(blame, 1).text(4) == ""
    assert row(blame, 0).text(2) == "as first seen" and "as first seen on 2026-10-21" in row(
        blame, 0
    ).toolTip(2)
    shoot(window, "blame")
    blame.setFocus()
    blame.setCurrentItem(row(blame, 1))
    qtbot.keyClick(blame, Qt.Key.Key_Return)
    assert window.panel.history_tabs.currentWidget() is window.panel.revisions
    current = window.panel.revisions.current_revision()
    assert current is not None and current.id == edit_rev.id and current.source == RevisionSource.DASHBOARD
    assert row(blame, 1).data(0, ORIGIN_ROLE) == edit_rev.id


def test_blame_follows_the_selection_and_a_new_write(qtbot: QtBot, window: MainWindow) -> None:
    window.panel.show_blame()
    blame = window.panel.blame
    qtbot.waitUntil(lambda: blame.memory_id == 4, timeout=10_000)
    select(qtbot, window, 5)
    qtbot.waitUntil(lambda: blame.memory_id == 5, timeout=10_000)
    assert blame.revision_ids() == [None]  # as first seen
    shown = window.selected_memory()
    assert shown is not None
    window.controller.edit(shown, "Prefers pnpm. Never yarn.")
    qtbot.waitUntil(lambda: len(blame.revision_ids()) == 2, timeout=10_000)
    settle(qtbot, window)


def test_as_of_shows_the_past_read_only_until_esc(
    qtbot: QtBot, window: MainWindow, clock: ManualClock
) -> None:
    assert window.acts.edit.isEnabled()
    before_review = clock.now_ms() - HOUR - 1
    with qtbot.waitSignal(window.controller.asOfLoaded, timeout=10_000):
        window.controller.load_as_of(before_review)
    view = window.as_of_view
    assert isinstance(view, AsOfView) and window.looking_back
    states = {state.memory_id: state for state in view.states()}
    assert states[4].content == "Lives in Berlin (CET)\nWorks remotely."
    assert "As of 2026-10-21 05:13:31 UTC" in view.banner.label.text()
    assert "Read-only" in view.banner.label.text()
    assert not any(action.isEnabled() for action in window.acts.writers)
    view.list.setCurrentItem(row(view.list, 3))
    assert "Works remotely." in view.detail.toPlainText()
    shoot(window, "as_of")
    qtbot.keyClick(view.list, Qt.Key.Key_Escape)
    assert not window.looking_back
    assert window.acts.edit.isEnabled()


def test_as_of_before_the_first_look_says_unknown(
    qtbot: QtBot, window: MainWindow, clock: ManualClock
) -> None:
    with qtbot.waitSignal(window.controller.asOfLoaded, timeout=10_000):
        window.controller.load_as_of(clock.now_ms() - 100 * HOUR)
    view = window.as_of_view
    assert {state.known for state in view.states()} == {False}
    first = view.list.topLevelItem(0)
    assert first is not None and first.text(1) == "unknown"
    assert first.text(2).startswith("unknown before 2026-10-21 03:13:32 UTC")
    view.banner.button.click()
    assert not window.looking_back
