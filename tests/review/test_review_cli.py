"""`memory-dashboard review ...` as a user runs it: a subprocess on a real host-shaped file, a fixed clock."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from app.core.provenance import host_can_read
from app.core.settings import Settings, save_settings
from tests.review.review_helpers import hold_lease, seed_verdict, snapshot, verdict, write_json
from tests.support.console import dashboard
from tests.support.hostdb import HOUR, query

REVIEW_TIME = 1_792_552_412_000
PYTHON = sys.executable


def cli(
    db: Path, *args: str, now: int = REVIEW_TIME, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    """`memory-dashboard --db DB ARGS` through the real console script, at `now`."""
    return dashboard("--db", str(db), *args, env={"MEMORY_DASHBOARD_NOW": str(now)}, stdin=stdin)


def opened(db: Path) -> Path:
    """Open the file once (its first writable open migrates the dashboard's own tables)."""
    assert cli(db, "review", "prompt").returncode == 0
    return db


def show(db: Path, memory_id: int, now: int) -> dict[str, Any]:
    done = cli(db, "show", str(memory_id), "--json", now=now)
    assert done.returncode == 0, done.stderr
    data: dict[str, Any] = json.loads(done.stdout)
    return data


def test_the_seed_acceptance_through_the_cli(host_db: Path, tmp_path: Path) -> None:
    done = cli(
        host_db, "review", "apply", str(write_json(tmp_path / "v.json", seed_verdict())), "--run-id", "run-1"
    )
    assert done.returncode == 0, done.stderr
    assert "promoted 0, updated 1, dismissed 0, consumed 4" in done.stdout

    memory = show(host_db, 5, REVIEW_TIME + 2 * HOUR)
    assert memory["source_candidate_ids"] == [46, 47, 48, 141, 143, 145, 146]
    assert [e["candidate_id"] for e in memory["provenance"]] == [46, 47, 48, 141, 143, 145, 146]
    assert [e["session_id"] for e in memory["provenance"][3:]] == [
        "ses_c3f1",
        "ses_c3f1",
        "ses_d9e2",
        "ses_d9e2",
    ]
    assert memory["updated_at"] == REVIEW_TIME and memory["rewritten"] is True
    assert "updated 2h ago" in memory["card_meta"]

    more = verdict(
        update_existing=[
            {"memory_id": 5, "content": "Prefers pnpm; tests first", "candidate_ids": [151, 152]}
        ],
        consume=[151, 152],
    )
    done = cli(host_db, "review", "apply", "-", now=REVIEW_TIME + HOUR, stdin=json.dumps(more))
    assert done.returncode == 0, done.stderr
    memory = show(host_db, 5, REVIEW_TIME + 3 * HOUR)
    assert memory["card_meta"].endswith("from candidates: 46, 47, 48, 141, 143, 145, 146, 151 +1 more")
    history = json.loads(cli(host_db, "history", "5", "--json", now=REVIEW_TIME + 3 * HOUR).stdout)
    reviews = [(r["source"], r["run_id"]) for r in history if r["source"] == "review"]
    assert reviews[0] == ("review", "run-1")


def test_reapplying_a_run_is_a_no_op_with_exit_zero(host_db: Path, tmp_path: Path) -> None:
    path = write_json(tmp_path / "v.json", seed_verdict())
    assert cli(host_db, "review", "apply", str(path), "--run-id", "nightly-1").returncode == 0
    before = snapshot(host_db)
    done = cli(host_db, "review", "apply", str(path), "--run-id", "nightly-1", now=REVIEW_TIME + HOUR)
    assert done.returncode == 0
    assert "run nightly-1 was already applied at 2026-10-21 03:13:32 UTC; nothing changed" in done.stdout
    assert snapshot(host_db) == before


def test_a_rejected_verdict_exits_non_zero_and_changes_nothing(host_db: Path, tmp_path: Path) -> None:
    bad = seed_verdict()
    bad["update_existing"][0]["candidate_ids"].append(141)
    before = snapshot(opened(host_db))
    done = cli(host_db, "review", "apply", str(write_json(tmp_path / "bad.json", bad)))
    assert done.returncode != 0
    assert "update_existing[0].candidate_ids[4]: #141 is listed twice" in done.stderr
    assert done.stderr.startswith("error: verdict rejected") and "Traceback" not in done.stderr
    assert snapshot(host_db) == before


def test_a_held_lease_exits_non_zero_and_changes_nothing(host_db: Path, tmp_path: Path) -> None:
    hold_lease(opened(host_db), "host-dreamer", expiry=REVIEW_TIME + 60_000, generation=3)
    before = snapshot(host_db)
    done = cli(host_db, "review", "apply", str(write_json(tmp_path / "v.json", seed_verdict())))
    assert done.returncode != 0
    assert "held by host-dreamer" in done.stderr
    assert snapshot(host_db) == before


def test_apply_prints_json_and_the_holder_is_recorded(host_db: Path, tmp_path: Path) -> None:
    path = write_json(tmp_path / "v.json", seed_verdict())
    done = cli(host_db, "review", "apply", str(path), "--holder", "cron@box", "--json")
    result = json.loads(done.stdout)
    assert result["updated"] == 1 and result["changed_memory_ids"] == [5]
    assert result["run_id"].startswith("review-")
    (holder,) = query(host_db, "SELECT holder FROM mdash_review_runs")
    assert holder == ("cron@box",)
    (raw,) = query(host_db, "SELECT source_candidate_provenance FROM user_memories WHERE id = 5")
    assert host_can_read(str(raw[0]))


def test_hidden_characters_need_allow_hidden(host_db: Path, tmp_path: Path) -> None:
    path = write_json(tmp_path / "v.json", seed_verdict("Prefers pnpm\u200b"))
    refused = cli(host_db, "review", "apply", str(path))
    assert refused.returncode != 0 and "hidden character" in refused.stderr
    assert cli(host_db, "review", "apply", str(path), "--allow-hidden").returncode == 0


def test_the_prompt_command_prints_memories_and_candidates(host_db: Path) -> None:
    done = cli(host_db, "review", "prompt")
    assert done.returncode == 0
    assert 'Memory #5: "Prefers pnpm"' in done.stdout.splitlines()
    assert (
        'Candidate #141 [session ses_c3f1]: "Prefers pnpm over npm for every JavaScript project"'
        in done.stdout
    )
    assert "Memory #2:" not in done.stdout  # dismissed: not injected, not reviewed


def reviewer_script(tmp_path: Path, answer: dict[str, Any]) -> Path:
    script = tmp_path / "reviewer.py"
    script.write_text(
        "import sys\n"
        "prompt = sys.stdin.read()\n"
        "assert 'Candidate #141' in prompt\n"
        f"print('Here is my verdict:\\n```json\\n' + {json.dumps(json.dumps(answer))} + '\\n```')\n",
        encoding="utf-8",
    )
    return script


def test_run_uses_the_reviewer_command(host_db: Path, tmp_path: Path) -> None:
    script = reviewer_script(tmp_path, seed_verdict())
    done = cli(host_db, "review", "run", "--reviewer", f"{PYTHON} {script}", "--timeout", "60")
    assert done.returncode == 0, done.stderr
    assert "updated 1" in done.stdout
    assert show(host_db, 5, REVIEW_TIME)["source_candidate_ids"][-1] == 146


def test_run_falls_back_to_the_settings_file(host_db: Path, tmp_path: Path) -> None:
    script = reviewer_script(tmp_path, seed_verdict())
    save_settings(Settings(reviewer_command=f"{PYTHON} {script}"))
    done = cli(host_db, "review", "run")
    assert done.returncode == 0, done.stderr
    assert "updated 1" in done.stdout


def test_run_without_a_reviewer_says_where_to_set_one(host_db: Path) -> None:
    done = cli(host_db, "review", "run")
    assert done.returncode != 0
    assert "no reviewer command" in done.stderr and "settings.json" in done.stderr


@pytest.mark.parametrize("args", [("review",), ("review", "apply")])
def test_incomplete_commands_are_usage_errors(host_db: Path, args: tuple[str, ...]) -> None:
    assert cli(host_db, *args).returncode == 2
