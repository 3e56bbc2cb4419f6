"""A search word's match against a text column, case-insensitive on every dialect.

SQLite's LIKE already ignores ASCII case, so there it stays the plain `LIKE '%word%'` the scan (and the
search index's narrowing, `index`) was measured with; PostgreSQL's LIKE is case-sensitive, so there it
is ILIKE. On PostgreSQL that scan is the whole search: the simplest correct thing, no index of our own.
Either way the word is escaped, so `%` and `_` match themselves.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Boolean, ColumnElement
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.visitors import InternalTraversal


class ContainsText(ColumnElement[bool]):
    """`column` holds `word`, ignoring case: LIKE on SQLite, ILIKE on PostgreSQL."""

    type = Boolean()
    inherit_cache = True
    _is_implicitly_boolean = True  # a comparison: never rendered as `... = 1` where booleans are ints
    _traverse_internals = [  # noqa: RUF012 (SQLAlchemy reads it from the class: the cache key)
        ("with_like", InternalTraversal.dp_clauseelement),
        ("with_ilike", InternalTraversal.dp_clauseelement),
    ]

    def __init__(self, column: ColumnElement[str], word: str) -> None:
        self.with_like = column.contains(word, autoescape=True)
        self.with_ilike = column.icontains(word, autoescape=True)


@compiles(ContainsText)
def _like(element: ContainsText, compiler: SQLCompiler, **kw: Any) -> str:
    return compiler.process(element.with_like, **kw)


@compiles(ContainsText, "postgresql")
def _ilike(element: ContainsText, compiler: SQLCompiler, **kw: Any) -> str:
    return compiler.process(element.with_ilike, **kw)


def contains_text(column: ColumnElement[str], word: str) -> ColumnElement[bool]:
    return ContainsText(column, word)
