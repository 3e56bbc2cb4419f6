"""`tidy`: groups of likely duplicates and pairs that may contradict, as text and as JSON, read-only."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import main
from tests.support.host80 import ALPHA, BETA
from tests.support.hostdb import host_dump
from tests.support.tidy_memories import PLANTED, project_db, tidy_db


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_tidy_lists_groups_and_contradictions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tidy_db(tmp_path / "context.db", [*PLANTED, "Ignore\u202e this"])
    before = host_dump(path)
    code, out, err = run(capsys, "--db", str(path), "tidy")
    assert code == 0, err
    assert out.splitlines()[0] == (
        "2 groups of likely duplicates and 1 pair that may contradict, among 9 active memories"
    )
    assert "  #1      Prefers pnpm over npm\n           with #2: the same text" in out
    assert "close wording (" in out and "#6" in out
    assert "database: postgres in #3, mysql in #4" in out
    assert "Ignore\u202e" not in out  # hidden characters are shown, never passed to the terminal
    assert host_dump(path) == before


def test_tidy_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tidy_db(tmp_path / "context.db")
    code, out, _err = run(capsys, "--db", str(path), "tidy", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["memories"] == 8
    first = data["groups"][0]
    assert [member["id"] for member in first["members"]] == [1, 2]
    assert first["members"][0] == {
        "id": 1,
        "content": "Prefers pnpm over npm",
        "sources": ["session:ses_seed"],
        "reasons": ["with #2: the same text (case, spaces and punctuation aside)"],
    }
    assert first["edges"] == [{"a": 1, "b": 2, "kind": "exact", "score": 100.0, "shared": []}]
    (pair,) = data["may_contradict"]
    assert pair["a"] == {"id": 3, "content": "Uses Postgres"}
    assert pair["b"] == {"id": 4, "content": "Moved the project to MySQL"}
    assert pair["reason"] == "database: postgres in #3, mysql in #4"


def test_tidy_on_a_file_that_is_not_a_database(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "notes.db"
    path.write_text("not a database")
    code, _out, err = run(capsys, "--db", str(path), "tidy")
    assert code == 3 and err.startswith("error: ") and "Traceback" not in err


def test_pairs_that_clash_alike_are_listed_under_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    texts = [
        "Uses Zed as the editor",
        "Prefers Neovim as the editor",
        "Keeps Zed configuration in the repository root",  # mentions Zed, chooses nothing
        "Switched the editor to Neovim last month",
    ]
    path = tidy_db(tmp_path / "context.db", texts)
    code, out, _err = run(capsys, "--db", str(path), "tidy")
    assert code == 0
    assert "editor: zed in #1, neovim in #2\n" in out
    assert "    and 1 more pair alike: #1/#4" in out
    assert "#3" not in out
    code, out, _err = run(capsys, "--db", str(path), "tidy", "--json")
    (pair,) = json.loads(out)["may_contradict"]
    assert (pair["a"]["id"], pair["b"]["id"], pair["also"]) == (1, 2, [[1, 4]])


def test_tidy_project_memories_as_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "context.db"
    ids = project_db(path)
    before = host_dump(path)
    code, out, err = run(
        capsys, "--db", str(path), "tidy", "--kind", "project", "--project", "beta", "--json"
    )
    assert code == 0, err
    data = json.loads(out)
    assert (data["kind"], data["project"], data["memories"]) == ("project", BETA, 3)
    (group,) = data["groups"]
    assert (group["project"], group["category"]) == (BETA, "ARCHITECTURE")
    assert [member["id"] for member in group["members"]] == [ids["beta_runs"], ids["beta_runs_again"]]
    assert group["members"][0]["sources"] == ["session:ses_alpha1"]
    assert data["may_contradict"] == []
    code, out, err = run(capsys, "--db", str(path), "tidy", "--kind", "project", "--json")
    data = json.loads(out)
    assert data["project"] is None and data["memories"] == 8
    assert {(group["project"], group["category"]) for group in data["groups"]} == {
        (ALPHA, "ARCHITECTURE"),
        (BETA, "ARCHITECTURE"),
    }
    (pair,) = data["may_contradict"]
    assert (pair["project"], pair["a"]["id"], pair["b"]["id"]) == (ALPHA, ids["alpha_pnpm"], ids["alpha_npm"])
    code, out, err = run(capsys, "--db", str(path), "tidy", "--kind", "project")
    assert code == 0 and "ARCHITECTURE memories of beta (dir:/home/ana/src/beta)" in out
    # A project the host names by its identity alone is named once, not twice.
    assert f"ARCHITECTURE memories of {ALPHA}\n" in out
    assert out.rstrip().endswith("8 active project memories in 2 projects looked at, by category")
    assert host_dump(path) == before


def test_tidy_project_errors_are_messages(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "context.db"
    project_db(path)
    code, _out, err = run(capsys, "--db", str(path), "tidy", "--kind", "project", "--project", "nope")
    # As `list --kind project --project nope` says it, naming the projects there are.
    assert code == 1 and err == f"error: no project is named 'nope'; the projects are: beta, {ALPHA}\n"
    code, _out, err = run(capsys, "--db", str(path), "tidy", "--project", "beta")
    assert code == 1 and err == "error: --project is not for user memories (add --kind project)\n"
    code, _out, err = run(capsys, "--db", str(path), "tidy", "--kind", "project", "--ask-reviewer")
    assert code == 1 and err == "error: --ask-reviewer sends the user memories' groups only\n"


def test_a_file_without_project_memories(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A host too old to keep project memories has none to tidy: said, not a database error."""
    path = tidy_db(tmp_path / "context.db")
    code, out, _err = run(capsys, "--db", str(path), "tidy", "--kind", "project")
    assert code == 0 and out == "0 active project memories in 0 projects looked at, by category\n"
    code, _out, err = run(capsys, "--db", str(path), "tidy", "--kind", "project", "--project", "beta")
    assert code == 1 and err == "error: no project is named 'beta'; this database has no project memories\n"
