"""The host's fence: a fingerprint of a table's shape, as the host's native module takes it.

Sorted columns with type, notnull, default and pk; CHECK clauses; indexes; triggers on the table. The
host refuses to write a table whose fingerprint changed, so the dashboard proves (in tests, and after
every migration it runs) that it never changes `user_memories` or `user_memory_candidates`. On PostgreSQL
the same shape is read from its catalogue (`pg_catalog`): columns with type, notnull, default and
primary-key position; every constraint's definition (CHECKs among them); indexes; triggers.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from sqlalchemy import Connection

from app.store.schema.tables import FENCED_TABLES

_CHECK = re.compile(r"CHECK\s*\(", re.IGNORECASE)


def _check_clauses(create_sql: str) -> list[str]:
    """The text of every CHECK (...) clause, balanced parentheses included."""
    clauses = []
    for match in _CHECK.finditer(create_sql):
        depth, start = 0, match.end() - 1
        for index in range(start, len(create_sql)):
            depth += {"(": 1, ")": -1}.get(create_sql[index], 0)
            if depth == 0:
                clauses.append(" ".join(create_sql[start : index + 1].split()))
                break
    return sorted(clauses)


# One row per column: name, type, not null, default, position in the primary key (0: not in it).
_PG_COLUMNS = """
SELECT a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull::int,
       pg_get_expr(d.adbin, d.adrelid), coalesce(array_position(k.conkey, a.attnum), 0)
FROM pg_attribute a
LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
LEFT JOIN pg_constraint k ON k.conrelid = a.attrelid AND k.contype = 'p'
WHERE a.attrelid = to_regclass(%(table)s) AND a.attnum > 0 AND NOT a.attisdropped
"""
_PG_CONSTRAINTS = (
    "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = to_regclass(%(table)s)"
)
_PG_INDEXES = (
    "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename = %(table)s"
)
_PG_TRIGGERS = (
    "SELECT tgname, pg_get_triggerdef(oid) FROM pg_trigger"
    " WHERE tgrelid = to_regclass(%(table)s) AND NOT tgisinternal"
)


def _pg_rows(conn: Connection, sql: str, table: str) -> list[tuple[Any, ...]]:
    return sorted(tuple(row) for row in conn.exec_driver_sql(sql, {"table": table}))


def _postgresql_shape(conn: Connection, table: str) -> dict[str, Any]:
    return {
        "columns": _pg_rows(conn, _PG_COLUMNS, table),
        "checks": _pg_rows(conn, _PG_CONSTRAINTS, table),
        "indexes": _pg_rows(conn, _PG_INDEXES, table),
        "triggers": _pg_rows(conn, _PG_TRIGGERS, table),
    }


def table_shape(conn: Connection, table: str) -> dict[str, Any]:
    if conn.dialect.name == "postgresql":
        return _postgresql_shape(conn, table)
    columns = sorted(
        (row[1], str(row[2]).upper(), int(row[3]), row[4], int(row[5]))
        for row in conn.exec_driver_sql(f'PRAGMA table_info("{table}")')
    )
    create_sql = conn.exec_driver_sql(
        "SELECT sql FROM sqlite_master WHERE type='table' AND name=?", (table,)
    ).scalar()
    indexes = sorted(
        (row[0], " ".join(str(row[1] or "").split()))
        for row in conn.exec_driver_sql(
            "SELECT name, sql FROM sqlite_master WHERE type='index' AND tbl_name=?", (table,)
        )
    )
    index_columns = {
        name: [row[2] for row in conn.exec_driver_sql(f'PRAGMA index_info("{name}")')] for name, _ in indexes
    }
    triggers = sorted(
        (row[0], " ".join(str(row[1] or "").split()))
        for row in conn.exec_driver_sql(
            "SELECT name, sql FROM sqlite_master WHERE type='trigger' AND tbl_name=?", (table,)
        )
    )
    return {
        "columns": columns,
        "checks": _check_clauses(str(create_sql or "")),
        "indexes": indexes,
        "index_columns": index_columns,
        "triggers": triggers,
    }


def fingerprint(conn: Connection, table: str) -> str:
    shape = json.dumps(table_shape(conn, table), sort_keys=True, default=str)
    return hashlib.sha256(shape.encode()).hexdigest()


def fence_fingerprints(conn: Connection) -> dict[str, str]:
    return {table: fingerprint(conn, table) for table in FENCED_TABLES}
