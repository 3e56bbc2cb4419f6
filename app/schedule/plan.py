"""A plan for installing or removing the job: files to write or remove, then commands to run.

`apply` writes each file whole (a temporary file renamed into place), removes files, and runs the commands
when the platform's tool can be used; otherwise it says which commands the person can run themselves.
Every file is created with mode 0600 (the temporary file is opened with that mode, never narrowed after):
they name the database, and a password file holds its password. `describe` shows what a file holds,
except a password file's text.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from app.core.errors import InvalidInputError

Runner = Callable[[Sequence[str]], "subprocess.CompletedProcess[str]"]


@dataclass(frozen=True, slots=True)
class Plan:
    writes: dict[Path, str] = field(default_factory=dict)
    secrets: dict[Path, str] = field(default_factory=dict)  # written before `writes`, never shown
    removes: tuple[Path, ...] = ()
    commands: tuple[tuple[str, ...], ...] = ()
    cleanup: tuple[tuple[str, ...], ...] = ()  # run first; failing is fine (nothing was installed)
    tool: str = ""  # the program the commands need (systemctl, launchctl, schtasks)
    probe: tuple[str, ...] = ()  # a command that succeeds only where the tool can be used
    note: str = ""  # what the person should know afterwards

    def describe(self) -> list[str]:
        """What the plan would do, for `--dry-run`."""
        lines = [f"write {path} (mode 0600): the database's password, not shown" for path in self.secrets]
        for path, text in self.writes.items():
            lines += [f"write {path}:", *(f"    {line}" for line in text.splitlines()), ""]
        lines += [f"run: {shell_line(command)}" for command in self.cleanup]
        lines += [f"remove {path}" for path in self.removes]
        lines += [f"run: {shell_line(command)}" for command in self.commands]
        return lines


def shell_line(command: Sequence[str]) -> str:
    return subprocess.list2cmdline(command) if os.name == "nt" else " ".join(map(shlex.quote, command))


def _run(command: Sequence[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(command), capture_output=True, text=True, timeout=60, check=False)


def tool_usable(plan: Plan, run: Runner = _run) -> bool:
    """Whether the plan's tool is there and answers (a user session bus for `systemctl --user`)."""
    if not (plan.commands or plan.cleanup):
        return True
    if shutil.which(plan.tool) is None:
        return False
    if not plan.probe:
        return True
    try:
        return run(plan.probe).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


FILE_MODE = 0o600
FOLDER_MODE = 0o700
_NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)


def _write(path: Path, text: str) -> None:
    """`text` into `path` whole, the file readable by its owner alone from the moment it exists."""
    temporary = path.with_name(f".{path.name}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=FOLDER_MODE)
        temporary.unlink(missing_ok=True)  # one left by a write that failed: O_EXCL would refuse it
        handle = os.open(temporary, _NEW_FILE, FILE_MODE)
        with os.fdopen(handle, "wb") as out:
            out.write(text.encode("utf-8"))
        os.replace(temporary, path)
    except OSError as exc:
        temporary.unlink(missing_ok=True)
        raise InvalidInputError(f"cannot write {path}: {exc.strerror or exc}") from exc


def apply(plan: Plan, run: Runner = _run) -> list[str]:
    """Carry the plan out (files written, cleanup run, files removed, then the commands); returns what was
    done, line by line. A command that fails is an error; a cleanup command that fails is not."""
    usable = tool_usable(plan, run)
    done: list[str] = []
    for path, text in plan.secrets.items():
        _write(path, text)
        done.append(f"wrote {path} (mode 0600: the database's password)")
    for path, text in plan.writes.items():
        _write(path, text)
        done.append(f"wrote {path}")
    for command in plan.cleanup if usable else ():
        result = run(command)
        done.append(f"ran {shell_line(command)}" + ("" if result.returncode == 0 else " (nothing to undo)"))
    for path in plan.removes:
        if path.exists():
            path.unlink()
            done.append(f"removed {path}")
    if not usable:
        done.append(f"{plan.tool} cannot be used here; to finish, run:")
        done += [f"  {shell_line(command)}" for command in (*plan.cleanup, *plan.commands)]
        return done
    for command in plan.commands:
        result = run(command)
        if result.returncode != 0:
            said = (result.stderr or result.stdout).strip()[:300]
            raise InvalidInputError(f"`{shell_line(command)}` failed ({result.returncode}): {said}")
        done.append(f"ran {shell_line(command)}")
    if plan.note:
        done.append(plan.note)
    return done
