"""The command line's finish, through the real console script: no traceback anywhere, and text output
that says what JSON says (history from what to what, a dismissal's reason, "already active", a one-line
promotion)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.console import dashboard
from tests.support.hostdb import query

NOW = {"MEMORY_DASHBOARD_NOW": "2026-10-21T03:13:32Z"}


def md(db: Path, *args: str) -> tuple[int, str, str]:
    done = dashboard("--db", str(db), *args, env=NOW)
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode, done.stdout, done.stderr


def test_export_to_a_missing_folder_or_a_folder_is_a_message(host_db: Path, tmp_path: Path) -> None:
    code, _out, err = md(host_db, "export", "-o", str(tmp_path / "nowhere" / "x.json"))
    assert code == 1 and err.startswith("error: ") and "does not exist" in err
    code, _out, err = md(host_db, "export", "-o", str(tmp_path))
    assert code == 1 and "is a folder" in err
    assert not (tmp_path / "nowhere").exists()


def test_history_of_an_unknown_id_is_exit_1_like_show(host_db: Path) -> None:
    for command in ("history", "show"):
        code, out, err = md(host_db, command, "404")
        assert (code, out) == (1, "") and "memory #404 does not exist" in err, command


def test_recall_limit_that_is_not_a_number_names_the_option(host_db: Path) -> None:
    code, _out, err = md(host_db, "recall", "--limit", "abc")
    assert code == 2 and "argument --limit: not a whole number: 'abc'" in err


def test_show_of_a_deleted_memory_says_how_to_restore_it(host_db: Path) -> None:
    code, out, _ = md(host_db, "delete", "4")
    assert code == 0
    restore = out.strip().split("bring it back with: ")[1]
    code, out, err = md(host_db, "show", "4")
    assert code == 1 and out == ""
    assert "memory #4 was deleted 2026-10-21 03:13:32 UTC (by dashboard)" in err
    assert err.rstrip().endswith(f"bring it back with: {restore}")
    code, _, _ = md(host_db, *restore.split()[1:])  # the line it gives works
    assert code == 0 and query(host_db, "SELECT content FROM user_memories WHERE id = 4") == [
        ("Lives in Berlin (CET)",)
    ]


def test_screenshot_prints_no_qt_plugin_noise(host_db: Path, tmp_path: Path) -> None:
    out = tmp_path / "shot.png"
    done = dashboard(
        "--db",
        str(host_db),
        "screenshot",
        str(out),
        "--size",
        "600x400",
        env={"QT_QPA_PLATFORM": "offscreen"},
    )
    assert done.returncode == 0 and done.stdout.strip() == str(out)
    assert done.stderr == ""
    assert out.read_bytes().startswith(b"\x89PNG")


def test_history_text_shows_what_json_shows(host_db: Path) -> None:
    assert md(host_db, "edit", "5", "--content", "Prefers pnpm\nin every repo")[0] == 0
    assert md(host_db, "dismiss", "5", "--reason", "moved to bun")[0] == 0
    assert md(host_db, "reactivate", "5", "--in", "7d")[0] == 0
    code, text, _ = md(host_db, "history", "5")
    revisions = json.loads(md(host_db, "history", "5", "--json")[1])
    assert code == 0 and sorted(r["kind"] for r in revisions) == ["content", "expiry", "status", "status"]
    lines = text.splitlines()
    for revision in revisions:
        assert any(line.startswith(f"r{revision['id']} ") for line in lines)
    assert "       - Prefers pnpm" in lines
    assert [line for line in lines if line.startswith("       +")] == [
        "       + Prefers pnpm",
        "       + in every repo",
    ]
    assert "       reason: moved to bun" in lines
    assert {"reason": "moved to bun"} in [r.get("detail") for r in revisions]
    assert "       expiry: never → 2026-10-28 03:13:32 UTC" in lines


def test_dismiss_shows_its_reason_and_repeats_say_already(host_db: Path) -> None:
    code, out, _ = md(host_db, "dismiss", "4", "--reason", "moved away")
    assert code == 0 and out.splitlines()[1].strip() == "reason: moved away"
    assert md(host_db, "dismiss", "4")[1].strip() == "#4: already dismissed"
    code, out, _ = md(host_db, "reactivate", "4")
    assert code == 0 and out.startswith("#4") and "active" in out
    assert md(host_db, "reactivate", "4")[1].strip() == "#4: already active"
    code, out, _ = md(host_db, "reactivate", "4", "--in", "7d")  # a new expiry is a change, not "already"
    assert code == 0 and "already" not in out


def test_promote_without_content_joins_the_candidates_into_one_line(host_db: Path) -> None:
    code, out, _ = md(host_db, "promote", "151", "152", "--json")
    assert code == 0
    memory = json.loads(md(host_db, "show", str(json.loads(out)["id"]), "--json")[1])
    assert (
        memory["content"]
        == "Runs tests with pytest -q before committing; Keeps commit messages in the imperative"
    )
    profile = md(host_db, "profile")[1].splitlines()
    assert f"- {memory['content']}" in profile  # one profile line, as the host injects it
