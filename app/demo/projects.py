"""The demo's project memories: three projects in the host's own rows, written with plain SQL as the host
writes them, with every link the project page shows: a supersession chain, a merge (`merged_from`, its
sources archived and superseded by it), an archived memory with its reason, a permanent, a verified and
an expiring one, duplicates for Tidy to find and a pair that may contradict.

Only ever in the demo's own new file, after `host_projects.add_project_tables` made the host's tables.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from app.present.timefmt import DAY_MS, HOUR_MS
from app.store.project.hashing import normalized_hash

BILLING = "dir:/home/demo/src/billing-service"
WEB = "dir:/home/demo/src/dashboard-web"
INFRA = "dir:/home/demo/src/infra"
SESSIONS = {BILLING: ("ses_b1ll1ng1", "ses_b1ll1ng2"), WEB: ("ses_w3b00001",), INFRA: ("ses_1nfra001",)}


@dataclass(frozen=True, slots=True)
class Row:
    """One memory as the demo writes it: its project, category and text, its age in days, and what
    differs from an active, unverified memory of the host's historian."""

    project: str
    category: str
    content: str
    days_ago: int
    status: str = "active"
    expires_in_days: int | None = None
    verified: bool = False
    archive_reason: str | None = None


def seed_projects(path: Path, end: int) -> dict[str, int]:
    """Write the demo's projects into the file at `path`, ending at `end` (ms); the ids by role."""
    conn = sqlite3.connect(path)
    try:
        ids = _write(conn, end)
        conn.commit()
        return ids
    finally:
        conn.close()


def _write(conn: sqlite3.Connection, end: int) -> dict[str, int]:
    for project, sessions in SESSIONS.items():
        for session in sessions:
            conn.execute(
                "INSERT INTO session_projects (session_id, harness, project_path, updated_at)"
                " VALUES (?, 'opencode', ?, ?)",
                (session, project, end - DAY_MS),
            )
    ids = {role: _insert(conn, row, end) for role, row in ROWS.items()}
    # The chain: the oldest wording superseded by the next, the next by the current one.
    _link(conn, ids["chain_first"], superseded_by=ids["chain_second"])
    _link(conn, ids["chain_second"], superseded_by=ids["chain_current"])
    # The merge: the kept memory names its sources, which the host archived as superseded by it.
    merged_from = [ids["merge_source_a"], ids["merge_source_b"]]
    conn.execute("UPDATE memories SET merged_from = ? WHERE id = ?", (json.dumps(merged_from), ids["merged"]))
    for source in merged_from:
        _link(conn, source, superseded_by=ids["merged"])
    return ids


def _link(conn: sqlite3.Connection, memory_id: int, superseded_by: int) -> None:
    conn.execute("UPDATE memories SET superseded_by_memory_id = ? WHERE id = ?", (superseded_by, memory_id))


def _insert(conn: sqlite3.Connection, row: Row, end: int) -> int:
    at = end - row.days_ago * DAY_MS - 3 * HOUR_MS
    metadata = json.dumps({"archive_reason": row.archive_reason}) if row.archive_reason else None
    cursor = conn.execute(
        "INSERT INTO memories (project_path, category, content, normalized_hash, importance, scope,"
        " shareable, source_session_id, source_type, seen_count, retrieval_count, first_seen_at, created_at,"
        " updated_at, last_seen_at, status, expires_at, verification_status, verified_at, metadata_json)"
        " VALUES (?, ?, ?, ?, 50, 'project', 0, ?, 'historian', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            row.project,
            row.category,
            row.content,
            normalized_hash(row.content),
            SESSIONS[row.project][row.days_ago % len(SESSIONS[row.project])],
            1 + row.days_ago % 4,
            row.days_ago % 7,
            at,
            at,
            at,
            at,
            row.status,
            None if row.expires_in_days is None else end + row.expires_in_days * DAY_MS,
            "verified" if row.verified else "unverified",
            at + HOUR_MS if row.verified else None,
            metadata,
        ),
    )
    return int(cursor.lastrowid or 0)


ROWS: dict[str, Row] = {
    "cents": Row(BILLING, "CONSTRAINTS", "Money is stored as integer cents, never floats", 58, "permanent"),
    "chain_first": Row(BILLING, "ARCHITECTURE", "Payments go through the Stripe Charges API", 55, "archived"),
    "chain_second": Row(BILLING, "ARCHITECTURE", "Payments go through Stripe PaymentIntents", 30, "archived"),
    "chain_current": Row(
        BILLING, "ARCHITECTURE", "Payments go through Stripe PaymentIntents with an idempotency key each", 6
    ),
    "merge_source_a": Row(BILLING, "PROJECT_RULES", "Every migration is reversible", 40, "archived"),
    "merge_source_b": Row(BILLING, "PROJECT_RULES", "Two people review every migration", 35, "archived"),
    "merged": Row(BILLING, "PROJECT_RULES", "Every migration is reversible and reviewed by two people", 20),
    "celery": Row(
        BILLING, "ARCHITECTURE", "Background jobs run on Celery", 50, "archived", archive_reason="moved to RQ"
    ),
    "jobs": Row(
        BILLING, "ARCHITECTURE", "Background jobs run on RQ and must be idempotent", 25, verified=True
    ),
    "main_rule": Row(BILLING, "PROJECT_RULES", "Never commit directly to main", 45),
    "main_again": Row(BILLING, "PROJECT_RULES", "never commit directly to main.", 12),
    "freeze": Row(
        BILLING, "PROJECT_RULES", "Deploy freeze until the quarterly invoices are out", 2, expires_in_days=3
    ),
    "pnpm": Row(WEB, "CONFIG_VALUES", "Build with pnpm, never npm", 40),
    "tests": Row(WEB, "WORKFLOW", "Runs the unit tests with Vitest before every push", 33),
    "tests_again": Row(WEB, "WORKFLOW", "Runs unit tests with Vitest before every push", 9),
    "dev_db": Row(WEB, "ENVIRONMENT", "Uses Postgres for the local dev database", 28),
    "dev_db_moved": Row(WEB, "ENVIRONMENT", "Moved the local dev database to SQLite", 4),
    "vite": Row(WEB, "ARCHITECTURE", "The dev server is Vite on port 5173", 21, verified=True),
    "state": Row(INFRA, "CONFIG_VALUES", "Terraform state lives in the S3 bucket demo-infra-state", 47),
    "deploys": Row(INFRA, "PROJECT_RULES", "Deploys go through GitHub Actions, never by hand", 15),
}
