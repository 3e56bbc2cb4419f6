"""The store's rows on PostgreSQL next to SQLite's: the same calls on the same data, one engine each.

The rows: search (the listing and its first screen), a look with nothing new, the counts, a long history,
its blame, the profile as of a past instant, one edit, opening read-only, a verdict, observing outside
rewrites. The generated SQLite file is copied row for row into a PostgreSQL database (`COPY`), once;
writes get a fresh copy every round (`CREATE DATABASE ... TEMPLATE`, a file-level copy on the server).
Each row's `ours` is the call on PostgreSQL and its `floor` the same call on the SQLite file, so the
ratio says what the server costs; no target (report only). The server: MEMORY_DASHBOARD_TEST_PG, else a
throwaway cluster (`tests/support/pg_cluster.py`) where PostgreSQL's programs are installed, else the rows are
skipped with a message.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import sqlite3
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg
from sqlalchemy import make_url

from app.review import apply_verdict, parse_verdict
from app.store import MemoryFilter, MemoryStore
from app.store.schema.tables import HOST_TABLES, OWN_TABLES, VERSION_TABLE
from tests.bench.generate import BenchDb
from tests.bench.headless.measure_store import REWRITES
from tests.bench.timing import Result, fresh_copy, result, side_by_side
from tests.bench.verdict_case import build_verdict
from tests.support import pg_cluster

SOURCE = "mdash_bench_source"
IDENTITIES = (("user_memories", "id"), ("user_memory_candidates", "id"), ("mdash_revisions", "id"))
_copies = itertools.count(1)


def _conninfo(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def _with_database(url: str, name: str) -> str:
    return make_url(url).set(database=name).render_as_string(hide_password=False)


@contextmanager
def _server() -> Iterator[str | None]:
    given = os.environ.get(pg_cluster.URL_ENV)
    if given:
        yield given
        return
    if pg_cluster.server_bindir() is None:
        yield None
        return
    folder, url = pg_cluster.start()
    try:
        yield url
    finally:
        pg_cluster.stop(folder)


def _admin(server: str, sql: str) -> None:
    with psycopg.connect(_conninfo(server), autocommit=True) as conn:
        conn.execute(sql)


def _load(db: BenchDb, server: str) -> str:
    """The generated file's rows in a new database (tables made by the store itself); returns its URL."""
    _admin(server, f'DROP DATABASE IF EXISTS "{SOURCE}" WITH (FORCE)')
    _admin(server, f'CREATE DATABASE "{SOURCE}"')
    url = _with_database(server, SOURCE)
    MemoryStore.open(url, sweep=False).close()  # the host's tables and ours, at head
    source = sqlite3.connect(db.path)
    tables = [*HOST_TABLES, *(t for t in OWN_TABLES if t != VERSION_TABLE)]
    try:
        with psycopg.connect(_conninfo(url)) as conn:
            for table in tables:
                conn.execute(f"DELETE FROM {table}")
                rows = source.execute(f"SELECT * FROM {table}")
                names = ", ".join(column[0] for column in rows.description)
                with conn.cursor().copy(f"COPY {table} ({names}) FROM STDIN") as copy:
                    for row in rows:
                        copy.write_row(row)
            conn.execute("DELETE FROM mdash_meta WHERE key LIKE 'search%'")
            for table, column in IDENTITIES:
                conn.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'), max({column}))"
                    f" FROM {table}"
                )
        _admin(url, "VACUUM ANALYZE")
    finally:
        source.close()
    return url


def _fresh(server: str) -> str:
    """A private copy of the loaded database, for a round that writes."""
    name = f"mdash_bench_{next(_copies)}"
    _admin(server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    _admin(server, f'CREATE DATABASE "{name}" TEMPLATE "{SOURCE}"')
    return _with_database(server, name)


def _drop(server: str, url: str) -> None:
    _admin(server, f'DROP DATABASE IF EXISTS "{make_url(url).database}" WITH (FORCE)')


def _both(
    db: BenchDb, work: Path, rounds: int, url: str, call: Callable[[MemoryStore], int]
) -> tuple[tuple[list[float], list[float]], dict[str, int]]:
    """The same store call on PostgreSQL and on a copy of the SQLite file, after each store's first look,
    round by round; each call returns a count, which must agree."""
    stores = {"pg": MemoryStore.open(url), "sqlite": MemoryStore.open(fresh_copy(db.path, work))}
    found: dict[str, int] = {}
    for store in stores.values():
        store.observe()  # the first look, as when the window opened

    def calling(engine: str) -> Callable[[], Callable[[], object]]:
        return lambda: lambda: found.__setitem__(engine, call(stores[engine]))

    try:
        times = side_by_side(rounds, calling("pg"), calling("sqlite"))
    finally:
        for store in stores.values():
            store.close()
    assert found["pg"] == found["sqlite"], found
    return times, found


def _search(db: BenchDb, work: Path, rounds: int, url: str, term: str, label: str) -> Result:
    flt = MemoryFilter(status="all", search=term)
    times, found = _both(db, work, rounds, url, lambda store: len(store.list_ids(flt)))
    note = (
        f"'{term}': {found['pg']:,} hits; the listing call (observe + search + sort); PostgreSQL: ILIKE,"
        " narrowed by the pg_trgm index on mdash_seen where the term is selective"
    )
    return result(f"PostgreSQL: search ({label})", times, None, note)


def _first_screen_of_search(db: BenchDb, work: Path, rounds: int, url: str, term: str, label: str) -> Result:
    flt = MemoryFilter(status="all", search=term)
    times, _ = _both(db, work, rounds, url, lambda store: len(store.first_ids(flt, 60)[0]))
    note = f"'{term}': the first 60 ids, as the window's first screen asks (`first_ids`)"
    return result(f"PostgreSQL: search, first screen ({label})", times, None, note)


def _reads(db: BenchDb, work: Path, rounds: int, url: str) -> list[Result]:
    """The store's common reads, each on both engines: a look with nothing new, the counts, a long
    history, its blame, the profile as of the middle of the revision log."""
    with sqlite3.connect(db.path) as raw:
        middle = "SELECT changed_at FROM mdash_revisions ORDER BY changed_at LIMIT 1 OFFSET ?"
        at = int(raw.execute(middle, (db.revisions // 2,)).fetchone()[0])
    memory = db.diff_memory_id
    rows: list[tuple[str, Callable[[MemoryStore], int], str]] = [
        ("a look with nothing new (observe)", lambda store: len(store.observe()), "the change watch's look"),
        ("counts by status", lambda store: store.counts().total, "the filter row's numbers"),
        (
            "history of a 50-revision memory",
            lambda store: len(store.history(memory, texts=False, newest_whole=True)),
            "listed without texts, the newest whole (as a selection reads it)",
        ),
        ("blame a 50-revision memory", lambda store: len(store.blame(memory).lines), "64 KiB texts"),
        ("profile as of a past instant", lambda store: len(store.profile_as_of(at)), "the middle of the log"),
    ]
    found = []
    for label, call, note in rows:
        times, _ = _both(db, work, rounds, url, call)
        found.append(result(f"PostgreSQL: {label}", times, None, note))
    return found


def _rewrite_pg(url: str, db: BenchDb, seed: int) -> None:
    ids = random.Random(seed).sample(range(1, db.memories + 1), REWRITES)
    with psycopg.connect(_conninfo(url)) as conn, conn.cursor() as cursor:
        cursor.executemany(
            "UPDATE user_memories SET content = content || ' (rewritten by the host)', updated_at = %s"
            " WHERE id = %s",
            [(db.now + n, memory_id) for n, memory_id in enumerate(ids)],
        )


class _Copies:
    """Fresh copies of the data on either engine ("pg" or "sqlite"), for rounds that write."""

    def __init__(self, db: BenchDb, work: Path, server: str) -> None:
        self.db, self.work, self.server = db, work, server

    def fresh(self, engine: str) -> str:
        return _fresh(self.server) if engine == "pg" else str(fresh_copy(self.db.path, self.work))

    def discard(self, engine: str, target: str) -> None:
        if engine == "pg":
            _drop(self.server, target)

    def rewrite(self, engine: str, target: str) -> None:
        """The host's outside rewrites, in plain SQL on that engine."""
        from tests.bench.headless.measure_store import _rewrite

        if engine == "pg":
            _rewrite_pg(target, self.db, seed=1)
        else:
            _rewrite(Path(target), self.db, seed=1)


def _observe(copies: _Copies, rounds: int) -> Result:
    found: dict[str, int] = {}

    def observing(engine: str) -> Callable[[], Callable[[], object]]:
        def prepare() -> Callable[[], object]:
            target = copies.fresh(engine)
            store = MemoryStore.open(target)
            store.observe()
            copies.rewrite(engine, target)

            def run() -> None:
                found[engine] = len(store.observe())
                store.close()
                copies.discard(engine, target)

            return run

        return prepare

    times = side_by_side(rounds, observing("pg"), observing("sqlite"))
    note = f"{found.get('pg', 0):,} observed revisions (SQLite: {found.get('sqlite', 0):,})"
    return result(f"PostgreSQL: observe {REWRITES:,} outside rewrites", times, None, note)


def _apply(copies: _Copies, rounds: int) -> Result:
    verdict_json = json.dumps(build_verdict(copies.db))
    counts: dict[str, str] = {}

    def applying(engine: str) -> Callable[[], Callable[[], object]]:
        def prepare() -> Callable[[], object]:
            target = copies.fresh(engine)
            store = MemoryStore.open(target)

            def run() -> None:
                outcome = apply_verdict(store, parse_verdict(json.loads(verdict_json)), run_id="bench")
                counts[engine] = outcome.counts_line()
                store.close()
                copies.discard(engine, target)

            return run

        return prepare

    times = side_by_side(rounds, applying("pg"), applying("sqlite"))
    return result("PostgreSQL: apply a verdict (500/500/3,000)", times, None, counts.get("pg", ""))


def _edit(copies: _Copies, rounds: int) -> Result:
    """One edit of one memory (a write: its revision, the profile bump) on a store already open; the
    store is closed and its copy dropped outside the clock, before the next round."""
    found: dict[str, int] = {}
    leftovers: list[Callable[[], None]] = []

    def tidy() -> None:
        while leftovers:
            leftovers.pop()()

    def editing(engine: str) -> Callable[[], Callable[[], object]]:
        def prepare() -> Callable[[], object]:
            tidy()
            target = copies.fresh(engine)
            store = MemoryStore.open(target)
            store.observe()

            def close() -> None:
                store.close()
                copies.discard(engine, target)

            leftovers.append(close)
            return lambda: found.__setitem__(engine, len(store.edit(1, "Prefers pnpm, edited").content))

        return prepare

    try:
        times = side_by_side(rounds, editing("pg"), editing("sqlite"))
    finally:
        tidy()
    return result("PostgreSQL: edit one memory", times, None, "its revision and the profile bump")


def _first_screen(db: BenchDb, work: Path, rounds: int, url: str) -> Result:
    def opening(target: Callable[[], str]) -> Callable[[], Callable[[], object]]:
        def prepare() -> Callable[[], object]:
            chosen = target()  # a file copy is made before the clock starts

            def run() -> object:
                store = MemoryStore.open(chosen, read_only=True)
                ids = store.first_ids(MemoryFilter(), 60)
                store.close()
                return ids

            return run

        return prepare

    times = side_by_side(rounds, opening(lambda: url), opening(lambda: str(fresh_copy(db.path, work))))
    return result("PostgreSQL: open read-only + first 60 ids", times, None, "a store opened, counted, listed")


def store_rows(db: BenchDb, work: Path, rounds: int) -> list[Result]:
    """Every PostgreSQL row, or none (with a message) where no server can be had."""
    with _server() as server:
        if server is None:
            print(f"  PostgreSQL rows skipped: {pg_cluster.HOW_TO}", file=sys.stderr)
            return []
        url = _load(db, server)
        try:
            return [
                _search(db, work, rounds, url, db.rare_term, "rare term"),
                _search(db, work, rounds, url, db.common_term, "common term"),
                _first_screen_of_search(db, work, rounds, url, db.rare_term, "rare term"),
                _first_screen_of_search(db, work, rounds, url, db.common_term, "common term"),
                *_reads(db, work, rounds, url),
                _edit(_Copies(db, work, server), rounds),
                _first_screen(db, work, rounds, url),
                _apply(_Copies(db, work, server), rounds),
                _observe(_Copies(db, work, server), rounds),
            ]
        finally:
            _admin(server, f'DROP DATABASE IF EXISTS "{SOURCE}" WITH (FORCE)')
