"""The CLI end to end, in process: real host-shaped files, MEMORY_DASHBOARD_NOW fixing the clock."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli import main
from tests.support.hostdb import HOUR, build_host_db, host_sql, profile_version, query

REVIEW_TIME = "2026-10-21T03:13:32Z"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(autouse=True)
def _fixed_now(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORY_DASHBOARD_NOW", REVIEW_TIME)


def test_show_json_keys_and_card_meta(host_db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--db", str(host_db), "show", "5", "--json")
    assert code == 0
    data = json.loads(out)
    for key in (
        "id",
        "content",
        "status",
        "promoted_at",
        "created_at",
        "updated_at",
        "rewritten",
        "source_candidate_ids",
        "provenance",
        "sources",
        "trust",
        "expires_at",
        "expired",
        "card_meta",
    ):
        assert key in data
    assert data["card_meta"] == "active · promoted 23d ago · from candidates: 46, 47, 48"
    assert data["rewritten"] is False
    assert data["sources"] == ["session:ses_a1", "session:ses_b7"]


def test_global_options_after_the_subcommand(host_db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "show", "5", "--json", "--db", str(host_db), "--read-only")
    assert code == 0 and json.loads(out)["id"] == 5


def test_update_then_card_meta_two_hours_later(
    host_db: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.core.clock import ManualClock, parse_instant
    from app.store import MemoryStore

    store = MemoryStore.open(host_db, clock=ManualClock(parse_instant(REVIEW_TIME)))
    store.update_content(5, "Prefers pnpm, never yarn", [141, 143, 145, 146], run_id="run-1", source="review")
    store.close()
    host_sql(host_db, "DELETE FROM user_memory_candidates WHERE id IN (141,143,145,146)")
    monkeypatch.setenv("MEMORY_DASHBOARD_NOW", str(parse_instant(REVIEW_TIME) + 2 * HOUR))
    code, out, _ = run(capsys, "--db", str(host_db), "show", "5", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["card_meta"] == (
        "active · promoted 23d ago · updated 2h ago · from candidates: 46, 47, 48, 141, 143, 145, 146"
    )
    assert data["rewritten"] is True
    _code, out, _ = run(capsys, "--db", str(host_db), "history", "5", "--json")
    (revision,) = json.loads(out)
    assert {
        "id",
        "changed_at",
        "source",
        "run_id",
        "candidate_ids",
        "previous_content",
        "new_content",
    } <= set(revision)
    assert revision["candidate_ids"] == [141, 143, 145, 146] and revision["source"] == "review"


def test_writers_through_the_cli(host_db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = ["--db", str(host_db)]
    version = profile_version(host_db)
    assert run(capsys, *db, "edit", "1", "--content", "Works in Python")[0] == 0
    assert run(capsys, *db, "dismiss", "4", "--reason", "moved")[0] == 0
    assert query(host_db, "SELECT status FROM user_memories WHERE id=4") == [("dismissed",)]
    assert run(capsys, *db, "reactivate", "4")[0] == 0
    code, out, _ = run(capsys, *db, "promote", "151", "152", "--json")
    new_id = json.loads(out)["id"]
    assert code == 0 and new_id == 6
    code, out, _ = run(capsys, *db, "delete", str(new_id))
    assert code == 0 and "restore 6" in out
    assert profile_version(host_db) == version + 5
    code, out, _ = run(capsys, *db, "history", "6", "--json")
    kinds = [r["kind"] for r in json.loads(out)]
    assert kinds == ["create", "delete"]
    assert run(capsys, *db, "restore", "6", str(json.loads(out)[1]["id"]))[0] == 0
    assert query(host_db, "SELECT content FROM user_memories WHERE id=6") == [
        ("Runs tests with pytest -q before committing; Keeps commit messages in the imperative",)
    ]


def test_expire_profile_and_sweep(
    host_db: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = ["--db", str(host_db)]
    assert run(capsys, *db, "expire", "4", "--at", "2026-10-21T04:00:00Z")[0] == 0
    code, out, _ = run(capsys, *db, "profile")
    assert "- Lives in Berlin (CET)" in out.splitlines()
    monkeypatch.setenv("MEMORY_DASHBOARD_NOW", "2026-10-21T04:00:00Z")
    code, out, _ = run(capsys, *db, "--read-only", "profile")
    assert "- Lives in Berlin (CET)" not in out.splitlines()
    code, out, _ = run(capsys, *db, "--read-only", "list", "--status", "expired")
    assert "#4" in out and "(expired)" in out
    code, out, _ = run(capsys, *db, "sweep")
    assert code == 0 and "dismissed 1 expired memory: #4" in out
    code, _, err = run(capsys, *db, "reactivate", "4")
    assert code == 1 and "new expiry" in err
    assert run(capsys, *db, "reactivate", "4", "--never")[0] == 0


def test_recall_json_and_order(host_db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--db", str(host_db), "recall", "--search", "pnpm", "--json")
    assert code == 0
    assert [m["id"] for m in json.loads(out)] == [5]
    _code, out, _ = run(capsys, "--db", str(host_db), "recall", "--limit", "2", "--json")
    assert len(json.loads(out)) == 2


def test_errors_are_messages_with_exit_codes(
    tmp_path: Path, host_db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"\x00\x01not sqlite at all" * 100)
    code, _out, err = run(capsys, "--db", str(junk), "list")
    assert code == 3 and err.startswith("error: ") and "Traceback" not in err
    code, _, err = run(capsys, "--db", str(host_db), "--read-only", "dismiss", "1")
    assert code == 4 and "read-only" in err
    code, _, err = run(capsys, "--db", str(host_db), "show", "404")
    assert code == 1 and "does not exist" in err
    code, _, err = run(capsys, "--db", str(host_db), "edit", "1", "--content", "   ")
    assert code == 1 and "empty" in err


def test_export_formats(host_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_file = tmp_path / "export.json"
    assert run(capsys, "--db", str(host_db), "export", "-o", str(out_file))[0] == 0
    data = json.loads(out_file.read_text())
    assert [m["id"] for m in data["memories"]] == [1, 2, 3, 4, 5]
    assert data["memories"][4]["provenance"][0]["candidate_id"] == 46
    _code, out, _ = run(capsys, "--db", str(host_db), "export", "--format", "markdown")
    assert "## Memory #5" in out and "Provenance unknown: 7, 8" in out


def test_init_and_list_empty(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "fresh.db"
    assert run(capsys, "--db", str(path), "init")[0] == 0
    code, out, _ = run(capsys, "--db", str(path), "list")
    assert code == 0 and "no memories" in out


def test_python_dash_m_app_runs(host_db: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "app", "--db", str(host_db), "list", "--json"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert len(json.loads(result.stdout)) == 5


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out.startswith("memory-dashboard ")


def test_seed_fixture_builds(tmp_path: Path) -> None:
    path = build_host_db(tmp_path / "again.db")
    assert query(path, "SELECT count(*) FROM user_memories") == [(5,)]


def test_bad_times_and_unknown_candidates_are_messages(
    host_db: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = ["--db", str(host_db)]
    for argv in (["expire", "4", "--at", "garbage"], ["expire", "4", "--in", "7x"], ["promote", "999"]):
        code, _, err = run(capsys, *db, *argv)
        assert code == 1 and err.startswith("error: ") and "Traceback" not in err, argv
    assert "not in the pool" in run(capsys, *db, "promote", "999")[2]
    monkeypatch.setenv("MEMORY_DASHBOARD_NOW", "yesterday")
    code, _, err = run(capsys, *db, "list")
    assert code == 1 and "MEMORY_DASHBOARD_NOW" in err


def test_text_output_shows_hidden_and_control_characters(
    host_db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    host_sql(
        host_db, "UPDATE user_memories SET content = ? WHERE id = 1", ("evil\x1b]0;title\x07 \u202etxt",)
    )
    for argv in (["show", "1"], ["profile"], ["recall"], ["export", "--format", "markdown"]):
        code, out, _ = run(capsys, "--db", str(host_db), *argv)
        assert code == 0 and "\x1b" not in out and "\u202e" not in out and "⟦U+001B⟧" in out, argv
    code, out, _ = run(capsys, "--db", str(host_db), "show", "1", "--json")
    assert json.loads(out)["content"].startswith("evil\x1b")  # JSON keeps the content exact
