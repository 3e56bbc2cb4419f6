"""A search word's match against a text column, case-insensitive on every dialect.

SQLite's LIKE already ignores ASCII case, so there it stays the plain `LIKE '%word%'` the scan (and the
search index's narrowing, `index`) was measured with; PostgreSQL's LIKE is case-sensitive, so there it
is ILIKE (which the trigram index of `server_index` answers on our copy of the contents). Either way the
word is escaped, so `%` and `_` match themselves. `per_dialect` is the one way a condition is written
twice, once per dialect, and chosen when the statement is compiled.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Boolean, ColumnElement
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.visitors import InternalTraversal


class PerDialect(ColumnElement[bool]):
    """One condition, written per dialect: `postgresql` there, `default` everywhere else."""

    type = Boolean()
    inherit_cache = True
    _is_implicitly_boolean = True  # a comparison: never rendered as `... = 1` where booleans are ints
    _traverse_internals = [  # noqa: RUF012 (SQLAlchemy reads it from the class: the cache key)
        ("default", InternalTraversal.dp_clauseelement),
        ("postgresql", InternalTraversal.dp_clauseelement),
    ]

    def __init__(self, default: ColumnElement[bool], postgresql: ColumnElement[bool]) -> None:
        self.default = default.self_group()  # an OR inside stays whole inside the caller's AND
        self.postgresql = postgresql.self_group()


@compiles(PerDialect)
def _default(element: PerDialect, compiler: SQLCompiler, **kw: Any) -> str:
    return compiler.process(element.default, **kw)


@compiles(PerDialect, "postgresql")
def _postgresql(element: PerDialect, compiler: SQLCompiler, **kw: Any) -> str:
    return compiler.process(element.postgresql, **kw)


def per_dialect(default: ColumnElement[bool], *, postgresql: ColumnElement[bool]) -> ColumnElement[bool]:
    return PerDialect(default, postgresql)


def contains_text(column: ColumnElement[str], word: str) -> ColumnElement[bool]:
    """`column` holds `word`, ignoring case: LIKE on SQLite, ILIKE on PostgreSQL."""
    return PerDialect(column.contains(word, autoescape=True), column.icontains(word, autoescape=True))
