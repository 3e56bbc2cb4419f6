"""`--kind project` on the command line, on host files of schema v80: list (every project's, or one by
identity or display name), show with the links both ways, profile, edit, dismiss and reactivate as
logged commands that `undo` and `redo` walk; the JSON shapes; and the refusals (unknown or ambiguous
project, duplicate text, a project the host's native module owns, options of the other kind)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.cli import main
from app.store.project.hashing import normalized_hash
from tests.support.host80 import (
    ALPHA,
    BETA,
    DANGLING_TARGET,
    Seeded,
    add_memory,
    connect,
)
from tests.support.hostdb import query

# The user memories' fields that mean the same for a project memory, and the host's project fields.
SHARED_KEYS = {
    "id",
    "content",
    "status",
    "created_at",
    "updated_at",
    "expires_at",
    "expired",
    "injected",
    "hidden_characters",
    "malformed",
    "oddities",
}
PROJECT_KEYS = {
    "kind",
    "project_path",
    "project",
    "category",
    "normalized_hash",
    "importance",
    "scope",
    "shareable",
    "source_session_id",
    "source_type",
    "seen_count",
    "retrieval_count",
    "first_seen_at",
    "last_seen_at",
    "last_retrieved_at",
    "verification_status",
    "verified_at",
    "classified_at",
    "superseded_by",
    "merged_from",
    "metadata_json",
}


@pytest.fixture(autouse=True)
def _fixed_now(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORY_DASHBOARD_NOW", "2026-10-21T14:13:20Z")  # tests.support.host80.NOW


def run(capsys: pytest.CaptureFixture[str], db: Path, *argv: str) -> tuple[int, str, str]:
    code = main(["--db", str(db), *argv])
    out, err = capsys.readouterr()
    return code, out, err


def as_json(capsys: pytest.CaptureFixture[str], db: Path, *argv: str) -> Any:
    code, out, err = run(capsys, db, *argv, "--json")
    assert code == 0, err
    return json.loads(out)


def cell(db: Path, memory_id: int, column: str) -> object:
    return query(db, f"SELECT {column} FROM memories WHERE id = ?", (memory_id,))[0][0]


def test_list_every_projects_memories_and_one_project_by_name(
    host80: Path, seeded: Seeded, capsys: pytest.CaptureFixture[str]
) -> None:
    listed = as_json(capsys, host80, "list", "--kind", "project")
    assert {item["project_path"] for item in listed} >= {ALPHA, BETA}
    assert all(set(item) == SHARED_KEYS | PROJECT_KEYS for item in listed)
    assert all(item["kind"] == "project" for item in listed)
    beta = as_json(capsys, host80, "list", "--kind", "project", "--project", "beta")
    assert [(item["id"], item["project"]) for item in beta] == [(seeded.beta, "beta")]
    by_identity = as_json(capsys, host80, "list", "--kind", "project", "--project", BETA)
    assert [item["id"] for item in by_identity] == [seeded.beta]
    code, out, _ = run(capsys, host80, "list", "--kind", "project")
    assert code == 0 and any(
        line.startswith(f"#{seeded.beta} ") and " beta " in line for line in out.splitlines()
    )


def test_list_filters_by_category_status_and_search(
    host80: Path, seeded: Seeded, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = as_json(capsys, host80, "list", "--kind", "project", "--category", "PROJECT_RULES")
    assert {item["id"] for item in rules} == {seeded.permanent, seeded.expired, seeded.expiring}
    odd = as_json(capsys, host80, "list", "--kind", "project", "--status", "deleted")
    assert [item["id"] for item in odd] == [seeded.odd_status]
    found = as_json(capsys, host80, "list", "--kind", "project", "--project", ALPHA, "--search", "RUFF FOR")
    assert [item["id"] for item in found] == [seeded.merge_sources[1]]
    expired = next(item for item in rules if item["id"] == seeded.expired)
    assert expired["expired"] and not expired["injected"]


def test_an_unknown_or_ambiguous_project_is_a_message(
    host80: Path, seeded: Seeded, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, host80, "list", "--kind", "project", "--project", "gamma")
    assert (code, out) == (1, "")
    assert err.startswith("error: no project is named 'gamma'; the projects are: beta, ")
    with connect(host80) as conn:
        add_memory(conn, "dir:/srv/other/beta", "Another beta")
    conn.close()
    code, _, err = run(capsys, host80, "profile", "--kind", "project", "--project", "BETA")
    assert code == 1
    assert err.startswith("error: 2 projects are named 'BETA': ") and err.strip().endswith(
        "give its identity"
    )


def test_show_the_links_both_ways(host80: Path, seeded: Seeded, capsys: pytest.CaptureFixture[str]) -> None:
    first, second, third = seeded.chain
    shown = as_json(capsys, host80, "show", str(first), "--kind", "project")
    assert set(shown) == SHARED_KEYS | PROJECT_KEYS | {"links", "read_only_reason"}
    assert shown["links"]["superseded_by_chain"] == {"steps": [second, third], "end": third, "problem": None}
    newer = as_json(capsys, host80, "show", str(second), "--kind", "project")["links"]
    assert newer["supersedes"] == [first]
    merged = as_json(capsys, host80, "show", str(seeded.merged), "--kind", "project")["links"]
    s1, s2 = seeded.merge_sources
    assert merged["merged_from"] == {"ids": [s1, s2], "problem": None}
    assert merged["merge_sources"] == [
        {"id": s1, "source_session_id": "ses_alpha1", "missing": False},
        {"id": s2, "source_session_id": "ses_alpha2", "missing": False},
    ]
    source = as_json(capsys, host80, "show", str(s1), "--kind", "project")["links"]
    assert source["merged_into"] == [seeded.merged]
    # Oddities shown as what they are.
    loop = as_json(capsys, host80, "show", str(seeded.loop[0]), "--kind", "project")["links"]
    assert "loops back" in loop["superseded_by_chain"]["problem"]
    dangling = as_json(capsys, host80, "show", str(seeded.dangling), "--kind", "project")["links"]
    assert f"#{DANGLING_TARGET}, which does not exist" in dangling["superseded_by_chain"]["problem"]
    garbage = as_json(capsys, host80, "show", str(seeded.merged_garbage), "--kind", "project")["links"]
    assert garbage["merged_from"]["problem"].startswith("merged_from is not a JSON list of ids")
    managed = as_json(capsys, host80, "show", str(seeded.managed), "--kind", "project")
    assert "native module manages" in managed["read_only_reason"]
    code, out, _ = run(capsys, host80, "show", str(first), "--kind", "project")
    assert code == 0 and f"superseded by #{second}; followed to the end: #{second} → #{third}" in out
    assert "seen      1 time · retrieved 0 times" in out
    code, out, _ = run(capsys, host80, "show", str(seeded.merged), "--kind", "project")
    assert f"merged from #{s1}, #{s2}" in out and f"source #{s1}: session ses_alpha1" in out
    code, _, err = run(capsys, host80, "show", "424242", "--kind", "project")
    assert (code, err) == (1, "error: project memory #424242 does not exist\n")


def test_profile_is_what_the_host_injects_in_its_order(
    host80: Path, seeded: Seeded, capsys: pytest.CaptureFixture[str]
) -> None:
    injected = as_json(capsys, host80, "profile", "--kind", "project", "--project", ALPHA)
    ids = [item["id"] for item in injected]
    assert seeded.expired not in ids and seeded.archived not in ids and seeded.odd_status not in ids
    assert {seeded.active, seeded.permanent, seeded.expiring} <= set(ids)
    order = [(item["category"], -item["updated_at"], item["id"]) for item in injected]
    assert order == sorted(order)
    code, _, err = run(capsys, host80, "profile", "--kind", "project")
    assert code == 1 and "--project P" in err


def test_edit_dismiss_reactivate_and_undo_from_the_cli(
    host80: Path, seeded: Seeded, capsys: pytest.CaptureFixture[str]
) -> None:
    memory = seeded.active
    code, out, _ = run(
        capsys, host80, "edit", str(memory), "--kind", "project", "--content", "Build with pnpm 9"
    )
    assert code == 0 and "Build with pnpm 9" in out
    assert cell(host80, memory, "normalized_hash") == normalized_hash("Build with pnpm 9")
    assert run(capsys, host80, "edit", str(memory), "--kind", "project", "--category", "ENVIRONMENT")[0] == 0
    assert cell(host80, memory, "category") == "ENVIRONMENT"
    code, out, _ = run(
        capsys, host80, "dismiss", str(seeded.permanent), "--kind", "project", "--reason", "old"
    )
    assert code == 0 and "reason: old" in out
    assert json.loads(str(cell(host80, seeded.permanent, "metadata_json"))) == {"archive_reason": "old"}
    assert run(capsys, host80, "reactivate", str(seeded.archived), "--kind", "project")[0] == 0
    assert cell(host80, seeded.archived, "status") == "active"
    listed = as_json(capsys, host80, "undo", "--list")
    assert [item["label"] for item in listed] == [
        f"edit of project memory #{memory}",
        f"category change of project memory #{memory}",
        f"archive of project memory #{seeded.permanent}",
        f"restore of project memory #{seeded.archived}",
    ]
    code, out, _ = run(capsys, host80, "undo", "--steps", "4")
    assert code == 0 and out.splitlines()[-1] == f"undid edit of project memory #{memory}"
    assert (cell(host80, memory, "content"), cell(host80, memory, "category")) == (
        "Build with pnpm, never npm",
        "CONFIG_VALUES",
    )
    assert cell(host80, memory, "normalized_hash") == normalized_hash("Build with pnpm, never npm")
    assert (cell(host80, seeded.permanent, "status"), cell(host80, seeded.archived, "status")) == (
        "permanent",
        "archived",
    )
    assert run(capsys, host80, "redo")[0] == 0
    assert cell(host80, memory, "content") == "Build with pnpm 9"
    updates = query(host80, "SELECT COUNT(*) FROM memory_mutation_log WHERE target_memory_id = ?", (memory,))
    assert updates == [(5,)]  # edit, category, category back, edit back, edit again


def test_refusals_are_messages(host80: Path, seeded: Seeded, capsys: pytest.CaptureFixture[str]) -> None:
    before = query(host80, "SELECT * FROM memories ORDER BY id")
    code, _, err = run(
        capsys, host80, "edit", str(seeded.merged), "--kind", "project", "--content", "tests live in tests/"
    )
    assert code == 1 and err == (
        f"error: Memory content already exists as ID {seeded.verified}; "
        "merge or archive duplicates instead.\n"
    )
    code, _, err = run(capsys, host80, "dismiss", str(seeded.managed), "--kind", "project")
    assert code == 4 and "read-only: the host's native module manages this project" in err
    code, _, err = run(capsys, host80, "edit", str(seeded.active), "--kind", "project", "--category", " ")
    assert (code, err) == (1, "error: the category is empty\n")
    for hidden, name in (("\u202e", "U+202E RIGHT-TO-LEFT OVERRIDE"), ("\u200b", "U+200B ZERO WIDTH SPACE")):
        category = f"RULES{hidden}SECRET"
        code, _, err = run(
            capsys, host80, "edit", str(seeded.active), "--kind", "project", "--category", category
        )
        assert (code, err) == (1, f"error: the category holds 1 hidden character(s) ({name}); not allowed\n")
    code, _, err = run(capsys, host80, "dismiss", "1", "2", "--kind", "project")
    assert (code, err) == (1, "error: name one project memory by its id; nothing was changed\n")
    code, _, err = run(capsys, host80, "list", "--project", "beta")
    assert (code, err) == (1, "error: --project is not for user memories (add --kind project)\n")
    code, _, err = run(capsys, host80, "reactivate", "3", "--kind", "project", "--in", "2d")
    assert (code, err) == (1, "error: --in is not for project memories\n")
    assert query(host80, "SELECT * FROM memories ORDER BY id") == before
    assert as_json(capsys, host80, "undo", "--list") == []


def test_show_names_the_first_ids_of_a_wide_merge_and_counts_the_rest(
    host80: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The host bounds no `merged_from`: a row naming 5,000 ids is shown in a few lines, not thousands.
    with connect(host80) as conn:
        wide = add_memory(conn, ALPHA, "Wide merge", merged_from=json.dumps(list(range(10_000, 15_000))))
    conn.close()
    code, out, err = run(capsys, host80, "show", str(wide), "--kind", "project")
    assert code == 0, err
    assert "merged from #10000, #10001," in out and "#10019 and 4,980 more (--json lists them)" in out
    assert "  source #10019: no such memory" in out and "#10020:" not in out
    assert "  and 980 more sources (--json lists them)" in out
    assert len(out.splitlines()) < 60


def test_a_missing_project_memory_is_said_alike_by_every_command(
    host80: Path, seeded: Seeded, capsys: pytest.CaptureFixture[str]
) -> None:
    """The writers name a missing project memory as show and history do (and as the user memories'
    commands do theirs), so one mistyped id reads the same whichever command it went to."""
    for command in (
        ["show", "424242"],
        ["history", "424242"],
        ["edit", "424242", "--content", "Anything"],
        ["edit", "424242", "--category", "WORKFLOW"],
        ["dismiss", "424242"],
        ["reactivate", "424242"],
    ):
        code, _, err = run(capsys, host80, *command, "--kind", "project")
        assert (code, err) == (1, "error: project memory #424242 does not exist\n"), command
