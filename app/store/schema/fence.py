"""The host's fence: a fingerprint of a table's shape, as the host's native module takes it.

Sorted columns with type, notnull, default and pk; CHECK clauses; indexes; triggers on the table. The
host refuses to write a table whose fingerprint changed, so the dashboard proves (in tests, and after
every migration it runs) that it never changes `user_memories` or `user_memory_candidates`.
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


def table_shape(conn: Connection, table: str) -> dict[str, Any]:
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
