"""`blame ID` and `--as-of WHEN` end to end, on a host-shaped file and on PostgreSQL: in process, and once
through the console script."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli import main
from app.core.clock import ManualClock, format_instant, parse_instant
from app.store import MemoryStore
from tests.support.hostdb import HOUR
from tests.support.pg_host import HostDb

FIRST_LOOK = "2026-10-21T03:13:32Z"
EDIT = parse_instant(FIRST_LOOK) + HOUR


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def edited(seeded_host: HostDb, monkeypatch: pytest.MonkeyPatch) -> str:
    """#4 first seen at FIRST_LOOK, edited an hour later (a sentence added); now two hours later. The
    database is a host-shaped file or PostgreSQL (`seeded_host`); returns what `--db` takes."""
    clock = ManualClock(parse_instant(FIRST_LOOK))
    store = MemoryStore.open(seeded_host.target, clock=clock)
    store.observe()
    clock.set(EDIT)
    store.update_content(4, "Lives in Berlin (CET)\nRuns pytest -q.", [151], run_id="run-3", source="review")
    store.close()
    monkeypatch.setenv("MEMORY_DASHBOARD_NOW", str(EDIT + HOUR))
    return seeded_host.target


def test_blame_json(edited: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--db", edited, "blame", "4", "--json")
    assert code == 0
    first, second = json.loads(out)
    assert first["text"] == "Lives in Berlin (CET)\n"
    assert first["revision_id"] is None and first["source"] == "first_seen" and first["candidate_ids"] == []
    assert first["at"] == parse_instant(FIRST_LOOK)
    assert {key: second[key] for key in ("text", "source", "at", "candidate_ids", "run_id")} == {
        "text": "Runs pytest -q.",
        "source": "review",
        "at": EDIT,
        "candidate_ids": [151],
        "run_id": "run-3",
    }
    assert isinstance(second["revision_id"], int)
    assert second["evidence"][0]["content"] == "Runs tests with pytest -q before committing"


def test_blame_text_names_who_and_the_evidence(edited: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--db", edited, "blame", "4")
    assert code == 0
    lines = out.splitlines()
    assert "as first seen on 2026-10-21 03:13:32 UTC" in lines[0]
    assert lines[0].endswith("Lives in Berlin (CET)")
    assert "review run run-3" in lines[1] and lines[1].endswith("Runs pytest -q.")
    assert 'evidence #151 [session ses_e004] "Runs tests with pytest -q before committing"' in lines[2]
    code, _, err = run(capsys, "--db", edited, "blame", "404")
    assert code == 1 and "memory #404 does not exist" in err


def test_show_as_of_before_and_after_the_edit(edited: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--db", edited, "show", "4", "--as-of", str(EDIT - 1), "--json")
    assert code == 0
    before = json.loads(out)
    assert before["content"] == "Lives in Berlin (CET)" and before["known"] and before["injected"]
    code, out, _ = run(capsys, "--db", edited, "show", "4", "--as-of", format_instant(EDIT)[:19])
    assert code == 0 and "Runs pytest -q." in out and f"as of {format_instant(EDIT)}" in out
    code, out, _ = run(capsys, "--db", edited, "show", "4", "--as-of", "2026-10-01")
    assert code == 0 and "unknown before 2026-10-21 03:13:32 UTC (first seen)" in out


def test_list_and_profile_as_of(edited: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--db", edited, "list", "--as-of", str(EDIT - 1), "--json")
    assert code == 0
    listed = {item["id"]: item for item in json.loads(out)}
    assert sorted(listed) == [1, 2, 3, 4, 5] and listed[4]["content"] == "Lives in Berlin (CET)"
    assert listed[2]["status"] == "dismissed" and not listed[2]["injected"]
    code, out, _ = run(capsys, "--db", edited, "profile", "--as-of", str(EDIT - 1))
    assert code == 0
    assert out.splitlines() == [
        f"# as of {format_instant(EDIT - 1)}",
        "- Works mostly in Python and TypeScript",
        "- Legacy memory without provenance",
        "- Lives in Berlin (CET)",
        "- Prefers pnpm",
    ]
    code, out, _ = run(capsys, "--db", edited, "profile", "--as-of", "2026-09-20T00:00:00Z")
    assert code == 0
    assert out.splitlines()[1] == "? #1      unknown before 2026-10-21 03:13:32 UTC (first seen)"


def test_a_future_as_of_is_now(edited: str, capsys: pytest.CaptureFixture[str]) -> None:
    _code, now, _ = run(capsys, "--db", edited, "profile", "--json")
    code, future, _ = run(capsys, "--db", edited, "profile", "--as-of", "9999-12-31", "--json")
    assert code == 0
    assert [(m["id"], m["content"]) for m in json.loads(now)] == [
        (m["id"], m["content"]) for m in json.loads(future)
    ]


@pytest.mark.parametrize("command", [("profile",), ("list",), ("show", "4")])
@pytest.mark.parametrize("when", ["yesterday", "2026-13-01", "", "99999999999999999999"])
def test_bad_as_of_is_exit_1(
    edited: str, capsys: pytest.CaptureFixture[str], command: tuple[str, ...], when: str
) -> None:
    code, out, err = run(capsys, "--db", edited, *command, "--as-of", when)
    assert code == 1 and out == ""
    assert err.startswith("error: --as-of: ")


def test_list_as_of_refuses_a_filter_it_cannot_tell(edited: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "--db", edited, "list", "--as-of", "2026-10-21", "--status", "rewritten")
    assert code == 1 and "cannot be told for a past instant" in err


def test_console_script_blame(edited: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "app", "--db", edited, "blame", "4", "--json"],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])},
    )
    assert done.returncode == 0, done.stderr
    assert [line["source"] for line in json.loads(done.stdout)] == ["first_seen", "review"]
