"""Keep this one, in the Tidy dialog: of a pair that may contradict, the selected member kept and the
other dismissed and linked (the history panel says so), the pair leaving the list; the window's Undo
takes it back. Offered only on a member of such a pair."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.store import MemoryStore
from tests.support.tidy_memories import tidy_db
from tests.ui.tidy.test_tidy_dialog import child
from tests.ui.window_helpers import make_window, select, settle
from ui.cards.model import LINKS_ROLE
from ui.tidy.dialog import TidyDialog


@pytest.fixture
def store(tmp_path: Path) -> Iterator[MemoryStore]:
    opened = MemoryStore.open(tidy_db(tmp_path / "context.db"))
    yield opened
    opened.close()


def test_keep_this_one_and_undo(qtbot: QtBot, store: MemoryStore, tmp_path: Path) -> None:
    window = make_window(qtbot, store, tmp_path)
    window.acts.tidy.trigger()
    tidy = window.findChild(TidyDialog)
    assert tidy is not None
    qtbot.waitUntil(lambda: tidy.report is not None, timeout=10_000)
    settle(qtbot, window)
    tidy.tree.setCurrentItem(child(tidy, 0, 0))  # a member of a duplicate group
    assert not tidy.keep_button.isEnabled()
    pairs = tidy.tree.topLevelItemCount() - 1
    tidy.tree.setCurrentItem(child(tidy, pairs, 1))  # "#4  Moved the project to MySQL"
    assert tidy.keep_button.isEnabled()
    tidy.keep_button.click()
    qtbot.waitUntil(lambda: tidy.status.text().startswith("Kept #4, dismissed #3"), timeout=10_000)
    assert [m.status for m in store.get_many([3, 4])] == ["dismissed", "active"]
    assert tidy.tree.topLevelItemCount() == pairs  # the section of pairs is gone with its only pair
    settle(qtbot, window)
    shown = window.model.memory(3)
    assert shown is None or shown.status == "dismissed"  # gone from active memories, or shown dismissed
    kept_card = window.model.index_of(4)  # unchanged itself: its card shows the new link all the same
    qtbot.waitUntil(lambda: kept_card.data(LINKS_ROLE) == ("kept over the contradicting #3",), timeout=10_000)
    select(qtbot, window, 4)
    qtbot.waitUntil(lambda: window.panel.links.plain() == "kept over the contradicting #3", timeout=10_000)
    window.activateWindow()
    window.acts.undo.trigger()
    qtbot.waitUntil(lambda: store.get(3).status == "active", timeout=10_000)
    qtbot.waitUntil(lambda: getattr(window.model.memory(3), "status", None) == "active", timeout=10_000)
    tidy.close()
