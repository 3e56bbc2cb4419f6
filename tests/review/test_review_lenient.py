"""`review apply` as lenient as the host's review where that loses nothing, through the real
console script: a fenced verdict, ignored keys, updates without evidence, consumption the verdict forgot,
unknown ids skipped; every one of them said in the output and kept in the run's record."""

from __future__ import annotations

import json
from pathlib import Path

from tests.review.review_helpers import seed_verdict, snapshot, verdict
from tests.support.console import dashboard
from tests.support.hostdb import query

REVIEW_TIME = "1792552412000"
NOW = {"MEMORY_DASHBOARD_NOW": REVIEW_TIME}


def apply(db: Path, verdict_file: Path, *extra: str) -> tuple[int, str, str]:
    done = dashboard("--db", str(db), "review", "apply", str(verdict_file), *extra, env=NOW)
    assert "Traceback" not in done.stderr
    return done.returncode, done.stdout, done.stderr


def test_apply_accepts_a_verdict_fenced_as_the_prompt_asks(host_db: Path, tmp_path: Path) -> None:
    answer = tmp_path / "answer.md"
    answer.write_text(
        "Here is my verdict.\n\n```json\n" + json.dumps(seed_verdict(), indent=2) + "\n```\nDone.\n",
        encoding="utf-8",
    )
    code, out, err = apply(host_db, answer, "--run-id", "fenced")
    assert code == 0, err
    assert "promoted 0, updated 1, dismissed 0, consumed 4" in out
    assert query(host_db, "SELECT content FROM user_memories WHERE id = 5") == [
        ("Prefers pnpm: workspaces, and pnpm in every example",)
    ]


def test_a_bare_verdict_quoting_a_fence_in_its_content_is_read_whole(host_db: Path, tmp_path: Path) -> None:
    content = "Wants answers as:\n```json\n{}\n```"
    path = tmp_path / "v.json"
    path.write_text(
        json.dumps(verdict(promote=[{"content": content, "candidate_ids": [151]}], consume=[151]))
    )
    code, _out, err = apply(host_db, path)
    assert code == 0, err
    assert query(host_db, "SELECT content FROM user_memories WHERE id = 6") == [(content,)]


def test_two_fenced_verdicts_are_a_rejected_verdict(host_db: Path, tmp_path: Path) -> None:
    answer = tmp_path / "answer.md"
    answer.write_text("```json\n{}\n```\n```json\n{}\n```\n", encoding="utf-8")
    code, _out, err = apply(host_db, answer)
    assert code == 5 and "2 ```json blocks" in err


def test_leniency_applies_what_it_can_and_lists_every_skip(host_db: Path, tmp_path: Path) -> None:
    document = verdict(
        promote=[{"content": "Runs pytest -q first", "candidate_ids": [151, 152, 999]}],
        update_existing=[
            {"memory_id": 1, "content": "Works in Python", "reason": "clearer"},  # no candidate_ids
            {"memory_id": 404, "content": "gone", "candidate_ids": [141]},
        ],
        dismiss_existing=[{"memory_id": 4, "reason": "moved"}, {"memory_id": 405}],
        consume=[151, 141, 888],  # 152 left out; 141 belongs to the skipped update
    )
    path = tmp_path / "v.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    code, out, err = apply(host_db, path, "--run-id", "lenient")
    assert code == 0, err
    assert "run lenient: promoted 1, updated 1, dismissed 1, consumed 2" in out
    expected = [
        "update_existing[0].reason: is not a verdict field; ignored",
        "update_existing[0]: names no candidate_ids; applied with no new evidence",
        "promote[0].candidate_ids[1]: candidate #152 is missing from consume_candidate_ids; consumed anyway",
        "promote[0].candidate_ids[2]: candidate #999 is missing from consume_candidate_ids; consumed anyway",
        "promote[0].candidate_ids[2]: candidate #999 is not in the pool (unknown, consumed or pruned);"
        " skipped",
        "update_existing[1].memory_id: memory #404 does not exist; update skipped",
        "update_existing[1]: its candidates #141 stay in the pool",
        "dismiss_existing[1].memory_id: memory #405 does not exist; dismissal skipped",
        "consume_candidate_ids[2]: candidate #888 is not in the pool (unknown, consumed or pruned); skipped",
    ]
    assert f"skipped or ignored ({len(expected)}):" in out
    for line in expected:
        assert f"  - {line}" in out.splitlines()
    ((summary,),) = query(host_db, "SELECT summary FROM mdash_review_runs WHERE run_id = 'lenient'")
    assert json.loads(str(summary))["skipped"] == expected
    assert query(host_db, "SELECT id FROM user_memory_candidates WHERE id IN (141, 151, 152)") == [(141,)]
    history = json.loads(dashboard("--db", str(host_db), "history", "1", "--json", env=NOW).stdout)
    assert history[-1]["detail"]["evidence"].startswith("none: the verdict named no candidates")
    again = dashboard(
        "--db", str(host_db), "review", "apply", str(path), "--run-id", "lenient", "--json", env=NOW
    )
    assert json.loads(again.stdout)["skipped"] == expected  # the record keeps them


def test_a_verdict_that_contradicts_itself_is_still_rejected_whole(host_db: Path, tmp_path: Path) -> None:
    document = verdict(
        update_existing=[{"memory_id": 5, "content": "x", "candidate_ids": [141], "note": "ignored"}],
        dismiss_existing=[{"memory_id": 5, "reason": "stale"}, {"memory_id": 404}],
        consume=[141],
    )
    path = tmp_path / "v.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    assert apply(host_db, path, "--run-id", "warm-up")[0] == 5  # also opens the file once
    before = snapshot(host_db)
    code, out, err = apply(host_db, path)
    assert code == 5 and out == ""
    assert "memory #5 is both dismissed and updated" in err and "nothing was changed" in err
    assert snapshot(host_db) == before
