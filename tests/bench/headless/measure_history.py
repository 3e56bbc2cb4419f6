"""The measurements of the past: blame of the 50-revision memory, and the profile as of an
instant at the start, the middle and the end of the revision log, each beside a raw sqlite3 floor on the
same file."""

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
Times = tuple[list[float], list[float]]
Counted = Callable[[], int]


def _within(times: Times, target: float) -> str:
    ours = statistics.median(times[0])
    verdict = "pass" if ours <= target else "MISS"
    return f"{ours * 1e3:.1f} ms against the target of {target * 1e3:.0f} ms: {verdict}"


def _side_by_side(
    db: BenchDb,
    work: Path,
    rounds: int,
    calls: Callable[[MemoryStore, sqlite3.Connection], tuple[Counted, Counted]],
) -> tuple[Times, dict[str, int]]:
    """Ours and the floor on a fresh copy after the store's first look; each call returns a count."""
    path = fresh_copy(db.path, work)
    store = MemoryStore.open(path)
    store.observe()  # the first look, as when the window opened
    raw = sqlite3.connect(path)
    ours, floor = calls(store, raw)
    found: dict[str, int] = {}
    times = side_by_side(
        rounds,
        lambda: lambda: found.__setitem__("ours", ours()),
        lambda: lambda: found.__setitem__("floor", floor()),
    )
    store.close()
    raw.close()
    return times, found


def blame(db: BenchDb, work: Path, rounds: int) -> Result:
    sql = "SELECT previous_content, new_content FROM mdash_revisions WHERE memory_id = ? ORDER BY changed_at"

    def calls(store: MemoryStore, raw: sqlite3.Connection) -> tuple[Counted, Counted]:
        return (
            lambda: len(store.blame(db.diff_memory_id).lines),
            lambda: len(raw.execute(sql, (db.diff_memory_id,)).fetchall()),
        )

    times, found = _side_by_side(db, work, rounds, calls)
    note = (
        f"{found['floor']} revisions of ~64 KiB, {found['ours']} lines blamed; floor = raw sqlite3 reading"
        f" their texts; {_within(times, BLAME_TARGET_S)}"
    )
    return result("blame a 50-revision memory", times, None, note)


# Where in the revision log the instant falls: its first fiftieth (few memories existed, nearly all were
# created since), its middle, its last fiftieth (nearly every memory as it is now).
AS_OF_POSITIONS = (("start", 1, 50), ("middle", 1, 2), ("end", 49, 50))


Counts = dict[str, int]


def _profile_at(store: MemoryStore, raw: sqlite3.Connection, at: int, rounds: int) -> tuple[Times, Counts]:
    sql = "SELECT id, content FROM user_memories WHERE status = 'active' ORDER BY promoted_at, id"
    found: Counts = {}
    times = side_by_side(
        rounds,
        lambda: lambda: found.__setitem__("ours", len(store.profile_as_of(at))),
        lambda: lambda: found.__setitem__("floor", len(raw.execute(sql).fetchall())),
    )
    return times, found


def profile_as_of(db: BenchDb, work: Path, rounds: int) -> list[Result]:
    """The profile as of an instant at the start, the middle and the end of the log, each round beside
    the floor (today's profile read by raw sqlite3), on one copy after the store's first look."""
    nth = "SELECT changed_at FROM mdash_revisions ORDER BY changed_at LIMIT 1 OFFSET ?"
    path = fresh_copy(db.path, work)
    store = MemoryStore.open(path)
    store.observe()  # the first look, as when the window opened
    raw = sqlite3.connect(path)
    results = []
    for where, part, whole in AS_OF_POSITIONS:
        at = int(raw.execute(nth, (db.revisions * part // whole,)).fetchone()[0])
        times, found = _profile_at(store, raw, at, rounds)
        note = (
            f"as of the {where} of {db.revisions:,} revisions: {found['ours']:,} memories then (floor: the"
            f" current profile, {found['floor']:,} rows, read by raw sqlite3);"
            f" {_within(times, PROFILE_AS_OF_TARGET_S)}"
        )
        results.append(result(f"profile as of the {where} of the log", times, None, note))
    store.close()
    raw.close()
    return results
