"""`merge`: the preview (`--dry-run`, changing nothing), Apply and `undo`, text and JSON, user and
project memories, and the messages for what a person can get wrong."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import main
from tests.support.cli_run import run
from tests.support.host80 import ALPHA, BETA, T0, add_memory, add_project, build_host80, connect
from tests.support.hostdb import host_dump, query
from tests.support.tidy_memories import tidy_db


def test_dry_run_changes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tidy_db(tmp_path / "context.db")
    before = host_dump(path)
    code, out, err = run(capsys, "--db", str(path), "merge", "2", "1", "--dry-run")
    assert code == 0, err
    assert out.splitlines()[:3] == [
        "would merge 2 memories into #1 (dry run: nothing was changed)",
        "merged text:",
        "  Prefers pnpm over npm",
    ]
    assert "evidence, in promotion order: #1, #2" in out
    assert "#2      dismissed, merged into #1" in out
    assert host_dump(path) == before


def test_merge_json_then_undo(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tidy_db(tmp_path / "context.db")
    code, out, err = run(
        capsys,
        "--db",
        str(path),
        "merge",
        "5",
        "6",
        "--into",
        "6",
        "--content",
        "Runs the tests first",
        "--json",
    )
    assert code == 0, err
    data = json.loads(out)
    assert data["kept"] == 6 and data["content"] == "Runs the tests first" and data["dry_run"] is False
    assert [(m["id"], m["becomes"]) for m in data["members"]] == [(5, "absorbed"), (6, "kept")]
    assert query(path, "SELECT content, status FROM user_memories WHERE id IN (5, 6) ORDER BY id") == [
        ("Runs the test suite before every commit", "dismissed"),
        ("Runs the tests first", "active"),
    ]
    code, out, err = run(capsys, "--db", str(path), "undo")
    assert code == 0, err
    assert query(path, "SELECT status FROM user_memories WHERE id IN (5, 6) ORDER BY id") == [
        ("active",),
        ("active",),
    ]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["merge", "1"], "at least two different memories"),
        (["merge", "1", "2", "--into", "3"], "#3, is not one of those merged"),
        (["merge", "1", "99"], "memory #99 does not exist"),
        (["merge", "1", "2", "--content", ""], "content"),
    ],
)
def test_mistakes_are_messages(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    path = tidy_db(tmp_path / "context.db")
    before = host_dump(path)
    code, _out, err = run(capsys, "--db", str(path), *argv)
    assert code == 1 and message in err and "Traceback" not in err
    assert host_dump(path) == before


def test_project_merge_and_two_projects(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = build_host80(tmp_path / "context.db")
    with connect(path) as conn:
        add_project(conn, ALPHA)
        add_project(conn, BETA)
        one = add_memory(conn, ALPHA, "Build with pnpm", created_at=T0)
        two = add_memory(conn, ALPHA, "Never npm. Build with PNPM!", created_at=T0 + 1)
        elsewhere = add_memory(conn, BETA, "Build with pnpm", created_at=T0)
    code, _out, err = run(capsys, "--db", str(path), "merge", str(one), str(elsewhere), "--kind", "project")
    assert code == 1 and "only memories of one project" in err
    code, out, err = run(capsys, "--db", str(path), "merge", str(one), str(two), "--kind", "project")
    assert code == 0, err
    assert f"#{two:<6} archived, superseded by #{one}" in out
    assert query(path, "SELECT status, superseded_by_memory_id FROM memories WHERE id = ?", (two,)) == [
        ("archived", one)
    ]
    assert main(["--db", str(path), "undo"]) == 0
    assert query(path, "SELECT status, superseded_by_memory_id FROM memories WHERE id = ?", (two,)) == [
        ("active", None)
    ]


def test_show_lists_the_links_both_ways(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tidy_db(tmp_path / "context.db")
    assert main(["--db", str(path), "merge", "1", "2"]) == 0
    capsys.readouterr()
    code, out, err = run(capsys, "--db", str(path), "show", "1")
    assert code == 0, err
    assert out.splitlines()[-1] == "links: merged from #2"
    code, out, err = run(capsys, "--db", str(path), "show", "2", "--json")
    (link,) = json.loads(out)["links"]
    assert link["phrase"] == "merged into #1" and link["relation"] == "merged_into"
    assert link["made_by"].startswith("command:")
