# ruff: noqa: E501  (the host's statements are kept as it wrote them, long lines too)
"""The agent host's project-memory tables, their indexes and triggers, exactly as its schema version 80
declares them (the host's own statements, copied as they are). Only the demo runs them, and only in its
own new file: the dashboard never creates the host's tables in a person's database.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

PROJECT_TABLES_SQL = """
CREATE TABLE session_projects (
      session_id TEXT NOT NULL,
      harness TEXT NOT NULL DEFAULT 'opencode',
      project_path TEXT NOT NULL,
      updated_at INTEGER NOT NULL,
      PRIMARY KEY(session_id, harness)
    );

CREATE TABLE memories (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      project_path TEXT NOT NULL,
      category TEXT NOT NULL,
      content TEXT NOT NULL,
      normalized_hash TEXT NOT NULL,
      importance INTEGER,
      scope TEXT NOT NULL DEFAULT 'project',
      shareable INTEGER NOT NULL DEFAULT 0,
      source_session_id TEXT,
      source_type TEXT DEFAULT 'historian',
      seen_count INTEGER DEFAULT 1,
      retrieval_count INTEGER DEFAULT 0,
      first_seen_at INTEGER NOT NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      last_seen_at INTEGER NOT NULL,
      last_retrieved_at INTEGER,
      status TEXT DEFAULT 'active',
      expires_at INTEGER,
      verification_status TEXT DEFAULT 'unverified',
      verified_at INTEGER,
      classified_at INTEGER,
      superseded_by_memory_id INTEGER,
      merged_from TEXT,
      metadata_json TEXT,
      mural_cue TEXT,
      mural_cue_hash TEXT,
      mural_cue_at INTEGER,
      mural_cue_rejection_count INTEGER NOT NULL DEFAULT 0,
      UNIQUE(project_path, category, normalized_hash)
    );

CREATE TABLE memory_mutation_log (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      project_path TEXT NOT NULL,
      mutation_type TEXT NOT NULL CHECK (mutation_type IN ('archive', 'delete', 'update', 'superseded')),
      target_memory_id INTEGER NOT NULL,
      superseded_by_id INTEGER,
      category TEXT,
      new_content TEXT,
      queued_at INTEGER NOT NULL
    );

CREATE TABLE workspaces (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      name TEXT NOT NULL UNIQUE,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      share_categories TEXT NOT NULL DEFAULT '["CONSTRAINTS"]'
    );

CREATE TABLE workspace_members (
      workspace_id INTEGER NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      project_path TEXT NOT NULL,
      display_name TEXT NOT NULL,
      display_path TEXT NOT NULL,
      added_at INTEGER NOT NULL,
      PRIMARY KEY (workspace_id, project_path)
    );

CREATE VIRTUAL TABLE memories_fts USING fts5(
      content,
      category,
      content='memories',
      content_rowid='id',
      tokenize='porter unicode61'
    );

CREATE TABLE "memory_embeddings" (
                        memory_id INTEGER NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
                        embedding BLOB NOT NULL,
                        model_id TEXT NOT NULL,
                        PRIMARY KEY(memory_id, model_id)
                    );

CREATE TABLE authority_managed (
                    project_path TEXT PRIMARY KEY,
                    context_store_uuid TEXT NOT NULL,
                    marked_at INTEGER NOT NULL
                );

CREATE TABLE authority_repair_pending (
                    project_path TEXT PRIMARY KEY,
                    started_at INTEGER NOT NULL
                );

CREATE TABLE context_privilege_state (
                    id INTEGER PRIMARY KEY CHECK(id = 1),
                    enabled INTEGER NOT NULL DEFAULT 0 CHECK(enabled IN (0, 1))
                );

CREATE INDEX idx_session_projects_project
      ON session_projects(project_path);

CREATE INDEX idx_memory_mutation_log_project
      ON memory_mutation_log(project_path, id);

CREATE INDEX idx_memory_mutation_log_visibility
      ON memory_mutation_log(project_path, category, id, target_memory_id);

CREATE INDEX idx_memory_mutation_log_target
      ON memory_mutation_log(project_path, target_memory_id, id);

CREATE UNIQUE INDEX idx_workspace_member_unique ON workspace_members(project_path);

CREATE UNIQUE INDEX idx_workspace_member_name ON workspace_members(workspace_id, display_name);

CREATE INDEX idx_memories_project_status_category ON memories(project_path, status, category);

CREATE INDEX idx_memories_project_status_expires ON memories(project_path, status, expires_at);

CREATE INDEX idx_memories_project_category_hash ON memories(project_path, category, normalized_hash);

CREATE TRIGGER memories_ai AFTER INSERT ON memories BEGIN
      INSERT INTO memories_fts(rowid, content, category) VALUES (new.id, new.content, new.category);
    END;

CREATE TRIGGER memories_ad AFTER DELETE ON memories BEGIN
      INSERT INTO memories_fts(memories_fts, rowid, content, category) VALUES ('delete', old.id, old.content, old.category);
    END;

CREATE TRIGGER memories_au AFTER UPDATE ON memories BEGIN
      INSERT INTO memories_fts(memories_fts, rowid, content, category) VALUES ('delete', old.id, old.content, old.category);
      INSERT INTO memories_fts(rowid, content, category) VALUES (new.id, new.content, new.category);
    END;

CREATE TRIGGER memories_authority_guard_insert
            BEFORE INSERT ON memories
            WHEN (EXISTS (SELECT 1 FROM authority_managed WHERE project_path = NEW.project_path)
               OR EXISTS (SELECT 1 FROM authority_repair_pending WHERE project_path = NEW.project_path))
              AND COALESCE((SELECT enabled FROM context_privilege_state WHERE id = 1), 0) = 0
            BEGIN SELECT RAISE(ABORT, 'context.db memory writes are managed by the Rust module'); END;

CREATE TRIGGER memories_authority_guard_update
            BEFORE UPDATE ON memories
            WHEN (EXISTS (SELECT 1 FROM authority_managed WHERE project_path = OLD.project_path)
               OR EXISTS (SELECT 1 FROM authority_managed WHERE project_path = NEW.project_path)
               OR EXISTS (SELECT 1 FROM authority_repair_pending WHERE project_path = OLD.project_path)
               OR EXISTS (SELECT 1 FROM authority_repair_pending WHERE project_path = NEW.project_path))
              AND COALESCE((SELECT enabled FROM context_privilege_state WHERE id = 1), 0) = 0
            BEGIN SELECT RAISE(ABORT, 'context.db memory writes are managed by the Rust module'); END;

CREATE TRIGGER memories_authority_guard_delete
            BEFORE DELETE ON memories
            WHEN (EXISTS (SELECT 1 FROM authority_managed WHERE project_path = OLD.project_path)
               OR EXISTS (SELECT 1 FROM authority_repair_pending WHERE project_path = OLD.project_path))
              AND COALESCE((SELECT enabled FROM context_privilege_state WHERE id = 1), 0) = 0
            BEGIN SELECT RAISE(ABORT, 'context.db memory writes are managed by the Rust module'); END;
"""


def add_project_tables(path: Path) -> None:
    """The host's project-memory tables in the demo's new file at `path`."""
    conn = sqlite3.connect(path)
    try:
        conn.executescript(PROJECT_TABLES_SQL)
        conn.commit()
    finally:
        conn.close()
