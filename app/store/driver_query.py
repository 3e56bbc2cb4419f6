"""Core statements run on the transaction's driver cursor: the reads a selection in the window waits on.

On a short read, SQLAlchemy's execution and result machinery costs more than SQLite itself: a memory's
outline of 50 revisions took 133 µs through `Connection.execute` and 80 µs on the driver's cursor, and
one revision 58 µs against 22 µs. A `DriverQuery` keeps the statement a dialect-neutral Core `select`,
compiles it once per dialect, and runs it on the DBAPI cursor of the connection whose transaction is
open; rows come back as the driver's tuples.

Only for statements whose columns need no result processing (integers and text, as the driver returns
them), and whose parameters are plain values (no expanding `IN`): both are checked when it is built.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import Connection, Integer, Select, Text
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.sqltypes import NullType

_PLAIN_TYPES = (Integer, Text, NullType)


class DriverQuery:
    def __init__(self, statement: Select[Any]) -> None:
        columns = statement.selected_columns
        odd = [column.name for column in columns if not isinstance(column.type, _PLAIN_TYPES)]
        if odd:
            raise ValueError(f"columns that need result processing: {', '.join(odd)}")
        self._statement = statement
        self._compiled: dict[str, SQLCompiler] = {}

    def _compile(self, conn: Connection) -> SQLCompiler:
        compiled = self._compiled.get(conn.dialect.name)
        if compiled is None:
            compiled = self._statement.compile(dialect=conn.dialect)
            if any(param.expanding for param in compiled.binds.values()):
                raise ValueError("expanding parameters need SQLAlchemy's execution")
            self._compiled[conn.dialect.name] = compiled
        return compiled

    def rows(self, conn: Connection, params: Mapping[str, Any]) -> list[Sequence[Any]]:
        """Every row, in the open transaction of `conn`."""
        compiled = self._compile(conn)
        values = compiled.construct_params(dict(params)) or {}
        order = compiled.positiontup
        arguments: Sequence[Any] | Mapping[str, Any] = (
            tuple(values[name] for name in order) if order is not None else values
        )
        cursor = conn.connection.cursor()
        try:
            cursor.execute(compiled.string, arguments)
            return list(cursor.fetchall())
        finally:
            cursor.close()


__all__ = ["DriverQuery"]
