"""`hub publish` sends the host's project memories, project by project (`--project P`: one), as the app
reads them, odd rows as they are; publishing twice changes nothing; a memory or a project gone here leaves
the hub; `hub list --kind project` reads them back, checked: a path that was not UTF-8 is shown as what it
is. (Row-level security and hostile rows: test_hub_project_security.)"""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from app.cli import main
from app.core.errors import EXIT_ERROR
from app.hub.publish import publish
from tests.support import hub_host
from tests.support.host80 import ALPHA, BETA, MANAGED, Seeded, build_host80, seed_projects
from tests.support.hub_host import hub_query, opener

pinned_clock = hub_host.pinned_clock  # the clock pinned in every test here (autouse)
hub_db = hub_host.hub_db  # a hub set up by its administrator; the URL of an ordinary publisher

NOT_UTF8 = b"dir:/home/ana/caf\xe9"


def seeded_file(path: Path) -> tuple[Path, Seeded]:
    build_host80(path)
    return path, seed_projects(path)


def local_rows(path: Path) -> list[tuple[Any, ...]]:
    with closing(sqlite3.connect(path)) as conn:
        return conn.execute(
            "SELECT id, CAST(project_path AS BLOB), content FROM memories ORDER BY id"
        ).fetchall()


def hub_rows(url: str, machine: str) -> list[tuple[Any, ...]]:
    return hub_query(
        url,
        "SELECT memory_id, project_path, project_path_hex, content FROM hub_project_memories"
        " WHERE machine = %s ORDER BY memory_id",
        (machine,),
    )


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_publish_sends_every_project_and_again_changes_nothing(hub_db: str, tmp_path: Path) -> None:
    path, seeded = seeded_file(tmp_path / "laptop.db")
    report = publish(opener(path), hub_db, "laptop")
    local = local_rows(path)
    assert report.projects.memories == len(local)
    assert report.projects.projects == len({row[1] for row in local}) == 4
    published = hub_rows(hub_db, "laptop")
    assert [(row[0], row[1].encode(), row[3]) for row in published] == [tuple(row) for row in local]
    odd = hub_query(
        hub_db, "SELECT status, merged_from FROM hub_project_memories WHERE memory_id = %s",
        (seeded.merged_garbage,),
    )  # fmt: skip
    assert odd[0][1] is not None and not odd[0][1].startswith("[")  # as the host holds it, unparsed
    assert hub_query(
        hub_db, "SELECT status FROM hub_project_memories WHERE memory_id = %s", (seeded.odd_status,)
    )[0] == ("deleted",)
    before = hub_query(hub_db, "SELECT * FROM hub_project_memories ORDER BY memory_id")

    again = publish(opener(path), hub_db, "laptop")
    assert (again.projects.memories, again.projects.removed) == (0, 0)
    assert hub_query(hub_db, "SELECT * FROM hub_project_memories ORDER BY memory_id") == before


def test_one_project_is_published_alone_and_memories_gone_here_leave_the_hub(
    hub_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, seeded = seeded_file(tmp_path / "laptop.db")
    code, out, err = run(
        capsys, "--db", str(path), "hub", "publish", "--to", hub_db, "--machine", "laptop", "--project", BETA,
        "--json",
    )  # fmt: skip
    assert code == 0, err
    assert json.loads(out)["projects"]["projects"] == 1
    assert {row[1] for row in hub_rows(hub_db, "laptop")} == {BETA}

    assert publish(opener(path), hub_db, "laptop").projects.projects == 4
    with closing(sqlite3.connect(path)) as conn, conn:
        conn.execute("DELETE FROM memories WHERE id = ?", (seeded.active,))
        conn.execute("DELETE FROM memories WHERE project_path = ?", (BETA,))
    narrowed = publish(opener(path), hub_db, "laptop", project=ALPHA)
    assert narrowed.projects.removed == 1  # only ALPHA's row: BETA was not published now
    assert BETA in {row[1] for row in hub_rows(hub_db, "laptop")}
    every = publish(opener(path), hub_db, "laptop")
    assert every.projects.removed == 1  # BETA's row: its project is gone here
    assert [row[0] for row in hub_rows(hub_db, "laptop")] == [row[0] for row in local_rows(path)]


def test_a_project_named_by_nothing_here_is_a_message_and_nothing_is_sent(
    hub_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = seeded_file(tmp_path / "laptop.db")
    code, out, err = run(
        capsys, "--db", str(path), "hub", "publish", "--to", hub_db, "--machine", "laptop",
        "--project", "nope",
    )  # fmt: skip
    assert (code, out) == (EXIT_ERROR, "")
    assert "no project nope" in err and "Traceback" not in err
    assert hub_rows(hub_db, "laptop") == []


def test_list_shows_each_project_and_a_path_that_was_not_utf8_as_what_it_is(
    hub_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, seeded = seeded_file(tmp_path / "laptop.db")
    with closing(sqlite3.connect(path)) as conn, conn:
        conn.execute(
            "UPDATE memories SET project_path = CAST(? AS TEXT) WHERE project_path = ?", (NOT_UTF8, BETA)
        )
    publish(opener(path), hub_db, "laptop")
    assert {row[2] for row in hub_rows(hub_db, "laptop")} == {None, NOT_UTF8.hex()}

    code, out, err = run(capsys, "hub", "list", "--kind", "project", "--to", hub_db)
    assert code == 0, err
    assert f"laptop · dir:/home/ana/caf\ufffd (not UTF-8: bytes {NOT_UTF8.hex()})" in out
    assert "[CONFIG_VALUES] active · Build with pnpm, never npm" in out
    assert 'refused: its status is "deleted", not one the host writes' in out  # shown, never taken
    code, out, _ = run(
        capsys, "hub", "list", "--kind", "project", "--project", MANAGED, "--json", "--to", hub_db
    )
    listed = json.loads(out)["project_memories"]
    assert code == 0 and [item["memory_id"] for item in listed] == [seeded.managed]
    assert listed[0]["project_path"] == MANAGED and listed[0]["refused"] is None
