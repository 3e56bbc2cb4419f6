"""The evidence archive's look when nothing is new, and the Runs list's first screen.

The archive's part of a look is one probe for candidates above the archive's highest id (the host's
ids only grow), inside the read transaction the look has open; its floor is the same probe in raw
sqlite3. The Runs list reads every run (the dashboard's
review runs and the host's `dream_runs`, each host run with the count of observed rewrites in its window);
its floor reads the same rows, decodes their JSON and counts in raw sqlite3.
"""

from __future__ import annotations

import json
import random
import sqlite3
import statistics
from collections.abc import Callable
from pathlib import Path

from sqlalchemy import create_engine

from app.store import MemoryStore
from app.store.evidence import archive
from tests.bench.generate import DAY, BenchDb
from tests.bench.timing import Result, fresh_copy, result, side_by_side

OWN_RUNS = 500
HOST_RUNS = 500
HOST_TABLE = (
    "CREATE TABLE dream_runs (id INTEGER PRIMARY KEY AUTOINCREMENT, project_path TEXT NOT NULL,"
    " started_at INTEGER NOT NULL, finished_at INTEGER NOT NULL, holder_id TEXT NOT NULL,"
    " tasks_json TEXT NOT NULL)"
)

COUNT_INFERRED = (
    "SELECT count(*) FROM mdash_revisions WHERE source = 'observed' AND changed_at BETWEEN ? AND ?"
)


def _someone_commits(path: Path) -> None:
    """A commit by another connection: the store's change watch cannot skip the next look."""
    conn = sqlite3.connect(path)
    conn.execute("INSERT OR REPLACE INTO dream_state VALUES ('bench', 'x')")
    conn.commit()
    conn.close()


def archive_pass(db: BenchDb, work: Path, rounds: int) -> Result:
    path = fresh_copy(db.path, work)
    store = MemoryStore.open(path)
    store.observe()  # the first look archives every pending candidate
    _someone_commits(path)
    raw = sqlite3.connect(path)
    found: dict[str, object] = {}
    engine = create_engine(f"sqlite:///{path}")  # the archive's part of a look, on a connection of its own
    conn = engine.connect()
    monotonic = archive.ids_never_reused(conn)  # opens the read transaction the probes run in, as in a look

    def ours() -> Callable[[], object]:
        return lambda: found.__setitem__("ours", archive.has_new(conn, monotonic))

    def floor() -> Callable[[], object]:
        sql = "SELECT 1 FROM user_memory_candidates WHERE id > (SELECT max(candidate_id) FROM mdash_evidence)"
        return lambda: found.__setitem__("floor", raw.execute(sql + " LIMIT 1").fetchone() is not None)

    times = side_by_side(rounds, ours, floor)
    skipped = side_by_side(rounds, lambda: store.observe, lambda: lambda: None)
    store.close()
    raw.close()
    conn.close()
    engine.dispose()
    assert found["ours"] is False and found["floor"] is False, found
    note = (
        f"{db.pending:,} candidates archived, {db.memories:,} memories, ids only grow: {monotonic};"
        f" ours {statistics.median(times[0]) * 1e3:.3f} ms (budget 5 ms); a whole look when nobody"
        f" committed (change watch): {statistics.median(skipped[0]) * 1e3:.3f} ms"
    )
    # Report only: a query this small is SQLAlchemy's per-statement overhead against raw sqlite3's (about
    # three to four times), while the budget that matters is absolute (the note's 5 ms).
    return result("archive pass, nothing new", times, None, note)


def _runs(path: Path, db: BenchDb) -> None:
    """500 dashboard runs (ids the generated revisions carry) and 500 host review runs of a minute each."""
    rng = random.Random(7)
    conn = sqlite3.connect(path)
    conn.executemany(
        "INSERT OR IGNORE INTO mdash_review_runs VALUES (?, ?, 'bench', ?)",
        [
            (f"review-{n:05d}", db.now - n * DAY // 10, json.dumps({"promoted": 1, "updated": 3}))
            for n in range(OWN_RUNS)
        ],
    )
    conn.execute(HOST_TABLE)
    tasks = json.dumps([{"name": "verify"}, {"name": "review-user-memories", "durationMs": 900}])
    rows = []
    for _ in range(HOST_RUNS):
        start = db.now - rng.randrange(700) * DAY
        rows.append(("git:bench", start, start + 60_000, "dreamer", tasks))
    conn.executemany(
        "INSERT INTO dream_runs (project_path, started_at, finished_at, holder_id, tasks_json)"
        " VALUES (?, ?, ?, ?, ?)",
        rows,
    )
    conn.commit()
    conn.close()


def runs_list(db: BenchDb, work: Path, rounds: int) -> Result:
    path = fresh_copy(db.path, work)
    _runs(path, db)
    store = MemoryStore.open(path)
    store.observe()
    raw = sqlite3.connect(path)
    found: dict[str, int] = {}

    def ours() -> Callable[[], object]:
        return lambda: found.__setitem__("ours", len(store.runs()))

    def floor() -> Callable[[], object]:
        def run() -> None:
            own = raw.execute("SELECT run_id, applied_at, holder, summary FROM mdash_review_runs").fetchall()
            host = raw.execute("SELECT * FROM dream_runs").fetchall()
            for row in own:
                json.loads(row[3])  # the counts a run lists
            for row in host:
                json.loads(row[5])  # whether it reviews user memories
                raw.execute(COUNT_INFERRED, (row[2], row[3])).fetchone()
            found["floor"] = len(own) + len(host)

        return run

    times = side_by_side(rounds, ours, floor)
    store.close()
    raw.close()
    assert found["ours"] == found["floor"] == OWN_RUNS + HOST_RUNS, found
    note = (
        f"{OWN_RUNS} dashboard runs + {HOST_RUNS} host runs (each with its inferred changes counted), every"
        f" run read (the first screen is the whole list); ours {statistics.median(times[0]) * 1e3:.1f} ms"
        " (budget 100 ms), observe included"
    )
    return result("Runs list, first screen", times, 3.0, note)
