"""`tidy --ask-reviewer`: the reviewer's answer previewed (word diffs, dismissals, links), applied as a run
listed in `runs` and undone by `runs undo`; a bad answer is a message with its exit code, nothing changed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import main
from tests.review.review_helpers import lease_rows
from tests.support.hostdb import host_dump
from tests.support.tidy_memories import tidy_db
from tests.tidy.ask_helpers import answer, fake_reviewer, merge_and_settle, tidy_verdict


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_dry_run_previews_and_changes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tidy_db(tmp_path / "context.db")
    before = host_dump(path)
    reviewer = fake_reviewer(tmp_path, answer(merge_and_settle()), expect="MAY CONTRADICT")
    code, out, err = run(
        capsys, "--db", str(path), "tidy", "--ask-reviewer", "--dry-run", "--reviewer", reviewer
    )
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "asked the reviewer about 3 groups"
    assert "  #1      update   Prefers pnpm over npm{+, in every project+}" in lines
    assert "  #2      dismiss  prefers PNPM over npm.  (reason: merged into #1)" in lines
    assert "links: #2 merged into #1; #4 kept over the contradicting #3" in lines
    assert lines[-1] == "dry run: nothing was changed"
    assert host_dump(path) == before


def test_apply_is_a_tidy_run_that_runs_undo_takes_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tidy_db(tmp_path / "context.db")
    before = host_dump(path)
    reviewer = fake_reviewer(tmp_path, answer(merge_and_settle()))
    code, out, err = run(
        capsys, "--db", str(path), "tidy", "--ask-reviewer", "--json", "--reviewer", reviewer
    )
    assert code == 0, err
    data = json.loads(out)
    assert data["dry_run"] is False and data["asked_groups"] == [[1, 2], [5, 6], [3, 4]]
    assert data["links"][0] == {"from_id": 2, "to_id": 1, "relation": "merged_into"}
    run_id = data["run"]["run_id"]
    assert run_id.startswith("tidy-") and data["run"]["origin"] == "tidy"
    assert lease_rows(path) == {"generation": "1"}
    assert host_dump(path) != before

    code, out, err = run(capsys, "--db", str(path), "runs", "--json")
    assert code == 0, err
    (listed,) = json.loads(out)
    assert (listed["run_id"], listed["label"], listed["dismissed"]) == (run_id, "tidy review", 2)

    code, out, err = run(capsys, "--db", str(path), "runs", "undo", run_id)
    assert code == 0, err
    assert "3 memories restored" in out
    code, out, _err = run(capsys, "--db", str(path), "show", "2", "--json")
    assert json.loads(out)["status"] == "active"


@pytest.mark.parametrize(
    ("output", "code", "message"),
    [
        ("no idea", 7, "not verdict JSON"),
        ("[" * 100_000 + "]" * 100_000, 7, "not verdict JSON"),
        (
            answer(tidy_verdict(dismiss=[{"memory_id": 8, "reason": "x"}])),
            5,
            "memory #8 is in none of the groups",
        ),
    ],
)
def test_a_bad_answer_is_a_message_and_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], output: str, code: int, message: str
) -> None:
    path = tidy_db(tmp_path / "context.db")
    before = host_dump(path)
    reviewer = fake_reviewer(tmp_path, output)
    got, out, err = run(capsys, "--db", str(path), "tidy", "--ask-reviewer", "--reviewer", reviewer)
    assert got == code and message in err and "Traceback" not in err and out == ""
    assert host_dump(path) == before


def test_dry_run_alone_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tidy_db(tmp_path / "context.db")
    code, _out, err = run(capsys, "--db", str(path), "tidy", "--dry-run")
    assert code == 1 and "--dry-run goes with --ask-reviewer" in err
