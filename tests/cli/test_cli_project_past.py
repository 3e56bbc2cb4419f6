"""`history ID --kind project`, `blame ID --kind project` and `profile --kind project --project P --as-of
WHEN` end to end on a host file of schema v80: an outside rewrite observed by the CLI's opener, then read
back; a missing or unknown project is a message with exit 1."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from app.cli import main
from tests.support.host80 import ALPHA, DAY, NOW, Seeded, build_host80, seed_projects


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def rewritten(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[str, Seeded]:
    """The seeded file, looked at once at NOW; then the host rewrites #active a day later."""
    path = build_host80(tmp_path / "context.db")
    seeded = seed_projects(path)
    monkeypatch.setenv("MEMORY_DASHBOARD_NOW", str(NOW))
    assert run(capsys, "--db", str(path), "history", str(seeded.active), "--kind", "project")[0] == 0
    writer = sqlite3.connect(path)
    with writer:
        writer.execute(
            "UPDATE memories SET content = 'Build with bun. Never npm.', updated_at = ? WHERE id = ?",
            (NOW + DAY, seeded.active),
        )
    writer.close()
    monkeypatch.setenv("MEMORY_DASHBOARD_NOW", str(NOW + 2 * DAY))
    return str(path), seeded


def test_history_and_blame_of_a_project_memory(
    rewritten: tuple[str, Seeded], capsys: pytest.CaptureFixture[str]
) -> None:
    db, seeded = rewritten
    code, out, _ = run(capsys, "--db", db, "history", str(seeded.active), "--kind", "project", "--json")
    assert code == 0
    (revision,) = json.loads(out)
    assert revision["kind"] == "content" and revision["source"] == "observed"
    assert revision["previous_content"] == "Build with pnpm, never npm"
    assert revision["memory_kind"] == "project"
    code, out, _ = run(capsys, "--db", db, "blame", str(seeded.active), "--kind", "project", "--json")
    assert code == 0
    assert [line["revision_id"] for line in json.loads(out)] == [revision["id"], revision["id"]]
    code, out, _ = run(capsys, "--db", db, "history", str(seeded.active), "--kind", "project")
    assert code == 0 and "observed" in out


def test_profile_of_a_project_as_of_an_instant(
    rewritten: tuple[str, Seeded], capsys: pytest.CaptureFixture[str]
) -> None:
    db, seeded = rewritten
    code, out, _ = run(
        capsys,
        "--db",
        db,
        "profile",
        "--kind",
        "project",
        "--project",
        ALPHA,
        "--as-of",
        str(NOW + 1),
        "--json",
    )
    assert code == 0
    states = {state["id"]: state for state in json.loads(out)}
    assert (
        states[seeded.active]["content"] == "Build with pnpm, never npm" and states[seeded.active]["injected"]
    )
    assert seeded.archived not in states
    code, out, _ = run(
        capsys,
        "--db",
        db,
        "profile",
        "--kind",
        "project",
        "--project",
        ALPHA,
    )
    assert code == 0 and "- [CONFIG_VALUES] Build with bun. Never npm." in out
    code, out, _ = run(
        capsys, "--db", db, "profile", "--kind", "project", "--project", ALPHA, "--as-of", str(NOW - DAY)
    )
    assert code == 0 and f"? #{seeded.active} unknown before" in out


def test_a_project_must_be_named_and_known(
    rewritten: tuple[str, Seeded], capsys: pytest.CaptureFixture[str]
) -> None:
    db, _ = rewritten
    code, _, err = run(capsys, "--db", db, "profile", "--kind", "project")
    assert code == 1 and "--project" in err
    code, _, err = run(capsys, "--db", db, "profile", "--kind", "project", "--project", "nowhere")
    assert code == 1 and "no project is named 'nowhere'" in err
    code, _, err = run(capsys, "--db", db, "blame", "424242", "--kind", "project")
    assert code == 1 and "does not exist" in err


def test_history_carries_each_revisions_rows_and_says_what_changed(
    rewritten: tuple[str, Seeded], capsys: pytest.CaptureFixture[str]
) -> None:
    db, seeded = rewritten
    edit = ("edit", str(seeded.active), "--kind", "project", "--category", "BUILD")
    assert run(capsys, "--db", db, *edit)[0] == 0
    writer = sqlite3.connect(db)
    with writer:  # the host supersedes it by #permanent (and archives it)
        writer.execute(
            "UPDATE memories SET superseded_by_memory_id = ?, status = 'archived', updated_at = ?"
            " WHERE id = ?",
            (seeded.permanent, NOW + 3 * DAY, seeded.active),
        )
    writer.close()
    code, out, _ = run(capsys, "--db", db, "history", str(seeded.active), "--kind", "project", "--json")
    assert code == 0
    rewrite, category, superseded = json.loads(out)
    assert rewrite["previous_row"]["category"] == rewrite["new_row"]["category"] == "CONFIG_VALUES"
    assert (category["previous_row"]["category"], category["new_row"]["category"]) == (
        "CONFIG_VALUES",
        "BUILD",
    )
    assert (superseded["previous_row"]["superseded_by"], superseded["new_row"]["superseded_by"]) == (
        None,
        seeded.permanent,
    )
    code, out, _ = run(capsys, "--db", db, "history", str(seeded.active), "--kind", "project")
    assert code == 0
    lines = [line.strip() for line in out.splitlines()]
    assert "category CONFIG_VALUES → BUILD" in lines
    assert f"superseded by #{seeded.permanent}" in lines
    assert any(line.endswith("superseded active → archived") for line in lines)
