"""A large host file of schema v80 for speed checks of project memories: `fill_projects` writes `count`
memories over `projects` projects (plain sqlite3, one transaction), as the host's inserts leave them."""

from __future__ import annotations

from pathlib import Path

from app.store.project.hashing import normalized_hash
from tests.support.host80 import DAY, T0, connect

CATEGORIES = ("ARCHITECTURE", "CONFIG_VALUES", "PROJECT_RULES", "ENVIRONMENT", "WORKFLOW")


def fill_projects(path: Path, count: int = 100_000, projects: int = 50) -> None:
    """`count` memories spread over `projects` projects; one in ten rewritten after it was created."""
    rows = []
    for n in range(count):
        content = f"Fact {n} about project {n % projects}: build, test and deploy notes number {n}."
        updated = T0 + (DAY if n % 10 == 0 else 0)
        rows.append(
            (
                f"git:bench{n % projects:04d}",
                CATEGORIES[n % len(CATEGORIES)],
                content,
                normalized_hash(content),
                T0,
                T0,
                updated,
                T0,
            )
        )
    with connect(path) as conn:
        conn.executemany(
            "INSERT INTO memories (project_path, category, content, normalized_hash, scope, shareable,"
            " first_seen_at, created_at, updated_at, last_seen_at) VALUES (?,?,?,?,'project',0,?,?,?,?)",
            rows,
        )
    conn.close()
