"""The command line against hostile input: never write over a database,
messages instead of tracebacks, nothing that hangs. Real host-shaped files; encodings, resource limits
and full disks go through a real process."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from app.store import InvalidInputError, MemoryFilter, MemoryStore
from tests.support.cli_run import NOW, child, posix, resource, run, tmpfs
from tests.support.hostdb import host_sql, query


@pytest.fixture(autouse=True)
def _fixed_now(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORY_DASHBOARD_NOW", NOW)


# -- 9. numbers out of range, unreadable text, bad paths: messages ------------------------------------

BIG = str(2**63)


@pytest.mark.parametrize(
    ("argv", "exit_code", "message"),
    [
        (["show", BIG], 2, f"argument id: {BIG} is out of range"),
        (["history", "-" + "9" * 30], 2, "argument id: -999"),
        (["restore", "5", BIG], 2, "argument revision_id:"),
        (["promote", "141", str(2**64)], 2, "argument CANDIDATE_ID:"),
        (["recall", "--limit", str(10**21)], 2, "argument --limit: 1000000000000000000000"),
        (["recall", "--limit", "abc"], 2, "argument --limit: not a whole number: 'abc'"),
        (["expire", "5", "--in", "9999999999999999y"], 1, "the duration 9999999999999999y is too long"),
        (["expire", "5", "--in", "106751991167d"], 1, "ends too far ahead"),
        (["expire", "5", "--at", "-99999999999999999"], 1, "out of range: a time must lie between"),
        (["expire", "5", "--at", "9" * 5000], 1, "out of range"),
        (["list", "--search", "#" + "9" * 30], 0, ""),
        (["recall", "--search", "#" + "9" * 30], 0, ""),
    ],
)
def test_numbers_out_of_range_are_messages(
    host_db: Path, capsys: pytest.CaptureFixture[str], argv: list[str], exit_code: int, message: str
) -> None:
    code, _, err = run(capsys, "--db", str(host_db), *argv)
    assert code == exit_code and message in err and "Traceback" not in err, err
    assert query(host_db, "SELECT count(*) FROM user_memories") == [(5,)]


def test_a_fixed_clock_out_of_range_is_a_message(
    host_db: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMORY_DASHBOARD_NOW", "99999999999999999999")
    code, _, err = run(capsys, "--db", str(host_db), "list")
    assert code == 1 and err.startswith("error: MEMORY_DASHBOARD_NOW: 99999999999999999999 is out of range")


def test_a_lease_expiry_no_integer_holds_reads_as_unreadable(
    host_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name, value in (("holder", "host:1"), ("expiry", str(2**70)), ("generation", str(2**70))):
        host_sql(
            host_db,
            "INSERT INTO dream_state (key, value) VALUES (?, ?)",
            (f"lease:user-memories:{name}", value),
        )
    verdict = tmp_path / "verdict.json"
    verdict.write_text(
        json.dumps(
            {"promote": [], "update_existing": [], "dismiss_existing": [], "consume_candidate_ids": []}
        )
    )
    code, _, err = run(capsys, "--db", str(host_db), "review", "apply", str(verdict))
    assert code == 0 and "Traceback" not in err
    assert query(host_db, "SELECT value FROM dream_state WHERE key = 'lease:user-memories:generation'") == [
        ("1",)
    ]


def test_a_file_that_is_not_utf8_is_a_message(
    host_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    latin1 = tmp_path / "latin1.txt"
    latin1.write_bytes("Prefers café".encode("latin-1"))
    code, _, err = run(capsys, "--db", str(host_db), "edit", "5", "--file", str(latin1))
    assert code == 1 and err == f"error: {latin1} is not UTF-8 text (the byte 0xE9 at offset 11)\n"
    assert query(host_db, "SELECT content FROM user_memories WHERE id = 5") == [("Prefers pnpm",)]


@posix
def test_standard_input_that_is_not_utf8_is_a_message(host_db: Path) -> None:
    done = child("--db", str(host_db), "edit", "5", "--file", "-", stdin="Prefers café".encode("latin-1"))
    assert done.returncode == 1
    assert done.stderr == b"error: standard input is not UTF-8 text (the byte 0xE9 at offset 11)\n"


@posix
def test_arguments_that_are_not_utf8_are_a_message(host_db: Path) -> None:
    for argv in (
        [b"edit", b"5", b"--content", b"Prefers caf\xe9"],
        [b"list", b"--search", b"caf\xe9"],
        [b"dismiss", b"5", b"--reason", b"\xff"],
    ):
        done = child("--db", str(host_db), *argv)
        err = done.stderr.decode()
        assert done.returncode == 1 and "is not UTF-8; arguments must be UTF-8 text" in err, err
    assert query(host_db, "SELECT content, status FROM user_memories WHERE id = 5") == [
        ("Prefers pnpm", "active")
    ]


@pytest.fixture
def unwritable_folder(tmp_path: Path) -> Iterator[Path]:
    """A folder this process cannot write: read-only permissions, or for root (who ignores them) a
    read-only tmpfs."""
    folder = tmp_path / "locked"
    folder.mkdir()
    if os.geteuid() != 0:
        folder.chmod(0o555)
        try:
            yield folder
        finally:
            folder.chmod(0o755)
        return
    yield from tmpfs(folder, "ro,size=64k", "root ignores permissions and cannot mount a read-only tmpfs")


@pytest.fixture
def embedded_in(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> Callable[[Path, str], None]:
    """Run `list` on the embedded store in a data folder; it must be refused (exit 3) with `message`."""

    def check(data_dir: Path, message: str) -> None:
        monkeypatch.setenv("MEMORY_DASHBOARD_DATA_DIR", str(data_dir))
        code, out, err = run(capsys, "list")
        assert code == 3 and out == "" and message in err and "Traceback" not in err, err
        assert "MEMORY_DASHBOARD_DATA_DIR" in err

    return check


@posix
def test_an_embedded_store_that_is_a_dangling_link_is_a_message(
    tmp_path: Path, embedded_in: Callable[[Path, str], None]
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "memories.db").symlink_to(tmp_path / "elsewhere.db")
    embedded_in(data, "is a symbolic link to")
    assert not (tmp_path / "elsewhere.db").exists()  # not created behind the person's back


@posix
def test_an_embedded_store_in_a_link_loop_is_a_message(
    tmp_path: Path, embedded_in: Callable[[Path, str], None]
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "memories.db").symlink_to(data / "memories.db")
    embedded_in(data, "is a symbolic link in a loop")


@posix
def test_a_data_folder_below_a_file_is_a_message(
    tmp_path: Path, embedded_in: Callable[[Path, str], None]
) -> None:
    (tmp_path / "plain").write_text("")
    embedded_in(tmp_path / "plain" / "data", "Not a directory")


@posix
def test_an_unwritable_data_folder_is_a_message(
    unwritable_folder: Path, embedded_in: Callable[[Path, str], None]
) -> None:
    embedded_in(unwritable_folder / "data", f"the folder {unwritable_folder} cannot be written")


# -- 10. nothing that hangs or fails in the database -------------------------------------------------


@posix
def test_an_endless_file_is_refused_at_once(host_db: Path) -> None:
    """/dev/zero never ends: one byte past the limit is read, then refused (memory capped at 1 GiB so a
    reader that tries to read it all fails quickly instead of filling the machine)."""
    done = child(
        "--db", str(host_db), "edit", "5", "--file", "/dev/zero",
        limits={resource.RLIMIT_AS: 1024**3}, timeout=60,
    )  # fmt: skip
    assert done.returncode == 1
    assert done.stderr == b"error: /dev/zero is larger than the limit of 65,536 bytes; nothing was changed\n"


@pytest.mark.parametrize(
    ("search", "message"),
    [
        ("x" * 100_000, "the search text is 100,000 characters long; the limit is 1,000"),
        (" ".join("w" * 500), "the search text has 500 words; the limit is 100"),
    ],
)
def test_a_search_too_long_for_sqlite_is_a_message(
    host_db: Path, capsys: pytest.CaptureFixture[str], search: str, message: str
) -> None:
    for command in ("list", "recall"):
        code, out, err = run(capsys, "--db", str(host_db), command, "--search", search)
        assert code == 1 and out == "" and err == f"error: {message}\n", command


def test_the_windows_search_gets_the_same_message(store: MemoryStore) -> None:
    with pytest.raises(InvalidInputError, match="the limit is 1,000"):
        store.list_memories(MemoryFilter(search="x" * 1001))
