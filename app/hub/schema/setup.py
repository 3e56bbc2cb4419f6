"""`hub setup`: make a database a hub, once, as an administrator; move an older version's hub into it.

Run by a role that may create roles and schemas (a superuser, or a role with CREATEROLE and CREATE on
the database), never by a publisher. In one transaction, under the schema's advisory lock:
- the owner role (`layout.OWNER`, NOLOGIN: it publishes nothing) and the hub's schema, owned by it;
- the tables, owned by it, row-level security enabled and forced, each with the one policy
  `publisher = current_user`, and no trigger or rule but PostgreSQL's own;
- the publishers' rights, and only those: USAGE on the schema, SELECT, INSERT, UPDATE, DELETE on the
  tables, USAGE on the requests' sequence, to PUBLIC (every role that may connect to the database
  publishes its own rows); every other right anyone was given on them is revoked.
Running it again changes nothing, or puts back what someone changed.

A hub made by an older version (its tables in `public` or in a role's own schema, owned by the publisher
that made them) is copied into the new tables, column by column where the column's type is the same,
and its old tables dropped. The rows are copied, not the tables moved: an old table's owner could have
given it triggers, policies or defaults of their own, and those must not follow. Copying every row needs
a role that row-level security does not bind (a superuser or BYPASSRLS). Where several schemas hold an
old hub, `--from SCHEMA` names the one to move.
"""

from __future__ import annotations

from contextlib import closing
from dataclasses import asdict, dataclass, field
from typing import Any

import psycopg
from psycopg import sql

from app.core.hub_layout import (
    ALL_TABLES,
    LEGACY_SCHEMAS,
    OWNER,
    PUBLISHED_TABLES,
    REQUESTS,
    REQUESTS_IDS,
    SCHEMA,
    VERSION_TABLE,
)
from app.hub.connect import HubError, connect_hub, hub_location
from app.hub.schema.tables import SCHEMA_LOCK, SCHEMA_VERSION, TABLES, hub_state
from app.store.connect.server import reason

# Version 1's `hub_evidence` (keyed by memory and candidate) was never written by any version of the
# app, whose evidence was not published yet: an old hub of version 1 leaves it behind.
NOT_COPIED: dict[int, tuple[str, ...]] = {1: ("hub_evidence",)}

_ROLE = "SELECT rolcanlogin FROM pg_catalog.pg_roles WHERE rolname = %s"
_ME = (
    "SELECT current_user, rolsuper OR rolbypassrls, pg_catalog.pg_has_role(current_user, %s, 'MEMBER')"
    " FROM pg_catalog.pg_roles WHERE rolname = current_user"
)
_SCHEMA_OWNER = "SELECT pg_catalog.pg_get_userbyid(nspowner) FROM pg_catalog.pg_namespace WHERE nspname = %s"
_COLUMNS = """
SELECT a.attname, a.atttypid FROM pg_catalog.pg_attribute a
JOIN pg_catalog.pg_class c ON c.oid = a.attrelid JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = %s AND c.relname = %s AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
ORDER BY a.attnum
"""
# Whoever was granted anything on an object of the schema, besides its owner (and PUBLIC, revoked apart).
_GRANTEES = """
SELECT DISTINCT pg_catalog.pg_get_userbyid(acl.grantee)
FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace,
  LATERAL pg_catalog.aclexplode(c.relacl) acl
WHERE n.nspname = %s AND c.relname = %s AND acl.grantee <> 0 AND acl.grantee <> c.relowner
"""
_SCHEMA_GRANTEES = """
SELECT DISTINCT pg_catalog.pg_get_userbyid(acl.grantee)
FROM pg_catalog.pg_namespace n, LATERAL pg_catalog.aclexplode(n.nspacl) acl
WHERE n.nspname = %s AND acl.grantee <> 0 AND acl.grantee <> n.nspowner
"""
_TRIGGERS = """
SELECT t.tgname FROM pg_catalog.pg_trigger t JOIN pg_catalog.pg_class c ON c.oid = t.tgrelid
JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = %s AND c.relname = %s AND NOT t.tgisinternal
"""
_POLICIES = "SELECT policyname FROM pg_catalog.pg_policies WHERE schemaname = %s AND tablename = %s"
_RULES = "SELECT rulename FROM pg_catalog.pg_rules WHERE schemaname = %s AND tablename = %s"


@dataclass(slots=True)
class SetupReport:
    hub: str
    schema: str = SCHEMA
    owner: str = OWNER
    version: int = SCHEMA_VERSION
    created: bool = False  # the schema was made now (False: it was there, and is checked and mended)
    moved_from: str | None = None  # the schema of an older version's hub, copied in and dropped
    moved_rows: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    def text(self) -> str:
        done = "set up" if self.created else "checked (already set up)"
        lines = [
            f"{self.hub}: hub {done} in schema {self.schema}, version {self.version}, owned by {self.owner}"
            " (NOLOGIN: it publishes nothing)",
            "publishers (every role that may connect): USAGE on the schema; SELECT, INSERT, UPDATE, DELETE"
            " on its tables; row-level security forced: each role sees only its own rows",
        ]
        if self.moved_from is not None:
            counts = ", ".join(f"{table} {count:,}" for table, count in self.moved_rows.items())
            lines.append(
                f"moved the older hub of schema {self.moved_from} here ({counts} rows); its tables dropped"
            )
        return "\n".join(lines)


def _ident(*names: str) -> sql.Identifier:
    return sql.Identifier(*names)


class _Setup:
    """One `hub setup`: the admin's connection inside the transaction, and the report."""

    def __init__(self, conn: psycopg.Connection[Any], report: SetupReport) -> None:
        self.conn = conn
        self.report = report

    def run(self, chosen: str | None) -> None:
        self.conn.execute("SELECT pg_catalog.pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
        state = hub_state(self.conn)
        if state.version is not None and state.version > SCHEMA_VERSION:
            raise HubError(
                f"the hub's schema is version {state.version}, newer than this app's; update the app"
            )
        # A hub of the schema's name already (sound or not) never takes in an older one's rows.
        source = self._source(chosen, set_up=state.version is not None or state.problem is not None)
        self._owner_role()
        self._schema()
        for statement in TABLES:
            self.conn.execute(statement)
        if source is not None:
            self._move(source)
        for table in ALL_TABLES:
            self._secure(table)
        self._grants()
        self.conn.execute(f"DELETE FROM {VERSION_TABLE}")
        self.conn.execute(f"INSERT INTO {VERSION_TABLE} (version) VALUES (%s)", (SCHEMA_VERSION,))

    def _source(self, chosen: str | None, *, set_up: bool) -> str | None:
        """The schema of the older hub to move here, if any (none once this hub holds its own)."""
        legacy = [str(row[0]) for row in self.conn.execute(LEGACY_SCHEMAS)]
        if chosen is not None:
            if chosen not in legacy:
                found = ", ".join(legacy) or "none"
                raise HubError(f"the schema {chosen} holds no older hub (schemas holding one: {found})")
            if set_up:
                raise HubError(f"the hub is set up already; the older hub in {chosen} is not moved into it")
            return chosen
        if set_up or not legacy:
            return None
        if len(legacy) > 1:
            raise HubError(
                f"several schemas hold an older hub ({', '.join(legacy)}): name the one to move with --from"
            )
        return legacy[0]

    def _owner_role(self) -> None:
        row = self.conn.execute(_ROLE, (OWNER,)).fetchone()
        if row is None:
            self.conn.execute(sql.SQL("CREATE ROLE {} NOLOGIN").format(_ident(OWNER)))
        elif row[0]:
            self.conn.execute(sql.SQL("ALTER ROLE {} NOLOGIN").format(_ident(OWNER)))
        me = self.conn.execute(_ME, (OWNER,)).fetchone()
        assert me is not None
        if not me[1] and not me[2]:  # a non-superuser admin acts for the owner through membership
            self.conn.execute(sql.SQL("GRANT {} TO {}").format(_ident(OWNER), _ident(str(me[0]))))

    def _schema(self) -> None:
        row = self.conn.execute(_SCHEMA_OWNER, (SCHEMA,)).fetchone()
        if row is None:
            self.conn.execute(
                sql.SQL("CREATE SCHEMA {} AUTHORIZATION {}").format(_ident(SCHEMA), _ident(OWNER))
            )
            self.report.created = True
        elif row[0] != OWNER:
            raise HubError(
                f"a schema {SCHEMA} exists and belongs to {row[0]}, not to {OWNER}: it was not made by "
                "`hub setup` and is not used; look at what it holds, then drop or rename it"
            )

    def _columns(self, schema: str, table: str) -> dict[str, int]:
        return {str(name): int(oid) for name, oid in self.conn.execute(_COLUMNS, (schema, table))}

    def _move(self, source: str) -> None:
        """Copy the older hub's rows into the new tables (same-named columns of the same type), then drop
        its tables. Row-level security must not hide any row: a role it binds is refused."""
        me = self.conn.execute(_ME, (OWNER,)).fetchone()
        if me is None or not me[1]:
            raise HubError(
                f"moving the older hub of schema {source} copies every publisher's rows: run `hub setup`"
                " as a superuser (or a BYPASSRLS role)"
            )
        version_row = self.conn.execute(
            sql.SQL("SELECT max(version) FROM ONLY {}").format(_ident(source, "hub_schema"))
        ).fetchone()
        version = int(version_row[0]) if version_row and version_row[0] is not None else 1
        if version > SCHEMA_VERSION:
            raise HubError(f"the older hub in {source} is version {version}, newer than this app's")
        skipped = NOT_COPIED.get(version, ())
        for table in PUBLISHED_TABLES:
            old = self._columns(source, table)
            if table in skipped or not old:
                continue
            new = self._columns(SCHEMA, table)
            # Same name and same type only: no cast runs, so no function of the old tables' owner either.
            names = [name for name, oid in new.items() if old.get(name) == oid]
            columns = sql.SQL(", ").join(_ident(name) for name in names)
            copied = self.conn.execute(
                sql.SQL("INSERT INTO {} ({}) SELECT {} FROM ONLY {}").format(
                    _ident(SCHEMA, table), columns, columns, _ident(source, table)
                )
            ).rowcount
            self.report.moved_rows[table] = max(copied, 0)
        self.conn.execute(
            f"SELECT pg_catalog.setval('{REQUESTS_IDS}', coalesce(max(id), 0) + 1, false) FROM {REQUESTS}"
        )
        for table in (*PUBLISHED_TABLES, "hub_schema"):
            if self._columns(source, table):
                self.conn.execute(sql.SQL("DROP TABLE {}").format(_ident(source, table)))
        self.report.moved_from = source

    def _secure(self, table: str) -> None:
        """The table owned by the owner, with exactly our policy, no trigger or rule of anyone's."""
        name = _ident(SCHEMA, table)
        self.conn.execute(sql.SQL("ALTER TABLE {} OWNER TO {}").format(name, _ident(OWNER)))
        for (trigger,) in self.conn.execute(_TRIGGERS, (SCHEMA, table)).fetchall():
            self.conn.execute(sql.SQL("DROP TRIGGER {} ON {}").format(_ident(str(trigger)), name))
        for (rule,) in self.conn.execute(_RULES, (SCHEMA, table)).fetchall():
            self.conn.execute(sql.SQL("DROP RULE {} ON {}").format(_ident(str(rule)), name))
        for (policy,) in self.conn.execute(_POLICIES, (SCHEMA, table)).fetchall():
            self.conn.execute(sql.SQL("DROP POLICY {} ON {}").format(_ident(str(policy)), name))
        if table in PUBLISHED_TABLES:
            self.conn.execute(
                sql.SQL("ALTER TABLE {} ALTER COLUMN publisher SET DEFAULT CURRENT_USER").format(name)
            )
            self.conn.execute(sql.SQL("ALTER TABLE {} ENABLE ROW LEVEL SECURITY").format(name))
            self.conn.execute(sql.SQL("ALTER TABLE {} FORCE ROW LEVEL SECURITY").format(name))
            self.conn.execute(
                sql.SQL(
                    "CREATE POLICY own_rows ON {} USING (publisher = CURRENT_USER)"
                    " WITH CHECK (publisher = CURRENT_USER)"
                ).format(name)
            )
        for (grantee,) in self.conn.execute(_GRANTEES, (SCHEMA, table)).fetchall():
            self.conn.execute(sql.SQL("REVOKE ALL ON {} FROM {}").format(name, _ident(str(grantee))))
        self.conn.execute(sql.SQL("REVOKE ALL ON {} FROM PUBLIC").format(name))

    def _grants(self) -> None:
        schema = _ident(SCHEMA)
        for (grantee,) in self.conn.execute(_SCHEMA_GRANTEES, (SCHEMA,)).fetchall():
            self.conn.execute(sql.SQL("REVOKE ALL ON SCHEMA {} FROM {}").format(schema, _ident(str(grantee))))
        self.conn.execute(sql.SQL("REVOKE ALL ON SCHEMA {} FROM PUBLIC").format(schema))
        self.conn.execute(sql.SQL("GRANT USAGE ON SCHEMA {} TO PUBLIC").format(schema))
        for table in PUBLISHED_TABLES:
            self.conn.execute(
                sql.SQL("GRANT SELECT, INSERT, UPDATE, DELETE ON {} TO PUBLIC").format(_ident(SCHEMA, table))
            )
        for (grantee,) in self.conn.execute(_GRANTEES, (SCHEMA, "hub_requests_id_seq")).fetchall():
            self.conn.execute(
                sql.SQL("REVOKE ALL ON SEQUENCE {} FROM {}").format(
                    _ident(SCHEMA, "hub_requests_id_seq"), _ident(str(grantee))
                )
            )
        self.conn.execute(f"REVOKE ALL ON SEQUENCE {REQUESTS_IDS} FROM PUBLIC")
        self.conn.execute(f"GRANT USAGE ON SEQUENCE {REQUESTS_IDS} TO PUBLIC")
        self.conn.execute(f"GRANT SELECT ON {VERSION_TABLE} TO PUBLIC")


def setup_hub(url: str, *, move_from: str | None = None) -> SetupReport:
    """Make (or check and mend) the hub at `url`, moving an older version's hub into it; one transaction.
    `HubError` (nothing changed) where the role may not, or the database holds what must not be used."""
    location = hub_location(url)
    report = SetupReport(hub=location)
    with closing(connect_hub(url)) as conn:
        try:
            with conn.transaction():
                _Setup(conn, report).run(move_from)
        except psycopg.errors.InsufficientPrivilege as exc:
            raise HubError(
                f"cannot set up the hub {location} as this role: {reason(exc)}. Run `hub setup` as a role "
                "that may create roles and schemas (a superuser, or CREATEROLE with CREATE on the database);"
                " nothing was changed."
            ) from exc
        except psycopg.Error as exc:
            raise HubError(f"cannot set up the hub {location}: {reason(exc)}; nothing was changed.") from exc
    return report
