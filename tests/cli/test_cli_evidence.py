"""The CLI's evidence and runs, end to end in process, on a host-shaped file and PostgreSQL (the odd cells of
`dream_runs` on the file): `show`, `history`, `export` with the archived words,
and `runs`, `runs show`, `runs undo` with their exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import main
from app.core.models.evidence import NOT_ARCHIVED
from tests.review.review_helpers import seed_verdict, write_json
from tests.support.hostdb import host_sql
from tests.support.pg_host import HostDb
from tests.support.runs_helpers import add_dream_run

REVIEW_TIME = "2026-10-21T03:13:32Z"
WORDS_141 = "Prefers pnpm over npm for every JavaScript project"


@pytest.fixture(autouse=True)
def _fixed_now(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORY_DASHBOARD_NOW", REVIEW_TIME)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def db(seeded_host: HostDb) -> str:
    """The seeded database, a host-shaped file or PostgreSQL, as `--db` takes it."""
    return seeded_host.target


def applied(db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """The seed's review of #5 applied through the CLI (its candidates then deleted); returns its run id."""
    verdict = write_json(tmp_path / "verdict.json", seed_verdict())
    code, _, _ = run(capsys, "--db", db, "review", "apply", str(verdict), "--json")
    assert code == 0
    code, out, _ = run(capsys, "--db", db, "runs", "--json")
    run_id: str = json.loads(out)[0]["run_id"]
    return run_id


def test_show_json_gives_each_provenance_entry_its_evidence(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    applied(db, tmp_path, capsys)
    code, out, _ = run(capsys, "--db", db, "show", "5", "--json")
    assert code == 0
    entries = {entry["candidate_id"]: entry["evidence"] for entry in json.loads(out)["provenance"]}
    assert entries[46] is None  # consumed before the dashboard first opened the file
    assert entries[141]["content"] == WORDS_141 and entries[141]["session_id"] == "ses_c3f1"
    assert isinstance(entries[141]["archived_at"], int)
    code, out, _ = run(capsys, "--db", db, "show", "5")
    assert WORDS_141 in out and NOT_ARCHIVED in out


def test_history_and_export_show_the_words(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    applied(db, tmp_path, capsys)
    code, out, _ = run(capsys, "--db", db, "history", "5")
    assert code == 0 and WORDS_141 in out and "ses_c3f1" in out
    code, out, _ = run(capsys, "--db", db, "history", "5", "--json")
    assert json.loads(out)[-1]["evidence"]["141"]["content"] == WORDS_141
    code, out, _ = run(capsys, "--db", db, "export")
    memory = next(item for item in json.loads(out)["memories"] if item["id"] == 5)
    assert memory["revisions"][-1]["evidence"]["141"]["content"] == WORDS_141
    assert memory["evidence"]["141"]["content"] == WORDS_141 and memory["evidence"]["46"] is None
    assert all("evidence" not in entry for entry in memory["provenance"])  # as the host holds them
    code, out, _ = run(capsys, "--db", db, "export", "--format", "markdown")
    assert WORDS_141 in out and NOT_ARCHIVED in out


def test_runs_list_show_and_undo(db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_id = applied(db, tmp_path, capsys)
    code, out, _ = run(capsys, "--db", db, "runs")
    assert code == 0 and run_id in out and "rewrote 1" in out
    code, out, _ = run(capsys, "--db", db, "runs", "show", run_id, "--json")
    (change,) = json.loads(out)["changes"]
    assert change["memory_id"] == 5 and change["evidence"]["141"]["content"] == WORDS_141
    code, out, _ = run(capsys, "--db", db, "runs", "undo", run_id)
    assert code == 0 and "memory #5: restored" in out and "not put back in the host's pool" in out
    assert out.startswith(f"undid run {run_id}: 1 memory restored")
    code, out, _ = run(capsys, "--db", db, "show", "5", "--json")
    assert json.loads(out)["content"] == "Prefers pnpm"
    code, out, _ = run(capsys, "--db", db, "runs", "undo", run_id)  # again: nothing left to undo
    assert code == 0 and out.startswith("nothing undone:") and "memory #5: already undone (r" in out


def test_undo_exit_codes(db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_id = applied(db, tmp_path, capsys)
    code, _, err = run(capsys, "--db", db, "runs", "undo", "review-unknown")
    assert code == 1 and "no review run" in err
    code, _, err = run(capsys, "--db", db, "--read-only", "runs", "undo", run_id)
    assert code == 4 and "read-only" in err


def test_malformed_dream_runs_are_listed_as_unreadable(
    host_db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    add_dream_run(host_db, 1, 5, 6, "[{")
    add_dream_run(host_db, 2, "noon", b"\x00", "")
    host_sql(host_db, "UPDATE dream_runs SET tasks_json = x'ff' WHERE id = 1")
    code, out, _ = run(capsys, "--db", str(host_db), "runs", "--json")
    assert code == 0
    assert [item["label"] for item in json.loads(out)] == ["unreadable run", "unreadable run"]
    code, out, _ = run(capsys, "--db", str(host_db), "runs")
    assert code == 0 and out.count("unreadable run") == 2 and "malformed" in out
    code, out, _ = run(capsys, "--db", str(host_db), "runs", "show", "host:2")
    assert code == 0 and "no changes recorded" in out


def test_runs_show_json_names_the_consumed_candidates_and_the_undo(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run_id = applied(db, tmp_path, capsys)
    code, out, _ = run(capsys, "--db", db, "runs", "show", run_id, "--json")
    shown = json.loads(out)
    assert code == 0 and shown["consumed"] == 4  # the count stays, beside which ones
    assert shown["consumed_candidate_ids"] == [141, 143, 145, 146] and shown["undone_at"] is None
    code, out, _ = run(capsys, "--db", db, "show", "5", "--json")
    assert 141 in json.loads(out)["source_candidate_ids"]
    assert run(capsys, "--db", db, "runs", "undo", run_id)[0] == 0
    code, out, _ = run(capsys, "--db", db, "show", "5", "--json")
    assert json.loads(out)["source_candidate_ids"] == [46, 47, 48]  # the undone run's are no longer cited
    code, out, _ = run(capsys, "--db", db, "runs")
    assert f"consumed 4 · undone {REVIEW_TIME.replace('T', ' ').replace('Z', ' UTC')}" in out
    code, out, _ = run(capsys, "--db", db, "runs", "--json")
    assert json.loads(out)[0]["undone_at"] is not None
