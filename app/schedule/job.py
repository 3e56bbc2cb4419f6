"""The scheduled job itself: which command runs `sweep` on which database, and how often.

The command is the installed app: the frozen executable, or this Python running `-m app` (with the folder
holding the `app` package on PYTHONPATH when it is not installed into that Python, as in a source tree).

Every word of the command and of its environment is written into a unit file, a plist or a task's command
line, where a line break ends the value early and other control characters are read differently by each
scheduler: a job holding one is refused before anything is written (`word_problem`). What can be quoted
(spaces, `%`, `$`, backslashes, quotes) is quoted by each platform's module.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from app.core.errors import InvalidInputError
from app.core.text_input import text_problem
from app.present.timefmt import DAY_MS, MINUTE_MS, parse_duration

JOB_NAME = "memory-dashboard-sweep"
MAX_EVERY_MS = DAY_MS
# C0 controls (line breaks and tabs too), DEL and the C1 controls: no scheduler's file takes them as text.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")


@dataclass(frozen=True, slots=True)
class SweepJob:
    """`argv` runs the sweep of `database` every `every_ms` milliseconds, with `environment` added."""

    database: str
    every_ms: int
    argv: tuple[str, ...]
    environment: Mapping[str, str] = field(default_factory=dict)

    @property
    def every_minutes(self) -> int:
        return self.every_ms // MINUTE_MS

    @property
    def every_seconds(self) -> int:
        return self.every_ms // 1000


def parse_every(text: str) -> int:
    """The interval in milliseconds: whole minutes from 1m to 1d (`15m`, `2h`); ValueError otherwise."""
    every = parse_duration(text)
    if every % MINUTE_MS or not MINUTE_MS <= every <= MAX_EVERY_MS:
        raise ValueError(f"--every must be whole minutes from 1m to 1d, not {text.strip()[:30]}")
    return every


def app_command(
    frozen: bool | None = None, executable: str | None = None
) -> tuple[tuple[str, ...], dict[str, str]]:
    """The command that starts this app's CLI, and the environment it needs."""
    exe = executable or sys.executable
    if getattr(sys, "frozen", False) if frozen is None else frozen:
        return (exe,), {}
    root = Path(__file__).resolve().parent.parent.parent  # the folder holding the `app` package
    installed = any(part in ("site-packages", "dist-packages") for part in root.parts)
    return (exe, "-m", "app"), ({} if installed else {"PYTHONPATH": str(root)})


def word_problem(word: str) -> str | None:
    """Why `word` cannot be written into a job's file, or None: a control character, text unfit to store."""
    found = _CONTROL.search(word)
    if found is not None:
        return f"holds a control character (U+{ord(found.group()):04X}) at character {found.start() + 1}"
    return text_problem(word)


def check_words(job: SweepJob) -> None:
    """InvalidInputError naming the first part of the job that cannot be written (so nothing is)."""
    parts = [(f"the database {job.database[:80]!r}", job.database)]
    parts += [(f"the command's word {word[:80]!r}", word) for word in job.argv]
    parts += [(f"the variable {name[:40]!r}", f"{name}={value}") for name, value in job.environment.items()]
    for what, word in parts:
        problem = word_problem(word)
        if problem is not None:
            raise InvalidInputError(f"the sweep job cannot be written: {what} {problem}; nothing was written")


def sweep_job(
    database: str, every_ms: int, *, frozen: bool | None = None, executable: str | None = None
) -> SweepJob:
    """The job; InvalidInputError when a word of it cannot be written into a scheduler's file."""
    base, environment = app_command(frozen, executable)
    job = SweepJob(database, every_ms, (*base, "--db", database, "sweep"), environment)
    check_words(job)
    return job
