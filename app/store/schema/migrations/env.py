"""Alembic environment: always run on a connection the store hands in (never from a config URL)."""

from alembic import context

from app.store.schema.tables import VERSION_TABLE

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    version_table=VERSION_TABLE,
    # Only our tables: never compare or touch the host's.
    include_name=lambda name, type_, parent: type_ != "table" or str(name).startswith("mdash_"),
)
with context.begin_transaction():
    context.run_migrations()
