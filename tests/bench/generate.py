"""A deterministic host-shaped database for the benchmarks: `python -m tests.bench.generate [--memories N]`.

Default size: 100,000 memories of 50-2,000 characters with 1-20 candidate ids each and
provenance the host can read (1% legacy rows with NULL provenance), 500,000 revisions in
`mdash_revisions`, `mdash_seen` filled as if the dashboard had seen every row, 5,000 pending candidates,
and one memory with 50 revisions of 64 KiB contents (the diff measurement). The dashboard's own tables
are created by opening a `MemoryStore` once; then everything is bulk-inserted with `sqlite3.executemany`
in one transaction, journal off and `synchronous=OFF` during generation only (the file ends in WAL mode,
as the host keeps it). A second `MemoryStore` indexes every memory, as a window left open would.

Revision texts are kept moderate (40-160 characters each, except the 64 KiB ones) so that a 100,000-memory
file stays near 400 MB: memory contents (~100 MB), their copy in `mdash_seen` (~100 MB), provenance JSON
(~100 MB) and revisions (~70 MB) dominate. Files are cached in `.bench-cache/` keyed by size and seed,
with a JSON sidecar of the facts the measurements need.
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from app.core.clock import ManualClock
from app.store import MemoryStore
from app.store.schema.migrate import HEAD_REVISION
from tests.bench.bench_diff import change_words, realistic_memory
from tests.bench.texts import Corpus
from tests.support.hostdb import build_host_db

CACHE = Path(__file__).resolve().parents[2] / ".bench-cache"
NOW = 1_796_083_200_000  # 2026-12-01T00:00Z; the benchmarks run with MEMORY_DASHBOARD_NOW set to this
DAY = 86_400_000
DIFF_SIZE = 64 * 1024
RARE_TERM = "kubernetes"  # planted in 0.5% of memories; the corpus alphabet can never form it
COMMON_TERM = "sion"  # a syllable of the corpus: in most memories
GENERATOR = 5  # bump when the generated data changes, so cached files are made anew


@dataclass(frozen=True, slots=True)
class Spec:
    memories: int = 100_000
    revisions: int = 500_000
    pending: int = 5_000
    seed: int = 20_260_101

    @classmethod
    def for_size(cls, memories: int, seed: int = 20_260_101) -> Spec:
        return cls(memories=memories, revisions=5 * memories, pending=5_000, seed=seed)

    @property
    def key(self) -> str:
        # The dashboard's schema revision and the generator's version are part of the key: a file made
        # before a migration, or by an older generator, is made anew.
        size = f"{self.memories}m-{self.revisions}r-{self.pending}c"
        return f"host-{size}-seed{self.seed}-own{HEAD_REVISION}-g{GENERATOR}"


@dataclass(frozen=True, slots=True)
class BenchDb:
    """A generated file and the facts about it that the measurements use."""

    path: str
    memories: int
    revisions: int
    pending: int
    seed: int
    now: int
    diff_memory_id: int
    first_pending_id: int
    content_bytes: int
    rare_term: str
    common_term: str
    seconds: float


def _session(rng: random.Random) -> str:
    return f"ses_{rng.randrange(20_000):05x}{rng.randrange(16**6):06x}"


def _provenance(rng: random.Random, ids: list[int], promoted_at: int, rewritten: bool) -> str | None:
    if rng.random() < 0.01:
        return None  # legacy row: provenance unknown
    sessions = [_session(rng) for _ in range(rng.randint(1, 3))]
    entries = []
    for position, cid in enumerate(ids):
        start = rng.choice([None, rng.randrange(40)])
        entry: dict[str, object] = {
            "candidate_id": cid,
            "session_id": sessions[position * len(sessions) // len(ids)],
            "source_compartment_start": start,
            "source_compartment_end": None if start is None else start + rng.randrange(6),
        }
        if rewritten and position >= len(ids) // 2:
            entry["origin"] = "update"
            entry["added_at"] = promoted_at + DAY
        entries.append(entry)
    return json.dumps(entries, separators=(",", ":"))


# A row of a host table as sqlite3 takes it: a heterogeneous tuple of column values.
Row = tuple[Any, ...]


def _memory_rows(
    spec: Spec, rng: random.Random, corpus: Corpus, diff_id: int, diff_content: str
) -> list[Row]:
    rows = []
    next_candidate = 1
    for memory_id in range(1, spec.memories + 1):
        count = rng.randint(1, 20)
        ids = list(range(next_candidate, next_candidate + count))
        next_candidate += count
        promoted_at = NOW - rng.randrange(1, 730) * DAY - rng.randrange(DAY)
        rewritten = memory_id == diff_id or rng.random() < 0.5
        updated_at = promoted_at + rng.randrange(2 * 60_000, 200 * DAY) if rewritten else promoted_at
        updated_at = min(updated_at, NOW - 60_000)
        roll = rng.random()
        status = "active" if roll < 0.9 else "dismissed" if roll < 0.995 else "archived"
        if memory_id == diff_id:
            content, status = diff_content, "active"
        else:
            content = corpus.slice(rng.randint(50, 2000))
            if rng.random() < 0.005:
                cut = rng.randrange(len(content))
                content = f"{content[:cut]} {RARE_TERM} {content[cut:]}"[:2000]
        provenance = _provenance(rng, ids, promoted_at, rewritten)
        rows.append(
            (memory_id, content, status, promoted_at, json.dumps(ids), provenance, promoted_at, updated_at)
        )
    return rows


def _diff_versions(rng: random.Random) -> list[str]:
    versions = [realistic_memory(rng, DIFF_SIZE)]
    for number in range(49):
        changed = change_words(rng, versions[-1], 0.03, clustered=number % 2 == 0)
        versions.append(changed[:DIFF_SIZE])
    return versions


def _revisions(
    spec: Spec, rng: random.Random, corpus: Corpus, memories: list[Row], diff_id: int, versions: list[str]
) -> list[Row]:
    """(memory_id, changed_at, kind, source, run_id, candidate_ids, prev, new, prev_status, new_status)."""
    out: list[Row] = []
    rewritten = [row for row in memories if row[7] > row[3] and row[0] != diff_id]
    for row in memories:
        if row[0] != diff_id:
            out.append(
                (row[0], row[3], "create", "review", None, row[4], None, corpus.slice(120), None, "active")
            )
        if row[2] != "active":
            text = corpus.slice(80)
            out.append((row[0], row[7], "status", "dashboard", None, "[]", text, text, "active", row[2]))
    diff_row = memories[diff_id - 1]
    step = max(1, (diff_row[7] - diff_row[3]) // 50)
    out.append((diff_id, diff_row[3], "create", "review", None, "[]", None, versions[0], None, "active"))
    for number in range(1, 50):
        at = diff_row[3] + number * step if number < 49 else diff_row[7]
        out.append(
            (
                diff_id,
                at,
                "content",
                "review",
                f"run-{number}",
                "[]",
                versions[number - 1],
                versions[number],
                None,
                None,
            )
        )
    for _ in range(max(0, spec.revisions - len(out))):
        row = rng.choice(rewritten)
        at = rng.randint(row[3] + 60_001, row[7])
        source = rng.choice(["review", "review", "observed", "dashboard"])
        run_id = f"review-{rng.randrange(50_000):05d}" if source == "review" else None
        out.append(
            (
                row[0],
                at,
                "content",
                source,
                run_id,
                "[]",
                corpus.slice(rng.randint(40, 160)),
                corpus.slice(rng.randint(40, 160)),
                None,
                None,
            )
        )
    out.sort(key=lambda revision: revision[1])
    return out[: spec.revisions]


def _pending(spec: Spec, rng: random.Random, corpus: Corpus, first_id: int) -> list[Row]:
    rows = []
    for offset in range(spec.pending):
        start = rng.choice([None, rng.randrange(40)])
        end = None if start is None else start + rng.randrange(6)
        created = NOW - rng.randrange(30 * DAY)
        rows.append(
            (first_id + offset, corpus.slice(rng.randint(40, 300)), _session(rng), start, end, created)
        )
    return rows


def _insert_all(path: Path, spec: Spec, rng: random.Random, diff_id: int) -> tuple[int, int]:
    corpus = Corpus(rng)
    versions = _diff_versions(rng)
    memories = _memory_rows(spec, rng, corpus, diff_id, versions[-1])
    first_pending = max(max(json.loads(row[4])) for row in memories) + 1
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode=OFF")
        conn.execute("PRAGMA synchronous=OFF")
        conn.execute("BEGIN")
        conn.executemany("INSERT INTO user_memories VALUES (?,?,?,?,?,?,?,?)", memories)
        conn.executemany(
            "INSERT INTO mdash_seen (memory_id, content, status, updated_at, first_seen_at,"
            " baseline_rewritten_at) VALUES (?,?,?,?,?,NULL)",
            ((row[0], row[1], row[2], row[7], NOW - 800 * DAY) for row in memories),
        )
        conn.executemany(
            "INSERT INTO mdash_revisions (memory_id, changed_at, kind, source, run_id, candidate_ids,"
            " previous_content, new_content, previous_status, new_status) VALUES (?,?,?,?,?,?,?,?,?,?)",
            _revisions(spec, rng, corpus, memories, diff_id, versions),
        )
        conn.executemany(
            "INSERT INTO user_memory_candidates VALUES (?,?,?,?,?,?)",
            _pending(spec, rng, corpus, first_pending),
        )
        expiring = rng.sample(range(1, spec.memories + 1), spec.memories // 100)
        conn.executemany(
            "INSERT INTO mdash_expiry VALUES (?,?,?)",
            ((mid, NOW + rng.randrange(1, 300) * DAY, NOW - DAY) for mid in expiring if mid != diff_id),
        )
        trusted = rng.sample(range(1, spec.memories + 1), spec.memories // 50)
        conn.executemany(
            "INSERT INTO mdash_memory_sources VALUES (?, 'user:dashboard', ?)",
            ((mid, NOW - 2 * DAY) for mid in trusted),
        )
        conn.execute(
            "INSERT OR REPLACE INTO mdash_meta VALUES ('tracking_since', ?)", (str(NOW - 800 * DAY),)
        )
        conn.execute("INSERT OR REPLACE INTO project_state VALUES ('__global__', 0, 1, ?)", (NOW - DAY,))
        conn.execute("COMMIT")
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("ANALYZE")
    finally:
        conn.close()
    return first_pending, sum(len(row[1].encode()) for row in memories)


def generate(spec: Spec, path: Path) -> BenchDb:
    """Write a new database at `path` (which must not exist)."""
    started = time.perf_counter()
    rng = random.Random(spec.seed)
    build_host_db(path, seed=False)
    MemoryStore.open(path, clock=ManualClock(NOW), sweep=False).close()  # the dashboard's own tables
    diff_id = spec.memories // 2
    first_pending, content_bytes = _insert_all(path, spec, rng, diff_id)
    # Every memory indexed, as a window that has been open a while leaves the search index.
    store = MemoryStore.open(path, clock=ManualClock(NOW), sweep=False)
    while store.index_pending_changes():
        pass
    store.close()
    return BenchDb(
        path=str(path),
        memories=spec.memories,
        revisions=spec.revisions,
        pending=spec.pending,
        seed=spec.seed,
        now=NOW,
        diff_memory_id=diff_id,
        first_pending_id=first_pending,
        content_bytes=content_bytes,
        rare_term=RARE_TERM,
        common_term=COMMON_TERM,
        seconds=round(time.perf_counter() - started, 1),
    )


def cached(spec: Spec, cache: Path = CACHE) -> BenchDb:
    """The generated file for `spec`, made once and reused (delete `.bench-cache/` to regenerate)."""
    cache.mkdir(exist_ok=True)
    path = cache / f"{spec.key}.db"
    facts = path.with_suffix(".json")
    if path.exists() and facts.exists():
        return BenchDb(**json.loads(facts.read_text()))
    partial = path.with_suffix(".partial")
    for leftover in (partial, Path(f"{partial}-wal"), Path(f"{partial}-shm")):
        leftover.unlink(missing_ok=True)
    made = generate(spec, partial)
    partial.rename(path)
    result = BenchDb(**{**asdict(made), "path": str(path)})
    facts.write_text(json.dumps(asdict(result), indent=2))
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=20_260_101)
    args = parser.parse_args()
    made = cached(Spec.for_size(args.memories, args.seed))
    size = Path(made.path).stat().st_size / 1e6
    print(f"{made.path}: {size:.0f} MB, {made.memories:,} memories, generated in {made.seconds} s")


if __name__ == "__main__":
    main()
