"""The hub's rows: a first `hub publish` of the generated data (every memory, every revision) and an
incremental one of 100 outside changes, into a fresh hub database on a PostgreSQL server.

Each row's `floor` is the budget for that size rather than a measured floor (first publish:
60 s per 100,000 memories with 500,000 revisions, scaled to the size run; incremental: 1 s for 100
changes), so a ratio at or under 1 meets it. Every round publishes a fresh copy of the file to a fresh hub
database; the store's opening is inside the time, as for the command. The server: as for the
PostgreSQL rows (`measure_postgres`); without one the rows are skipped with a message.
"""

from __future__ import annotations

import itertools
import sqlite3
import statistics
import sys
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

from sqlalchemy import make_url

from app.hub.publish import PublishReport, publish
from app.hub.schema.setup import setup_hub
from app.store import MemoryStore
from tests.bench.generate import BenchDb
from tests.bench.headless.measure_postgres import _admin, _server, _with_database
from tests.bench.timing import Result, fresh_copy, median_of
from tests.support import pg_cluster

CHANGES = 100
FIRST_BUDGET_S = 60.0  # per 100,000 memories with 500,000 revisions
INCREMENTAL_BUDGET_S = 1.0
_hubs = itertools.count(1)


def _publish(path: Path, hub: str) -> PublishReport:
    return publish(lambda: closing(MemoryStore.open(path, sweep=False)), hub, "bench")


def _change(path: Path, db: BenchDb) -> None:
    """100 outside rewrites, as the host makes them (content and updated_at, plain SQL)."""
    with closing(sqlite3.connect(path)) as conn, conn:
        conn.executemany(
            "UPDATE user_memories SET content = content || ' (changed on this machine)', updated_at = ?"
            " WHERE id = ?",
            [(db.now + 1_000 + n, 1 + n * (db.memories // CHANGES)) for n in range(CHANGES)],
        )


class _Rounds:
    def __init__(self, db: BenchDb, work: Path, server: str) -> None:
        self.db, self.work, self.server = db, work, server
        self.hubs: list[str] = []
        self.reports: dict[str, PublishReport] = {}

    def _new_hub(self) -> str:
        """An empty hub, set up, for one round (dropped by `drop`)."""
        self.hubs.append(_with_database(self.server, f"mdash_bench_hub_{next(_hubs)}"))
        _admin(self.server, f'CREATE DATABASE "{make_url(self.hubs[-1]).database}"')
        setup_hub(self.hubs[-1])  # as the server's administrator, once per hub
        return self.hubs[-1]

    def first(self) -> Callable[[], object]:
        path, hub = fresh_copy(self.db.path, self.work), self._new_hub()
        return lambda: self.reports.__setitem__("first", _publish(path, hub))

    def incremental(self) -> Callable[[], object]:
        path, hub = fresh_copy(self.db.path, self.work), self._new_hub()
        _publish(path, hub)
        _change(path, self.db)
        return lambda: self.reports.__setitem__("incremental", _publish(path, hub))

    def drop(self) -> None:
        for hub in self.hubs:
            _admin(self.server, f'DROP DATABASE IF EXISTS "{make_url(hub).database}" WITH (FORCE)')


def _row(name: str, times: list[float], budget: float, note: str) -> Result:
    return Result(name, statistics.median(times), budget, 1.0, note=note, ours_rounds=times)


def hub_rows(db: BenchDb, work: Path, rounds: int) -> list[Result]:
    """The hub's rows, or none (with a message) where no server can be had."""
    with _server() as server:
        if server is None:
            print(f"  hub rows skipped: {pg_cluster.HOW_TO}", file=sys.stderr)
            return []
        runs = _Rounds(db, work, server)
        try:
            first = median_of(rounds, runs.first)
            incremental = median_of(rounds, runs.incremental)
        finally:
            runs.drop()
    done, later = runs.reports["first"], runs.reports["incremental"]
    scale = db.memories / 100_000
    return [
        _row(
            f"hub: first publish ({db.memories:,} memories)",
            first,
            FIRST_BUDGET_S * scale,
            f"{done.memories:,} memories, {done.revisions:,} revisions in {done.batches} batches; "
            f"floor = the budget, 60 s per 100,000 memories",
        ),
        _row(
            f"hub: incremental publish ({CHANGES} changes)",
            incremental,
            INCREMENTAL_BUDGET_S,
            f"{later.memories} memories sent; floor = the budget, 1 s",
        ),
    ]
