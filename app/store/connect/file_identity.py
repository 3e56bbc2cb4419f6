"""Whether the path of an open database still names the file that was opened.

SQLite keeps reading and writing the file it opened, by its descriptor. Delete `context.db*` (or rename
another file over it) while a store is open and every later write lands in a file that no longer has a
name: it says "Saved" and the change is gone when the process ends. So the store remembers the file's
identity, its (st_dev, st_ino), when it opens it, and compares it with what the path names now: one
`stat`, a few microseconds, cheap enough for every write and for a window's timer.

Windows: SQLite there opens without FILE_SHARE_DELETE, so an open database can be neither deleted nor
renamed over, and `st_ino` may be 0 (file systems without file ids). Where it is 0 only the existence
of the path is checked.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class FileIdentity:
    path: Path
    device: int
    inode: int  # 0: this file system gives no file id; only existence is compared

    @classmethod
    def of(cls, path: Path) -> FileIdentity:
        found = os.stat(path)
        return cls(path, found.st_dev, found.st_ino)

    def problem(self) -> str | None:
        """None while the path names the file that was opened; else what happened, fit to show."""
        try:
            found = os.stat(self.path)
        except FileNotFoundError:
            return self._message("no file is there now")
        except OSError as exc:  # the folder was removed or made unreadable: not the file we opened either
            return self._message(f"it cannot be found: {exc.strerror}")
        if self.inode and (found.st_dev, found.st_ino) != (self.device, self.inode):
            return self._message("another file is there now")
        return None

    def _message(self, detail: str) -> str:
        return f"{self.path} was deleted or replaced since it was opened ({detail}); reopen it"
