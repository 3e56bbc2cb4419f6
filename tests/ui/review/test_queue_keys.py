"""The review queue's keys: Ctrl+Enter in its text promotes the selected candidates with the text typed,
Enter in the merge box merges them; Esc hides the queue, and what was typed is there when it is shown
again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.store import MemoryStore
from tests.support.hostdb import query
from tests.ui.every_window import shown
from tests.ui.window_helpers import card_content, make_window, open_queue, settle

CTRL = Qt.KeyboardModifier.ControlModifier
PROMOTE_KEYS = {
    "Ctrl+Return": (Qt.Key.Key_Return, CTRL),
    "Ctrl+Enter": (Qt.Key.Key_Enter, CTRL | Qt.KeyboardModifier.KeypadModifier),
}


@pytest.mark.parametrize("keys", PROMOTE_KEYS)
def test_ctrl_enter_in_the_text_promotes_the_selected_candidates(
    qtbot: QtBot, store: MemoryStore, host_db: Path, tmp_path: Path, keys: str
) -> None:
    window = make_window(qtbot, store, tmp_path)
    open_queue(qtbot, window, [141, 143])
    queue = window.queue
    shown(qtbot, queue)  # active: the window system's focus is in it
    queue.text.setFocus(Qt.FocusReason.TabFocusReason)
    queue.text.selectAll()
    qtbot.keyClicks(queue.text, "Uses pnpm workspaces")
    key, modifiers = PROMOTE_KEYS[keys]
    qtbot.keyClick(queue.text, key, modifiers)
    qtbot.waitUntil(lambda: queue.table.topLevelItemCount() == 4, timeout=10_000)
    typed = "SELECT source_candidate_ids FROM user_memories WHERE content = 'Uses pnpm workspaces'"
    rows = query(host_db, typed)  # no line break typed into it by the key
    assert [json.loads(str(row[0])) for row in rows] == [[141, 143]]
    settle(qtbot, window)


def test_esc_hides_the_queue_and_keeps_the_text_typed(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path
) -> None:
    window = make_window(qtbot, store, tmp_path)
    open_queue(qtbot, window, [141])
    queue = window.queue
    shown(qtbot, queue)  # active: the window system's focus is in it
    queue.text.setFocus(Qt.FocusReason.TabFocusReason)
    queue.text.selectAll()
    qtbot.keyClicks(queue.text, "Prefers pnpm, a draft")
    qtbot.keyClick(queue.text, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not queue.isVisible(), timeout=5_000)
    window.acts.review_queue.trigger()
    shown(qtbot, queue)
    assert queue.text.toPlainText() == "Prefers pnpm, a draft" and queue.selected_ids() == [141]
    settle(qtbot, window)


def test_enter_in_the_merge_box_merges_instead_of_promoting(
    qtbot: QtBot, store: MemoryStore, host_db: Path, tmp_path: Path
) -> None:
    window = make_window(qtbot, store, tmp_path)
    open_queue(qtbot, window, [145])
    queue = window.queue
    shown(qtbot, queue)
    before = query(host_db, "SELECT count(*) FROM user_memories")
    queue.target.setFocus(Qt.FocusReason.TabFocusReason)
    queue.target.selectAll()
    qtbot.keyClicks(queue.target, "5")
    qtbot.keyClick(queue.target, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: queue.table.topLevelItemCount() == 5, timeout=10_000)
    qtbot.waitUntil(lambda: card_content(window, 5) == "Prefers pnpm\nAsks for code first, explanation after")
    assert query(host_db, "SELECT count(*) FROM user_memories") == before  # nothing promoted
    settle(qtbot, window)
