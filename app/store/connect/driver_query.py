"""Statements run on the transaction's driver cursor: the reads a selection in the window waits on.

On a short read, SQLAlchemy's execution and result machinery costs more than SQLite itself: a memory's
outline of 50 revisions took 133 µs through `Connection.execute` and 80 µs on the driver's cursor, and
one revision 58 µs against 22 µs. A `DriverQuery` keeps the statement a dialect-neutral Core `select`,
compiles it once per dialect and parameter style, and runs it on the DBAPI cursor of the connection
whose transaction is open; rows come back as the driver's tuples. `driver_rows` runs one SQL string the
same way (`BEGIN`, `PRAGMA data_version`).

The driver's errors come out as SQLAlchemy's (`DBAPIError` and its subclasses), as they would through
`Connection.execute`: callers tell a failing database from a bug by them.

Only for statements whose columns need no result processing and whose parameters need no bind
processing (integers and text, as the driver takes and returns them), with no expanding or
render-time parameters: checked when a `DriverQuery` is built.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import Connection, Integer, Select, String
from sqlalchemy.exc import DBAPIError
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.sqltypes import NullType

_PLAIN_TYPES = (Integer, String, NullType)  # String: Text and its kin
Parameters = Sequence[Any] | Mapping[str, Any]


def driver_rows(conn: Connection, sql: str, parameters: Parameters = ()) -> list[Sequence[Any]]:
    """Every row `sql` returns (none for a statement that returns no rows), run on the driver cursor of
    `conn`, inside its open transaction if it has one."""
    error_type: type[Exception] = conn.dialect.loaded_dbapi.Error
    cursor = conn.connection.cursor()
    try:
        cursor.execute(sql, parameters)
        return list(cursor.fetchall()) if cursor.description is not None else []
    except error_type as exc:
        raise DBAPIError.instance(sql, parameters, exc, error_type, dialect=conn.dialect) from exc
    finally:
        cursor.close()


class DriverQuery:
    def __init__(self, statement: Select[Any]) -> None:
        columns = statement.selected_columns
        odd = [column.name for column in columns if not isinstance(column.type, _PLAIN_TYPES)]
        if odd:
            raise ValueError(f"columns that need result processing: {', '.join(odd)}")
        binds = statement.compile().binds.values()
        odd = [bind.key for bind in binds if bind.expanding or bind.literal_execute]
        if odd:
            raise ValueError(f"parameters rendered at execution (expanding, literal): {', '.join(odd)}")
        odd = [bind.key for bind in binds if not isinstance(bind.type, _PLAIN_TYPES)]
        if odd:
            raise ValueError(f"parameters that need bind processing: {', '.join(odd)}")
        self._statement = statement
        self._compiled: dict[tuple[str, str], SQLCompiler] = {}

    def _compile(self, conn: Connection) -> SQLCompiler:
        dialect = conn.dialect
        key = (dialect.name, dialect.paramstyle)  # one dialect name, several drivers' styles
        compiled = self._compiled.get(key)
        if compiled is None:
            compiled = self._compiled[key] = self._statement.compile(dialect=dialect)
        return compiled

    def rows(self, conn: Connection, params: Mapping[str, Any]) -> list[Sequence[Any]]:
        """Every row, in the open transaction of `conn`."""
        compiled = self._compile(conn)
        values = compiled.construct_params(dict(params)) or {}
        order = compiled.positiontup
        arguments: Parameters = tuple(values[name] for name in order) if order is not None else values
        return driver_rows(conn, compiled.string, arguments)


__all__ = ["DriverQuery", "driver_rows"]
