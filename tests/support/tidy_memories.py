"""A host database of memories to tidy: real SQLite files from the host schema."""

from __future__ import annotations

import sqlite3
from pathlib import Path

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
