"""The host as another process: it connects, runs statements and closes (`host`); whether its close left
the log to our store, as it must while a store of ours has the file open (`host_close_leaves_the_log`).

POSIX locks belong to a process and a file: a descriptor of the file closed anywhere in our process
drops the locks of every connection of ours. The host's closing connection then takes itself for the
last one, checkpoints past our readers and deletes the log our connections still write to.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

HOST_WRITE = "UPDATE user_memories SET updated_at = COALESCE(updated_at, 0) + 1 WHERE id = 2"
_HOST = (
    "import json, sqlite3, sys\n"
    "c = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=5)\n"
    "rows = [c.execute(s).fetchall() for s in sys.argv[2:]][-1]\n"
    "c.close()\n"
    "print(json.dumps(rows))\n"
)


def host(path: Path, *statements: str) -> list[tuple[object, ...]]:
    """The last statement's rows, read by a process of its own that then closes its connection."""
    done = subprocess.run(
        [sys.executable, "-c", _HOST, str(path), *statements], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return [tuple(row) for row in json.loads(done.stdout)]


def host_close_leaves_the_log(path: Path) -> bool:
    """The host writes and closes: True when its close found another connection (ours) and left the log."""
    host(path, HOST_WRITE, "SELECT 1")
    return Path(f"{path}-wal").exists()


_DMS_PROBE = (
    "import fcntl, os, struct, sys\n"
    "fd = os.open(sys.argv[1], os.O_RDONLY)\n"
    "asked = struct.pack('hhqqi', fcntl.F_WRLCK, 0, 128, 1, 0)\n"
    "kind, _whence, _start, _length, pid = struct.unpack('hhqqi', fcntl.fcntl(fd, fcntl.F_GETLK, asked))\n"
    "print(0 if kind == fcntl.F_UNLCK else pid)\n"
)


def shm_held_by(path: Path) -> int:
    """The process holding a lock on the database's `-shm` DMS byte (SQLite's "someone has it open"), 0 for
    none: asked from another process, since a process never sees its own locks this way."""
    done = subprocess.run([sys.executable, "-c", _DMS_PROBE, f"{path}-shm"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return int(done.stdout)
