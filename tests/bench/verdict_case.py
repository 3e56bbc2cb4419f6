"""The review measurement's verdict (500 promotions, 500 updates, 3,000 consumed candidates) and its floor.

The floor is raw `sqlite3` making the same row changes in one `BEGIN IMMEDIATE` transaction, every value
computed beforehand: the 500 new memories, the 500 rewritten ones, their 1,000 revisions and `mdash_seen`
rows, the 3,000 deleted candidates, the review run and the profile version.
"""

from __future__ import annotations

import json
import random
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.bench.generate import BenchDb

PROMOTIONS = 500
UPDATES = 500
CONSUMED = 3_000


def build_verdict(db: BenchDb, seed: int = 7) -> dict[str, object]:
    rng = random.Random(seed)
    pending = list(range(db.first_pending_id, db.first_pending_id + db.pending))
    rng.shuffle(pending)
    consumed = pending[:CONSUMED]
    to_promote, to_update = (
        consumed[: 2 * PROMOTIONS],
        consumed[2 * PROMOTIONS : 2 * PROMOTIONS + 2 * UPDATES],
    )
    targets = rng.sample([i for i in range(1, db.memories + 1) if i != db.diff_memory_id], UPDATES)
    return {
        "promote": [
            {
                "content": f"Promoted memory {n}: prefers pnpm workspaces and short commits, case {n}.",
                "candidate_ids": to_promote[2 * n : 2 * n + 2],
            }
            for n in range(PROMOTIONS)
        ],
        "update_existing": [
            {
                "memory_id": memory_id,
                "content": f"Rewritten by the review: memory {memory_id} says more now.",
                "candidate_ids": to_update[2 * n : 2 * n + 2],
            }
            for n, memory_id in enumerate(targets)
        ],
        "dismiss_existing": [],
        "consume_candidate_ids": consumed,
    }


def _provenance(
    pool: dict[int, tuple[Any, ...]], ids: list[int], origin: str, now: int
) -> list[dict[str, object]]:
    return [
        {
            "candidate_id": cid,
            "session_id": pool[cid][2],
            "source_compartment_start": pool[cid][3],
            "source_compartment_end": pool[cid][4],
            "origin": origin,
            "added_at": now,
        }
        for cid in ids
    ]


def raw_apply(path: Path, verdict: dict[str, object], now: int) -> Callable[[], None]:
    """Prepare (untimed) the floor's statements for `path`; the returned function runs the transaction."""
    conn = sqlite3.connect(path, isolation_level=None, timeout=5)
    consumed: list[int] = verdict["consume_candidate_ids"]  # type: ignore[assignment]
    marks = ",".join("?" * len(consumed))
    pool = {
        row[0]: row
        for row in conn.execute(f"SELECT * FROM user_memory_candidates WHERE id IN ({marks})", consumed)
    }
    next_id = conn.execute("SELECT max(id) FROM user_memories").fetchone()[0] + 1
    inserts, new_revisions, new_seen = [], [], []
    promote = verdict["promote"]
    assert isinstance(promote, list)
    for offset, item in enumerate(promote):
        ids, memory_id = item["candidate_ids"], next_id + offset
        inserts.append(
            (
                memory_id,
                item["content"],
                "active",
                now,
                json.dumps(ids),
                json.dumps(_provenance(pool, ids, "promotion", now)),
                now,
                now,
            )
        )
        new_revisions.append(
            (memory_id, now, "create", "review", "run", json.dumps(ids), None, item["content"])
        )
        new_seen.append((memory_id, item["content"], "active", now, now))
    updates, seen_updates = [], []
    for item in verdict["update_existing"]:  # type: ignore[attr-defined]
        row = conn.execute(
            "SELECT content, source_candidate_ids, source_candidate_provenance, updated_at"
            " FROM user_memories WHERE id = ?",
            (item["memory_id"],),
        ).fetchone()
        ids = json.loads(row[1]) + item["candidate_ids"]
        provenance = json.loads(row[2] or "[]") + _provenance(pool, item["candidate_ids"], "update", now)
        updated_at = max(now, row[3] + 1)
        updates.append(
            (item["content"], updated_at, json.dumps(ids), json.dumps(provenance), item["memory_id"])
        )
        new_revisions.append(
            (
                item["memory_id"],
                updated_at,
                "content",
                "review",
                "run",
                json.dumps(item["candidate_ids"]),
                row[0],
                item["content"],
            )
        )
        seen_updates.append((item["content"], updated_at, item["memory_id"]))
    conn.close()

    def run() -> None:
        raw = sqlite3.connect(path, isolation_level=None, timeout=5)
        raw.execute("BEGIN IMMEDIATE")
        raw.executemany("INSERT INTO user_memories VALUES (?,?,?,?,?,?,?,?)", inserts)
        raw.executemany(
            "UPDATE user_memories SET content=?, updated_at=?, source_candidate_ids=?,"
            " source_candidate_provenance=? WHERE id=?",
            updates,
        )
        raw.executemany(
            "INSERT INTO mdash_revisions (memory_id, changed_at, kind, source, run_id, candidate_ids,"
            " previous_content, new_content) VALUES (?,?,?,?,?,?,?,?)",
            new_revisions,
        )
        raw.executemany(
            "INSERT INTO mdash_seen (memory_id, content, status, updated_at, first_seen_at)"
            " VALUES (?,?,?,?,?)",
            new_seen,
        )
        raw.executemany("UPDATE mdash_seen SET content=?, updated_at=? WHERE memory_id=?", seen_updates)
        raw.executemany("DELETE FROM user_memory_candidates WHERE id=?", [(cid,) for cid in consumed])
        raw.execute("INSERT INTO mdash_review_runs VALUES ('run', ?, 'bench', '{}')", (now,))
        raw.execute(
            "UPDATE project_state SET project_user_profile_version = project_user_profile_version + 1"
            " WHERE project_path = '__global__'"
        )
        raw.execute("COMMIT")
        raw.close()

    return run
