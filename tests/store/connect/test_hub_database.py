"""A hub's database is never a memory store: a command for a store given a hub's URL (`--db URL list`,
`add`, ...) is refused with a message naming the hub commands, and nothing is created in the hub's
database; `--db URL` alone still opens the hub window. Set up or of an older version, a hub is told by
its schema before anything is made."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from app.cli import main
from app.cli.commands.hub import hub_to_open
from app.core.errors import EXIT_UNUSABLE_DATABASE
from app.store import DatabaseOpenError, MemoryStore
from tests.support import hub_host
from tests.support.hub_host import as_role, drop_role, host_file, hub_query, make_role, publish_file
from tests.support.hub_legacy import make_legacy_hub

hub_db = hub_host.hub_db  # a hub set up by its administrator; the URL of an ordinary publisher

ALL_TABLES = (
    "SELECT n.nspname, c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
    " WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%%'"
    " ORDER BY 1, 2"
)
STORE_COMMANDS = (("list",), ("add", "--content", "written into the hub?"), ("profile",), ("init",))


def refused_everywhere(url: str, admin: str, capsys: pytest.CaptureFixture[str]) -> None:
    before = hub_query(admin, ALL_TABLES)
    for command in STORE_COMMANDS:
        code = main(["--db", url, *command])
        out, err = capsys.readouterr()
        assert (code, out) == (EXIT_UNUSABLE_DATABASE, ""), command
        assert "is a Memory Dashboard hub, not a memory database" in err, command
        assert "`memory-dashboard hub list --to URL` or `hub open --to URL`" in err
        assert "Traceback" not in err
    assert hub_query(admin, ALL_TABLES) == before  # not one table more


def test_store_commands_refuse_a_hub_and_create_nothing_in_it(
    postgres_db: str, hub_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    publish_file(host_file(tmp_path / "laptop.db"), hub_db, "laptop")
    for url in (hub_db, postgres_db):  # a publisher's URL, the administrator's
        refused_everywhere(url, postgres_db, capsys)
        with pytest.raises(DatabaseOpenError, match="is a Memory Dashboard hub"):
            MemoryStore.open(url, read_only=True)
    # with no command, the same URL still opens the hub window
    assert hub_to_open(argparse.Namespace(db=hub_db, to=None)) == hub_db


def test_an_older_versions_hub_is_refused_as_a_store_too(
    postgres_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make_legacy_hub(postgres_db)  # its tables in `public`, as older versions made them
    refused_everywhere(postgres_db, postgres_db, capsys)
    role = make_role(postgres_db, "hub_reader")
    try:
        refused_everywhere(as_role(postgres_db, role), postgres_db, capsys)
    finally:
        drop_role(postgres_db, role)
