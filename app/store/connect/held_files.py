"""Reading a database file's bytes in a process whose SQLite connections may hold locks on it.

POSIX record locks belong to a process and a file, not to a descriptor: closing any descriptor of the
file drops every lock the process holds on it. SQLite's connections in one process share their locks and
keep their own descriptors open while another still holds one; a plain `open()` and `close()` of the
file anywhere else in the process drops them all (SQLite's "How To Corrupt An SQLite Database File",
2.2). In WAL mode a connection's shared lock on the file is what tells the host's closing connection
that it is not the last one: without it, that close checkpoints the log past our readers and deletes it
while our connections still write to it, and a write is lost, ours or the host's. Nothing takes the lock
again: SQLite counts it as held for the rest of the process.

So the file's bytes (its header, a snapshot's copy) are read here, through descriptors that stay open
while a store of this process has the file open (`hold`: from the start of its open to its close) and
are closed with the last such store; a file no store holds is closed at once.
"""

from __future__ import annotations

import os
import stat
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

_Key = tuple[int, int]  # a file: (st_dev, st_ino)
COMPANION_SUFFIXES = ("-wal", "-shm", "-journal")  # SQLite's files beside a database
_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
# Reentrant: a garbage collection inside it may finalize a closed store's connection, whose check-in lets
# go of that store's claim (`connections_out`) on this same thread.
_lock = threading.RLock()
_holders: Counter[_Key] = Counter()  # stores of this process with the file open (or opening it)
_kept: dict[_Key, list[int]] = {}  # descriptors read through while a store held their file
_named: dict[_Key, set[Path]] = {}  # the paths a held file was opened by, to find its -wal, -shm, -journal


class Hold:
    """A store's claim on its file, from the start of its open: `release` once its connections are closed
    (again: nothing)."""

    __slots__ = ("key",)

    def __init__(self, key: _Key | None) -> None:
        self.key = key

    def release(self) -> None:
        with _lock:
            key, self.key = self.key, None
            if key is None:
                return
            _holders[key] -= 1
            if _holders[key] > 0:
                return
            del _holders[key]
            _named.pop(key, None)
            for descriptor in _kept.pop(key, []):
                os.close(descriptor)  # under the lock: no store of the file begins its open meanwhile


def hold(path: Path) -> Hold:
    """Claim the file `path` names now, for a store about to open it (nothing there: an empty claim)."""
    return _claim(path, _key_of(path))


def _claim(path: Path, key: _Key | None) -> Hold:
    if key is not None:
        with _lock:
            _holders[key] += 1
            _named.setdefault(key, set()).update(
                {path, path.resolve()}
            )  # SQLite names its files after either
    return Hold(key)


def _key_of(path: Path) -> _Key | None:
    """The file `path` names now (None: nothing there, or it cannot be looked at)."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return (found.st_dev, found.st_ino)


def held_part(path: Path) -> str | None:
    """What `path` is of a database a store of this process has open ("an open database", "the shm file
    of an open database"), by any name or link (compared by `stat`, never by opening it); None otherwise."""
    key = _key_of(path)
    if key is None:
        return None
    with _lock:
        if _holders[key] > 0:
            return "an open database"
    return _companion(key)


def held_companion(path: Path) -> str | None:
    """`held_part`, for SQLite's files beside a held database only ("the shm file of an open database")."""
    key = _key_of(path)
    return None if key is None else _companion(key)


def _companion(key: _Key) -> str | None:
    """Which of SQLite's files beside a held database the file `key` is, if one."""
    with _lock:
        named = [name for names in _named.values() for name in names]
    for name in named:
        for suffix in COMPANION_SUFFIXES:
            try:
                beside = os.stat(f"{name}{suffix}")
            except OSError:
                continue
            if (beside.st_dev, beside.st_ino) == key:
                return f"the {suffix.lstrip('-')} file of an open database"
    return None


def read_head(path: Path, size: int) -> bytes | None:
    """The first `size` bytes of `path` (fewer for a shorter file); None for anything but a regular file,
    opened without waiting (a FIFO, a device). OSError reaches the caller."""
    with _opened(path) as descriptor:
        return None if descriptor is None else _read_at(descriptor, size, 0)


def copy(path: Path, target: Path) -> None:
    """`path`'s bytes written to `target`, a new file (OSError when it exists, or `path` is not a regular
    file)."""
    with _opened(path) as descriptor:
        if descriptor is None:
            raise OSError(f"{path} is not a regular file")
        with target.open("xb") as out:
            offset = 0
            while chunk := _read_at(descriptor, 1 << 20, offset):
                out.write(chunk)
                offset += len(chunk)


def _read_at(descriptor: int, size: int, offset: int) -> bytes:
    """Without moving the descriptor's position: a kept one is shared by threads."""
    if hasattr(os, "pread"):
        return os.pread(descriptor, size, offset)
    with _lock:  # pragma: no cover (Windows, where a close drops no lock)
        os.lseek(descriptor, offset, os.SEEK_SET)
        return os.read(descriptor, size)


@contextmanager
def _opened(path: Path) -> Iterator[int | None]:
    """A descriptor of `path` (None when it is not a regular file, or is one of SQLite's files beside a
    held database): one kept for its file if there is one, else a new one, kept if a store of this
    process holds the file. Claimed meanwhile (`hold`), so no release closes it under the read, and the
    claim's release closes it when no store holds the file."""
    named = os.stat(path)  # OSError reaches the caller
    file = (named.st_dev, named.st_ino)
    claim = _claim(path, file)
    try:
        with _lock:
            kept = _kept.get(file)
            reused = kept[0] if kept else None
        if reused is not None:
            yield reused
            return
        if _companion(file) is not None:
            yield None  # a held database's -shm (its locks), -wal or -journal: never opened here
            return
        if not stat.S_ISREG(named.st_mode):
            yield None  # a FIFO, a device (whose open alone may act), a folder: never opened
            return
        descriptor = os.open(path, _FLAGS)
        key: _Key | None = None
        try:
            found = os.fstat(descriptor)
            if stat.S_ISREG(found.st_mode):
                key = (found.st_dev, found.st_ino)
            yield descriptor if key is not None else None
        finally:
            with _lock:
                if key is not None and _holders[key] > 0:
                    _kept.setdefault(key, []).append(descriptor)
                else:
                    os.close(descriptor)  # under the lock, as in `Hold.release`
    finally:
        claim.release()
