"""The past listing's model without a view (qtmodeltester through new listings and filters), and the
toolbar's filter as it reads a state then (`ui.past.listing.matches`), on a real file's states."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.modeltest import ModelTester

from app.core.clock import ManualClock
from app.store import MemoryStore
from tests.support.hostdb import HOUR
from ui.cards.listing import EXPIRING_OR_EXPIRED
from ui.cards.model import ID_ROLE
from ui.past.listing import folded, kept, listing_order
from ui.past.model import STATE_ROLE, PastListModel


def test_the_model_passes_the_model_tester_through_listings_and_filters(
    store: MemoryStore, clock: ManualClock, qtmodeltester: ModelTester
) -> None:
    store.observe()
    clock.advance(HOUR)
    states = listing_order(store.as_of(store.now()))
    model = PastListModel()
    qtmodeltester.check(model)
    model.set_states(states[:2])  # a first screen
    assert model.rowCount() == 2 and model.total == 2
    model.set_states(states)  # the whole past
    assert [model.index(row, 0).data(ID_ROLE) for row in range(model.rowCount())] == [5, 4, 3, 2, 1]
    model.set_filter("active", ["pr"])
    assert [state.memory_id for state in model.states()] == [5, 3]  # "Prefers pnpm", "…provenance"
    assert model.rowCount() == 2 and model.total == 5 and model.row_of(4) is None
    state = model.index(0, 0).data(STATE_ROLE)
    assert state is model.state(5)
    assert model.index(0, 0).data(Qt.ItemDataRole.DisplayRole) == "Prefers pnpm"
    model.set_states(states[:2])  # the filter stays
    assert [state.memory_id for state in model.states()] == [5]
    assert model.index(9, 0).data(ID_ROLE) is None
    model.clear()
    assert model.rowCount() == 0 and model.total == 0


def test_the_filter_reads_the_state_then(store: MemoryStore, clock: ManualClock) -> None:
    store.observe()
    clock.advance(HOUR)
    store.set_expiry(1, store.now() + HOUR)
    clock.advance(HOUR)
    store.delete(3)
    clock.advance(HOUR)
    before_the_delete = store.now() - 2 * HOUR
    states = sorted(store.as_of(before_the_delete), key=lambda state: state.memory_id)

    def ids(status: str, *words: str) -> list[int]:
        return [state.memory_id for state in kept(states, folded(states), status, words)]

    assert ids("active") == [1, 3, 4, 5] and ids("dismissed") == [2] and ids("deleted") == [3]
    assert ids(EXPIRING_OR_EXPIRED) == [1] and ids("rewritten") == [1]  # changed by then (its expiry)
    assert ids("all", "pnpm") == [5] and ids("all", "#4") == [4] and ids("active", "prefers") == [5]
    unknown = store.as_of(before_the_delete - 100 * HOUR)
    assert unknown and all(not state.known for state in unknown)
    assert len(kept(unknown, folded(unknown), "active", [])) == len(unknown)  # may have been: listed
    assert kept(unknown, folded(unknown), "all", ["pnpm"]) == []  # no text is known then


def test_the_toolbar_order_reads_the_past(store: MemoryStore, clock: ManualClock) -> None:
    store.observe()
    clock.advance(HOUR)
    store.edit(1, "Works mostly in Python")
    clock.advance(HOUR)
    states = listing_order(store.as_of(store.now()))
    assert [state.memory_id for state in states] == [5, 4, 3, 2, 1]  # newest promoted first
    model = PastListModel()
    model.set_states(states)
    model.set_filter("all", [], "promoted", False)
    assert [state.memory_id for state in model.states()] == [1, 2, 3, 4, 5]
    model.set_filter("all", [], "updated", True)
    assert [state.memory_id for state in model.states()] == [1, 5, 4, 3, 2]  # #1 changed last
