"""The demo store: a few hundred realistic memories with every state a card can show.

Built deterministically by code (no binary blob) through the store's own writers, so its revisions,
provenance and expiry are exactly what real use produces: promotions from candidates, review rewrites
that accumulate provenance, a rewrite made by the host outside the dashboard, a person's edit, a
dismissed memory, an expired and an expiring one, a legacy row of unknown provenance, content with a
hidden character, and pending candidates for the review queue. Beside them, three projects with
project memories in the host's own rows (`app.demo.projects`). Every review run is applied as a
verdict, as the reviewer's are, so each run a revision names is listed in the Runs window.
"""

from __future__ import annotations

import json
import random
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from app.core.clock import ManualClock, SystemClock
from app.core.paths import data_dir
from app.demo.content import REVISIONS, all_texts
from app.demo.host_projects import add_project_tables
from app.demo.projects import seed_projects
from app.present.timefmt import DAY_MS, HOUR_MS, MINUTE_MS
from app.review.apply import apply_verdict
from app.review.verdict import parse_verdict
from app.store import MemoryStore
from app.store.connect.engine import create_host_database

DEMO_FILENAME = "demo.db"
SHOWCASE_INDEX = -9  # the memory the README's screenshot selects
SPAN_DAYS = 120
DEMO_REVIEWER = "demo reviewer"  # the lease holder the demo's runs name


def demo_path() -> Path:
    return data_dir() / DEMO_FILENAME


def ensure_demo_store(path: Path | None = None, *, now: int | None = None) -> Path:
    """The demo store's path, building it on first use (ending at `now`, default the system clock's)."""
    target = path or demo_path()
    if not target.exists():
        build_demo_store(target, now=now)
    return target


def _add_candidates(path: Path, rows: list[tuple[str, str, int | None, int | None, int]]) -> list[int]:
    conn = sqlite3.connect(path)
    try:
        ids = []
        for content, session, start, end, created in rows:
            cursor = conn.execute(
                "INSERT INTO user_memory_candidates (content, session_id, source_compartment_start,"
                " source_compartment_end, created_at) VALUES (?,?,?,?,?)",
                (content, session, start, end, created),
            )
            ids.append(int(cursor.lastrowid or 0))
        conn.commit()
        return ids
    finally:
        conn.close()


def _host_sql(path: Path, sql: str, params: tuple[object, ...]) -> None:
    conn = sqlite3.connect(path)
    try:
        conn.execute(sql, params)
        conn.commit()
    finally:
        conn.close()


_SESSION_RNG = random.Random(1)
SESSIONS = ["ses_" + "".join(_SESSION_RNG.choice("0123456789abcdef") for _ in range(8)) for _ in range(40)]


def _session(rng: random.Random) -> str:
    """Sessions recur: a few dozen working sessions produced every candidate."""
    return rng.choice(SESSIONS)


def _candidate_rows(
    rng: random.Random, text: str, at: int, count: int
) -> list[tuple[str, str, int | None, int | None, int]]:
    rows: list[tuple[str, str, int | None, int | None, int]] = []
    for _ in range(count):
        start = rng.randint(1, 40)
        end = start + rng.randint(0, 6) if rng.random() > 0.15 else None
        rows.append((text, _session(rng), start, end, at - rng.randint(1, 48) * HOUR_MS))
    return rows


def build_demo_store(path: Path, *, count: int = 320, seed: int = 7, now: int | None = None) -> Path:
    """Write the demo database at `path` (which must not exist)."""
    end = now if now is not None else SystemClock().now_ms()
    rng = random.Random(seed)
    create_host_database(path)
    add_project_tables(path)  # the demo's own new file: the host's project tables, for its projects
    seed_projects(path, end)
    clock = ManualClock(end - SPAN_DAYS * DAY_MS)
    store = MemoryStore.open(path, clock=clock)
    texts = all_texts()
    rng.shuffle(texts)
    step = (SPAN_DAYS - 3) * DAY_MS // count
    memory_ids: list[int] = []
    waiting: list[Promotion] = []  # what the next review run promotes
    for index in range(count):
        clock.set(end - SPAN_DAYS * DAY_MS + index * step + rng.randint(0, step // 2))
        text = texts[index % len(texts)]
        candidates = _add_candidates(path, _candidate_rows(rng, text, clock.now_ms(), rng.randint(1, 4)))
        if index % 9:
            waiting.append({"content": text, "candidate_ids": candidates})
            continue
        # Every ninth was promoted by hand; the review promoted the others, a run before each of those.
        memory_ids += _promotion_run(store, f"review-promote-{index // 9:03d}", waiting)
        memory_ids.append(store.promote(candidates, text).id)
    memory_ids += _promotion_run(store, f"review-promote-{count // 9 + 1:03d}", waiting)
    _review_rewrites(store, path, clock, rng, memory_ids, end)
    _showcase(store, path, clock, rng, memory_ids[SHOWCASE_INDEX], end)
    _special_rows(store, path, clock, memory_ids, end)
    clock.set(end - 6 * HOUR_MS)
    _add_candidates(
        path,
        [
            (text, _session(rng), rng.randint(1, 9), None, end - rng.randint(1, 72) * HOUR_MS)
            for text in rng.sample(texts, 12)
        ],
    )
    store.close()
    return path


Promotion = dict[str, Any]  # a verdict's promotion: {"content", "candidate_ids"}
Update = dict[str, Any]  # a verdict's update: {"memory_id", "content", "candidate_ids"}


def _run(
    store: MemoryStore, run_id: str, *, promote: Sequence[Promotion] = (), update: Sequence[Update] = ()
) -> tuple[int, ...]:
    """One review run, applied at the clock's now as the reviewer's verdicts are: its candidates consumed,
    its run recorded. Returns the ids of the memories it promoted."""
    used = [i for action in [*promote, *update] for i in action["candidate_ids"]]
    document = {"promote": list(promote), "update_existing": list(update), "consume_candidate_ids": used}
    return apply_verdict(
        store, parse_verdict(document), run_id=run_id, holder=DEMO_REVIEWER
    ).promoted_memory_ids


def _promotion_run(store: MemoryStore, run_id: str, waiting: list[Promotion]) -> tuple[int, ...]:
    """The review run that promotes what is `waiting` (emptied), in order; none when nothing waits."""
    if not waiting:
        return ()
    promoted = _run(store, run_id, promote=waiting)
    waiting.clear()
    return promoted


def _showcase(
    store: MemoryStore,
    path: Path,
    clock: ManualClock,
    rng: random.Random,
    memory_id: int,
    end: int,
) -> None:
    """One recent memory rewritten by three review runs: many candidates (`+N more`) and a real diff."""
    steps = [
        "Prefers pnpm for JavaScript projects; use pnpm commands in examples",
        "Prefers pnpm for every JavaScript project, including CI scripts; use pnpm commands in examples",
        "Prefers pnpm for every JavaScript and TypeScript project, including CI scripts and Dockerfiles; "
        "use pnpm commands (never npm or yarn) in examples and READMEs",
    ]
    for number, text in enumerate(steps):
        clock.set(end - (5 - number * 2) * HOUR_MS)
        extra = _add_candidates(path, _candidate_rows(rng, text, clock.now_ms(), 4))
        update = {"memory_id": memory_id, "content": text, "candidate_ids": extra}
        _run(store, f"review-pnpm-{number + 1}", update=[update])


def _review_rewrites(
    store: MemoryStore,
    path: Path,
    clock: ManualClock,
    rng: random.Random,
    ids: list[int],
    end: int,
) -> None:
    """Review runs that rewrite memories from new candidates: provenance accumulates."""
    for run in range(6):
        clock.set(end - (30 - run * 5) * DAY_MS)
        updates: list[Update] = []
        for memory_id in rng.sample(ids[: len(ids) * 2 // 3], 14):
            memory = store.get(memory_id)
            extra = _add_candidates(
                path, _candidate_rows(rng, memory.content, clock.now_ms(), rng.randint(1, 12))
            )
            addition = rng.choice(
                [" (confirmed again this week)", "; also in CI", " — applies to side projects too"]
            )
            updates.append(
                {"memory_id": memory_id, "content": memory.content + addition, "candidate_ids": extra}
            )
        _run(store, f"review-rewrite-{run + 1}", update=updates)


def _special_rows(store: MemoryStore, path: Path, clock: ManualClock, ids: list[int], end: int) -> None:
    """One of every card state the window must show."""
    clock.set(end - 2 * HOUR_MS)
    for (old, _new), memory_id in zip(REVISIONS, ids[-3:], strict=True):
        store.edit(memory_id, old)  # a person's words, which the review then rewrites
        clock.advance(MINUTE_MS)
    rewrites = zip(REVISIONS, ids[-3:], strict=True)
    _run(
        store,
        "review-after-edits",
        update=[{"memory_id": i, "content": new, "candidate_ids": []} for (_, new), i in rewrites],
    )
    # A rewrite made by the host itself (plain SQL), which the store then observes.
    target = ids[-4]
    _host_sql(
        path,
        "UPDATE user_memories SET content = content || ' (host rewrite)', updated_at = ? WHERE id = ?",
        (end - 90 * MINUTE_MS, target),
    )
    store.observe()
    clock.set(end - 30 * MINUTE_MS)
    store.dismiss(ids[-5], "no longer true")
    store.set_expiry(ids[-6], end - DAY_MS)  # expired yesterday: dismissed by the sweep
    store.set_expiry(ids[-7], end + 3 * DAY_MS)  # expiring in 3 days
    store.edit(ids[-8], "Prefers\u200b concise answers")  # a hidden zero-width space: flagged
    legacy_ids = json.dumps([3, 4, 5])
    _host_sql(
        path,
        "INSERT INTO user_memories (content, status, promoted_at, source_candidate_ids,"
        " source_candidate_provenance, created_at, updated_at) VALUES (?, 'active', ?, ?, NULL, ?, ?)",
        (
            "Legacy memory from before provenance was recorded",
            end - 200 * DAY_MS,
            legacy_ids,
            end - 200 * DAY_MS,
            end - 200 * DAY_MS,
        ),
    )
    _host_sql(
        path,
        "INSERT INTO user_memories (content, status, promoted_at, source_candidate_ids,"
        " source_candidate_provenance, created_at, updated_at) VALUES (?, 'archived', ?, '[]', '[]', ?, ?)",
        (
            "A memory in a status the host does not know",
            end - 50 * DAY_MS,
            end - 50 * DAY_MS,
            end - 50 * DAY_MS,
        ),
    )
    store.observe()
