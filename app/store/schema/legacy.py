"""A host database from before `project_state` and the provenance column: read it, never write it.

Host versions before v0.22 kept `user_memories` without `source_candidate_provenance` and had no
`project_state` table (so no profile version to bump). The dashboard opens such a file read-only, says
what is missing and which host version adds it, and reads it through stand-ins created in the
connection's own TEMP schema (never in the file): a view named `user_memories` that adds the missing
column as NULL ("provenance unknown", as the host reads a legacy row), and an empty `project_state`.
Unqualified names resolve to TEMP first, so every read of the store works unchanged.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass

HOST_VERSION_ADDING = "v0.22"
# What older hosts lack, and what stands in for it: a missing column reads as this SQL value.
OPTIONAL_COLUMNS: Mapping[str, Mapping[str, str]] = {
    "user_memories": {"source_candidate_provenance": "NULL", "source_candidate_ids": "'[]'"},
}
OPTIONAL_TABLES: Mapping[str, str] = {
    "project_state": (
        "CREATE TEMP TABLE project_state (project_path TEXT PRIMARY KEY, project_memory_epoch INTEGER NOT "
        "NULL DEFAULT 0, project_user_profile_version INTEGER NOT NULL DEFAULT 0, updated_at INTEGER NOT "
        "NULL DEFAULT 0)"
    ),
}


@dataclass(frozen=True, slots=True)
class LegacyGaps:
    """What an older host's database lacks: whole tables, and columns of tables it has."""

    tables: tuple[str, ...] = ()
    columns: tuple[tuple[str, str], ...] = ()  # (table, column)

    def __bool__(self) -> bool:
        return bool(self.tables or self.columns)

    def missing(self) -> str:
        """`the project_state table and the column user_memories.source_candidate_provenance`."""
        parts = [f"the {name} table" for name in self.tables]
        parts += [f"the column {table}.{column}" for table, column in self.columns]
        return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]

    def message(self) -> str:
        return (
            f"a host version before {HOST_VERSION_ADDING} wrote it: it lacks {self.missing()}, which "
            f"host {HOST_VERSION_ADDING} adds"
        )


def find_gaps(connection: sqlite3.Connection, table_names: set[str]) -> LegacyGaps:
    """The optional tables and columns this database lacks (the required ones are checked elsewhere)."""
    tables = tuple(name for name in OPTIONAL_TABLES if name not in table_names)
    columns: list[tuple[str, str]] = []
    for table, optional in OPTIONAL_COLUMNS.items():
        if table not in table_names:
            continue
        present = {str(row[1]) for row in connection.execute(f'PRAGMA main.table_info("{table}")')}
        columns += [(table, column) for column in optional if column not in present]
    return LegacyGaps(tables, tuple(columns))


def install_stand_ins(connection: sqlite3.Connection, gaps: LegacyGaps) -> None:
    """Create, in this connection's TEMP schema only, what the reads expect and the file lacks."""
    for table in gaps.tables:
        connection.execute(OPTIONAL_TABLES[table])
    for table in dict.fromkeys(table for table, _ in gaps.columns):
        present = [str(row[1]) for row in connection.execute(f'PRAGMA main.table_info("{table}")')]
        filled = [
            f"{OPTIONAL_COLUMNS[table][column]} AS {column}" for t, column in gaps.columns if t == table
        ]
        columns = ", ".join([*(f'"{name}"' for name in present), *filled])
        connection.execute(f'CREATE TEMP VIEW "{table}" AS SELECT {columns} FROM main."{table}"')
