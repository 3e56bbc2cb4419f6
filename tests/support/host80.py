"""Real test files in the host's whole shape (schema version 80), built from the host's own DDL
(`/work/shared/fixtures/host-v80.sql`, copied beside this module as `host-v80.sql`), with helpers that
write project memories, projects, embeddings, authority marks and dreamer runs with plain sqlite3, as
the host does.

`build_host80` makes an empty file; `seed_projects` writes the scenario the project-memory tests share
(`Seeded` names its ids): two projects with memories in every status, expiry, verification and counts,
a supersession chain, a loop and a dangling target, merges (valid, garbage, not a list), a project the
host's native module manages and one under repair, and dreamer runs.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import TypedDict, Unpack

from app.store.project.hashing import normalized_hash

SCHEMA = Path(__file__).with_name("host-v80.sql")
DAY = 86_400_000
HOUR = 3_600_000
T0 = 1_790_000_000_000  # 2026-09-21 14:13 UTC, after the schema's own rows
NOW = T0 + 30 * DAY

ALPHA = "git:alpha0000000000000000000000000000000001"
BETA = "dir:/home/ana/src/beta"
MANAGED = "git:managed00000000000000000000000000000002"
REPAIRING = "git:repair000000000000000000000000000000003"
STORE_UUID = "188b3584-cd41-4d74-9210-f12d459fd2da"  # the schema's own context_store_meta row


class MemoryFields(TypedDict, total=False):
    """`add_memory`'s keyword arguments: any `memories` column by name, any SQLite value."""

    memory_id: int
    category: object
    normalized_hash: object
    importance: object
    scope: object
    shareable: object
    source_session_id: object
    source_type: object
    seen_count: object
    retrieval_count: object
    first_seen_at: object
    created_at: object
    updated_at: object
    last_seen_at: object
    last_retrieved_at: object
    status: object
    expires_at: object
    verification_status: object
    verified_at: object
    classified_at: object
    superseded_by_memory_id: object
    merged_from: object
    metadata_json: object
    mural_cue: object
    mural_cue_hash: object
    mural_cue_at: object
    mural_cue_rejection_count: object


def connect(path: Path) -> sqlite3.Connection:
    """A plain connection as the host opens one (autocommit off: commit after writing)."""
    return sqlite3.connect(path, timeout=5)


def build_host80(path: Path) -> Path:
    """An empty host database of schema version 80, exactly as the host's first open leaves it."""
    with connect(path) as conn:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.executescript(SCHEMA.read_text(encoding="utf-8"))
    conn.close()
    return path


def add_project(
    conn: sqlite3.Connection, project: str, sessions: tuple[str, ...] = (), updated_at: int = T0
) -> None:
    """A project the host knows from its sessions: one `session_projects` row per session naming it."""
    for session in sessions:
        conn.execute(
            "INSERT INTO session_projects (session_id, harness, project_path, updated_at) VALUES (?,?,?,?)",
            (session, "opencode", project, updated_at),
        )


def add_memory(
    conn: sqlite3.Connection, project: object, content: object, **fields: Unpack[MemoryFields]
) -> int:
    """One `memories` row as the host's insertMemory writes it, any column overridden (any value)."""
    at = T0
    row: dict[str, object] = {
        "project_path": project,
        "category": "ARCHITECTURE",
        "content": content,
        "normalized_hash": normalized_hash(content) if isinstance(content, str) else "0" * 32,
        "importance": 50,
        "scope": "project",
        "shareable": 0,
        "source_session_id": "ses_alpha1",
        "source_type": "historian",
        "seen_count": 1,
        "retrieval_count": 0,
        "first_seen_at": at,
        "created_at": at,
        "updated_at": at,
        "last_seen_at": at,
        "last_retrieved_at": None,
        "status": "active",
        "expires_at": None,
        "verification_status": "unverified",
        "verified_at": None,
        "merged_from": None,
        "metadata_json": None,
    }
    given = dict(fields)
    if "memory_id" in given:
        row["id"] = given.pop("memory_id")
    row.update(given)
    columns = ", ".join(row)
    cursor = conn.execute(
        f"INSERT INTO memories ({columns}) VALUES ({', '.join('?' for _ in row)})", tuple(row.values())
    )
    assert cursor.lastrowid is not None
    return cursor.lastrowid


def add_embedding(conn: sqlite3.Connection, memory_id: int, model_id: str = "local:minilm") -> None:
    conn.execute(
        "INSERT INTO memory_embeddings (memory_id, embedding, model_id) VALUES (?,?,?)",
        (memory_id, b"\x00" * 16, model_id),
    )


def mark_managed(conn: sqlite3.Connection, project: str, at: int = T0) -> None:
    """The host's native module takes the project over: its guard triggers now abort other writers."""
    conn.execute(
        "INSERT INTO authority_managed (project_path, context_store_uuid, marked_at) VALUES (?,?,?)",
        (project, STORE_UUID, at),
    )


def mark_repair_pending(conn: sqlite3.Connection, project: str, at: int = T0) -> None:
    conn.execute(
        "INSERT INTO authority_repair_pending (project_path, started_at) VALUES (?,?)", (project, at)
    )


def add_dream_run(
    conn: sqlite3.Connection, project: str, started_at: int, finished_at: int, changes: object = None
) -> int:
    """One finished dreamer run over a project (`memory_changes_json` as the host writes it, or any value)."""
    cursor = conn.execute(
        "INSERT INTO dream_runs (project_path, started_at, finished_at, holder_id, tasks_json,"
        " tasks_succeeded, memory_changes_json) VALUES (?,?,?,?,?,?,?)",
        (
            project,
            started_at,
            finished_at,
            "dreamer-1",
            json.dumps(["consolidate", "verify"]),
            2,
            changes if changes is None or isinstance(changes, str) else json.dumps(changes),
        ),
    )
    assert cursor.lastrowid is not None
    return cursor.lastrowid


def set_epoch(conn: sqlite3.Connection, project: str, epoch: int) -> None:
    conn.execute(
        "INSERT INTO project_state (project_path, project_memory_epoch, project_user_profile_version,"
        " updated_at) VALUES (?,?,0,?)",
        (project, epoch, T0),
    )


@dataclass(frozen=True)
class Seeded:
    """The ids `seed_projects` wrote, by what each one is for."""

    active: int
    permanent: int
    archived: int
    expired: int
    expiring: int
    odd_status: int
    verified: int
    chain: tuple[int, int, int]  # first superseded by second, second by third
    loop: tuple[int, int]
    dangling: int  # superseded by an id no row has
    merged: int  # merged_from: the two below
    merge_sources: tuple[int, int]
    merged_garbage: int  # merged_from is no JSON
    merged_object: int  # merged_from is JSON but no list
    beta: int
    managed: int
    repairing: int
    run: int


DANGLING_TARGET = 99_999


def seed_projects(path: Path) -> Seeded:
    """The shared scenario, in a file from `build_host80`."""
    with connect(path) as conn:
        add_project(conn, ALPHA, ("ses_alpha1", "ses_alpha2"))
        add_project(conn, BETA, ("ses_beta1",))
        add_project(conn, MANAGED, ("ses_managed",))
        a = ALPHA
        active = add_memory(
            conn, a, "Build with pnpm, never npm", category="CONFIG_VALUES", updated_at=T0 + DAY
        )
        permanent = add_memory(
            conn, a, "Never push to main directly", category="PROJECT_RULES", status="permanent"
        )
        archived = add_memory(
            conn,
            a,
            "Uses webpack",
            status="archived",
            metadata_json=json.dumps({"archive_reason": "moved to vite"}),
        )
        expired = add_memory(
            conn, a, "Deploy freeze this week", category="PROJECT_RULES", expires_at=T0 + 2 * DAY
        )
        expiring = add_memory(conn, a, "Staging is down", category="PROJECT_RULES", expires_at=NOW + DAY)
        odd_status = add_memory(conn, a, "Half-deleted fact", status="deleted")
        verified = add_memory(
            conn,
            a,
            "Tests live in tests/",
            verification_status="verified",
            verified_at=T0 + 3 * DAY,
            seen_count=7,
            retrieval_count=12,
            last_retrieved_at=T0 + 4 * DAY,
            shareable=1,
            scope="ecosystem",
            importance=90,
        )
        c3 = add_memory(conn, a, "The API is served by FastAPI 0.115", updated_at=T0 + 6 * DAY)
        c2 = add_memory(
            conn, a, "The API is served by FastAPI", status="archived", superseded_by_memory_id=c3
        )
        c1 = add_memory(conn, a, "The API is served by Flask", status="archived", superseded_by_memory_id=c2)
        loop_a = add_memory(conn, a, "Loop one", status="archived")
        loop_b = add_memory(conn, a, "Loop two", status="archived", superseded_by_memory_id=loop_a)
        conn.execute("UPDATE memories SET superseded_by_memory_id = ? WHERE id = ?", (loop_b, loop_a))
        dangling = add_memory(
            conn, a, "Points nowhere", status="archived", superseded_by_memory_id=DANGLING_TARGET
        )
        s1 = add_memory(conn, a, "Uses ruff", status="archived", source_session_id="ses_alpha1")
        s2 = add_memory(conn, a, "Uses ruff for lint", status="archived", source_session_id="ses_alpha2")
        merged = add_memory(conn, a, "Lints with ruff", merged_from=json.dumps([s1, s2]), seen_count=2)
        garbage = add_memory(conn, a, "Merged from garbage", merged_from="not json [")
        as_object = add_memory(conn, a, "Merged from an object", merged_from=json.dumps({"ids": [s1]}))
        beta = add_memory(
            conn, BETA, "Beta uses Go 1.23", category="ENVIRONMENT", source_session_id="ses_beta1"
        )
        managed = add_memory(conn, MANAGED, "Managed by the module")
        repairing = add_memory(conn, REPAIRING, "Under repair")
        mark_managed(conn, MANAGED)
        mark_repair_pending(conn, REPAIRING)
        run = add_dream_run(conn, ALPHA, T0 + 6 * DAY - HOUR, T0 + 6 * DAY + HOUR, {"updated": [c3]})
    conn.close()
    return Seeded(
        active,
        permanent,
        archived,
        expired,
        expiring,
        odd_status,
        verified,
        (c1, c2, c3),
        (loop_a, loop_b),
        dangling,
        merged,
        (s1, s2),
        garbage,
        as_object,
        beta,
        managed,
        repairing,
        run,
    )
