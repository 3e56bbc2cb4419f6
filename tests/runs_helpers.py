"""A host `dream_runs` table for tests, shaped as the host's Dreamer records its runs: one row per run with
its start, finish, lease holder and `tasks_json` (a list of `{"name", "durationMs", "result", "error"}`)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

DREAM_RUNS = (
    "CREATE TABLE IF NOT EXISTS dream_runs (id INTEGER PRIMARY KEY AUTOINCREMENT, project_path TEXT NOT NULL,"
    " started_at INTEGER NOT NULL, finished_at INTEGER NOT NULL, holder_id TEXT NOT NULL,"
    " tasks_json TEXT NOT NULL, tasks_succeeded INTEGER NOT NULL DEFAULT 0,"
    " tasks_failed INTEGER NOT NULL DEFAULT 0)"
)


def review_tasks(*names: str) -> str:
    return json.dumps([{"name": name, "durationMs": 1200, "result": {}} for name in names])


def add_dream_run(path: Path, run_id: int, started: object, finished: object, tasks: object) -> None:
    """A row written by the host's own connection (`BEGIN IMMEDIATE`), cells as given (odd ones too)."""
    conn = sqlite3.connect(path, timeout=5, isolation_level=None)
    try:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute(DREAM_RUNS)
        conn.execute(
            "INSERT INTO dream_runs (id, project_path, started_at, finished_at, holder_id, tasks_json)"
            " VALUES (?, 'git:abc', ?, ?, 'dreamer-1', ?)",
            (run_id, started, finished, tasks),
        )
        conn.execute("COMMIT")
    finally:
        conn.close()


@contextmanager
def host_has_it_open(path: Path) -> Iterator[None]:
    """The host holding the file open (its `-wal` and `-shm` exist), so a read-only store reads it live."""
    conn = sqlite3.connect(path)
    try:
        conn.execute("SELECT count(*) FROM user_memories").fetchone()
        yield
    finally:
        conn.close()
