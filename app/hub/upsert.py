"""How a publish writes a batch into a hub table: `COPY` into a temporary table, then one merge.

Shared by the user memories' publish (`app.hub.publish`) and the project memories'
(`app.hub.project_publish`): a row already in the hub is rewritten only when it differs (or, for rows
that never change once written, left as it is), so publishing twice changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import psycopg

Row = tuple[Any, ...]


def column_list(names: Iterable[str]) -> str:
    return ", ".join(names)


def merge_statement(
    table: str, incoming: str, columns: tuple[str, ...], key: tuple[str, ...], update: bool
) -> str:
    """INSERT ... SELECT from the temporary table; on a key already there, rewrite a differing row
    (`update`) or leave it (revisions and evidence never change once written)."""
    names = column_list(columns)
    head = (
        f"INSERT INTO {table} AS h (machine, {names}) SELECT %(machine)s, {names} FROM {incoming}"
        f" ON CONFLICT (publisher, machine, {column_list(key)}) DO "
    )
    if not update:
        return head + "NOTHING"
    rest = [name for name in columns if name not in key]
    assignments = ", ".join(f"{name} = excluded.{name}" for name in rest)
    mine = column_list(f"h.{name}" for name in rest)
    theirs = column_list(f"excluded.{name}" for name in rest)
    return f"{head}UPDATE SET {assignments} WHERE ({mine}) IS DISTINCT FROM ({theirs})"


def copy_rows(
    hub: psycopg.Connection[Any], table: str, columns: tuple[str, ...], rows: Sequence[Row]
) -> None:
    """`rows` into the temporary `table` by `COPY` (the caller's transaction)."""
    with hub.cursor() as cursor, cursor.copy(f"COPY {table} ({column_list(columns)}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)
