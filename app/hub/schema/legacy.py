"""An older version's hub, as `hub setup` finds it, checks it and moves it into the hub's own schema.

Older versions made the hub's tables in the publishing role's current schema (`public`, or a schema
named after the role), owned by the role that published first. Any role with CREATE on the database can
make tables of those names, so a schema holding them is only a candidate: `hub setup` lists each with
the owner of the schema and of each table, and moves one only when the administrator names it (`--from`).
Its rows are moved as its owner role wrote them, and that role could have written any publisher's name.

Nothing of an older hub is read before the catalog says reading it runs nothing of its owner's: each
table a plain table (no view, no rule, no trigger, no policy that calls anything), each column of exactly
one of PostgreSQL's own types (`bigint`, `text`, `name`, compared by type OID: a look-alike type with
an implicit cast would run its owner's function as the administrator), and the same type as the new
table's column of that name. Then its rows are copied (`FROM ONLY`: no inheriting table's rows), column
by column, with no cast and no operator on the owner's types, and its tables dropped.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import psycopg
from psycopg import sql
from psycopg.postgres import types as pg_types

from app.core.hub_layout import ALL_TABLES, LEGACY_SCHEMAS, PUBLISHED_TABLES, REQUESTS, REQUESTS_IDS, SCHEMA
from app.hub.connect import HubError
from app.hub.schema.tables import shown_name

# PostgreSQL's own types, by OID (fixed by PostgreSQL for every server): the only ones an older hub used.
BUILT_IN_TYPES = {
    pg_types[name].oid: shown for name, shown in (("int8", "bigint"), ("text", "text"), ("name", "name"))
}
# Version 1's `hub_evidence` (keyed by memory and candidate) was never written by any version of the
# app, whose evidence was not published yet: an older hub of version 1 leaves it behind.
NOT_COPIED: dict[int, tuple[str, ...]] = {1: ("hub_evidence",)}
KNOWN_VERSIONS = (1, 2)

_OWNERS = """
SELECT n.nspname, pg_catalog.pg_get_userbyid(n.nspowner), c.relname, pg_catalog.pg_get_userbyid(c.relowner)
FROM pg_catalog.pg_namespace n JOIN pg_catalog.pg_class c ON c.relnamespace = n.oid
WHERE n.nspname = ANY(%s) AND c.relname = ANY(%s)
ORDER BY 1, 3
"""
# Besides its kind: what an older version never made, each a place where the table's owner could have
# put an expression of their own that PostgreSQL evaluates (a planner folds index expressions and
# predicates, and the expressions of extended statistics, when it plans a read of the table).
_TABLE = """
SELECT c.oid, c.relkind, pg_catalog.array_remove(ARRAY[
  CASE WHEN EXISTS (SELECT 1 FROM pg_catalog.pg_rewrite r WHERE r.ev_class = c.oid) THEN 'rules' END,
  CASE WHEN EXISTS (SELECT 1 FROM pg_catalog.pg_trigger t WHERE t.tgrelid = c.oid AND NOT t.tgisinternal)
    THEN 'triggers' END,
  CASE WHEN EXISTS (SELECT 1 FROM pg_catalog.pg_index i WHERE i.indrelid = c.oid
                    AND (i.indexprs IS NOT NULL OR i.indpred IS NOT NULL)) THEN 'indexes on expressions' END,
  CASE WHEN EXISTS (SELECT 1 FROM pg_catalog.pg_constraint k WHERE k.conrelid = c.oid AND k.contype = 'c')
    THEN 'check constraints' END,
  CASE WHEN EXISTS (SELECT 1 FROM pg_catalog.pg_statistic_ext s WHERE s.stxrelid = c.oid)
    THEN 'extended statistics' END], NULL)
FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = %s AND c.relname = %s
"""
# A policy whose expressions use anything but its own table's columns (a function, an operator or a
# type of someone's, another table) records it in pg_depend; PostgreSQL's own objects are not recorded.
_POLICIES_CALLING = """
SELECT p.polname FROM pg_catalog.pg_policy p WHERE p.polrelid = %s AND EXISTS (
  SELECT 1 FROM pg_catalog.pg_depend d
  WHERE d.classid = 'pg_catalog.pg_policy'::pg_catalog.regclass AND d.objid = p.oid
    AND NOT (d.refclassid = 'pg_catalog.pg_class'::pg_catalog.regclass AND d.refobjid = p.polrelid))
ORDER BY 1
"""
_COLUMNS = """
SELECT a.attname, a.atttypid, a.attgenerated <> '' FROM pg_catalog.pg_attribute a
WHERE a.attrelid = %s AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum
"""
_NEW_COLUMNS = """
SELECT a.attname, a.atttypid FROM pg_catalog.pg_attribute a
JOIN pg_catalog.pg_class c ON c.oid = a.attrelid JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = %s AND c.relname = %s AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
ORDER BY a.attnum
"""
_KINDS = {"v": "a view", "m": "a materialized view", "f": "a foreign table", "p": "a partitioned table"}


def _ident(*names: str) -> sql.Identifier:
    return sql.Identifier(*names)


@dataclass(frozen=True, slots=True)
class Candidate:
    """A schema holding tables of an older hub's names: who owns the schema and each of those tables."""

    schema: str
    schema_owner: str
    table_owners: dict[str, str] = field(default_factory=dict)

    @property
    def owner(self) -> str | None:
        """The one role owning its tables and the schema (`public`, made by PostgreSQL for every database,
        is the database's, and older versions made their tables there), else None."""
        owners = set(self.table_owners.values())
        if len(owners) != 1:
            return None
        (owner,) = owners
        return owner if self.schema == "public" or self.schema_owner == owner else None

    def text(self) -> str:
        """`alice: schema owned by bob; tables owned by bob` (names as a person reads them)."""
        owners = set(self.table_owners.values())
        if len(owners) == 1:
            tables = f"tables owned by {shown_name(next(iter(owners)))}"
        else:
            tables = "tables owned by " + ", ".join(
                f"{table} {shown_name(owner)}" for table, owner in self.table_owners.items()
            )
        return f"{shown_name(self.schema)}: schema owned by {shown_name(self.schema_owner)}; {tables}"


def candidates(conn: psycopg.Connection[Any]) -> list[Candidate]:
    """Every schema holding an older hub's tables, with their owners."""
    schemas = [str(row[0]) for row in conn.execute(LEGACY_SCHEMAS)]
    found: dict[str, Candidate] = {}
    for schema, schema_owner, table, owner in conn.execute(_OWNERS, (schemas, list(ALL_TABLES))):
        candidate = found.setdefault(str(schema), Candidate(str(schema), str(schema_owner)))
        candidate.table_owners[str(table)] = str(owner)
    return [found[schema] for schema in schemas if schema in found]


def chosen(conn: psycopg.Connection[Any], schema: str) -> Candidate:
    """The candidate the administrator named, if it can be moved: one owner over it; `HubError` else."""
    listed = candidates(conn)
    match = [candidate for candidate in listed if candidate.schema == schema]
    if not match:
        found = ", ".join(shown_name(candidate.schema) for candidate in listed) or "none"
        raise HubError(f"the schema {shown_name(schema)} holds no older hub (schemas holding one: {found})")
    if match[0].owner is None:
        raise HubError(
            f"the older hub in {match[0].text()}: its schema and tables do not share one owner, so another "
            "role may have made some of them; it is not moved"
        )
    return match[0]


class _Reader:
    """One older hub's tables, checked in the catalog before any of their values is read."""

    def __init__(self, conn: psycopg.Connection[Any], schema: str) -> None:
        self.conn = conn
        self.schema = schema
        self.problems: list[str] = []

    def _refuse(self, table: str, problem: str) -> None:
        self.problems.append(f"{shown_name(self.schema)}.{table} {problem}")

    def new_columns(self, table: str) -> dict[str, int]:
        return {str(name): int(oid) for name, oid in self.conn.execute(_NEW_COLUMNS, (SCHEMA, table))}

    def check(self, table: str) -> dict[str, int] | None:
        """The columns of the older table (name: type OID), None where it has none; refusals noted."""
        row = self.conn.execute(_TABLE, (self.schema, table)).fetchone()
        if row is None:
            return None
        oid, kind, additions = row
        if kind != "r":
            self._refuse(table, f"is {_KINDS.get(str(kind), 'not a table')}, not a plain table")
            return None
        for addition in additions:
            self._refuse(table, f"has {addition}")
        for (policy,) in self.conn.execute(_POLICIES_CALLING, (oid,)):
            self._refuse(table, f"has a policy {shown_name(str(policy))} that uses objects of its own")
        new = self.new_columns(table)
        columns: dict[str, int] = {}
        for name, type_oid, generated in self.conn.execute(_COLUMNS, (oid,)):
            name, type_oid = str(name), int(type_oid)
            if type_oid not in BUILT_IN_TYPES or new.get(name, type_oid) != type_oid:
                want = BUILT_IN_TYPES.get(new.get(name, 0), "bigint, text or name")
                self._refuse(table, f"column {shown_name(name)} is not of PostgreSQL's own type {want}")
            elif generated:
                self._refuse(table, f"column {shown_name(name)} is generated")
            columns[name] = type_oid
        if table in PUBLISHED_TABLES and "publisher" not in columns:
            self._refuse(table, "has no column publisher")
        return columns

    def raise_if_refused(self) -> None:
        if self.problems:
            shown = "; ".join(self.problems[:10])
            raise HubError(
                f"the older hub in {shown_name(self.schema)} is not read, nor moved: {shown}. An older "
                "version made none of these; look at what the schema holds"
            )


def _version(conn: psycopg.Connection[Any], schema: str, columns: dict[str, int] | None) -> int:
    if columns is None or "version" not in columns:
        raise HubError(f"the older hub in {shown_name(schema)} has no hub_schema.version")
    row = conn.execute(
        sql.SQL("SELECT max(version) FROM ONLY {}").format(_ident(schema, "hub_schema"))
    ).fetchone()
    version = int(row[0]) if row and row[0] is not None else 1
    if version not in KNOWN_VERSIONS:
        raise HubError(f"the older hub in {shown_name(schema)} is of version {version}, unknown to this app")
    return version


def move(conn: psycopg.Connection[Any], schema: str) -> dict[str, int]:
    """Copy the older hub's rows into the hub's tables (made already, empty), same-named columns of
    the same type, then drop its tables; the rows copied by table. The caller sees every row (row-level
    security binds it not)."""
    reader = _Reader(conn, schema)
    found = {table: reader.check(table) for table in ALL_TABLES}
    reader.raise_if_refused()
    version = _version(conn, schema, found["hub_schema"])
    moved: dict[str, int] = {}
    for table in PUBLISHED_TABLES:
        old = found[table]
        if table in NOT_COPIED.get(version, ()) or not old:
            continue
        names = [name for name, oid in reader.new_columns(table).items() if old.get(name) == oid]
        columns = sql.SQL(", ").join(_ident(name) for name in names)
        copied = conn.execute(  # a request keeps its id, which is GENERATED ALWAYS here: OVERRIDING
            sql.SQL("INSERT INTO {} ({}) OVERRIDING SYSTEM VALUE SELECT {} FROM ONLY {}").format(
                _ident(SCHEMA, table), columns, columns, _ident(schema, table)
            )
        ).rowcount
        moved[table] = max(copied, 0)
    conn.execute(
        f"SELECT pg_catalog.setval('{REQUESTS_IDS}', coalesce(max(id), 0) + 1, false) FROM {REQUESTS}"
    )
    for table in ALL_TABLES:
        if found[table] is not None:
            conn.execute(sql.SQL("DROP TABLE {}").format(_ident(schema, table)))
    return moved
