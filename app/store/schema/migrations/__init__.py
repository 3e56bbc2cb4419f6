"""Alembic migrations of the dashboard's own tables (never the host's), with their own version table."""
