"""Acting on many memories at once: a bulk dismiss of a tenth of the store, and `retire --dry-run`.

At 100,000 memories the budgets are absolute: the dismiss of 10,000 selected memories in one
transaction within 2 s, the dry run within 500 ms; each row's note says the time against its budget.
The floors are the same work in raw sqlite3: the status update, one revision per memory and the profile
bump in one transaction; for the dry run, the LIKE scan of the provenance column and its JSON.
"""

from __future__ import annotations

import json
import sqlite3
import statistics
from collections.abc import Callable
from pathlib import Path

from app.store import MemoryFilter, MemoryStore
from tests.bench.generate import BenchDb
from tests.bench.timing import Result, fresh_copy, result, side_by_side

DISMISS_BUDGET_S = 2.0  # for 10,000 of 100,000
RETIRE_BUDGET_S = 0.5


def _selection(path: Path, db: BenchDb) -> list[int]:
    """A tenth of the store, active memories spread over the whole id range (a Ctrl+A of a filter)."""
    conn = sqlite3.connect(path)
    try:
        active = [int(r[0]) for r in conn.execute("SELECT id FROM user_memories WHERE status='active'")]
    finally:
        conn.close()
    step = max(1, len(active) // (db.memories // 10))
    return active[::step][: db.memories // 10]


def _raw_dismiss(path: Path, ids: list[int], now: int) -> Callable[[], object]:
    def run() -> None:
        conn = sqlite3.connect(path, isolation_level=None)
        conn.execute("BEGIN IMMEDIATE")
        marks = ",".join("?" * len(ids))
        rows = conn.execute(
            f"SELECT id, content, status FROM user_memories WHERE id IN ({marks})", ids
        ).fetchall()
        conn.executemany(
            "UPDATE user_memories SET status='dismissed', updated_at=? WHERE id=?",
            [(now, i) for i, *_ in rows],
        )
        conn.executemany(
            "INSERT INTO mdash_revisions (memory_id, changed_at, kind, source, candidate_ids,"
            " previous_content, new_content, previous_status, new_status) VALUES (?,?,?,?,?,?,?,?,?)",
            [(i, now, "status", "dashboard", "[]", c, c, s, "dismissed") for i, c, s in rows],
        )
        conn.execute(
            "UPDATE project_state SET project_user_profile_version = project_user_profile_version + 1"
            " WHERE project_path = '__global__'"
        )
        conn.execute("COMMIT")
        conn.close()

    return run


def bulk_dismiss(db: BenchDb, work: Path, rounds: int) -> Result:
    done: dict[str, int] = {}

    def ours() -> Callable[[], object]:
        path = fresh_copy(db.path, work)
        store = MemoryStore.open(path)
        store.observe()  # the window's first look
        ids = _selection(path, db)

        def run() -> None:
            done["ours"] = len(store.dismiss(ids))
            store.close()

        return run

    def floor() -> Callable[[], object]:
        path = fresh_copy(db.path, work)
        MemoryStore.open(path).close()  # migrated, as ours
        return _raw_dismiss(path, _selection(path, db), db.now)

    times = side_by_side(rounds, ours, floor)
    median = statistics.median(times[0])
    note = (
        f"{done.get('ours', 0):,} of {db.memories:,} dismissed in one transaction, a revision each, one bump:"
        f" {median:.2f} s (budget {DISMISS_BUDGET_S:g} s for 10,000 of 100,000)"
    )
    return result(f"bulk dismiss of {db.memories // 10:,} selected", times, 3.0, note)


def _session(path: Path) -> str:
    """A session that contributed to a memory in the middle of the store."""
    conn = sqlite3.connect(path)
    try:
        raw = conn.execute(
            "SELECT source_candidate_provenance FROM user_memories WHERE source_candidate_provenance"
            " LIKE '%session_id%' ORDER BY id LIMIT 1 OFFSET (SELECT count(*) / 2 FROM user_memories)"
        ).fetchone()[0]
    finally:
        conn.close()
    return str(json.loads(raw)[0]["session_id"])


def retire_dry_run(db: BenchDb, work: Path, rounds: int) -> Result:
    path = fresh_copy(db.path, work)
    store = MemoryStore.open(path)
    store.observe()
    session = _session(path)
    raw = sqlite3.connect(path)
    found: dict[str, int] = {}

    def ours() -> Callable[[], object]:
        def run() -> None:
            only, shared = store.contributions(f"session:{session}")
            found["ours"] = len(only) + len(shared)

        return run

    def floor() -> Callable[[], object]:
        def run() -> None:
            rows = raw.execute(
                "SELECT id, source_candidate_provenance FROM user_memories"
                " WHERE source_candidate_provenance LIKE ?",
                (f"%{session}%",),
            ).fetchall()
            found["floor"] = sum(any(e["session_id"] == session for e in json.loads(p)) for _, p in rows)

        return run

    times = side_by_side(rounds, ours, floor)
    store.close()
    raw.close()
    assert found["ours"] == found["floor"], found
    median = statistics.median(times[0])
    note = (
        f"session:{session}: {found['ours']} memories; ours = `retire --dry-run`'s store call"
        f" (observe + source filter + rows + only/shared): {median * 1e3:.0f} ms (budget"
        f" {RETIRE_BUDGET_S * 1e3:.0f} ms at 100,000)"
    )
    return result("retire --dry-run (one session)", times, None, note)


def every_session_dry_run(db: BenchDb, work: Path, rounds: int) -> Result:
    """The scheme `session:`: nearly every memory, the worst case of a dry run."""
    path = fresh_copy(db.path, work)
    store = MemoryStore.open(path)
    store.observe()
    raw = sqlite3.connect(path)

    def ours() -> Callable[[], object]:
        return lambda: len(store.contributions("session:")[0])

    def floor() -> Callable[[], object]:
        sql = "SELECT id, source_candidate_provenance FROM user_memories WHERE source_candidate_provenance"
        sql += " LIKE ?"
        return lambda: [json.loads(p) for _, p in raw.execute(sql, ("%session_id%",))]

    times = side_by_side(rounds, ours, floor)
    store.close()
    raw.close()
    return result("retire --dry-run (scheme session:)", times, None, "every memory's card built: report only")


def trust_filter(db: BenchDb, work: Path, rounds: int) -> Result:
    """`list --trust untrusted` (the window's trust filter) with one session marked untrusted: every row
    judged. The floor reads the columns it judges (content and provenance) in raw sqlite3."""
    path = fresh_copy(db.path, work)
    store = MemoryStore.open(path)
    store.observe()
    store.set_trust(f"session:{_session(path)}", "untrusted")
    raw = sqlite3.connect(path)
    found: dict[str, int] = {}

    def ours() -> Callable[[], object]:
        def run() -> None:
            found["ours"] = len(store.list_ids(MemoryFilter(status="all", trust="untrusted")))

        return run

    def floor() -> Callable[[], object]:
        sql = "SELECT id, content, source_candidate_provenance FROM user_memories"
        return lambda: sum(1 for _ in raw.execute(sql))

    times = side_by_side(rounds, ours, floor)
    store.close()
    raw.close()
    note = f"{found.get('ours', 0):,} untrusted of {db.memories:,}, every row judged under the marks"
    return result("trust filter (untrusted, one session marked)", times, None, note)
