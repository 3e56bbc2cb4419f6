"""The digest ("since you last looked") with 1,000 changes since the watermark, and its floor.

The changes are 1,000 rewrites the host made outside the dashboard, already observed (their revisions are
recorded), as when the window opens after the host's review ran: ours = `MemoryStore.digest()`, its look
for anything newer included; the floor = raw `sqlite3` reading the same revisions and the candidates.
The target is absolute (300 ms at 100,000 memories): the row's ratio is the median over 300 ms.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

from app.store import MemoryStore
from tests.bench.generate import BenchDb
from tests.bench.headless.measure_store import REWRITES, _rewrite
from tests.bench.timing import Result, fresh_copy, result, side_by_side

TARGET_S = 0.300


def digest(db: BenchDb, work: Path, rounds: int) -> Result:
    path = fresh_copy(db.path, work)
    store = MemoryStore.open(path)
    store.observe()  # the first look: the baseline
    mark = store.mark_seen()
    _rewrite(path, db, seed=7)
    store.observe()  # the rewrites recorded, as the window's first listing does
    raw = sqlite3.connect(path)
    found: dict[str, int] = {}

    def ours() -> Callable[[], object]:
        return lambda: found.__setitem__("ours", len(store.digest().changes))

    def floor() -> Callable[[], object]:
        def run() -> None:
            rows = raw.execute("SELECT * FROM mdash_revisions WHERE id > ?", (mark.revision_id,)).fetchall()
            raw.execute("SELECT * FROM user_memory_candidates WHERE created_at > ?", (mark.at,)).fetchall()
            found["floor"] = len(rows)

        return run

    times = side_by_side(rounds, ours, floor)
    store.close()
    raw.close()
    assert found["ours"] >= REWRITES, found
    row = result("digest, 1,000 changes since the watermark", times, 1.0)
    row.note = (
        f"{found['ours']:,} changes; target {TARGET_S * 1e3:.0f} ms absolute (ratio = median / target);"
        f" {row.ours / row.floor:.1f}× the raw read"
    )
    row.ratio_override = row.ours / TARGET_S
    return row
