"""A host v80 file with many project memories for the window's speed checks:
`python -m tests.bench.project_memories [--memories N] [--projects P]` (default 100,000 over 50).

Built from the host's whole schema (`tests/support/host80`), bulk-inserted in one transaction: contents
of 40-400 characters from the bench corpus, the host's categories and statuses (a few odd ones), every
tenth memory superseded by the next, a few merges; a handful of user memories so the window opens on its
cards. Cached in `.bench-cache/` by size."""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
from pathlib import Path

from app.store.project.hashing import normalized_hash
from tests.bench.generate import CACHE
from tests.bench.texts import Corpus
from tests.support.host80 import T0, build_host80

CATEGORIES = ("ARCHITECTURE", "CONFIG_VALUES", "PROJECT_RULES", "ENVIRONMENT", "NAMING", "WORKFLOW")
STATUSES = ("active",) * 8 + ("permanent", "archived")
DAY = 86_400_000


def project_identity(number: int) -> str:
    return f"git:{number:040x}"


def build(path: Path, memories: int, projects: int, seed: int = 7) -> Path:
    build_host80(path)
    rng = random.Random(seed)
    corpus = Corpus(rng, total_words=300_000)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA synchronous=OFF")
    rows = []
    for memory_id in range(1, memories + 1):
        content = f"{corpus.slice(rng.randint(60, 400))} #{memory_id}"
        status = rng.choice(STATUSES) if memory_id % 997 else "deleted"
        superseded = memory_id + 1 if memory_id % 10 == 0 and memory_id < memories else None
        merged = json.dumps([memory_id - 2, memory_id - 1]) if memory_id % 50 == 0 else None
        at = T0 + rng.randint(0, 30 * DAY)
        rows.append(
            (
                memory_id,
                project_identity(memory_id % projects),
                rng.choice(CATEGORIES),
                content,
                normalized_hash(content),
                rng.randint(1, 100),
                "project",
                0,
                f"ses_{memory_id % 500}",
                "historian",
                rng.randint(0, 9),
                rng.randint(0, 9),
                at,
                at,
                at,
                at,
                "archived" if superseded else status,
                superseded,
                merged,
            )
        )
    conn.executemany(
        "INSERT INTO memories (id, project_path, category, content, normalized_hash, importance, scope,"
        " shareable, source_session_id, source_type, seen_count, retrieval_count, first_seen_at,"
        " created_at, updated_at, last_seen_at, status, superseded_by_memory_id, merged_from)"
        " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
        rows,
    )
    conn.executemany(
        "INSERT INTO user_memories (content, status, promoted_at, source_candidate_ids, created_at,"
        " updated_at) VALUES (?, 'active', ?, '[]', ?, ?)",
        [(f"User fact {n}", T0 + n, T0 + n, T0 + n) for n in range(20)],
    )
    conn.commit()
    conn.close()
    return path


def cached(memories: int = 100_000, projects: int = 50) -> Path:
    CACHE.mkdir(exist_ok=True)
    path = CACHE / f"projects-{memories}-{projects}.db"
    if not path.exists():
        partial = path.with_suffix(".partial")
        partial.unlink(missing_ok=True)
        build(partial, memories, projects).rename(path)
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--memories", type=int, default=100_000)
    parser.add_argument("--projects", type=int, default=50)
    args = parser.parse_args()
    print(cached(args.memories, args.projects))


if __name__ == "__main__":
    main()
