"""A large listing read as parallel scans of id ranges, merged in the listing's order (SQLite files only).

Why: a listing that scans every memory (a search for a common word, most of all) costs one core for the
scan, SQLite's sort and one Python row per id. Here the host table is split into `PARTS` id ranges, each
read on its own connection in its own thread. Each part is one statement that returns one row, its hits
as one JSON array built inside SQLite: Python's `sqlite3` releases the GIL for the whole statement, so
the parts really run side by side, and no Python object is made per row until the array is parsed.
Each hit is the number `key * 2**S + id` (S: the bits of the largest id), which orders exactly as the
pair (key, id) does; Python sorts these numbers (each part comes ordered by SQLite, so the sort merges
a few runs; the order SQLite aggregates in is never relied on) and keeps the low S bits, the ids. So
ties are broken by id in the listing's direction, as `select_ids` orders. A key that is not an integer
(SQLite orders mixed types its own way) or a product past 64 bits (SQLite turns it into a float) makes
the scan give up. The statement is the listing's own (`select_ids`, filters and search unchanged) with
an id range added, so the ids are exactly those of the single query.

The connections come from a pool of their own, made like the store's (same file, same mode), so the
store's pool, and the connection its `ChangeWatch` follows, stay as they were. They read through SQLite's
ordinary page cache, not a memory map: a map would save about 15% of a scan here, but an I/O error on a
mapped file (a network drive, a failing disk) kills the process with a signal instead of raising an
error, and the file is the host's.

One snapshot: the first part's connection opens a read transaction and reads `PRAGMA data_version`,
then every other part starts (each a single statement, so one snapshot each); after all have finished
and that transaction has ended, `data_version` is read again. It moves whenever any other connection
(of this process or another, the host's included) commits. If it did not move, nothing was committed
between the first snapshot and the last, so every part read the same state of the file; if it moved,
the result is dropped and the caller runs the single query. Compared with the caller's own transaction
(where the search index was judged unusable for this search), the parts may read a newer state, as
the listing after an observation already may; the listing is read again after every change anyway.

Returns None (the caller runs the single query) when the listing is small (under `PARALLEL_MIN_SPAN`
ids), another scan is running, an id is negative, a key is not an integer or too large to pack, the
SQLite at hand lacks JSON functions, or anything else goes wrong.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Sequence

from sqlalchemy import (
    ColumnElement,
    Connection,
    Engine,
    Pool,
    PoolProxiedConnection,
    Select,
    case,
    func,
    select,
)

from app.store.schema.tables import user_memories

PARALLEL_MIN_SPAN = 20_000  # below this many ids (max id - min id) the single query is as fast
PARTS = min(4, max(2, os.cpu_count() or 2))
ID_MIN, ID_MAX = -(2**63), 2**63 - 1
MAX_SHIFT = 62  # 2**shift must itself be a SQLite integer

m = user_memories.c
Part = tuple[str, list[object]]


# Each min() and max() in a query of its own: SQLite reads one end of the rowid b-tree for a lone
# min(id) or max(id), but `SELECT min(id), max(id)` (or their difference) reads every row (18 ms at
# 100,000 memories, twice per large listing, against 0.01 ms).
_BOUNDS = "SELECT (SELECT min(id) FROM user_memories), (SELECT max(id) FROM user_memories)"
_SPAN = "SELECT (SELECT max(id) FROM user_memories) - (SELECT min(id) FROM user_memories)"


def worth_it(conn: Connection) -> bool:
    """The host table spans at least `PARALLEL_MIN_SPAN` ids (read on the caller's connection, so a
    small store never opens the scan's connections)."""
    span = conn.exec_driver_sql(_SPAN).scalar()
    return span is not None and int(span) >= PARALLEL_MIN_SPAN


class ParallelScan:
    """The store's scanning connections; one scan at a time (a second concurrent caller gets None)."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._pool: Pool | None = None
        self._lock = threading.Lock()
        self._proxies: list[PoolProxiedConnection] = []
        self._connections: list[sqlite3.Connection] = []

    def sorted_ids(self, query: Select[int], key: ColumnElement[int], descending: bool) -> list[int] | None:
        """The ids `query` (ordered by `key`, then id, in the direction given) returns, or None."""
        if not self._lock.acquire(blocking=False):
            return None
        try:
            return self._scan(query, key, descending)
        except (sqlite3.Error, ValueError, TypeError, OverflowError):
            return None
        finally:
            self._lock.release()

    def close(self) -> None:
        with self._lock:
            for proxy in self._proxies:
                proxy.close()
            self._proxies.clear()
            self._connections.clear()
            if self._pool is not None:
                self._pool.dispose()
                self._pool = None

    def _open(self) -> list[sqlite3.Connection]:
        if self._pool is None:
            self._pool = self._engine.pool.recreate()  # same creator: same file, same mode
        while len(self._connections) < PARTS:
            proxy = self._pool.connect()  # kept checked out until `close`
            self._proxies.append(proxy)
            connection = proxy.driver_connection
            if not isinstance(connection, sqlite3.Connection):
                raise TypeError("not a sqlite3 connection")
            self._connections.append(connection)
        return self._connections[:PARTS]

    def _scan(self, query: Select[int], key: ColumnElement[int], descending: bool) -> list[int] | None:
        first, *others = self._open()
        if first.in_transaction:  # left open by a scan that failed half-way
            first.execute("ROLLBACK")
        first.execute("BEGIN")
        try:
            version = first.execute("PRAGMA data_version").fetchone()
            low, high = first.execute(_BOUNDS).fetchone()
            if low is None or low < 0:
                return None
            shift = max(1, high.bit_length())  # every id of this snapshot is below 2**shift
            if shift > MAX_SHIFT:
                return None
            ranges = _ranges(low, high, len(others) + 1)
            parts = [self._part(query, key, shift, bounds) for bounds in ranges]
            rows = _run_side_by_side(first, others, parts)
        finally:
            first.execute("COMMIT")
        if first.execute("PRAGMA data_version").fetchone() != version:
            return None  # someone committed while the parts ran: their snapshots may differ
        return _merge(rows, shift, descending)

    def _part(self, query: Select[int], key: ColumnElement[int], shift: int, bounds: tuple[int, int]) -> Part:
        low, high = bounds
        packed = case((func.typeof(key) == "integer", key * (1 << shift) + m.id), else_=None)
        hits = query.with_only_columns(packed.label("p")).where(m.id >= low, m.id <= high).subquery()
        statement = select(func.json_group_array(hits.c.p))
        compiled = statement.compile(
            dialect=self._engine.dialect, compile_kwargs={"render_postcompile": True}
        )
        return str(compiled), [compiled.params[name] for name in compiled.positiontup or ()]


def _ranges(low: int, high: int, count: int) -> list[tuple[int, int]]:
    """`count` consecutive, inclusive id ranges, about equal over low..high; together they cover every
    64-bit id (the first starts and the last ends at the limits), so no row can fall between them."""
    step = (high - low + 1) // count
    starts = [ID_MIN] + [low + step * index for index in range(1, count)]
    ends = [start - 1 for start in starts[1:]] + [ID_MAX]
    return list(zip(starts, ends, strict=True))


def _run_side_by_side(
    first: sqlite3.Connection, others: Sequence[sqlite3.Connection], parts: Sequence[Part]
) -> list[tuple[str]]:
    """Part 0 on `first` in this thread, the others on their connections in threads of their own."""
    results: list[tuple[str]] = [("",)] * len(parts)  # an empty text fails to parse: no result
    errors: list[BaseException] = []

    def run(index: int, connection: sqlite3.Connection) -> None:
        try:
            results[index] = connection.execute(*parts[index]).fetchone()  # one row: an aggregate
        except BaseException as exc:  # handed to the caller's thread below
            errors.append(exc)

    threads = [
        threading.Thread(target=run, args=(index, connection), daemon=True)
        for index, connection in enumerate(others, start=1)
    ]
    for thread in threads:
        thread.start()
    try:
        run(0, first)
    finally:
        for thread in threads:
            thread.join()
    if errors:
        raise errors[0]
    return results


def _merge(rows: Sequence[tuple[str]], shift: int, descending: bool) -> list[int] | None:
    """The ids in order from the parts' packed hits; None if a hit is not an integer (see above)."""
    packed: list[int] = []
    for (hits_json,) in rows:
        packed += json.loads(hits_json)
    if set(map(type, packed)) - {int}:
        return None  # null: a key that is not an integer; a float: past 64 bits
    packed.sort(reverse=descending)  # unique numbers (ids are): reversed is exactly key desc, id desc
    mask = (1 << shift) - 1
    return [number & mask for number in packed]
