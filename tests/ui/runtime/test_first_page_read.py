"""The first screen's read started before the window exists (`FirstPageRead`): the controller's first
listing is that read's result when it read the filter and store now shown, and a read of its own
otherwise; an error of the early read reaches the window as a message."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.store import MemoryStore
from tests.ui.runtime_helpers import dispose
from ui.cards.listing import FIRST_PAGE, FIRST_ROWS, Listing, ViewFilter, load_first_page
from ui.runtime.controller import Controller
from ui.runtime.first_page import FirstPageRead


@pytest.fixture
def controller(qtbot: QtBot, store: MemoryStore) -> Iterator[Controller]:
    made = Controller(store)
    yield made
    dispose(made)


def first_listing(qtbot: QtBot, controller: Controller, read: FirstPageRead) -> Listing:
    with qtbot.waitSignal(controller.memoriesLoaded, timeout=10_000) as loaded:
        controller.refresh(quick_first=True, first_page=read)
    listing = loaded.args[0]
    assert isinstance(listing, Listing)
    qtbot.waitUntil(lambda: not controller.runner.busy, timeout=10_000)
    return listing


def test_the_started_read_is_the_first_listing(
    qtbot: QtBot, store: MemoryStore, controller: Controller
) -> None:
    read = FirstPageRead(store)
    started = read.result()
    assert started == load_first_page(store, ViewFilter(), FIRST_PAGE, FIRST_ROWS)
    assert started.ids and started.counts is None
    assert first_listing(qtbot, controller, read) is started


def test_a_read_of_another_filter_is_not_shown(
    qtbot: QtBot, store: MemoryStore, controller: Controller
) -> None:
    read = FirstPageRead(store, ViewFilter(status="dismissed"))
    listing = first_listing(qtbot, controller, read)
    assert listing is not read.result()
    assert listing.filter == ViewFilter()
    assert listing == load_first_page(store, ViewFilter(), FIRST_PAGE, FIRST_ROWS)


def test_an_error_of_the_early_read_is_a_message(
    qtbot: QtBot, store: MemoryStore, host_db: Path, controller: Controller
) -> None:
    conn = sqlite3.connect(host_db)
    conn.execute("ALTER TABLE user_memories RENAME TO gone")  # the read fails: no such table
    conn.commit()
    conn.close()
    read = FirstPageRead(store)
    with qtbot.waitSignal(controller.error, timeout=10_000) as failed:
        controller.refresh(quick_first=True, first_page=read)
    assert "database failed" in str(failed.args[0]).lower()
    qtbot.waitUntil(lambda: not controller.runner.busy, timeout=10_000)
