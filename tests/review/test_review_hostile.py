"""Hostile verdicts through the real command line: each is rejected whole (exit 5), nothing is written, and
what was refused can never poison a later read (export, history)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from app.review.verdict import parse_verdict
from tests.review.review_helpers import seed_verdict, snapshot, verdict, write_json
from tests.review.test_review_cli import cli, opened
from tests.support.hostdb import host_dump, profile_version, query


def apply_text(db: Path, tmp_path: Path, text: str) -> tuple[int, str]:
    path = tmp_path / "verdict.json"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    done = cli(db, "review", "apply", str(path))
    return done.returncode, done.stderr


def rejected_without_change(db: Path, tmp_path: Path, text: str) -> str:
    before = snapshot(opened(db))
    code, err = apply_text(db, tmp_path, text)
    assert code == 5, err
    assert "verdict rejected" in err and "Traceback" not in err
    assert snapshot(db) == before
    return err


def test_a_verdict_key_given_twice_is_rejected_not_half_applied(host_db: Path, tmp_path: Path) -> None:
    update = json.dumps(seed_verdict()["update_existing"])
    text = (
        '{"update_existing": '
        + update
        + ', "update_existing": [], "consume_candidate_ids": [141, 143, 145, 146]}'
    )
    err = rejected_without_change(host_db, tmp_path, text)
    assert "'update_existing' is given twice" in err
    assert query(host_db, "SELECT count(*) FROM user_memory_candidates WHERE id = 141") == [(1,)]


def test_a_memory_id_given_twice_in_one_entry_is_rejected(host_db: Path, tmp_path: Path) -> None:
    text = (
        '{"dismiss_existing": [{"memory_id": 5, "memory_id": 3, "reason": "stale"}], '
        '"consume_candidate_ids": []}'
    )
    err = rejected_without_change(host_db, tmp_path, text)
    assert "'memory_id' is given twice" in err


@pytest.mark.parametrize("reason", ["\ud800", "half \udfff a pair", "\ufffe", "nul \x00 inside"])
def test_a_reason_that_could_not_be_exported_is_rejected(host_db: Path, tmp_path: Path, reason: str) -> None:
    text = json.dumps(verdict(dismiss_existing=[{"memory_id": 5, "reason": reason}]))
    err = rejected_without_change(host_db, tmp_path, text)
    assert "dismiss_existing[0].reason" in err
    exported = cli(host_db, "export")
    assert exported.returncode == 0, exported.stderr
    history = cli(host_db, "history", "5", "--json")
    assert history.returncode == 0, history.stderr


@pytest.mark.parametrize("content", ["Prefers pnpm \ud83d", "Prefers \uffff pnpm", "Prefers \U0010fffe"])
def test_content_with_a_lone_surrogate_or_non_character_is_exit_5(
    host_db: Path, tmp_path: Path, content: str
) -> None:
    err = rejected_without_change(host_db, tmp_path, json.dumps(seed_verdict(content)))
    assert "update_existing[0].content" in err


def test_a_verdict_nested_20000_deep_is_rejected(host_db: Path, tmp_path: Path) -> None:
    text = '{"promote": ' + "[" * 20_000 + "]" * 20_000 + "}"
    err = rejected_without_change(host_db, tmp_path, text)
    assert "nested more than" in err


@pytest.mark.parametrize(
    "raw_id",
    [str(2**63), str(-(2**63) - 1), "9" * 5_000, str(2**64 + 5)],
    ids=["2^63", "-2^63-1", "5000d", "2^64"],
)
def test_ids_beyond_64_bits_are_rejected(host_db: Path, tmp_path: Path, raw_id: str) -> None:
    text = '{"dismiss_existing": [{"memory_id": ' + raw_id + '}], "consume_candidate_ids": [' + raw_id + "]}"
    err = rejected_without_change(host_db, tmp_path, text)
    assert "dismiss_existing[0].memory_id" in err and "consume_candidate_ids[0]" in err


def skipped_without_change(db: Path, tmp_path: Path, text: str) -> str:
    """Unknown ids are skipped and said (exit 0); no memory, candidate or profile changes."""
    before = (host_dump(opened(db)), profile_version(db))
    done = cli(db, "review", "apply", str(write_json(tmp_path / "verdict.json", json.loads(text))))
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert (host_dump(db), profile_version(db)) == before
    return done.stdout


def test_the_largest_64_bit_id_is_a_well_formed_unknown_memory(host_db: Path, tmp_path: Path) -> None:
    text = json.dumps(verdict(dismiss_existing=[{"memory_id": 2**63 - 1}]))
    out = skipped_without_change(host_db, tmp_path, text)
    assert f"memory #{2**63 - 1} does not exist; dismissal skipped" in out


def test_a_hundred_thousand_repeated_ids_are_each_reported_once() -> None:
    """The duplicate check is a set lookup: 100,000 ids took 43-85 s against a list."""
    ids = list(range(1, 50_001)) * 2
    with pytest.raises(Exception) as caught:
        parse_verdict(json.dumps(verdict(consume=ids)))
    problems = caught.value.problems  # type: ignore[attr-defined]
    assert len(problems) == 50_000
    assert problems[0] == "consume_candidate_ids[50000]: #1 is listed twice"


def test_a_hundred_thousand_unknown_ids_are_skipped_through_the_cli(host_db: Path, tmp_path: Path) -> None:
    ids = list(range(1_000_000, 1_100_000))
    out = skipped_without_change(host_db, tmp_path, json.dumps(verdict(consume=ids)))
    assert "candidate #1000000 is not in the pool" in out
    assert out.count("is not in the pool") == 100_000


def test_a_problem_quoting_a_lone_surrogate_key_is_printable(host_db: Path, tmp_path: Path) -> None:
    err = rejected_without_change(host_db, tmp_path, '{"\\ud800": []}')
    assert "\\ud800" in err


def test_a_verdict_on_stdin_that_is_not_utf8_is_rejected(host_db: Path) -> None:
    before = snapshot(opened(host_db))
    done = subprocess.run(
        [sys.executable, "-m", "app", "--db", str(host_db), "review", "apply", "-"],
        input=b'{"promote": [], "dismiss_existing": [{"memory_id": 5, "reason": "caf\xe9"}]}',
        capture_output=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 5, done.stderr
    assert b"not UTF-8" in done.stderr and b"Traceback" not in done.stderr
    assert snapshot(host_db) == before
