"""Writing a file the person names (`export -o`, `screenshot`) without ever destroying data.

Two rules. First, a target is refused when it is a database: the open one, a `-wal`, `-shm` or `-journal`
file beside a database (SQLite would take a stray file there for its own and replay or trust it), or any
file that starts with SQLite's header. Any other existing file is replaced only when the person said
`--force`. Second, the bytes go to a temporary file in the target's folder, flushed to the disk, and are
then renamed over the target in one step: a full disk or a crash leaves the old file (or none), never a
truncated one, and the temporary file is removed on every failure.

Every refusal or failure is an `InvalidInputError` (exit 1) whose message names the target.
"""

from __future__ import annotations

import os
import secrets
import stat
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from app.core.errors import InvalidInputError
from app.store.connect import held_files
from app.store.connect.file_checks import SQLITE_HEADER
from app.store.connect.held_files import COMPANION_SUFFIXES

NEW_FILE_MODE = 0o666  # narrowed by the umask, as for any file the person creates


def _same_file(first: Path, second: Path) -> bool:
    """Whether two paths name one file: the same real path, or (hard links) the same inode."""
    if os.path.realpath(first) == os.path.realpath(second):
        return True
    try:
        return os.path.samefile(first, second)
    except OSError:  # either one missing: not the same existing file
        return False


def _is_sqlite_file(path: Path) -> bool:
    """Whether `path` is a regular file that starts with SQLite's header (never opens a FIFO or device)."""
    try:
        return held_files.read_head(path, len(SQLITE_HEADER)) == SQLITE_HEADER  # keeps a store's locks
    except OSError:
        return False


def _database_problem(target: Path, databases: list[Path]) -> str | None:
    """Why `target` is (part of) a database, or None."""
    if any(_same_file(target, database) for database in databases):
        return "it is the open database"
    held = held_files.held_part(target)  # by any name or link, never opened
    if held is not None:
        return f"it is {held}"
    for suffix in COMPANION_SUFFIXES:
        if target.name.endswith(suffix):
            base = target.with_name(target.name.removesuffix(suffix))
            if any(_same_file(base, database) for database in databases) or _is_sqlite_file(base):
                return f"it is the {suffix.lstrip('-')} file of the database {base}"
    if _is_sqlite_file(target):
        return "it is a SQLite database"
    return None


def output_problem(
    real: Path, *, name: str | None = None, databases: Iterable[Path] = (), force: bool = False
) -> str | None:
    """Why the file at the real path `real` must not be written, or None; `name` is how the person wrote
    it, for the message, which says what was refused and why."""
    shown = name or str(real)
    if not real.parent.is_dir():
        return f"cannot write {shown}: the folder {real.parent} does not exist"
    try:
        found: os.stat_result | None = real.stat()
    except FileNotFoundError:
        found = None
    except OSError as exc:  # a symbolic-link loop, a path through a file...
        return f"cannot write {shown}: {exc.strerror}"
    if found is not None and stat.S_ISDIR(found.st_mode):
        return f"cannot write {shown}: it is a folder; name a file inside it"
    if found is not None and not stat.S_ISREG(found.st_mode):
        return (
            f"refused to write {shown}: it is not a regular file (leave out the file to write to the screen)"
        )
    refused = _database_problem(real, list(databases))
    if refused is not None:
        return f"refused to write {shown}: {refused}; nothing was changed"
    if found is not None and not force:
        return f"refused to write {shown}: it already exists; add --force to replace it"
    return None


def check_output(target: str | Path, *, databases: Iterable[Path] = (), force: bool = False) -> Path:
    """The real path to write (symbolic links followed, so a link stays a link), or InvalidInputError."""
    real = Path(os.path.realpath(target))
    problem = output_problem(real, name=str(target), databases=databases, force=force)
    if problem is not None:
        raise InvalidInputError(problem)
    return real


def _fsync_folder(folder: Path) -> None:
    """Make the rename itself durable; folders cannot be opened on Windows, where this is skipped."""
    try:
        handle = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(handle)
    except OSError:
        pass
    finally:
        os.close(handle)


def _new_temporary(real: Path) -> Path:
    """A fresh, empty file beside `real` (a hidden name of its own), with the mode `real` has, or the mode
    a new file gets: the rename must not change who may read the export."""
    temporary = real.with_name(f".{real.name}.{secrets.token_hex(4)}.tmp")
    handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, NEW_FILE_MODE)
    try:
        if real.exists():
            os.chmod(temporary, stat.S_IMODE(real.stat().st_mode))
    except OSError:  # the mode is a courtesy; the write itself will say what is wrong
        pass
    finally:
        os.close(handle)
    return temporary


@contextmanager
def replacing(target: str | Path, *, databases: Iterable[Path] = (), force: bool = False) -> Iterator[Path]:
    """Yield a temporary path beside `target` for the caller to fill; on success it is flushed and renamed
    over `target`, on any failure removed. OSError becomes a message; the old target is never touched."""
    databases = list(databases)
    real = check_output(target, databases=databases, force=force)
    try:
        temporary = _new_temporary(real)
    except OSError as exc:
        raise InvalidInputError(f"cannot write {target}: {exc.strerror}; nothing was changed") from exc
    try:
        yield temporary
        check_output(target, databases=databases, force=force)  # again: it may have appeared meanwhile
        with temporary.open("rb+") as written:
            os.fsync(written.fileno())
        os.replace(temporary, real)
    except OSError as exc:
        raise InvalidInputError(f"cannot write {target}: {exc.strerror or exc}; nothing was changed") from exc
    finally:
        temporary.unlink(missing_ok=True)
    _fsync_folder(real.parent)


def write_bytes(
    target: str | Path, data: bytes, *, databases: Iterable[Path] = (), force: bool = False
) -> None:
    """Write `data` to `target` whole or not at all (see the module's rules)."""
    with replacing(target, databases=databases, force=force) as temporary, temporary.open("wb") as out:
        out.write(data)
