"""`app.cli.safe_output`: the one writer of files the person names (export, screenshot)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from app.cli.safe_output import check_output, replacing, write_bytes
from app.store import InvalidInputError
from tests.support.hostdb import build_host_db

posix = pytest.mark.skipif(sys.platform == "win32", reason="POSIX modes, symbolic links and FIFOs")


@posix
def test_a_new_file_is_written_whole_with_the_umask_applied(tmp_path: Path) -> None:
    target = tmp_path / "out.json"
    old = os.umask(0o027)
    try:
        write_bytes(target, b"{}")
    finally:
        os.umask(old)
    assert target.read_bytes() == b"{}" and target.stat().st_mode & 0o777 == 0o640
    assert os.listdir(tmp_path) == ["out.json"]


@posix
def test_a_link_is_written_through_and_stays_a_link(tmp_path: Path) -> None:
    real = tmp_path / "real.json"
    real.write_text("old")
    (tmp_path / "link.json").symlink_to(real)
    write_bytes(tmp_path / "link.json", b"new", force=True)
    assert (tmp_path / "link.json").is_symlink() and real.read_text() == "new"


@posix
def test_a_link_to_a_database_is_refused(tmp_path: Path) -> None:
    database = build_host_db(tmp_path / "context.db")
    (tmp_path / "innocent.json").symlink_to(database)
    with pytest.raises(
        InvalidInputError, match=r"refused to write .*innocent\.json: it is a SQLite database"
    ):
        check_output(tmp_path / "innocent.json", force=True)


def test_the_companions_of_the_open_database_are_refused_before_they_exist(tmp_path: Path) -> None:
    database = tmp_path / "new.db"  # opened but still empty: no header to recognise it by
    database.touch()
    for suffix in ("", "-wal", "-shm", "-journal"):
        with pytest.raises(InvalidInputError, match="refused"):
            check_output(f"{database}{suffix}", databases=[database], force=True)


@posix
def test_a_fifo_is_refused_without_opening_it(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)  # opening it to read a header would block forever
    with pytest.raises(InvalidInputError, match="not a regular file"):
        check_output(fifo, force=True)


def test_a_writer_that_fails_leaves_the_old_file_and_no_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "shot.png"
    target.write_bytes(b"old picture")
    with (
        pytest.raises(InvalidInputError, match=r"cannot write .*shot\.png: cannot write the PNG"),
        replacing(target, force=True) as temporary,
    ):
        temporary.write_bytes(b"half a pic")
        raise OSError("cannot write the PNG")  # as `ui.window.app.screenshot` says when QImage.save fails
    assert target.read_bytes() == b"old picture" and os.listdir(tmp_path) == ["shot.png"]


def test_a_file_that_appears_while_writing_is_not_overwritten(tmp_path: Path) -> None:
    target = tmp_path / "out.json"
    with pytest.raises(InvalidInputError, match="already exists"), replacing(target) as temporary:
        temporary.write_bytes(b"ours")
        target.write_text("someone else's")
    assert target.read_text() == "someone else's" and os.listdir(tmp_path) == ["out.json"]
