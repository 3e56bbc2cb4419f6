"""Files in the host's whole shape (schema version 80) with the shared project-memory scenario."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Connection

from app.store.connect.engine import OpenedDatabase, open_sqlite_file, transaction
from tests.support.host80 import Seeded


@pytest.fixture
def database(host80: Path, seeded: Seeded) -> Iterator[OpenedDatabase]:
    opened = open_sqlite_file(host80, read_only=False, create=False)
    yield opened
    opened.close()


@pytest.fixture
def reading(database: OpenedDatabase) -> Iterator[Connection]:
    """A read transaction on the seeded file, through the app's own engine (its text factory too)."""
    with transaction(database.engine, write=False, location=database.location) as conn:
        yield conn
