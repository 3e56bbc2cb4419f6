"""The measurements of the past (issue 15): blame of the 50-revision memory, and the profile as of an
instant in the middle of the revision log, each beside a raw sqlite3 floor on the same file."""

from __future__ import annotations

import sqlite3
import statistics
from collections.abc import Callable
from pathlib import Path

from app.store import MemoryStore
from tests.bench.generate import BenchDb
from tests.bench.timing import Result, fresh_copy, result, side_by_side

BLAME_TARGET_S = 0.050
PROFILE_AS_OF_TARGET_S = 1.0


def _within(times: tuple[list[float], list[float]], target: float) -> str:
    ours = statistics.median(times[0])
    verdict = "pass" if ours <= target else "MISS"
    return f"{ours * 1e3:.1f} ms against the issue's {target * 1e3:.0f} ms: {verdict}"


def blame(db: BenchDb, work: Path, rounds: int) -> Result:
    path = fresh_copy(db.path, work)
    store = MemoryStore.open(path)
    store.list_ids()  # the first look, as when the window opened
    raw = sqlite3.connect(path)
    found: dict[str, int] = {}

    def ours() -> Callable[[], object]:
        return lambda: found.__setitem__("ours", len(store.blame(db.diff_memory_id).lines))

    def floor() -> Callable[[], object]:
        sql = (
            "SELECT previous_content, new_content FROM mdash_revisions WHERE memory_id = ?"
            " ORDER BY changed_at, id"
        )
        return lambda: found.__setitem__("floor", len(raw.execute(sql, (db.diff_memory_id,)).fetchall()))

    times = side_by_side(rounds, ours, floor)
    store.close()
    raw.close()
    note = (
        f"{found['floor']} revisions of ~64 KiB, {found['ours']} lines blamed; floor = raw sqlite3 reading"
        f" their texts; {_within(times, BLAME_TARGET_S)}"
    )
    return result("blame a 50-revision memory", times, None, note)


def profile_as_of(db: BenchDb, work: Path, rounds: int) -> Result:
    path = fresh_copy(db.path, work)
    store = MemoryStore.open(path)
    store.list_ids()
    raw = sqlite3.connect(path)
    middle = raw.execute(
        "SELECT changed_at FROM mdash_revisions ORDER BY changed_at LIMIT 1 OFFSET ?", (db.revisions // 2,)
    ).fetchone()[0]
    found: dict[str, int] = {}

    def ours() -> Callable[[], object]:
        return lambda: found.__setitem__("ours", len(store.profile_as_of(middle)))

    def floor() -> Callable[[], object]:
        sql = "SELECT id, content FROM user_memories WHERE status = 'active' ORDER BY promoted_at, id"
        return lambda: found.__setitem__("floor", len(raw.execute(sql).fetchall()))

    times = side_by_side(rounds, ours, floor)
    store.close()
    raw.close()
    note = (
        f"as of the middle of {db.revisions:,} revisions: {found['ours']:,} memories then (floor: the current"
        f" profile, {found['floor']:,} rows, read by raw sqlite3); {_within(times, PROFILE_AS_OF_TARGET_S)}"
    )
    return result("profile as of a past instant", times, None, note)
