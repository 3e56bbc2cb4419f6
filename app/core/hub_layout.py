"""Where a hub's tables live: the names every hub statement uses, and how a database is told to be a hub.

No imports beyond the standard library, and below the store: its own opening (`app.store.connect.server`)
reads these to refuse a hub's database as a memory store, without loading the hub's code.

Every name is schema-qualified. The schema is the hub's own, made and owned by `OWNER` (a role that
cannot log in, so it publishes nothing) through `hub setup`; publishers only use it. Connections pin
`search_path` to `pg_catalog` (`PINNED_SEARCH_PATH`), so no unqualified name can resolve into a schema
someone else made, and `pg_catalog` lookups name this schema, never `current_schema()`.
"""

from __future__ import annotations

SCHEMA = "memory_dashboard_hub"
OWNER = "memory_dashboard_hub_owner"

MACHINES = f"{SCHEMA}.hub_machines"
MEMORIES = f"{SCHEMA}.hub_memories"
REVISIONS = f"{SCHEMA}.hub_revisions"
EVIDENCE = f"{SCHEMA}.hub_evidence"
REQUESTS = f"{SCHEMA}.hub_requests"
PROJECT_MEMORIES = f"{SCHEMA}.hub_project_memories"
REQUESTS_IDS = f"{SCHEMA}.hub_requests_id_seq"
VERSION_TABLE = f"{SCHEMA}.hub_schema"

# The bare names: the publishers' tables (each row carries its publisher) and the version table.
PUBLISHED_TABLES = (
    "hub_machines",
    "hub_memories",
    "hub_revisions",
    "hub_evidence",
    "hub_requests",
    "hub_project_memories",
)
ALL_TABLES = (*PUBLISHED_TABLES, "hub_schema")

PIN_SEARCH_PATH = "SELECT pg_catalog.set_config('search_path', 'pg_catalog', false)"

# Schemas holding an older version's hub (its tables in `public` or in a role's own schema).
LEGACY_SCHEMAS = f"""
SELECT n.nspname FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
WHERE c.relname = 'hub_schema' AND c.relkind = 'r' AND n.nspname <> '{SCHEMA}'
  AND EXISTS (SELECT 1 FROM pg_catalog.pg_class m WHERE m.relnamespace = n.oid AND m.relname = 'hub_memories')
ORDER BY n.nspname
"""

# Whether the database holds a hub, set up or of an older version: one row, one boolean.
HOLDS_A_HUB = f"""
SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_namespace WHERE nspname = '{SCHEMA}')
    OR EXISTS ({LEGACY_SCHEMAS})
"""
