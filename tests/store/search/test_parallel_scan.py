"""A listing read as parallel id-range scans (`app.store.search.parallel_scan`) is exactly the single query's.

Forced on with a span threshold of 0, on small real SQLite files: every status filter, sort key and
direction, with and without search terms, writable and read-only, with 2 and 3 parts; and it gives way
to the single query when a commit lands during the scan or a key is not an integer.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from hostdb import DAY, HOUR, T0, build_host_db, host_sql, memory_row

from app.core.clock import ManualClock
from app.store import MemoryFilter, MemoryStore
from app.store.read.query import SORT_KEYS, STATUS_FILTERS
from app.store.search import index as search_index
from app.store.search import parallel_scan

NOW = 1_800_000_000_000
WORDS = ["pnpm", "yarn", "Tabs", "spaces", "review", "commit", "100%", "snake_case", "ärger", "x"]
SEARCHES = ["", "pnpm", "a", "yarn tabs", "100%", "_case", "#5", "5", "nothing-like-this"]


@pytest.fixture
def host(tmp_path: Path) -> Path:
    """400 memories with gaps in the ids, many ties in promoted_at and updated_at, three statuses."""
    path = build_host_db(tmp_path / "context.db", seed=False)
    rng = random.Random(11)
    conn = sqlite3.connect(path)
    for memory_id in range(1, 461):
        if memory_id % 7 == 3:
            continue  # gaps
        content = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 8)))
        promoted = T0 + (memory_id % 17) * HOUR  # ties: ordering falls back to the id
        updated = promoted + (rng.choice([0, 0, HOUR, 3 * DAY]))
        status = rng.choice(["active"] * 6 + ["dismissed", "archived"])
        memory_row(
            conn, memory_id, content, promoted_at=promoted, updated_at=updated, status=status, ids=[memory_id]
        )
    conn.commit()
    conn.close()
    return path


@pytest.fixture
def no_index(monkeypatch: pytest.MonkeyPatch) -> None:
    """The search index narrows nothing, so every search is the scan this module splits."""
    monkeypatch.setattr(search_index, "selective_terms", lambda conn, terms, cap=0: [])


@pytest.fixture
def merges(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Counts the listings the parallel path answered (a spy on the merge; the database is real)."""
    answered: list[int] = []
    merge = parallel_scan._merge

    def spy(rows: list[tuple[str]], shift: int, descending: bool) -> list[int] | None:
        ids = merge(rows, shift, descending)
        if ids is not None:
            answered.append(len(ids))
        return ids

    monkeypatch.setattr(parallel_scan, "_merge", spy)
    yield answered


def _single(store: MemoryStore, flt: MemoryFilter, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    with monkeypatch.context() as patch:
        patch.setattr(parallel_scan, "PARALLEL_MIN_SPAN", 2**62)
        return store.list_ids(flt, observe=False)


def _parallel(store: MemoryStore, flt: MemoryFilter, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    with monkeypatch.context() as patch:
        patch.setattr(parallel_scan, "PARALLEL_MIN_SPAN", 0)
        return store.list_ids(flt, observe=False)


def _with_own_facts(path: Path, clock: ManualClock) -> MemoryStore:
    """A store whose own tables hold rewrites and expiries, the clock moved past some of them."""
    store = MemoryStore.open(path, clock=clock, sweep=False)
    store.list_ids()
    for memory_id in (1, 2, 4, 8, 16, 32, 64, 128):
        store.edit(memory_id, f"edited {memory_id} pnpm")
    active = [memory.id for memory in store.list_memories(MemoryFilter(status="active"))]
    for memory_id in active[::9]:
        store.set_expiry(memory_id, NOW + DAY)
    for memory_id in active[4::13]:
        store.set_expiry(memory_id, NOW + 5 * DAY)
    host_sql(
        path, "UPDATE user_memories SET content = content || ' pnpm', updated_at = ? WHERE id = 9", (NOW,)
    )
    store.list_ids()  # observe the outside rewrite
    clock.advance(2 * DAY)  # the first expiries have passed (not swept: a listing shows them expired)
    return store


def _compare_every_listing(
    store: MemoryStore, monkeypatch: pytest.MonkeyPatch, merges: list[int], searches: list[str]
) -> None:
    for status in STATUS_FILTERS:
        for sort in SORT_KEYS:
            for descending in (False, True):
                for text in searches:
                    flt = MemoryFilter(status=status, search=text, sort=sort, descending=descending)
                    before = len(merges)
                    expected = _single(store, flt, monkeypatch)
                    assert len(merges) == before  # the single query really was the single query
                    assert _parallel(store, flt, monkeypatch) == expected, flt
                    assert len(merges) == before + 1  # and the parallel path really answered


@pytest.mark.usefixtures("no_index")
@pytest.mark.parametrize("parts", [2, 3])
def test_parallel_listing_is_the_single_query(
    host: Path, monkeypatch: pytest.MonkeyPatch, merges: list[int], parts: int
) -> None:
    monkeypatch.setattr(parallel_scan, "PARTS", parts)
    store = _with_own_facts(host, ManualClock(NOW))
    expired = _single(store, MemoryFilter(status="expired"), monkeypatch)
    expiring = _single(store, MemoryFilter(status="expiring"), monkeypatch)
    rewritten = _single(store, MemoryFilter(status="rewritten"), monkeypatch)
    assert expired and expiring and rewritten  # the filters have something to find
    _compare_every_listing(store, monkeypatch, merges, SEARCHES)
    store.close()


@pytest.mark.usefixtures("no_index")
def test_read_only_store(host: Path, monkeypatch: pytest.MonkeyPatch, merges: list[int]) -> None:
    clock = ManualClock(NOW)
    _with_own_facts(host, clock).close()
    host_sql(host, "UPDATE user_memories SET content = 'yarn again', updated_at = ? WHERE id = 10", (NOW,))
    reader = MemoryStore.open(host, clock=clock, read_only=True)
    assert reader.read_only
    reader.list_ids()
    _compare_every_listing(reader, monkeypatch, merges, ["", "pnpm", "yarn", "#5"])
    reader.close()


def test_a_commit_during_the_scan_falls_back_to_the_single_query(
    host: Path, monkeypatch: pytest.MonkeyPatch, merges: list[int]
) -> None:
    store = MemoryStore.open(host, clock=ManualClock(NOW))
    store.list_ids()
    run = parallel_scan._run_side_by_side

    def commit_midway(*args: object) -> list[tuple[str]]:
        rows = run(*args)  # type: ignore[arg-type]
        host_sql(host, "UPDATE user_memories SET promoted_at = 0 WHERE id = 1")  # another process commits
        return rows

    before = _single(store, MemoryFilter(sort="promoted"), monkeypatch)
    assert before[0] != 1
    monkeypatch.setattr(parallel_scan, "_run_side_by_side", commit_midway)
    listing = _parallel(store, MemoryFilter(sort="promoted"), monkeypatch)
    assert merges == []  # the parts' result was dropped
    assert listing == before  # the single query, in the caller's snapshot (taken before the commit)
    monkeypatch.setattr(parallel_scan, "_run_side_by_side", run)
    after = _parallel(store, MemoryFilter(sort="promoted"), monkeypatch)
    assert after[0] == 1
    assert after == _single(store, MemoryFilter(sort="promoted"), monkeypatch)
    assert len(merges) == 1
    store.close()


@pytest.mark.parametrize("promoted_at", ["soon", 1.5, 2**62])
def test_keys_it_cannot_pack_fall_back(
    host: Path, monkeypatch: pytest.MonkeyPatch, merges: list[int], promoted_at: object
) -> None:
    """Text or real keys (SQLite orders types its own way) and keys past 64 bits once packed."""
    host_sql(host, "UPDATE user_memories SET promoted_at = ? WHERE id = 20", (promoted_at,))
    store = MemoryStore.open(host, clock=ManualClock(NOW))
    for descending in (False, True):
        flt = MemoryFilter(sort="promoted", descending=descending)
        assert _parallel(store, flt, monkeypatch) == _single(store, flt, monkeypatch)
    assert merges == []
    by_id = MemoryFilter(sort="id")
    assert _parallel(store, by_id, monkeypatch) == _single(store, by_id, monkeypatch)
    assert len(merges) == 1  # the id key still packs
    store.close()


def test_small_store_keeps_the_single_query(host: Path, merges: list[int]) -> None:
    store = MemoryStore.open(host, clock=ManualClock(NOW))
    assert len(store.list_ids()) > 300
    assert merges == []  # 460 ids span less than PARALLEL_MIN_SPAN
    store.close()


def test_the_search_index_still_serves_selective_terms(host: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The scan's connections come from a pool of their own: the store's pool, and the connection whose
    data version says nothing changed (which lets the index be trusted), stay as they were."""
    monkeypatch.setattr(parallel_scan, "PARALLEL_MIN_SPAN", 0)
    store = MemoryStore.open(host, clock=ManualClock(NOW))
    if not store.fill_search_index():
        pytest.skip("this SQLite has no FTS5 trigram tokenizer")
    narrowed: list[str] = []
    matching = search_index.matching_ids
    monkeypatch.setattr(search_index, "matching_ids", lambda term: narrowed.append(term) or matching(term))
    store.list_ids()
    store.list_ids(MemoryFilter(search="a"))  # too short for the index: the parallel scan
    found = store.list_ids(MemoryFilter(search="ärger"))
    assert narrowed == ["ärger"]
    assert found == _single(store, MemoryFilter(search="ärger"), monkeypatch)
    store.close()


@pytest.mark.parametrize("memory_id", [-3, 2**62 + 5])
def test_ids_it_cannot_pack_fall_back(
    host: Path, monkeypatch: pytest.MonkeyPatch, merges: list[int], memory_id: int
) -> None:
    conn = sqlite3.connect(host)
    memory_row(conn, memory_id, "an odd id pnpm", promoted_at=T0)
    conn.commit()
    conn.close()
    store = MemoryStore.open(host, clock=ManualClock(NOW))
    for sort in SORT_KEYS:
        flt = MemoryFilter(sort=sort)
        listing = _parallel(store, flt, monkeypatch)
        assert listing == _single(store, flt, monkeypatch)
        assert memory_id in listing
    assert merges == []
    store.close()


def test_bounds_read_the_ends_of_the_id_tree_not_every_row(host: Path, tmp_path: Path) -> None:
    # `SELECT min(id), max(id)` reads every row (18 ms at 100,000 memories); each in its own subquery
    # reads one end of the rowid b-tree.
    conn = sqlite3.connect(host)
    ids = [row[0] for row in conn.execute("SELECT id FROM user_memories")]
    assert conn.execute(parallel_scan._BOUNDS).fetchone() == (min(ids), max(ids))
    assert conn.execute(parallel_scan._SPAN).fetchone() == (max(ids) - min(ids),)
    for query in (parallel_scan._BOUNDS, parallel_scan._SPAN):
        plan = [row[3] for row in conn.execute(f"EXPLAIN QUERY PLAN {query}")]
        assert not any(step.startswith("SCAN user_memories") for step in plan), plan
    conn.close()
    empty = sqlite3.connect(build_host_db(tmp_path / "empty.db", seed=False))
    assert empty.execute(parallel_scan._BOUNDS).fetchone() == (None, None)
    assert empty.execute(parallel_scan._SPAN).fetchone() == (None,)
    empty.close()
