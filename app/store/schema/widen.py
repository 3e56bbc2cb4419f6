"""Our own tables made on PostgreSQL by an earlier version, with 32-bit columns, widened to BIGINT.

Until the store ran on PostgreSQL, migration 0001 said INTEGER for ids and instants: PostgreSQL made them
32-bit, and every write of an epoch-millisecond instant failed ("integer out of range"). 0001 now says
BIGINT there; a database migrated by the old 0001 is widened here, once, inside the upgrade's
transaction (so the fence is checked after it): our `mdash_*` tables only, with the sequences behind
their ids, and nothing on SQLite, whose INTEGER is 64-bit already.
"""

from __future__ import annotations

from sqlalchemy import Connection

_NARROW = (
    "SELECT table_name, column_name FROM information_schema.columns"
    " WHERE table_schema = current_schema() AND table_name LIKE 'mdash\\_%%'"
    " AND data_type IN ('integer', 'smallint') ORDER BY table_name, column_name"
)


def narrow_columns(conn: Connection) -> list[tuple[str, str]]:
    """(table, column) of every 32-bit (or smaller) whole-number column of ours; none on SQLite."""
    if conn.dialect.name != "postgresql":
        return []
    return [(str(table), str(column)) for table, column in conn.exec_driver_sql(_NARROW)]


def widen(conn: Connection, columns: list[tuple[str, str]]) -> None:
    for table, column in columns:
        conn.exec_driver_sql(f'ALTER TABLE "{table}" ALTER COLUMN "{column}" TYPE BIGINT')
        sequence = conn.exec_driver_sql(
            "SELECT pg_get_serial_sequence(%(table)s, %(column)s)", {"table": table, "column": column}
        ).scalar()
        if sequence:
            conn.exec_driver_sql(f"ALTER SEQUENCE {sequence} AS BIGINT")
