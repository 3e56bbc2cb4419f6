"""The first frame under a real X server (run by `test_real_display.py` in the keyboard tests' session): a
window shown by `FirstFrame` at a person's size stays as its first paint shows it. Under X a scrolled
view laid out while hidden shows a scroll bar at the show that a queued call then hides; offscreen the
same view settles in another order, so only this session sees it."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.core.clock import ManualClock
from app.store import MemoryStore
from tests.support.first_frame import frame, launched_window
from tests.support.hostdb import build_host_db, memory_row

pytestmark = pytest.mark.skipif(
    os.environ.get("QT_QPA_PLATFORM") != "xcb",
    reason="needs a real X server (tests/ui/xvfb/test_real_display.py)",
)
NOW = 1_767_000_000_000
DAY = 86_400_000
WORDS = "prefers small commits with messages that explain why the change was made, not only what changed"


def long_memories(path: Path) -> Path:
    """A file never opened by the dashboard, each memory a paragraph, rewritten after it was promoted."""
    build_host_db(path, seed=False)
    conn = sqlite3.connect(path)
    for number in range(1, 41):
        text = " ".join(f"{WORDS} ({number}.{line})" for line in range(8))
        memory_row(conn, number, text, promoted_at=NOW - 90 * DAY + number, updated_at=NOW - DAY)
    conn.commit()
    conn.close()
    return path


def test_the_first_frame_stays_as_it_was_shown(qtbot: QtBot, tmp_path: Path) -> None:
    store = MemoryStore.open(long_memories(tmp_path / "context.db"), clock=ManualClock(NOW))
    try:
        window, shown = launched_window(qtbot, store, tmp_path, 1400, 900)
        controller = window.controller

        def settled() -> bool:  # the complete listing, the candidates, everything queued at start
            return controller.candidates is not None and not controller.runner.busy

        qtbot.waitUntil(settled, timeout=30_000)
        QApplication.processEvents()
        assert frame(window) == shown[0]
    finally:
        store.close()
