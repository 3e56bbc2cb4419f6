"""Host databases of memories to tidy: real SQLite files from the host schema (user memories), and
of schema v80 (project memories)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.support import host80
from tests.support.host80 import ALPHA, BETA
from tests.support.hostdb import DAY, T0, build_host_db, memory_row

PLANTED = [
    "Prefers pnpm over npm",
    "prefers  PNPM over npm.",  # an exact duplicate of the first: case, spaces, punctuation
    "Uses Postgres",
    "Moved the project to MySQL",  # may contradict the one before
    "Runs the test suite before every commit",
    "Runs the test suite before each commit",  # close wording
    "Prefers tabs in Go",
    "Prefers spaces in Python",  # shares words with the one before, about something else
]


def tidy_db(path: Path, texts: list[str] = PLANTED, *, dismissed: tuple[int, ...] = ()) -> Path:
    """A host file holding `texts` as memories #1, #2, … (those in `dismissed` dismissed)."""
    build_host_db(path, seed=False)
    conn = sqlite3.connect(path)
    with conn:
        for number, text in enumerate(texts, start=1):
            status = "dismissed" if number in dismissed else "active"
            memory_row(conn, number, text, promoted_at=T0 + number * DAY, ids=[number], status=status)
    conn.close()
    return path


GAMMA = "dir:/home/ana/work/beta"  # another project whose folder is also called beta


def project_db(path: Path) -> dict[str, int]:
    """Memories in two projects and two categories; returns their ids by a short name."""
    host80.build_host80(path)
    conn = host80.connect(path)
    lint, lint_again = "Runs the linter before every commit", "Runs the linter before each commit"
    ids = {
        "alpha_lint": host80.add_memory(conn, ALPHA, lint),
        "alpha_lint_again": host80.add_memory(conn, ALPHA, lint_again),
        "alpha_pnpm": host80.add_memory(conn, ALPHA, "Build with pnpm, never npm"),
        "alpha_npm": host80.add_memory(conn, ALPHA, "Uses npm for every build script"),
        "alpha_gotcha": host80.add_memory(conn, ALPHA, lint, category="GOTCHA"),
        "alpha_archived": host80.add_memory(conn, ALPHA, lint, status="archived", normalized_hash="1" * 32),
        "beta_lint": host80.add_memory(conn, BETA, lint),
        "beta_runs": host80.add_memory(conn, BETA, "Runs the test suite before every commit"),
        "beta_runs_again": host80.add_memory(conn, BETA, "Runs the test suite before each commit"),
    }
    conn.commit()
    conn.close()
    return ids
