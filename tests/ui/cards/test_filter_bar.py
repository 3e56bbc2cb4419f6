"""The search field asks for a listing at once when none is being read, and otherwise lets the newest
text wait for the listing still being read (one query for the keys typed meanwhile)."""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

from ui.cards import filter_bar
from ui.cards.filter_bar import FilterBar
from ui.cards.listing import ViewFilter


@pytest.fixture
def bar(qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> FilterBar:
    # The bound on the wait, made longer than any test: only the listing's arrival ends a wait here.
    monkeypatch.setattr(filter_bar, "SEARCH_DEBOUNCE_MS", 600_000)
    widget = FilterBar()
    qtbot.addWidget(widget)
    return widget


def test_a_key_asks_at_once_when_no_listing_is_being_read(qtbot: QtBot, bar: FilterBar) -> None:
    with qtbot.waitSignal(bar.filterChanged, timeout=5_000) as first:
        qtbot.keyClicks(bar.search, "k")
    assert first.args == [ViewFilter(search="k")]
    bar.listing_arrived(ViewFilter(search="k"))
    with qtbot.waitSignal(bar.filterChanged, timeout=5_000) as second:
        qtbot.keyClicks(bar.search, "u")
    assert second.args == [ViewFilter(search="ku")]


def test_keys_typed_during_a_read_wait_for_it_and_ask_once(qtbot: QtBot, bar: FilterBar) -> None:
    asked: list[str] = []
    bar.filterChanged.connect(lambda flt: asked.append(flt.search))
    with qtbot.waitSignal(bar.filterChanged, timeout=5_000):
        qtbot.keyClicks(bar.search, "k")
    qtbot.keyClicks(bar.search, "ub")
    qtbot.keyClicks(bar.search, "er")
    bar.listing_arrived(ViewFilter(search="ku"))  # not the listing asked for: the wait goes on
    assert asked == ["k"]
    with qtbot.waitSignal(bar.filterChanged, timeout=5_000) as waited:
        bar.listing_arrived(ViewFilter(search="k"))
    assert waited.args == [ViewFilter(search="kuber")]
    assert asked == ["k", "kuber"]
