"""Helpers for the review tests: verdict documents, lease rows written by a second connection, snapshots."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

SEED_UPDATE_IDS = (141, 143, 145, 146)
LEASE_PREFIX = "lease:user-memories:"


def verdict(
    *,
    promote: list[dict[str, Any]] | None = None,
    update_existing: list[dict[str, Any]] | None = None,
    dismiss_existing: list[dict[str, Any]] | None = None,
    consume: list[int] | None = None,
) -> dict[str, Any]:
    return {
        "promote": promote or [],
        "update_existing": update_existing or [],
        "dismiss_existing": dismiss_existing or [],
        "consume_candidate_ids": consume or [],
    }


def seed_verdict(content: str = "Prefers pnpm: workspaces, and pnpm in every example") -> dict[str, Any]:
    """The seed's run: memory #5 rewritten from candidates 141, 143, 145, 146."""
    return verdict(
        update_existing=[{"memory_id": 5, "content": content, "candidate_ids": list(SEED_UPDATE_IDS)}],
        consume=list(SEED_UPDATE_IDS),
    )


def write_json(path: Path, data: object) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def snapshot(path: Path) -> list[str]:
    """Every table's rows (host and own), to prove that nothing changed."""
    conn = sqlite3.connect(path)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


def lease_rows(path: Path) -> dict[str, str]:
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute("SELECT key, value FROM dream_state WHERE key LIKE ?", (LEASE_PREFIX + "%",))
        return {str(k)[len(LEASE_PREFIX) :]: str(v) for k, v in rows}
    finally:
        conn.close()


def hold_lease(path: Path, holder: str, expiry: int, generation: int, heartbeat: int | None = None) -> None:
    """A second process takes the lease the host's way: four rows, values as text, in its own transaction."""
    conn = sqlite3.connect(path, timeout=5)
    try:
        conn.execute("BEGIN IMMEDIATE")
        values = {
            "holder": holder,
            "heartbeat": str(expiry - 120_000 if heartbeat is None else heartbeat),
            "expiry": str(expiry),
            "generation": str(generation),
        }
        for name, value in values.items():
            conn.execute(
                "INSERT INTO dream_state (key, value) VALUES (?, ?) "
                "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (LEASE_PREFIX + name, value),
            )
        conn.execute("COMMIT")
    finally:
        conn.close()


def memory_row(path: Path, memory_id: int) -> dict[str, Any]:
    conn = sqlite3.connect(path)
    conn.row_factory = sqlite3.Row
    try:
        row = conn.execute("SELECT * FROM user_memories WHERE id = ?", (memory_id,)).fetchone()
        return dict(row) if row is not None else {}
    finally:
        conn.close()


def pending_ids(path: Path) -> list[int]:
    conn = sqlite3.connect(path)
    try:
        return [int(r[0]) for r in conn.execute("SELECT id FROM user_memory_candidates ORDER BY id")]
    finally:
        conn.close()


def add_candidates(path: Path, rows: list[tuple[int, str, str]], created_at: int = 0) -> None:
    """Pending candidates (id, content, session) as the host's collector writes them."""
    conn = sqlite3.connect(path, timeout=5)
    try:
        conn.executemany(
            "INSERT INTO user_memory_candidates (id, content, session_id, source_compartment_start,"
            " source_compartment_end, created_at) VALUES (?, ?, ?, 1, NULL, ?)",
            [(cid, content, session, created_at) for cid, content, session in rows],
        )
        conn.commit()
    finally:
        conn.close()


def copy_database(source: Path, target: Path) -> Path:
    """A consistent copy of a WAL database (the backup API, not a file copy)."""
    src, dst = sqlite3.connect(source), sqlite3.connect(target)
    try:
        src.backup(dst)
    finally:
        src.close()
        dst.close()
    return target
