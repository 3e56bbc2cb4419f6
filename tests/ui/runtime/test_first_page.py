"""The launch's first screen: what the window's first frame waits for (the first page of cards, the
first card's history, links and candidates' words, the counts, the undo log) is read before the window
is built (by the launch's child process), so the window shows its first frame without reading any of it
again; its reads come from one snapshot, a host commit between them never half seen."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Sequence
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot
from sqlalchemy import event

from app.core.clock import ManualClock
from app.core.models.links import Link
from app.store import MemoryStore
from tests.conftest import REVIEW_TIME
from tests.support.first_screen import first_screen_of
from tests.support.hostdb import PROMOTED_5, build_host_db, host_sql, memory_row_insert
from ui.runtime.controller import Controller
from ui.runtime.first_page import newest_first, read_first_screen
from ui.window.first_frame import FirstFrame
from ui.window.main_window import MainWindow

# The tables of the listing and the counts, the revisions, the links, the candidates' words and the
# command log. What the window may still read before it shows (the last look's watermark) it does not
# wait for.
FIRST_SCREEN_READS = re.compile(
    r"FROM (user_memories|mdash_revisions|mdash_links|mdash_evidence|mdash_command_log)\b"
)


def test_the_first_frame_needs_no_read_once_the_window_is_built(
    qtbot: QtBot, host_db: Path, tmp_path: Path
) -> None:
    store = MemoryStore.open(host_db, clock=ManualClock(REVIEW_TIME))
    first = first_screen_of(store)
    screen = first.result(timeout=30)
    assert screen.history is not None and screen.history[0] == screen.listing.ids[0]
    assert screen.history[1] == newest_first(store, screen.listing.ids[0])
    assert screen.history[2] == store.links([screen.listing.ids[0]]).get(screen.listing.ids[0], [])
    statements: list[str] = []
    event.listen(store.database.engine, "before_cursor_execute", lambda *args: statements.append(args[2]))
    settings = QSettings(str(tmp_path / "window.ini"), QSettings.Format.IniFormat)
    controller = Controller(store)
    window = MainWindow(controller, settings=settings, watch=False)
    qtbot.addWidget(window, before_close_func=lambda w: w.controller.runner.wait_for_done(10_000))
    read_before_shown: list[str] = []
    shown: list[bool] = []

    def show() -> None:
        read_before_shown.extend(s for s in statements if FIRST_SCREEN_READS.search(s))
        shown.append(not window.panel.provenance.words_pending)
        window.show()

    FirstFrame(window, show, limit_ms=60_000)
    controller.start(first)
    qtbot.waitUntil(lambda: bool(shown), timeout=30_000)
    assert read_before_shown == [] and shown == [True]  # shown with its candidates' words
    memory = window.selected_memory()
    assert memory is not None and memory.id == screen.listing.ids[0]
    assert window.panel.history_memory_id == memory.id and window.panel.diff.settled
    assert controller.undo_history.loaded and window.status.counts.text()
    # The complete listing, after the first frame is painted.
    qtbot.waitUntil(lambda: any(FIRST_SCREEN_READS.search(s) for s in statements), timeout=30_000)
    qtbot.waitUntil(lambda: not controller.runner.busy, timeout=30_000)
    window.close()
    store.close()


def test_another_card_than_the_first_reads_its_own_history(host_db: Path) -> None:
    store = MemoryStore.open(host_db, clock=ManualClock(REVIEW_TIME))
    try:
        screen = first_screen_of(store).result(timeout=30)
        other = screen.listing.ids[1]
        assert screen.history_of(other) is None  # the controller reads it (`Controller.load_history`)
        assert screen.history_of(screen.listing.ids[0]) is not None
    finally:
        store.close()


def test_a_host_commit_between_the_reads_is_not_half_seen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    host_db = build_host_db(tmp_path / "context.db")
    host = sqlite3.connect(host_db)  # the host running: its WAL files exist, the look reads live
    host.execute("SELECT count(*) FROM user_memories").fetchone()
    store = MemoryStore.open(host_db, clock=ManualClock(REVIEW_TIME), first_look=True)
    links = store.links

    def host_commits_meanwhile(memory_ids: Sequence[int], kind: str = "user") -> dict[int, list[Link]]:
        # The host promotes a memory after the cards were read, before the counts are.
        host_sql(host_db, *memory_row_insert(900, "Promoted meanwhile", promoted_at=PROMOTED_5 + 1))
        return links(memory_ids, kind)

    monkeypatch.setattr(store, "links", host_commits_meanwhile)
    try:
        screen = read_first_screen(store)
    finally:
        store.close()
        host.close()
    assert 900 not in screen.listing.ids
    assert screen.listing.total == screen.counts.active


def test_a_write_inside_one_read_is_refused(host_db: Path) -> None:
    """The reads of `one_read` all come from the snapshot its first read took: a write among them would
    not be seen by the reads after it, so it is refused (nothing writes there: the first screen reads)."""
    store = MemoryStore.open(host_db, clock=ManualClock(REVIEW_TIME))
    try:
        with store.one_read():
            store.counts()
            with pytest.raises(RuntimeError, match="inside one_read"), store.database.write():
                pass
        with store.database.write(), store.one_read():  # a read inside a write reads the write's
            store.counts()
    finally:
        store.close()
