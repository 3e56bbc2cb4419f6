"""`resolve KEEP --over OTHER`: one memory of a pair that may contradict kept, the other set aside and
linked, `undo` taking it back; text and JSON, user and project memories, and messages for mistakes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.cli_run import run
from tests.support.host80 import ALPHA, BETA, T0, add_memory, add_project, build_host80, connect
from tests.support.hostdb import query
from tests.support.tidy_memories import tidy_db

PAIR = ["Never uses npm", "Uses npm for every project"]


def _statuses(path: Path) -> list[object]:
    return [row[0] for row in query(path, "SELECT status FROM user_memories ORDER BY id")]


def test_resolve_then_show_and_undo(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tidy_db(tmp_path / "context.db", PAIR)
    code, out, err = run(capsys, "--db", str(path), "resolve", "2", "--over", "1")
    assert code == 0, err
    assert (
        out.strip()
        == "kept #2; #1 dismissed (contradicts #2, which was kept), linked to it (undo takes it back)"
    )
    assert _statuses(path) == ["dismissed", "active"]
    code, out, err = run(capsys, "--db", str(path), "show", "1", "--json")
    assert code == 0, err
    assert [link["phrase"] for link in json.loads(out)["links"]] == ["contradicted, set aside for #2"]
    code, out, err = run(capsys, "--db", str(path), "undo")
    assert code == 0, err
    assert _statuses(path) == ["active", "active"]
    code, out, err = run(capsys, "--db", str(path), "show", "2", "--json")
    assert json.loads(out)["links"] == []


def test_resolve_mistakes_are_messages(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tidy_db(tmp_path / "context.db", PAIR)
    code, _, err = run(capsys, "--db", str(path), "resolve", "2", "--over", "2")
    assert code == 1 and "cannot be kept over itself" in err and "Traceback" not in err
    code, _, err = run(capsys, "--db", str(path), "resolve", "2", "--over", "9")
    assert code != 0 and "#9 does not exist" in err and "Traceback" not in err
    assert _statuses(path) == ["active", "active"]


def test_resolve_project_memories_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = build_host80(tmp_path / "context.db")
    with connect(path) as conn:
        add_project(conn, ALPHA, ("ses_alpha1",))
        add_project(conn, BETA, ("ses_beta1",))
        kept = add_memory(conn, ALPHA, "Deploy with Docker", created_at=T0)
        other = add_memory(conn, ALPHA, "Never Docker: deploy to bare metal", created_at=T0 + 1)
        elsewhere = add_memory(conn, BETA, "Deploy with Docker", created_at=T0)
    code, out, err = run(
        capsys, "--db", str(path), "resolve", str(kept), "--over", str(other), "--kind", "project", "--json"
    )
    assert code == 0, err
    assert json.loads(out) == {"kept": kept, "set_aside": other, "kind": "project", "became": "archived"}
    assert query(path, "SELECT status FROM memories WHERE id = ?", (other,)) == [("archived",)]
    code, _, err = run(
        capsys, "--db", str(path), "resolve", str(kept), "--over", str(elsewhere), "--kind", "project"
    )
    assert code == 1 and "different projects" in err
