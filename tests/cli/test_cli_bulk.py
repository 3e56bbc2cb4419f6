"""The CLI's writers of many, `retire`, `trust`, `add` and the trash, in process on host-shaped files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import main
from tests.review.review_helpers import snapshot
from tests.support.hostdb import profile_version, query


def run(capsys: pytest.CaptureFixture[str], db: Path, *argv: str) -> tuple[int, str, str]:
    code = main(["--db", str(db), *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(autouse=True)
def _fixed_now(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORY_DASHBOARD_NOW", "2026-10-21T03:13:32Z")


def statuses(db: Path) -> dict[object, object]:
    return {row[0]: row[1] for row in query(db, "SELECT id, status FROM user_memories")}


def test_dismiss_several_ids_is_one_bump(host_db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = profile_version(host_db)
    code, out, _ = run(capsys, host_db, "dismiss", "1", "2", "4")
    assert code == 0 and out.strip() == "dismissed 2 memories: #1, #4 (1 already dismissed)"
    assert profile_version(host_db) == before + 1
    assert statuses(host_db) == {1: "dismissed", 2: "dismissed", 3: "active", 4: "dismissed", 5: "active"}


def test_one_bad_id_rejects_the_whole_command(host_db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, host_db, "list")  # migrated and seen
    before = snapshot(host_db)
    code, _, err = run(capsys, host_db, "dismiss", "1", "999", "4")
    assert code == 1 and "memory #999 does not exist; nothing was changed" in err
    code, _, err = run(capsys, host_db, "delete", "1", "998", "997")
    assert code == 1 and "#998, #997" in err
    assert snapshot(host_db) == before


def test_where_filters_choose_the_memories(host_db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, host_db, "dismiss", "--source", "ses_seed", "--status", "active")
    assert code == 0 and out.strip() == "dismissed 2 memories: #1, #4"
    code, out, _ = run(capsys, host_db, "reactivate", "--search", "berlin")
    assert code == 0 and out.strip() == "reactivated 1 memory: #4"
    code, _, err = run(capsys, host_db, "dismiss", "5", "--search", "pnpm")
    assert code == 1 and "not both" in err
    code, _, err = run(capsys, host_db, "dismiss", "--search", "nothing-like-this")
    assert code == 1 and "no memory matches" in err
    code, out, _ = run(capsys, host_db, "expire", "1", "4", "--in", "7d")
    assert code == 0 and out.startswith("2 memories expire 2026-10-28")


def test_trash_lists_and_restores_deleted(host_db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, host_db, "delete", "1", "4")
    assert code == 0 and out.startswith("deleted 2 memories: #1, #4")
    code, out, _ = run(capsys, host_db, "list", "--status", "deleted", "--json")
    listed = json.loads(out)
    assert [(m["id"], m["status"]) for m in listed] == [(1, "deleted"), (4, "deleted")]
    assert listed[1]["content"] == "Lives in Berlin (CET)"
    code, out, _ = run(capsys, host_db, "restore", "--deleted", "--search", "Berlin")
    assert code == 0 and out.strip() == "restored 1 memory: #4"
    code, _, err = run(capsys, host_db, "restore", "--deleted", "4")
    assert code == 1 and "is not deleted" in err
    code, out, _ = run(capsys, host_db, "restore", "--deleted", "1")
    assert code == 0 and statuses(host_db)[1] == "active"


def test_retire_dry_run_then_for_real(host_db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, host_db, "list")
    before = snapshot(host_db)
    code, out, _ = run(capsys, host_db, "retire", "--source", "session:ses_a1", "--dry-run", "--json")
    data = json.loads(out)
    assert code == 0 and data["only"] == [] and [m["id"] for m in data["shared"]] == [5]
    assert data["dry_run"] and data["changed"] == []
    assert snapshot(host_db) == before
    code, out, _ = run(capsys, host_db, "retire", "--source", "ses_seed", "--dry-run")
    assert "its only source (3)" in out and "dry run: nothing was changed (would dismiss 3 memories)" in out
    bump = profile_version(host_db)
    code, out, _ = run(capsys, host_db, "retire", "--source", "session:ses_a1", "--delete")
    assert code == 0 and "deleted 1 memory: #5" in out
    assert profile_version(host_db) == bump + 1 and 5 not in statuses(host_db)


def test_trust_marks_from_the_cli(host_db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, host_db, "trust", "session:", "untrusted")
    assert code == 0 and out.strip() == "session: is marked untrusted"
    run(capsys, host_db, "trust", "ses_seed", "trusted")
    code, out, _ = run(capsys, host_db, "trust", "--list", "--json")
    assert json.loads(out) == [
        {"source": "session:", "trust": "untrusted"},
        {"source": "session:ses_seed", "trust": "trusted"},
    ]
    code, out, _ = run(capsys, host_db, "list", "--trust", "untrusted", "--json")
    assert [m["id"] for m in json.loads(out)] == [5]
    code, out, _ = run(capsys, host_db, "show", "5", "--json")
    assert json.loads(out)["trust"] == "untrusted"
    code, out, _ = run(capsys, host_db, "trust", "session:", "default")
    assert out.strip() == "session: has no mark (default trust)"
    code, _, err = run(capsys, host_db, "trust", "session:x")
    assert code == 1 and "trust SOURCE" in err
    code, _, err = run(capsys, host_db, "--read-only", "trust", "session:x", "trusted")
    assert code == 4


def test_add_from_text_and_file(host_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = profile_version(host_db)
    code, out, _ = run(capsys, host_db, "add", "--content", "Prefers dark mode", "--json")
    data = json.loads(out)
    assert code == 0 and data["status"] == "active" and data["sources"] == ["user:dashboard"]
    assert data["trust"] == "trusted" and data["promoted_at"] == data["created_at"] == data["updated_at"]
    assert profile_version(host_db) == before + 1
    note = tmp_path / "note.txt"
    note.write_text("Writes commit messages in English", encoding="utf-8")
    code, out, _ = run(capsys, host_db, "add", "--file", str(note))
    assert code == 0 and "Writes commit messages in English" in out
    code, _, err = run(capsys, host_db, "add", "--content", "  ")
    assert code == 1 and "content" in err
    assert query(host_db, "SELECT count(*) FROM user_memories") == [(7,)]


def test_list_by_source_and_dates(host_db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        host_db,
        "list",
        "--source",
        "session:",
        "--since",
        "2026-09-27",
        "--until",
        "2026-09-28",
        "--json",
    )
    assert code == 0 and [m["id"] for m in json.loads(out)] == [5]
    with pytest.raises(SystemExit) as usage:
        run(capsys, host_db, "list", "--since", "yesterday-ish")
    assert usage.value.code == 2 and "argument --since" in capsys.readouterr().err
