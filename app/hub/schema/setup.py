"""`hub setup`: make a database a hub, once, as an administrator; move an older version's hub into it.

Run by a role that may create roles and schemas (a superuser, or a role with CREATEROLE and CREATE on
the database), never by a publisher. In one transaction, under the schema's advisory lock:
- the owner role (`layout.OWNER`, NOLOGIN: it publishes nothing) and the hub's schema, owned by it;
- the tables, owned by it, row-level security enabled and forced, each with the one policy
  `publisher = current_user`, and no trigger or rule but PostgreSQL's own;
- the publishers' rights, and only those: USAGE on the schema, SELECT, INSERT, UPDATE, DELETE on the
  tables (on a request, every column but its id, which PostgreSQL alone hands out), USAGE on the
  requests' sequence, to PUBLIC (every role that may connect to the database publishes its own rows);
  every other right anyone was given on them is revoked;
- no member of the owner role: a member could lift row-level security. An administrator who is no
  superuser acts for the owner through a membership it gives itself, and revokes it at the end.
Running it again changes nothing, or puts back what someone changed.

A hub made by an older version (its tables in `public` or in a role's own schema) is moved in only when
the administrator names its schema (`--from SCHEMA`), into a hub that holds no rows yet; without it, the
schemas that may hold one are listed with their owners (`app.hub.schema.legacy`, which checks and moves
it). Copying every row needs a role that row-level security does not bind (a superuser or BYPASSRLS).
"""

from __future__ import annotations

from contextlib import closing
from dataclasses import asdict, dataclass, field
from typing import Any

import psycopg
from psycopg import sql

from app.core.hub_layout import (
    ALL_TABLES,
    OWNER,
    PUBLISHED_TABLES,
    REQUESTS,
    REQUESTS_IDS,
    SCHEMA,
    VERSION_TABLE,
)
from app.hub.connect import HubError, connect_hub, hub_location
from app.hub.schema import legacy
from app.hub.schema.tables import (
    SCHEMA_LOCK,
    SCHEMA_VERSION,
    TABLES,
    hub_state,
    owner_members,
    shown_name,
    shown_roles,
)
from app.store.connect.server import reason

_ROLE = "SELECT rolcanlogin FROM pg_catalog.pg_roles WHERE rolname = %s"
_ME = (
    "SELECT current_user, rolsuper, rolsuper OR rolbypassrls,"
    " pg_catalog.pg_has_role(current_user, %s, 'MEMBER')"
    " FROM pg_catalog.pg_roles WHERE rolname = current_user"
)
_SCHEMA_OWNER = "SELECT pg_catalog.pg_get_userbyid(nspowner) FROM pg_catalog.pg_namespace WHERE nspname = %s"
# Whoever was granted anything on an object of the schema or on one of its columns, besides its owner
# (and PUBLIC, revoked apart).
_GRANTEES = """
SELECT pg_catalog.pg_get_userbyid(acl.grantee)
FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace,
  LATERAL pg_catalog.aclexplode(c.relacl) acl
WHERE n.nspname = %(schema)s AND c.relname = %(name)s AND acl.grantee <> 0 AND acl.grantee <> c.relowner
UNION
SELECT pg_catalog.pg_get_userbyid(acl.grantee)
FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_class c ON c.oid = a.attrelid
  JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace, LATERAL pg_catalog.aclexplode(a.attacl) acl
WHERE n.nspname = %(schema)s AND c.relname = %(name)s AND acl.grantee <> 0 AND acl.grantee <> c.relowner
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
# A request's columns a publisher writes: all but its id.
_REQUEST_COLUMNS = f"""
SELECT a.attname FROM pg_catalog.pg_attribute a
JOIN pg_catalog.pg_class c ON c.oid = a.attrelid JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = '{SCHEMA}' AND c.relname = 'hub_requests' AND a.attnum > 0 AND NOT a.attisdropped
  AND a.attname <> 'id' ORDER BY a.attnum
"""
_HOLDS_ROWS = " UNION ALL ".join(
    f"SELECT 1 FROM (SELECT 1 FROM ONLY {SCHEMA}.{table} LIMIT 1) {table}" for table in PUBLISHED_TABLES
)
TRUST_WORDS = (
    "an older hub's rows are moved as its owner role wrote them, and that role could have written any "
    "publisher's name: name only a schema whose owner you trust"
)


@dataclass(slots=True)
class SetupReport:
    hub: str
    schema: str = SCHEMA
    owner: str = OWNER
    version: int = SCHEMA_VERSION
    created: bool = False  # the schema was made now (False: it was there, and is checked and mended)
    moved_from: str | None = None  # the schema of an older version's hub, copied in and dropped
    moved_owner: str | None = None  # the role that owned it, and wrote its rows
    moved_rows: dict[str, int] = field(default_factory=dict)
    candidates: list[legacy.Candidate] = field(default_factory=list)  # older hubs found, not moved
    members_revoked: list[str] = field(default_factory=list)  # of the owner role (the admin's own too)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    def text(self) -> str:
        done = "set up" if self.created else "checked (already set up)"
        lines = [
            f"{self.hub}: hub {done} in schema {self.schema}, version {self.version}, owned by {self.owner}"
            " (NOLOGIN: it publishes nothing, and no role is a member of it)",
            "publishers (every role that may connect): USAGE on the schema; SELECT, INSERT, UPDATE, DELETE"
            " on its tables (a request's id excepted); row-level security forced: each role sees only its"
            " own rows",
        ]
        others = [role for role in self.members_revoked if role != self.owner]
        if others:
            lines.append(f"revoked the membership of {shown_roles(others)} in {self.owner}")
        if self.moved_from is not None:
            counts = ", ".join(f"{table} {count:,}" for table, count in self.moved_rows.items())
            lines.append(
                f"moved the older hub of schema {shown_name(self.moved_from)} here ({counts} rows); its "
                f"tables dropped. Its rows are kept as its owner {shown_name(self.moved_owner or '?')} "
                "wrote them, with the publisher names it wrote"
            )
        if self.candidates:
            lines.append(
                "schemas that may hold an older version's hub, not moved (`hub setup --from SCHEMA`"
                " moves one into a hub holding no rows yet):"
            )
            lines += [f"  - {candidate.text()}" for candidate in self.candidates]
            lines.append(f"  ({TRUST_WORDS})")
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
        source = legacy.chosen(self.conn, chosen) if chosen is not None else None
        self._owner_role()
        self._schema()
        for statement in TABLES:
            self.conn.execute(statement)
        if source is not None:
            self._move(source)
        self.report.candidates = legacy.candidates(self.conn)
        for table in ALL_TABLES:
            self._secure(table)
        self._grants()
        self.conn.execute(f"DELETE FROM {VERSION_TABLE}")
        self.conn.execute(f"INSERT INTO {VERSION_TABLE} (version) VALUES (%s)", (SCHEMA_VERSION,))
        self._no_members()

    def _me(self) -> tuple[str, bool, bool, bool]:
        """This role: its name, whether a superuser, whether row-level security binds it not, whether
        a member of the owner role."""
        me = self.conn.execute(_ME, (OWNER,)).fetchone()
        assert me is not None
        return str(me[0]), bool(me[1]), bool(me[2]), bool(me[3])

    def _owner_role(self) -> None:
        row = self.conn.execute(_ROLE, (OWNER,)).fetchone()
        if row is None:
            self.conn.execute(sql.SQL("CREATE ROLE {} NOLOGIN").format(_ident(OWNER)))
        elif row[0]:
            self.conn.execute(sql.SQL("ALTER ROLE {} NOLOGIN").format(_ident(OWNER)))
        name, superuser, _, member = self._me()
        if not superuser and not member:  # for now: `_no_members` revokes it before the commit
            self.conn.execute(sql.SQL("GRANT {} TO {}").format(_ident(OWNER), _ident(name)))

    def _no_members(self) -> None:
        """Revoke every membership in the owner role, this role's last: a member may act as the owner and
        lift row-level security. A membership this role may not revoke is refused, nothing changed."""
        me = self._me()[0]
        members = sorted(owner_members(self.conn), key=lambda role: role == me)
        for member in members:
            self.conn.execute(sql.SQL("REVOKE {} FROM {}").format(_ident(OWNER), _ident(member)))
        left = owner_members(self.conn)
        if left:
            raise HubError(
                f"the role {OWNER} keeps the member(s) {shown_roles(left)}, whose membership this role "
                "may not revoke; run `hub setup` as a superuser"
            )
        self.report.members_revoked = [member for member in members if member != me]

    def _move(self, source: legacy.Candidate) -> None:
        """The older hub's rows into this hub's tables, which must hold none yet; row-level security
        must not hide any of them: a role it binds is refused."""
        if not self._me()[2]:
            raise HubError(
                f"moving the older hub of schema {shown_name(source.schema)} copies every publisher's rows:"
                " run `hub setup --from` as a superuser (or a BYPASSRLS role)"
            )
        if self.conn.execute(_HOLDS_ROWS).fetchone() is not None:
            raise HubError(
                f"the hub holds rows already; the older hub in {shown_name(source.schema)} is not moved into"
                " it"
            )
        self.report.moved_rows = legacy.move(self.conn, source.schema)
        self.report.moved_from, self.report.moved_owner = source.schema, source.owner

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
        for (grantee,) in self.conn.execute(_GRANTEES, {"schema": SCHEMA, "name": table}).fetchall():
            self.conn.execute(sql.SQL("REVOKE ALL ON {} FROM {}").format(name, _ident(str(grantee))))
        self.conn.execute(sql.SQL("REVOKE ALL ON {} FROM PUBLIC").format(name))

    def _grants(self) -> None:
        schema = _ident(SCHEMA)
        for (grantee,) in self.conn.execute(_SCHEMA_GRANTEES, (SCHEMA,)).fetchall():
            self.conn.execute(sql.SQL("REVOKE ALL ON SCHEMA {} FROM {}").format(schema, _ident(str(grantee))))
        self.conn.execute(sql.SQL("REVOKE ALL ON SCHEMA {} FROM PUBLIC").format(schema))
        self.conn.execute(sql.SQL("GRANT USAGE ON SCHEMA {} TO PUBLIC").format(schema))
        for table in PUBLISHED_TABLES:
            rights = "SELECT, DELETE" if table == "hub_requests" else "SELECT, INSERT, UPDATE, DELETE"
            self.conn.execute(sql.SQL(f"GRANT {rights} ON {{}} TO PUBLIC").format(_ident(SCHEMA, table)))
        # A request's id is PostgreSQL's to hand out (GENERATED ALWAYS): a publisher who chose ids could
        # take the ones the sequence hands out next, and every other request would then fail.
        self.conn.execute(f"ALTER TABLE {REQUESTS} ALTER COLUMN id SET GENERATED ALWAYS")
        columns = sql.SQL(", ").join(_ident(str(row[0])) for row in self.conn.execute(_REQUEST_COLUMNS))
        self.conn.execute(
            sql.SQL("GRANT INSERT ({}), UPDATE ({}) ON {} TO PUBLIC").format(
                columns, columns, _ident(*REQUESTS.split("."))
            )
        )
        sequence = _ident(*REQUESTS_IDS.split("."))
        for (grantee,) in self.conn.execute(
            _GRANTEES, {"schema": SCHEMA, "name": "hub_requests_id_seq"}
        ).fetchall():
            self.conn.execute(
                sql.SQL("REVOKE ALL ON SEQUENCE {} FROM {}").format(sequence, _ident(str(grantee)))
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
        except HubError as exc:
            raise HubError(f"{exc}; nothing was changed.") from exc
        except psycopg.errors.InsufficientPrivilege as exc:
            raise HubError(
                f"cannot set up the hub {location} as this role: {reason(exc)}. Run `hub setup` as a role "
                "that may create roles and schemas (a superuser, or CREATEROLE with CREATE on the database);"
                " nothing was changed."
            ) from exc
        except psycopg.Error as exc:
            raise HubError(f"cannot set up the hub {location}: {reason(exc)}; nothing was changed.") from exc
    return report
