"""The window's first screen on start: the first page of cards at once, then the complete listing."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from app.store import MemoryFilter, MemoryStore
from tests.support.hostdb import DAY, T0, memory_row
from tests.ui.window_helpers import settle
from ui.cards.listing import Listing
from ui.runtime.controller import Controller
from ui.runtime.controller import base as controller_module
from ui.window.main_window import MainWindow


def window_over_40_more(
    qtbot: QtBot,
    store: MemoryStore,
    host_db: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    text: str,
) -> tuple[Controller, MainWindow]:
    """Memories #10-#49 ("Memory N" + text) beside the seed, a first page of 6 ids with the rows of 3,
    and a shown window."""
    conn = sqlite3.connect(host_db)
    for memory_id in range(10, 50):
        memory_row(conn, memory_id, f"Memory {memory_id}{text}", promoted_at=T0 + memory_id * DAY)
    conn.commit()
    conn.close()
    monkeypatch.setattr(controller_module, "FIRST_PAGE", 6)
    monkeypatch.setattr(controller_module, "FIRST_ROWS", 3)
    controller = Controller(store)
    window = MainWindow(controller, settings=QSettings(str(tmp_path / "w.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(window, before_close_func=lambda w: w.controller.runner.wait_for_done(10_000))
    window.resize(1000, 700)
    window.show()
    return controller, window


def test_start_shows_the_first_page_then_extends_it_to_every_card(
    qtbot: QtBot, store: MemoryStore, host_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    controller, window = window_over_40_more(qtbot, store, host_db, tmp_path, monkeypatch, "")
    listings: list[Listing] = []
    titles: list[str] = []
    rows: list[int] = []

    def loaded(listing: Listing) -> None:
        listings.append(listing)
        titles.append(window.list_header.text())
        rows.append(window.model.rowCount())

    controller.memoriesLoaded.connect(loaded)
    controller.refresh(quick_first=True)
    qtbot.waitUntil(lambda: len(listings) == 2, timeout=10_000)
    settle(qtbot, window)
    every = store.list_ids(MemoryFilter(status="active", sort="promoted", descending=True))
    first, complete = listings
    assert (first.ids, first.total, first.complete) == (every[:6], len(every), False)
    assert [row.id for row in first.rows] == every[:3]  # a screenful of rows; the others when painted
    assert first.counts is None and complete.counts == store.counts()  # counted once, with the whole
    assert complete.complete and complete.ids == every
    assert rows == [6, 44]  # the window took each listing before this slot ran (connection order)
    assert window.model.rowCount() == len(every) == 44
    assert list(window.model.ids) == every
    assert titles[0].startswith("44 memories")  # the true size while only the first page is there
    assert window.list.current_id() == every[0]  # the first card stays selected as the rest arrives
    assert all(window.model.memory(memory_id) is not None for memory_id in window.list.visible_ids())


def test_a_search_shows_its_first_page_uncounted_then_every_hit_counted(
    qtbot: QtBot, store: MemoryStore, host_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    controller, window = window_over_40_more(qtbot, store, host_db, tmp_path, monkeypatch, " about decisions")
    settle(qtbot, window)
    listings: list[Listing] = []
    titles: list[str] = []

    def loaded(listing: Listing) -> None:
        if listing.filter.search == "decisions":
            listings.append(listing)
            titles.append(window.list_header.text())

    controller.memoriesLoaded.connect(loaded)
    window.filters.search.setText("decisions")
    qtbot.waitUntil(lambda: len(listings) == 2, timeout=10_000)
    flt = MemoryFilter(status="active", search="decisions", sort="promoted", descending=True)
    every = store.list_ids(flt)
    first, complete = listings
    assert (first.ids, first.total, first.complete) == (every[:6], None, False)
    assert titles[0].startswith("6+ memories")  # not counted yet: the complete listing counts
    assert complete.complete and complete.ids == every and complete.total == len(every) == 40
    assert titles[1].startswith("40 memories")
