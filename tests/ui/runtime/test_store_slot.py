"""The controller's store (`StoreSlot`): a refusal of the launch's store is its own, never the refusal of a
database opened in its place meanwhile (File → Open on the GUI thread while the runner's open fails)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app.core.clock import ManualClock
from app.core.errors import DatabaseOpenError, StoreError
from app.store import MemoryStore
from tests.conftest import REVIEW_TIME
from tests.support.hostdb import build_host_db
from ui.runtime.controller.store_slot import StoreSlot
from ui.runtime.first_screen import StoreLater

CLOCK = ManualClock(REVIEW_TIME)


@pytest.fixture
def other(tmp_path: Path) -> Iterator[MemoryStore]:
    store = MemoryStore.open(build_host_db(tmp_path / "other.db"), clock=CLOCK)
    yield store
    store.close()


def refusing(before: object = None) -> StoreLater:
    def open_store() -> MemoryStore:
        if callable(before):
            before()
        raise DatabaseOpenError("/x/context.db is damaged; nothing was changed.")

    return StoreLater(open_store, CLOCK)


def test_a_refusal_is_kept_once_and_raised_again_without_another_open() -> None:
    tries: list[int] = []
    slot = StoreSlot(refusing(lambda: tries.append(1)))
    said: list[StoreError] = []
    with pytest.raises(DatabaseOpenError) as first:
        slot.get(said.append)
    with pytest.raises(DatabaseOpenError) as again:
        slot.get(said.append)
    assert said == [first.value] and again.value is first.value and tries == [1]
    assert slot.refused is first.value and slot.was_kept(first.value) and slot.open_store is None


def test_a_database_opened_while_the_launch_store_was_refused_is_not_marked_refused(
    other: MemoryStore,
) -> None:
    slot: StoreSlot

    def switched_meanwhile() -> None:
        slot.replace(other)  # File → Open's switch lands while the launch's store is being opened

    slot = StoreSlot(refusing(switched_meanwhile))
    said: list[StoreError] = []
    assert slot.get(said.append) is other  # the store now in place, its refusal past
    assert said == [] and slot.refused is None


def test_a_refusal_of_a_store_no_longer_current_is_past(other: MemoryStore) -> None:
    later = refusing()
    slot = StoreSlot(later)
    slot.replace(other)
    assert not slot.keep(later, DatabaseOpenError("refused"))
    assert slot.refused is None and slot.identity is other
