"""The window's Blame tab on a real file, driven by keys (its view of the past: tests/ui/past)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QTreeWidget, QTreeWidgetItem
from pytestqt.qtbot import QtBot

from app.core.clock import ManualClock
from app.core.models import RevisionSource
from tests.support.pg_host import HostDb
from tests.ui.window_helpers import edited_store, make_window, select, settle
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
