"""The controller's store (`StoreSlot`): a refusal of the launch's store is its own, never the refusal of a
database opened in its place meanwhile (File → Open on the GUI thread while the runner's open fails)."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

from app.core.clock import ManualClock
from app.core.errors import DatabaseOpenError, StoreError
from app.store import MemoryStore
from tests.conftest import REVIEW_TIME
from tests.support.hostdb import build_host_db
from ui.runtime.controller.store_slot import StoreSlot
from ui.runtime.first_screen import StoreLater

CLOCK = ManualClock(REVIEW_TIME)
Tracer = Callable[[FrameType, str, Any], Any]  # what `sys.settrace` takes


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


def switched_at(line: int, slot: StoreSlot, other: MemoryStore) -> Callable[[], object]:
    """`slot.get` as the runner calls it, with File → Open's switch (`replace`, the GUI thread's) asked for
    just before line `line` of `get` runs: made there and then, or, while the read holds the slot's lock,
    on a thread that waits for it as the GUI thread would. A line the read does not run switches nothing
    (the slot is then left as it was)."""
    code = StoreSlot.get.__code__
    waiting: list[threading.Thread] = []

    def trace(frame: FrameType, event: str, _arg: object) -> Tracer | None:
        if frame.f_code is not code:
            return None

        def on_line(frame: FrameType, event: str, _arg: object) -> Tracer | None:
            if event == "line" and frame.f_lineno == line and not waiting and slot.later is not None:
                switch = threading.Thread(target=slot.replace, args=(other,))
                waiting.append(switch)
                if slot._swap.locked():  # held by this read: the switch waits for it
                    switch.start()
                else:
                    switch.run()
            return on_line

        return on_line

    def call() -> object:
        sys.settrace(trace)
        try:
            return slot.get(lambda _refusal: None)
        except StoreError as exc:
            return exc
        finally:
            sys.settrace(None)
            for switch in waiting:
                if switch.ident is not None:
                    switch.join(10)

    return call


def lines_of_get() -> range:
    code = StoreSlot.get.__code__
    last = max(line for _start, _end, line in code.co_lines() if line is not None)
    return range(code.co_firstlineno, last + 1)


@pytest.mark.parametrize("kept_before", [False, True], ids=["first open", "refused before"])
def test_a_switch_at_any_step_of_a_read_never_marks_the_new_database_refused(
    other: MemoryStore, kept_before: bool
) -> None:
    """Whichever step of the runner's read File → Open's switch lands at, the read answers with the new
    store or with a refusal already kept (never said again); the new store is never marked refused, and
    the launch's store is opened at most once more than before."""
    switched = 0
    for line in lines_of_get():
        tries: list[int] = []
        slot = StoreSlot(refusing(lambda tries=tries: tries.append(1)))
        if kept_before:
            with pytest.raises(DatabaseOpenError):
                slot.get(lambda _refusal: None)
        answer = switched_at(line, slot, other)()
        if slot.later is not None:
            continue  # a line this read does not run
        switched += 1
        assert answer is other or (isinstance(answer, StoreError) and slot.was_kept(answer)), line
        assert slot.refused is None and slot.open_store is other, line
        assert len(tries) <= 1, line  # opened once at most: a refusal kept is never opened again
    assert switched >= 6  # every step of the read, from its first look at the slot to its answer
