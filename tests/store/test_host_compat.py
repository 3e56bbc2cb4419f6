"""What running the host's own code showed: the profile version, first sight, `init`'s DDL
text, and a database from a host before v0.22. CLI items through the real console script."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

from app.core.clock import ManualClock
from app.store import MemoryStore
from tests.support.console import CHECKOUT, dashboard
from tests.support.hostdb import DAY, T0, build_host_db, host_sql, memory_row, profile_version, query

FIXTURE = Path("/work/shared/fixtures/context-db-schema.sql")
NOW = {"MEMORY_DASHBOARD_NOW": "2026-10-21T03:13:32Z"}


def _host_ddl(schema: str) -> dict[str, str]:
    """Each CREATE TABLE of the host's schema file as SQLite stores it: `IF NOT EXISTS` dropped and,
    as in the host's own migrations, no comments (each line's trailing `-- ...` and spaces removed)."""
    statements = {}
    for match in re.finditer(r"CREATE TABLE IF NOT EXISTS (\w+) \((.*?)\n\);", schema, re.DOTALL):
        body = "\n".join(re.sub(r"\s*--.*$", "", line).rstrip() for line in match.group(2).split("\n"))
        statements[match.group(1)] = f"CREATE TABLE {match.group(1)} ({body}\n)"
    return statements


def test_expire_does_not_bump_the_profile_version(host_db: Path) -> None:
    version = profile_version(host_db)
    done = dashboard("--db", str(host_db), "expire", "4", "--in", "7d", env=NOW)
    assert done.returncode == 0, done.stderr
    assert dashboard("--db", str(host_db), "expire", "4", "--never", env=NOW).returncode == 0
    assert profile_version(host_db) == version  # the host injects the same rows, the same text
    history = json.loads(dashboard("--db", str(host_db), "history", "4", "--json", env=NOW).stdout)
    assert [revision["kind"] for revision in history] == ["expiry", "expiry"]
    # An expiry already passed dismisses the memory: that changes what the host injects, once.
    assert dashboard("--db", str(host_db), "expire", "4", "--at", "2026-01-01", env=NOW).returncode == 0
    assert profile_version(host_db) == version + 1
    assert query(host_db, "SELECT status FROM user_memories WHERE id = 4") == [("dismissed",)]


def test_first_sight_rule_applies_to_every_status(tmp_path: Path) -> None:
    path = build_host_db(tmp_path / "context.db", seed=False)
    conn = sqlite3.connect(path)
    memory_row(conn, 1, "dismissed after a rewrite", promoted_at=T0, updated_at=T0 + DAY, status="dismissed")
    memory_row(
        conn, 2, "dismissed within the minute", promoted_at=T0, updated_at=T0 + 60_000, status="dismissed"
    )
    memory_row(conn, 3, "an odd status, later", promoted_at=T0, updated_at=T0 + DAY, status="archived")
    memory_row(conn, 4, "active, untouched", promoted_at=T0)
    conn.commit()
    conn.close()
    for read_only in (True, False):  # in memory, and in the dashboard's tables
        store = MemoryStore.open(path, read_only=read_only, clock=ManualClock(T0 + 2 * DAY))
        try:
            shown = {memory.id: memory.rewritten for memory in store.list_memories()}
            assert shown == {1: True, 2: False, 3: True, 4: False}, read_only
        finally:
            store.close()
    listed = dashboard("--db", str(path), "list", "--status", "rewritten", "--json", env=NOW)
    assert [memory["id"] for memory in json.loads(listed.stdout)] == [1, 3]


def test_init_creates_the_host_tables_with_the_host_ddl_text(tmp_path: Path) -> None:
    path = tmp_path / "new" / "context.db"
    done = dashboard("--db", str(path), "init")
    assert done.returncode == 0, done.stderr
    # The workspace's copy of the host's schema where it exists; the repository's copy elsewhere (CI):
    # either way a comment left inside a CREATE TABLE would be stored, and differ from the host's text.
    schema = FIXTURE if FIXTURE.is_file() else CHECKOUT / "app" / "store" / "schema" / "host_schema.sql"
    expected = _host_ddl(schema.read_text(encoding="utf-8"))
    assert set(expected) == {"user_memory_candidates", "user_memories", "dream_state", "project_state"}
    for table, ddl in expected.items():
        assert query(path, "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)) == [
            (ddl,)
        ]
        assert "--" not in ddl
    # No schema_migrations rows: they would tell the host that its other tables exist.
    assert query(path, "SELECT name FROM sqlite_master WHERE name LIKE '%schema_migrations%'") == []
    assert not [name for (name,) in query(path, "SELECT name FROM sqlite_master") if "migration" in str(name)]


def _old_host_db(path: Path) -> Path:
    """The shape of a host before v0.22: no project_state, no source_candidate_provenance."""
    conn = sqlite3.connect(path)
    conn.executescript(
        """
        CREATE TABLE user_memory_candidates (id INTEGER PRIMARY KEY AUTOINCREMENT, content TEXT NOT NULL,
            session_id TEXT NOT NULL, source_compartment_start INTEGER, source_compartment_end INTEGER,
            created_at INTEGER NOT NULL);
        CREATE TABLE user_memories (id INTEGER PRIMARY KEY AUTOINCREMENT, content TEXT NOT NULL,
            status TEXT NOT NULL DEFAULT 'active', promoted_at INTEGER NOT NULL,
            source_candidate_ids TEXT DEFAULT '[]', created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
        CREATE TABLE dream_state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        """
    )
    conn.execute(
        "INSERT INTO user_memories VALUES (1, 'Prefers pnpm', 'active', ?, '[46,47]', ?, ?)", (T0, T0, T0)
    )
    conn.execute("INSERT INTO user_memory_candidates VALUES (50, 'Uses vim', 'ses_a', 1, 2, ?)", (T0,))
    conn.commit()
    conn.close()
    return path


def _file_state(path: Path) -> tuple[bytes, list[str]]:
    return path.read_bytes(), sorted(p.name for p in path.parent.iterdir())


def test_a_database_from_before_host_v0_22_opens_read_only_with_a_message(tmp_path: Path) -> None:
    path = _old_host_db(tmp_path / "context.db")
    before = _file_state(path)
    listed = dashboard("--db", str(path), "list", "--json", env=NOW)
    assert listed.returncode == 0, listed.stderr
    (memory,) = json.loads(listed.stdout)
    assert memory["content"] == "Prefers pnpm" and memory["provenance"] is None
    assert memory["unknown_provenance_ids"] == [46, 47]
    for words in ("before v0.22", "project_state table", "user_memories.source_candidate_provenance"):
        assert words in listed.stderr
    assert "read-only" in listed.stderr and "Traceback" not in listed.stderr
    candidates = dashboard("--db", str(path), "candidates", "--json", env=NOW)
    assert [c["id"] for c in json.loads(candidates.stdout)] == [50]
    refused = dashboard("--db", str(path), "dismiss", "1", env=NOW)
    assert refused.returncode == 4 and "host v0.22 adds" in refused.stderr
    assert _file_state(path) == before  # nothing written, nothing created beside it
    store = MemoryStore.open(path)
    try:
        assert store.read_only and "before v0.22" in (store.read_only_reason or "")
        assert [m.id for m in store.profile()] == [1]
    finally:
        store.close()


def test_a_host_file_missing_a_required_table_is_still_refused(tmp_path: Path) -> None:
    path = build_host_db(tmp_path / "context.db")
    host_sql(path, "DROP TABLE dream_state")
    done = dashboard("--db", str(path), "list")
    assert done.returncode == 3 and "missing tables: dream_state" in done.stderr
