"""`undo` and `redo` on the command line: the same log the window uses, every writing command in it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import main
from tests.support.hostdb import host_sql, profile_version, query


def run(capsys: pytest.CaptureFixture[str], db: Path, *argv: str) -> tuple[int, str, str]:
    code = main(["--db", str(db), *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(autouse=True)
def _fixed_now(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORY_DASHBOARD_NOW", "2026-10-21T03:13:32Z")


def content(db: Path, memory_id: int) -> object:
    return query(db, "SELECT content FROM user_memories WHERE id = ?", (memory_id,))[0][0]


def test_undo_and_redo_walk_the_changes_made_with_the_cli(
    host_db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, host_db, "edit", "5", "--content", "Prefers yarn")[0] == 0
    assert run(capsys, host_db, "dismiss", "1", "4")[0] == 0
    assert run(capsys, host_db, "trust", "session:ses_a1", "untrusted")[0] == 0
    code, out, _ = run(capsys, host_db, "undo", "--list", "--json")
    listed = json.loads(out)
    assert [(e["label"], e["origin"], e["state"]) for e in listed] == [
        ("edit of #5", "cli", "done"),
        ("dismiss of 2 memories", "cli", "done"),
        ("trust mark of session:ses_a1", "cli", "done"),
    ]
    before = profile_version(host_db)
    code, out, _ = run(capsys, host_db, "undo", "--steps", "3")
    assert code == 0
    assert out.splitlines() == [
        "undid trust mark of session:ses_a1",
        "undid dismiss of 2 memories",
        "undid edit of #5",
    ]
    assert profile_version(host_db) == before + 2  # a trust mark moves no profile
    assert content(host_db, 5) == "Prefers pnpm"
    assert query(host_db, "SELECT status FROM user_memories WHERE id IN (1, 4)") == [("active",), ("active",)]
    code, out, _ = run(capsys, host_db, "redo", "--json")
    assert code == 0 and json.loads(out)["steps"][0]["label"] == "edit of #5"
    assert content(host_db, 5) == "Prefers yarn"
    code, out, _ = run(capsys, host_db, "undo", "--list")
    assert [line.split()[1] for line in out.splitlines()] == ["done", "undone", "undone"]


def test_an_undo_refused_says_why_and_changes_nothing(
    host_db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys, host_db, "add", "--content", "Writes Rust on weekends")
    run(capsys, host_db, "edit", "5", "--content", "Prefers yarn")
    host_sql(host_db, "UPDATE user_memories SET content = 'Rewritten by the host' WHERE id = 5")
    code, out, err = run(capsys, host_db, "undo", "--steps", "2")
    assert code == 1 and out == ""
    assert "Memory #5 changed since it was edited, so Undo left it as it is" in err
    assert content(host_db, 5) == "Rewritten by the host"
    assert query(host_db, "SELECT state FROM mdash_command_log ORDER BY id") == [("done",), ("done",)]


def test_every_writing_command_is_logged_with_its_output_as_before(
    host_db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, host_db, "promote", "141", "143", "--json")
    promoted = json.loads(out)["id"]
    assert code == 0 and set(json.loads(out)) == {"id"}
    code, out, _ = run(capsys, host_db, "delete", "3")
    assert code == 0 and out.startswith("deleted #3; bring it back with: memory-dashboard restore 3 ")
    run(capsys, host_db, "expire", "1", "--in", "7d")
    run(capsys, host_db, "retire", "--source", "session:ses_b7")
    run(capsys, host_db, "discard", "151")  # nothing brings discarded candidates back: not logged
    code, out, _ = run(capsys, host_db, "undo", "--list", "--json")
    assert [entry["kind"] for entry in json.loads(out)] == ["promote", "delete", "expiry", "dismiss"]
    code, out, _ = run(capsys, host_db, "undo", "--steps", "9")
    assert code == 0 and out.splitlines()[-1].startswith(
        f"undid promotion of #{promoted} (the memory is deleted"
    )
    assert query(host_db, "SELECT count(*) FROM user_memories WHERE id = ?", (promoted,)) == [(0,)]
    assert query(host_db, "SELECT count(*) FROM user_memories WHERE id = 3") == [(1,)]
    code, out, _ = run(capsys, host_db, "undo")
    assert code == 0 and out.strip() == "nothing to undo"


def test_undo_on_a_read_only_database_is_refused(host_db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, host_db, "edit", "5", "--content", "Prefers yarn")
    code, out, _ = run(capsys, host_db, "--read-only", "undo", "--list")
    assert code == 0 and "edit of #5" in out
    code, _, err = run(capsys, host_db, "--read-only", "undo")
    assert code == 4 and "read-only" in err
    assert content(host_db, 5) == "Prefers yarn"
