"""The hub's own tables (in the schema `layout` names), and whether a hub can be trusted before use.

Every row carries `publisher`, the PostgreSQL role that wrote it (`current_user` by default). The tables
are made once by `hub setup` (`app.hub.schema.setup`) and owned by a role that cannot log in; row-level
security is enabled and forced on each, so every publisher, owning nothing, sees and changes only its own
rows (a superuser or a BYPASSRLS role sees everything, as PostgreSQL always allows). Publishers get
USAGE on the schema and SELECT, INSERT, UPDATE, DELETE on the tables, nothing more (a request's id is
PostgreSQL's alone to hand out): no CREATE on the schema, so nobody but the owner adds a table, a
trigger or a policy. Rows are keyed by (publisher,
machine, the machine's own id). Version 2 keeps the evidence archive (`hub_evidence`, one row per
archived candidate) and its watermark in `hub_machines`; version 3 the project memories
(`hub_project_memories`, one row per row of the host's `memories` table, its project named in each).

Before a hub is read or written, `require_schema` checks that it is what `hub setup` made: the schema
and every table owned by the owner role, which cannot log in and has no member (a member could act as
the owner), row-level security forced, and no publisher able to choose a request's id. A schema of the
same name made by anyone else is refused, never used; so is a database with no hub (a publish never
makes one) or with an older version's tables (`hub setup --from` moves them).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import psycopg

from app.core.hub_layout import (
    ALL_TABLES,
    EVIDENCE,
    LEGACY_SCHEMAS,
    MACHINES,
    MEMORIES,
    OWNER,
    PROJECT_MEMORIES,
    PUBLISHED_TABLES,
    REQUESTS,
    REVISIONS,
    SCHEMA,
    VERSION_TABLE,
)
from app.hub.connect import HubError
from app.present.card import shown_word

SCHEMA_VERSION = 3
# The tables a later version added, by that version: a hub of an older version lacks them and is told to
# run `hub setup` (which adds them), not that it cannot be trusted.
ADDED_IN = {"hub_project_memories": 3}
# pg_advisory_xact_lock's key for "making the hub's schema": any fixed 64-bit number ("mdashhub").
SCHEMA_LOCK = 0x6D64617368687562
PUBLISHER = "publisher pg_catalog.name NOT NULL DEFAULT CURRENT_USER"

TABLES = (
    f"""CREATE TABLE IF NOT EXISTS {MACHINES} (
        {PUBLISHER}, machine text NOT NULL,
        memory_mark bigint, revision_mark bigint, evidence_mark bigint,
        published_at bigint, checked_at bigint,
        PRIMARY KEY (publisher, machine))""",
    f"""CREATE TABLE IF NOT EXISTS {MEMORIES} (
        {PUBLISHER}, machine text NOT NULL, memory_id bigint NOT NULL,
        content text NOT NULL, status text NOT NULL,
        promoted_at bigint NOT NULL, created_at bigint NOT NULL, updated_at bigint NOT NULL,
        source_candidate_ids text, source_candidate_provenance text,
        PRIMARY KEY (publisher, machine, memory_id))""",
    f"""CREATE TABLE IF NOT EXISTS {REVISIONS} (
        {PUBLISHER}, machine text NOT NULL, revision_id bigint NOT NULL,
        memory_id bigint NOT NULL, changed_at bigint NOT NULL, kind text NOT NULL, source text NOT NULL,
        run_id text, candidate_ids text NOT NULL, previous_content text, new_content text,
        previous_status text, new_status text, detail text,
        PRIMARY KEY (publisher, machine, revision_id))""",
    f"CREATE INDEX IF NOT EXISTS hub_revisions_memory ON {REVISIONS} (publisher, machine, memory_id)",
    f"""CREATE TABLE IF NOT EXISTS {EVIDENCE} (
        {PUBLISHER}, machine text NOT NULL, candidate_id bigint NOT NULL,
        content text NOT NULL, session_id text NOT NULL,
        source_compartment_start bigint, source_compartment_end bigint,
        created_at bigint NOT NULL, first_seen_at bigint NOT NULL, detail text,
        PRIMARY KEY (publisher, machine, candidate_id))""",
    f"""CREATE TABLE IF NOT EXISTS {REQUESTS} (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, {PUBLISHER},
        machine text NOT NULL, memory_id bigint NOT NULL, kind text NOT NULL,
        requested_on text NOT NULL, requested_at bigint NOT NULL, reason text,
        applied_at bigint)""",
    f"""CREATE TABLE IF NOT EXISTS {PROJECT_MEMORIES} (
        {PUBLISHER}, machine text NOT NULL, memory_id bigint NOT NULL,
        project_path text NOT NULL, project_path_hex text, category text NOT NULL, content text NOT NULL,
        importance bigint, scope text NOT NULL, shareable boolean NOT NULL, source_session_id text,
        source_type text, seen_count bigint, retrieval_count bigint, first_seen_at bigint NOT NULL,
        created_at bigint NOT NULL, updated_at bigint NOT NULL, last_seen_at bigint NOT NULL,
        last_retrieved_at bigint, status text NOT NULL, expires_at bigint, verification_status text,
        verified_at bigint, superseded_by_memory_id bigint, merged_from text, metadata_json text,
        oddities text,
        PRIMARY KEY (publisher, machine, memory_id))""",
    f"""CREATE INDEX IF NOT EXISTS hub_project_memories_project
        ON {PROJECT_MEMORIES} (publisher, machine, project_path)""",
    f"CREATE TABLE IF NOT EXISTS {VERSION_TABLE} (version bigint NOT NULL)",
)

_SCHEMA_OWNER = "SELECT pg_catalog.pg_get_userbyid(nspowner) FROM pg_catalog.pg_namespace WHERE nspname = %s"
_OWNER_LOGS_IN = "SELECT rolcanlogin FROM pg_catalog.pg_roles WHERE rolname = %s"
_TABLES_MADE = """
SELECT c.relname, pg_catalog.pg_get_userbyid(c.relowner), c.relrowsecurity, c.relforcerowsecurity
FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = %s AND c.relkind = 'r'
"""
# Every role that is a member of the owner role (a member may act as the owner: lift row-level security).
_MEMBERS = """
SELECT pg_catalog.pg_get_userbyid(m.member) FROM pg_catalog.pg_auth_members m
JOIN pg_catalog.pg_roles r ON r.oid = m.roleid WHERE r.rolname = %s ORDER BY 1
"""
# Whether a publisher may choose a request's id: the id not GENERATED ALWAYS, or INSERT or UPDATE on the
# table (every column) or on the id given to anyone but the owner.
_IDS_CHOSEN = f"""
SELECT a.attidentity <> 'a'
  OR EXISTS (SELECT 1 FROM pg_catalog.aclexplode(c.relacl) acl WHERE acl.grantee <> c.relowner
             AND acl.privilege_type IN ('INSERT', 'UPDATE'))
  OR EXISTS (SELECT 1 FROM pg_catalog.aclexplode(a.attacl) acl WHERE acl.grantee <> c.relowner
             AND acl.privilege_type IN ('INSERT', 'UPDATE'))
FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_class c ON c.oid = a.attrelid
JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = '{SCHEMA}' AND c.relname = 'hub_requests' AND a.attname = 'id' AND NOT a.attisdropped
"""
SHOWN_ROLES = 5
NAME_CHARS = 64  # PostgreSQL's names (roles, schemas) are at most 63 bytes: shown whole, never cut


def owner_members(conn: psycopg.Connection[Any]) -> list[str]:
    """The roles that are members of the owner role (none, on a hub `hub setup` made)."""
    return [str(row[0]) for row in conn.execute(_MEMBERS, (OWNER,))]


def shown_name(name: str) -> str:
    """A role's or a schema's name as a person reads it: whole, on one line, hidden characters visible
    (any character may be in one, and a cut name could pass for another)."""
    return shown_word(name, NAME_CHARS)


def shown_roles(roles: list[str]) -> str:
    """`alice, bob +3 more`: role names as a person reads them."""
    more = len(roles) - SHOWN_ROLES
    shown = ", ".join(shown_name(role) for role in roles[:SHOWN_ROLES])
    return f"{shown} +{more:,} more" if more > 0 else shown


@dataclass(frozen=True, slots=True)
class HubState:
    """What a database holds of a hub: the set-up schema's version (None: no such schema), why that
    schema cannot be trusted (None: it can), and the schemas holding an older version's hub."""

    version: int | None
    problem: str | None = None
    legacy: tuple[str, ...] = ()


def _problem(conn: psycopg.Connection[Any], owner: str) -> str | None:
    """Why the schema named `SCHEMA` is not the one `hub setup` made, or None."""
    if owner != OWNER:
        return f"the schema {SCHEMA} belongs to {owner}, not to {OWNER}: `hub setup` did not make it"
    logs_in = conn.execute(_OWNER_LOGS_IN, (OWNER,)).fetchone()
    if logs_in is None or logs_in[0]:
        return f"the role {OWNER} may log in: the role owning the hub must publish nothing"
    made = {str(row[0]): row[1:] for row in conn.execute(_TABLES_MADE, (SCHEMA,))}
    for table in ALL_TABLES:
        if table not in made:
            if table in ADDED_IN and _version_before(conn, made, ADDED_IN[table]):
                continue  # an older version's hub: `state_problem` names `hub setup`, which adds it
            return f"the hub's table {SCHEMA}.{table} is missing"
        table_owner, enabled, forced = made[table]
        if table_owner != OWNER:
            return f"the hub's table {SCHEMA}.{table} belongs to {table_owner}, not to {OWNER}"
        if table in PUBLISHED_TABLES and not (enabled and forced):
            return f"row-level security is not forced on the hub's table {SCHEMA}.{table}"
    members = owner_members(conn)
    if members:
        return (
            f"the role {OWNER} has the member(s) {shown_roles(members)}, who may lift row-level security"
            " (`hub setup` revokes them)"
        )
    chosen = conn.execute(_IDS_CHOSEN).fetchone()
    if chosen is None or chosen[0]:
        return f"publishers may choose a request's id in {REQUESTS} (`hub setup` puts the rights right)"
    return None


def _version_before(conn: psycopg.Connection[Any], made: dict[str, Any], version: int) -> bool:
    """Whether the hub's version table, made as `hub setup` makes it, names a version before `version`."""
    if "hub_schema" not in made or made["hub_schema"][0] != OWNER:
        return False
    found = conn.execute(f"SELECT max(version) FROM {VERSION_TABLE}").fetchone()
    return found is not None and found[0] is not None and int(found[0]) < version


def hub_state(conn: psycopg.Connection[Any]) -> HubState:
    """What the database holds of a hub, read from the catalog by the schema's name (a scan under the
    statement's snapshot: `to_regclass` reads a cache that may not have seen a hub made meanwhile)."""
    row = conn.execute(_SCHEMA_OWNER, (SCHEMA,)).fetchone()
    if row is None:
        legacy = tuple(str(found[0]) for found in conn.execute(LEGACY_SCHEMAS))
        return HubState(None, None, legacy)
    problem = _problem(conn, str(row[0]))
    if problem is not None:
        return HubState(None, problem)
    found = conn.execute(f"SELECT max(version) FROM {VERSION_TABLE}").fetchone()
    version = int(found[0]) if found and found[0] is not None else None
    return HubState(version, None if version is not None else f"{VERSION_TABLE} holds no version")


SETUP_HINT = "an administrator runs `memory-dashboard hub setup --to URL` once"


def state_problem(state: HubState, location: str) -> str | None:
    """Why the hub `state` describes cannot be used as it is, for a person; None when it can."""
    if state.problem is not None:
        return f"{location} is not a hub this app can trust: {state.problem}. {SETUP_HINT}"
    if state.version is None and state.legacy:
        schemas = ", ".join(map(shown_name, state.legacy))
        return (
            f"{location} may hold a hub made by an older version (schema {schemas}):"
            f" {SETUP_HINT}, with `--from SCHEMA` to move it into the schema {SCHEMA}, owned by a role that"
            " publishes nothing"
        )
    if state.version is None:
        return f"{location} is not set up as a hub: {SETUP_HINT} (a role that may create roles and schemas)"
    if state.version > SCHEMA_VERSION:
        return f"the hub's schema is version {state.version}, newer than this app's; update the app"
    if state.version < SCHEMA_VERSION:
        return f"the hub's schema is version {state.version}: {SETUP_HINT} to upgrade it"
    return None


def require_schema(conn: psycopg.Connection[Any], location: str) -> int:
    """The hub's schema version, checked (then committed); `HubError` naming `hub setup` where the
    database holds no hub, an older one, or a schema `hub setup` did not make. Nothing is created."""
    state = hub_state(conn)
    conn.commit()
    problem = state_problem(state, location)
    if problem is not None:
        raise HubError(f"{problem}; nothing was changed.")
    assert state.version is not None
    return state.version
