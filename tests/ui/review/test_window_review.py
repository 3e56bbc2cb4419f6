"""The review queue in the window: promote, merge, discard, and a run of a fake reviewer command."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from PySide6.QtWidgets import QPushButton
from pytestqt.qtbot import QtBot

from app.core.settings import Settings, save_settings
from app.store import MemoryStore
from tests.support.hostdb import pending_index_changes, query
from tests.ui.window_helpers import card_content, make_window, open_queue, settle
from ui.cards.model import HIGHLIGHT_ROLE
from ui.runtime import idle_indexing


def test_promote_selected_candidates_as_one_memory(
    qtbot: QtBot, store: MemoryStore, host_db: Path, tmp_path: Path
) -> None:
    window = make_window(qtbot, store, tmp_path)
    assert window.acts.review_queue.text() == "Review queue (6)"
    open_queue(qtbot, window)
    queue = window.queue
    queue.select_ids([141, 143])
    assert (
        queue.text.toPlainText()
        == "Prefers pnpm over npm for every JavaScript project\nUses pnpm workspaces in monorepos"
    )
    queue.text.setPlainText("Uses pnpm, with workspaces in monorepos")
    queue.promote_button.click()
    qtbot.waitUntil(lambda: queue.table.topLevelItemCount() == 4, timeout=10_000)
    rows = query(
        host_db, "SELECT id, source_candidate_ids FROM user_memories WHERE content LIKE 'Uses pnpm, with%'"
    )
    assert len(rows) == 1 and json.loads(str(rows[0][1])) == [141, 143]
    new_id = int(str(rows[0][0]))
    qtbot.waitUntil(lambda: window.selected_memory() is not None and window.selected_memory().id == new_id)  # type: ignore[union-attr]
    qtbot.waitUntil(lambda: window.acts.review_queue.text() == "Review queue (4)")
    settle(qtbot, window)


def test_merge_into_a_memory_and_discard(
    qtbot: QtBot, store: MemoryStore, host_db: Path, tmp_path: Path
) -> None:
    window = make_window(qtbot, store, tmp_path)
    open_queue(qtbot, window)
    queue = window.queue
    queue.select_ids([145])
    queue.target.setValue(5)
    queue.merge_button.click()
    qtbot.waitUntil(lambda: queue.table.topLevelItemCount() == 5, timeout=10_000)
    qtbot.waitUntil(lambda: card_content(window, 5) == "Prefers pnpm\nAsks for code first, explanation after")
    ids = query(host_db, "SELECT source_candidate_ids FROM user_memories WHERE id = 5")[0][0]
    assert json.loads(str(ids)) == [46, 47, 48, 145]
    queue.select_ids([151, 152])
    queue.discard_button.click()
    qtbot.waitUntil(lambda: queue.table.topLevelItemCount() == 3, timeout=10_000)
    settle(qtbot, window)


def test_run_review_with_a_fake_reviewer_highlights_the_changed_cards(
    qtbot: QtBot, store: MemoryStore, host_db: Path, tmp_path: Path
) -> None:
    verdict = {
        "promote": [],
        "update_existing": [
            {"memory_id": 5, "content": "Prefers pnpm; uses workspaces", "candidate_ids": [141, 143]}
        ],
        "dismiss_existing": [],
        "consume_candidate_ids": [141, 143],
    }
    script = tmp_path / "reviewer.py"
    script.write_text(
        "import sys\nsys.stdin.read()\n"
        f"print('```json')\nprint({json.dumps(json.dumps(verdict))})\nprint('```')\n"
    )
    save_settings(Settings(reviewer_command=f"{sys.executable} {script}", reviewer_timeout_s=60))
    window = make_window(qtbot, store, tmp_path)
    with qtbot.waitSignal(window.review.reviewFinished, timeout=30_000) as blocker:
        window.acts.run_review.trigger()
    result = (blocker.args or [None])[0]
    assert result is not None and result.updated == 1 and 5 in result.changed_memory_ids
    qtbot.waitUntil(lambda: card_content(window, 5) == "Prefers pnpm; uses workspaces", timeout=10_000)
    row = window.model.row_of(5)
    assert row is not None and window.model.data(window.model.index(row, 0), HIGHLIGHT_ROLE) is True
    assert "updated 1" in window.statusBar().currentMessage()
    assert "updated 1" in window.queue.last_run.text() and "#5" in window.queue.last_run.text()
    ids = query(host_db, "SELECT source_candidate_ids FROM user_memories WHERE id = 5")[0][0]
    assert json.loads(str(ids)) == [46, 47, 48, 141, 143]
    settle(qtbot, window)


def test_a_failing_reviewer_is_a_message(qtbot: QtBot, store: MemoryStore, tmp_path: Path) -> None:
    script = tmp_path / "broken.py"
    script.write_text("import sys\nsys.stdin.read()\nprint('I am not JSON')\n")
    save_settings(Settings(reviewer_command=f"{sys.executable} {script}", reviewer_timeout_s=60))
    window = make_window(qtbot, store, tmp_path)
    open_queue(qtbot, window)  # open while the review runs: its last-run line follows
    with qtbot.waitSignal(window.review.reviewFailed, timeout=30_000):
        window.acts.run_review.trigger()
    qtbot.waitUntil(lambda: window.banner.isVisible())
    assert "not verdict JSON" in window.banner.label.text()
    line = window.queue.last_run.text()
    assert line.startswith("The review did not run: ") and "not verdict JSON" in line
    settle(qtbot, window)


def snapshot(path: Path) -> dict[str, list[tuple[object, ...]]]:
    tables = [str(row[0]) for row in query(path, "SELECT name FROM sqlite_master WHERE type = 'table'")]
    return {table: sorted(query(path, f'SELECT * FROM "{table}"'), key=repr) for table in sorted(tables)}


def test_cancelling_a_running_review_stops_the_reviewer_and_changes_nothing(
    qtbot: QtBot, store: MemoryStore, host_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    verdict = {"promote": [], "update_existing": [], "dismiss_existing": [], "consume_candidate_ids": [141]}
    started = tmp_path / "started"
    script = tmp_path / "slow_reviewer.py"
    script.write_text(
        "import os, sys, time\nsys.stdin.read()\n"
        f"open({str(started)!r}, 'w').write(str(os.getpid()))\n"
        "time.sleep(600)\n"
        f"print({json.dumps(json.dumps(verdict))})\n"
    )
    save_settings(Settings(reviewer_command=f"{sys.executable} {script}", reviewer_timeout_s=600))
    monkeypatch.setattr(idle_indexing, "IDLE_MS", 50)
    window = make_window(qtbot, store, tmp_path)
    # The first look noted every memory for the search index: let the idle window index them first, so
    # that every table, the index's included, must come out of the cancelled run as it went in.
    qtbot.waitUntil(lambda: pending_index_changes(host_db) == 0, timeout=15_000)
    settle(qtbot, window)
    before = snapshot(host_db)
    window.acts.run_review.trigger()
    qtbot.waitUntil(lambda: started.exists() and bool(started.read_text()), timeout=30_000)
    progress = window.commands.progress
    assert progress is not None
    qtbot.waitUntil(progress.isVisible, timeout=10_000)
    cancel_button = progress.findChild(QPushButton)
    assert cancel_button is not None and cancel_button.text() == "Cancel"
    with qtbot.waitSignal(window.review.reviewCancelled, timeout=30_000):
        cancel_button.click()
    message = "Review cancelled; nothing was changed."
    assert window.statusBar().currentMessage() == message
    assert window.queue.last_run.text() == message
    assert window.commands.progress is None and not window.review.running
    assert not window.banner.isVisible()
    pid = int(started.read_text())
    qtbot.waitUntil(lambda: not pid_alive(pid), timeout=10_000)
    settle(qtbot, window)
    assert snapshot(host_db) == before
    assert window.acts.run_review.isEnabled()


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True
