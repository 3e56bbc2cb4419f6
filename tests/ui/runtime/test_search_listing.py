"""A search shows its first page at once; its complete listing (every hit, counted) is read only once
the typing pauses, so the keys still coming never wait behind a listing of a word already gone."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication
from pytestqt.qtbot import QtBot

from app.store import MemoryFilter, MemoryStore
from tests.support.hostdb import memory_row
from tests.ui.runtime_helpers import dispose
from ui.cards.listing import Listing, ViewFilter
from ui.runtime.controller import Controller
from ui.runtime.controller import base as controller_module


@pytest.fixture
def controller(qtbot: QtBot, store: MemoryStore) -> Iterator[Controller]:
    made = Controller(store)
    yield made
    dispose(made)


def searching(qtbot: QtBot, controller: Controller) -> list[Listing]:
    listings: list[Listing] = []
    controller.memoriesLoaded.connect(listings.append)
    with qtbot.waitSignal(controller.memoriesLoaded, timeout=10_000):
        controller.refresh()
    qtbot.waitUntil(lambda: not controller.runner.busy, timeout=10_000)
    listings.clear()
    return listings


def test_keys_typed_read_first_pages_only(
    qtbot: QtBot, controller: Controller, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(controller_module, "SEARCH_COMPLETE_MS", 600_000)  # the typing never pauses
    listings = searching(qtbot, controller)
    for text in ("m", "me", "mem"):
        with qtbot.waitSignal(controller.memoriesLoaded, timeout=10_000):
            controller.set_filter(ViewFilter(search=text))
        qtbot.waitUntil(lambda: not controller.runner.busy, timeout=10_000)
    # Every listing asked for has been read and delivered (the runner is idle): first pages only.
    assert [listing.filter.search for listing in listings] == ["m", "me", "mem"]
    assert all(listing.counts is None for listing in listings)


def test_the_complete_listing_follows_when_the_typing_pauses(
    qtbot: QtBot, store: MemoryStore, controller: Controller, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(controller_module, "SEARCH_COMPLETE_MS", 0)
    listings = searching(qtbot, controller)
    controller.set_filter(ViewFilter(search="m"))
    qtbot.waitUntil(lambda: len(listings) == 2, timeout=10_000)
    first, complete = listings
    every = store.list_ids(MemoryFilter(status="active", search="m", sort="promoted", descending=True))
    assert first.counts is None and complete.counts == store.counts()
    assert complete.complete and complete.ids == every
    qtbot.waitUntil(lambda: not controller.runner.busy, timeout=10_000)


def test_a_search_first_page_walks_the_listing_last_read_without_the_search(
    qtbot: QtBot, host_db: Path, store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first page is the head of the search's listing, found along the ids of the complete listing
    without the search (a two-letter term: no index narrows it); a memory promoted after that listing is
    not among those ids, and the complete listing that follows the pause has it."""
    monkeypatch.setattr(controller_module, "SEARCH_COMPLETE_MS", 600_000)  # the typing never pauses
    controller = Controller(store)
    try:
        listings = searching(qtbot, controller)
        with closing(sqlite3.connect(host_db)) as conn:  # the host promotes a memory
            memory_row(conn, 900, "Newest pnpm note", promoted_at=store.now())
            conn.commit()
        with qtbot.waitSignal(controller.memoriesLoaded, timeout=10_000):
            controller.set_filter(ViewFilter(search="pn"))
        every = store.list_ids(MemoryFilter(status="active", search="pn", sort="promoted", descending=True))
        assert every[0] == 900 and len(every) > 1
        assert listings[0].ids == every[1:] and listings[0].total is None
        monkeypatch.setattr(controller_module, "SEARCH_COMPLETE_MS", 0)
        with qtbot.waitSignal(controller.memoriesLoaded, timeout=10_000):
            controller.set_filter(ViewFilter(search="pn "))
        qtbot.waitUntil(lambda: listings[-1].complete, timeout=10_000)
        assert listings[-1].ids == every
    finally:
        dispose(controller)


def test_the_pause_before_the_complete_listing_is_timed_from_the_first_page_shown(
    qtbot: QtBot, controller: Controller, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Keys typed while a first page is read ask for theirs once it arrives: a complete listing timed
    from the key would be asked meanwhile and hold the store thread that the next first page needs."""
    monkeypatch.setattr(controller_module, "SEARCH_COMPLETE_MS", 0)
    listings = searching(qtbot, controller)
    asked: list[int] = []  # how many listings had arrived when each read was asked for
    submit = controller.runner.submit

    def counting(*args: Any, **kwargs: Any) -> None:
        asked.append(len(listings))
        submit(*args, **kwargs)

    monkeypatch.setattr(controller.runner, "submit", counting)
    gate = threading.Event()
    submit(lambda: gate.wait(10), lambda _ok: None, controller.report)  # the store thread is busy
    controller.set_filter(ViewFilter(search="m"))
    for _ in range(3):
        QCoreApplication.processEvents()  # a timer of 0 ms would fire here
    assert asked == [0]  # the first page only
    gate.set()
    qtbot.waitUntil(lambda: len(listings) == 2 and listings[1].complete, timeout=10_000)
    assert asked == [0, 1] and listings[0].counts is None
