"""A search's first screen (`MemoryStore.first_ids`) is exactly the head of its complete listing.

Common terms are found among the listing's first rows (`FIRST_WINDOW`), rare ones through the search
index (or, where the store may not use it, a full scan); a term too rare for the window falls back to
the full scan. Real SQLite files; the complete listing (`list_ids`) is the reference.
"""

from __future__ import annotations

import random
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from app.core.clock import ManualClock
from app.store import MemoryFilter, MemoryStore
from app.store.read.query import SORT_KEYS
from app.store.store import FIRST_HITS_CHUNK, FIRST_WINDOW
from tests.support.hostdb import DAY, T0, build_host_db, memory_row

NOW = T0 + 400 * DAY
LIMIT = 20
COMMON, MIDDLING, RARE = "sions", "harbour", "kubernetes"


@pytest.fixture
def path(tmp_path: Path) -> Path:
    """1,000 memories: `sions` in ~70%, `harbour` in ~5% (too few for a screen among the first
    `FIRST_WINDOW * LIMIT` rows), `kubernetes` in 5; many ties on the sort keys, a fifth dismissed."""
    found = build_host_db(tmp_path / "context.db", seed=False)
    rng = random.Random(14)
    conn = sqlite3.connect(found)
    rare = set(rng.sample(range(1, 1_001), 5))
    for memory_id in range(1, 1_001):
        words = ["memory", str(memory_id)]
        if rng.random() < 0.7:
            words.append("decisions")
        if rng.random() < 0.05:
            words.append("Harbour")
        if memory_id in rare:
            words.append("Kubernetes")
        promoted = T0 + rng.randrange(50) * DAY  # ties: the id breaks them
        memory_row(
            conn,
            memory_id,
            " ".join(words),
            promoted_at=promoted,
            updated_at=promoted + rng.randrange(3) * DAY,
            status="dismissed" if rng.random() < 0.2 else "active",
        )
    conn.commit()
    conn.close()
    return found


@pytest.mark.parametrize("read_only", [False, True], ids=["index", "no-index"])
def test_first_screen_is_the_head_of_the_listing(path: Path, read_only: bool) -> None:
    store = MemoryStore.open(path, clock=ManualClock(NOW), read_only=read_only)
    assert FIRST_WINDOW * LIMIT < 1_000
    try:
        for term in (COMMON, RARE, MIDDLING, f"{COMMON} {RARE}", "nothing-like-this"):
            for status in ("all", "active"):
                for sort in SORT_KEYS:
                    for descending in (True, False):
                        flt = MemoryFilter(status=status, search=term, sort=sort, descending=descending)
                        every = store.list_ids(flt)
                        ids, total = store.first_ids(flt, LIMIT)
                        assert ids == every[:LIMIT], flt
                        # a full screen is not counted (the complete listing counts it); a short one is
                        assert total == (None if len(every) >= LIMIT else len(every)), flt
        common = store.list_ids(MemoryFilter(status="all", search=COMMON))
        assert len(common) > 600 and 0 < len(store.list_ids(MemoryFilter(search=RARE))) < LIMIT
    finally:
        store.close()


def test_a_listing_without_search_is_counted(path: Path) -> None:
    store = MemoryStore.open(path, clock=ManualClock(NOW))
    try:
        flt = MemoryFilter(status="active", sort="promoted", descending=True)
        every = store.list_ids(flt)
        assert store.first_ids(flt, LIMIT) == (every[:LIMIT], len(every))
    finally:
        store.close()


@pytest.mark.parametrize("read_only", [False, True], ids=["index", "no-index"])
def test_first_hits_along_the_listing_without_search_are_the_head_of_the_search(
    path: Path, read_only: bool
) -> None:
    """`first_hits` walks the order of the same listing without the search, a chunk of ids per query:
    the same head as the complete search listing; None where the search index narrows the term
    (`first_ids` reads it faster)."""
    store = MemoryStore.open(path, clock=ManualClock(NOW), read_only=read_only)
    try:
        for status in ("all", "active"):
            for sort in SORT_KEYS:
                for descending in (True, False):
                    base = MemoryFilter(status=status, sort=sort, descending=descending)
                    order = store.list_ids(base)
                    for term in (COMMON, MIDDLING, RARE, f"{COMMON} memory", "nothing-like-this"):
                        flt = replace(base, search=term)
                        hits = store.first_hits(flt, order, LIMIT, lambda: True)
                        head = store.list_ids(flt)[:LIMIT]
                        if read_only:
                            assert hits == head, flt
                        else:  # the index narrows these terms whenever it is known current
                            assert hits is None or hits == head, flt
        assert store.first_hits(MemoryFilter(), [1, 2], LIMIT, lambda: True) is None  # no search
    finally:
        store.close()


def test_first_hits_stop_when_superseded_and_find_only_ids_of_the_order(path: Path) -> None:
    store = MemoryStore.open(path, clock=ManualClock(NOW), read_only=True)  # no index: every term walks
    try:
        order = store.list_ids(MemoryFilter(status="all"))
        flt = MemoryFilter(status="all", search=MIDDLING)
        every = store.list_ids(flt)
        assert len(every) > LIMIT
        asked: list[bool] = []

        def go_on() -> bool:  # superseded after the first query
            asked.append(True)
            return False

        found = store.first_hits(flt, order, len(order), go_on)
        assert found == [i for i in order[:FIRST_HITS_CHUNK] if i in set(every)] and len(asked) == 1
        assert found is not None and len(found) < len(every)
        missing = every[0]  # e.g. promoted after the order was read
        walked = store.first_hits(flt, [i for i in order if i != missing], LIMIT, lambda: True)
        assert walked == [i for i in every if i != missing][:LIMIT]
    finally:
        store.close()
