"""What a command is handed is checked where it enters, as a message and an exit code, never a traceback: a
data folder that cannot be made (exit 3, the database cannot be used), a source longer than the limit
every source shares (exit 1: bad input), whether it filters a listing, retires what it contributed or is
marked trusted (nothing is stored then)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.cli import main
from app.core.errors import EXIT_ERROR, EXIT_UNUSABLE_DATABASE
from app.core.trust import MAX_SOURCE_CHARS
from tests.support.hostdb import query

LONG_SOURCE = "session:" + "x" * 60_000  # past SQLite's 50,000-byte limit for a LIKE pattern


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="a /proc file system")
def test_a_data_folder_that_cannot_be_made_is_a_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # /proc passes the permission check (as root, always) and still refuses a new folder.
    monkeypatch.setenv("MEMORY_DASHBOARD_DATA_DIR", "/proc/mdash-no-such-folder")
    monkeypatch.delenv("MEMORY_DASHBOARD_DB", raising=False)
    code, out, err = run(capsys, "list")
    assert code == EXIT_UNUSABLE_DATABASE and out == ""
    assert err.startswith("error: cannot create /proc/mdash-no-such-folder/memories.db")
    assert "Traceback" not in err


@pytest.mark.parametrize(
    "argv",
    [
        ("list", "--source", LONG_SOURCE),
        ("dismiss", "--source", LONG_SOURCE),
        ("retire", "--source", LONG_SOURCE, "--dry-run"),
        ("trust", LONG_SOURCE, "trusted"),
    ],
    ids=["list", "dismiss", "retire", "trust"],
)
def test_a_source_over_the_limit_is_bad_input_and_nothing_is_stored(
    host_db: Path, capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]
) -> None:
    statuses = "SELECT id, status, updated_at FROM user_memories ORDER BY id"
    before = query(host_db, statuses)
    code, out, err = run(capsys, "--db", str(host_db), *argv)
    assert code == EXIT_ERROR and out == ""
    assert f"the source is {len(LONG_SOURCE):,} characters long; the limit is {MAX_SOURCE_CHARS:,}" in err
    assert query(host_db, statuses) == before
    assert run(capsys, "--db", str(host_db), "trust", "--list")[1] == "no trust marks\n"


def test_a_source_at_the_limit_is_taken(host_db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = "session:" + "y" * (MAX_SOURCE_CHARS - len("session:"))
    code, out, err = run(capsys, "--db", str(host_db), "trust", source, "untrusted")
    assert code == 0, err
    assert run(capsys, "--db", str(host_db), "trust", "--list")[1] == f"{source}  untrusted\n"
    code, out, _ = run(capsys, "--db", str(host_db), "list", "--source", source)
    assert code == 0 and "no memories match" in out
