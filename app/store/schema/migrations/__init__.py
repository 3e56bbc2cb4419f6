"""Alembic migrations of the dashboard's own tables (never the host's), with their own version table.

Every migration runs on SQLite and on PostgreSQL, in the one transaction `migrate.upgrade` opens (on
PostgreSQL under the writers' advisory lock; its DDL is transactional too). The rules that follow:

- Import nothing of the app: each migration carries its own frozen schema and SQL.
- Ids and epoch-millisecond instants are `sa.BigInteger().with_variant(sa.Integer(), "sqlite")`, defined
  in the migration (0001's `INT64`): BIGINT on PostgreSQL, whose INTEGER is 32-bit; INTEGER on SQLite,
  where it is 64-bit already and where only `INTEGER PRIMARY KEY` is a rowid alias (autoincrement ids
  stay that). The matching column in `tables.py` uses `tables.INT64`. Never `sa.Integer` for them.
- Use Alembic's operations (`op.create_table`, `op.create_index`, `op.add_column`, `op.bulk_insert`,
  `op.execute(sa.insert(...))`), which render each dialect's SQL. Text is `sa.Text` (JSON too, as
  text), defaults are literals both accept (`"[]"`, `"0"`).
- SQLite-only SQL (`INSERT OR REPLACE/IGNORE`, `sqlite_master`, `PRAGMA`, FTS5, triggers in SQLite's
  syntax) only behind `if bind.dialect.name == "sqlite"`; an object PostgreSQL needs gets its own frozen
  SQL behind the matching test, or none (0002 and 0003 make nothing on PostgreSQL).
- Our tables only (`mdash_*`, names under PostgreSQL's 63 characters): the fence is checked after every
  upgrade on both dialects and rolls back a migration that touched the host's tables.
- Tested on both: the conformance suite runs on PostgreSQL, and `tests/store/test_postgres.py` refuses
  any 32-bit integer column after the upgrade.
"""
