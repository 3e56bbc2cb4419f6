"""`hub status` and the hub's other messages print what publishers wrote (machine names) as the app shows
untrusted text everywhere: on one line, hidden and bidi-control characters made visible, the same way in
`hub status` as in `hub list`. On a database that is not a hub, every hub command names `hub setup`."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.cli import main
from app.core.errors import EXIT_UNUSABLE_DATABASE
from tests.support import hub_host
from tests.support.hub_host import host_file, hub_sql, publish_file

pinned_clock = hub_host.pinned_clock  # the clock pinned in every test here (autouse)
hub_db = hub_host.hub_db  # a hub set up by its administrator; the URL of an ordinary publisher

MACHINE = "lap\u202etop\tbox"  # a right-to-left override and a tab: any publisher may choose such a name


def test_status_shows_a_machine_name_with_its_hidden_characters_visible(
    hub_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    publish_file(host_file(tmp_path / "laptop.db"), hub_db, MACHINE)
    assert main(["hub", "status", "--hub", hub_db]) == 0
    out = capsys.readouterr().out
    assert "lap⟦U+202E⟧top\\tbox" in out
    assert "\u202e" not in out and "\t" not in out
    table = out.splitlines()
    assert len(table) == 2 and len(table[1]) < 2 * len(table[0])  # one row, about as wide as the header


def test_pull_names_the_machine_with_its_hidden_characters_visible(
    hub_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    publish_file(host_file(tmp_path / "laptop.db"), hub_db, MACHINE)
    desktop = host_file(tmp_path / "desktop.db")
    pull = ["--db", str(desktop), "hub", "pull", MACHINE, "5", "--to", hub_db]
    assert main(pull) == 1  # refused: the name holds a hidden character
    assert "the hub's copy of lap⟦U+202E⟧top\\tbox #5 is refused" in capsys.readouterr().err
    assert main([*pull[:5], "99", *pull[6:]]) == 1
    err = capsys.readouterr().err
    assert "no memory #99 of machine 'lap⟦U+202E⟧top\\tbox'" in err
    assert "\u202e" not in err and "\t" not in err


def test_list_shows_a_status_with_its_hidden_characters_visible(
    hub_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    publish_file(host_file(tmp_path / "laptop.db"), hub_db, "laptop")
    hub_sql(hub_db, "UPDATE hub_memories SET status = %s WHERE memory_id = 5", ("\x1b[2Jactive\u202e\t",))
    assert main(["hub", "list", "--hub", hub_db]) == 0
    out = capsys.readouterr().out
    assert "⟦U+001B⟧[2Jactive⟦U+202E⟧\\t" in out
    assert "\x1b" not in out and "\u202e" not in out and "\t" not in out


def test_a_machine_name_prints_the_same_in_status_and_list(
    hub_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    publish_file(host_file(tmp_path / "laptop.db"), hub_db, MACHINE)
    assert main(["hub", "status", "--hub", hub_db]) == 0
    status = capsys.readouterr().out
    assert main(["hub", "list", "--hub", hub_db]) == 0
    listing = capsys.readouterr().out
    shown = "lap⟦U+202E⟧top\\tbox"
    assert shown in status and f"machines ({shown})" in listing and f"{shown} #5 active" in listing


def test_every_hub_command_on_a_database_that_is_no_hub_names_hub_setup(
    postgres_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    desktop = host_file(tmp_path / "desktop.db")
    for argv in (
        ["hub", "status"],
        ["hub", "list"],
        ["hub", "request-dismiss", "laptop", "1"],
        ["--db", str(desktop), "hub", "pull", "laptop", "1"],
    ):
        assert main([*argv, "--to", postgres_db]) == EXIT_UNUSABLE_DATABASE, argv
        err = capsys.readouterr().err
        assert "is not set up as a hub" in err and "memory-dashboard hub setup --to URL" in err, argv
