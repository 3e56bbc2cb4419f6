"""The past listing's model without a view (qtmodeltester through new listings and filters), and the
toolbar's filter as it reads a state then (`ui.past.listing.matches`), on a real file's states."""

from __future__ import annotations

from hostdb import HOUR
from PySide6.QtCore import Qt
from pytestqt.modeltest import ModelTester

from app.core.clock import ManualClock
from app.store import MemoryStore
from ui.cards.listing import EXPIRING_OR_EXPIRED
from ui.cards.model import ID_ROLE
from ui.past.listing import listing_order, matches
from ui.past.model import STATE_ROLE, PastListModel


def test_the_model_passes_the_model_tester_through_listings_and_filters(
    store: MemoryStore, clock: ManualClock, qtmodeltester: ModelTester
) -> None:
    store.list_ids()
    clock.advance(HOUR)
    states = listing_order(store.as_of(store.now()))
    model = PastListModel()
    qtmodeltester.check(model)
    model.set_states(states[:2])  # a first screen
    assert model.rowCount() == 2 and model.total == 2
    model.set_states(states)  # the whole past
    assert [model.index(row, 0).data(ID_ROLE) for row in range(model.rowCount())] == [5, 4, 3, 2, 1]
    model.set_filter(lambda state: state.memory_id % 2 == 1)
    assert model.rowCount() == 3 and model.total == 5 and model.row_of(4) is None
    state = model.index(0, 0).data(STATE_ROLE)
    assert state is model.state(5)
    assert model.index(0, 0).data(Qt.ItemDataRole.DisplayRole) == "Prefers pnpm"
    assert model.index(9, 0).data(ID_ROLE) is None
    model.clear()
    assert model.rowCount() == 0 and model.total == 0


def test_the_filter_reads_the_state_then(store: MemoryStore, clock: ManualClock) -> None:
    store.list_ids()
    clock.advance(HOUR)
    store.set_expiry(1, store.now() + HOUR)
    clock.advance(HOUR)
    store.delete(3)
    clock.advance(HOUR)
    before_the_delete = store.now() - 2 * HOUR
    states = {state.memory_id: state for state in store.as_of(before_the_delete)}
    assert [i for i, state in states.items() if matches(state, "active", [])] == [1, 3, 4, 5]
    assert [i for i, state in states.items() if matches(state, "dismissed", [])] == [2]
    assert [i for i, state in states.items() if matches(state, "deleted", [])] == [3]
    assert [i for i, state in states.items() if matches(state, EXPIRING_OR_EXPIRED, [])] == [1]
    assert [i for i, state in states.items() if matches(state, "all", ["pnpm"])] == [5]
    assert [i for i, state in states.items() if matches(state, "all", ["#4"])] == [4]
    unknown = store.as_of(before_the_delete - 100 * HOUR)
    assert unknown and all(not state.known for state in unknown)
    assert all(matches(state, "active", []) for state in unknown)  # may have been: listed, marked
    assert not any(matches(state, "all", ["pnpm"]) for state in unknown)  # no text known then
