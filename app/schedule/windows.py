"""Windows: a Task Scheduler task for the person, created and deleted with `schtasks`.

The task's command line is parsed as the C runtime parses one (`subprocess.list2cmdline` writes it so).
Task Scheduler expands `%NAME%` in it, and cmd (which sets PYTHONPATH where a source tree needs it) also
ends a quoted word at any `"`: neither can be escaped there, so a word holding `%` or `"` is refused, and
under cmd every word is double-quoted, which keeps `&`, `|`, `<`, `>` and `^` its own.
"""

from __future__ import annotations

import re
import subprocess

from app.core.errors import InvalidInputError
from app.schedule.job import SweepJob
from app.schedule.plan import Plan

TASK = "Memory Dashboard sweep"
MAX_TASK_RUN = 261  # schtasks refuses a /TR command line longer than this
_UNQUOTABLE = '%"'
_TRAILING_BACKSLASHES = re.compile(r"(\\+)$")


def schedule_words(job: SweepJob) -> tuple[str, ...]:
    """`/SC MINUTE /MO 15`, or a day's `/SC DAILY /MO 1` (MINUTE takes at most 1439)."""
    if job.every_minutes >= 1440:
        return ("/SC", "DAILY", "/MO", "1")
    return ("/SC", "MINUTE", "/MO", str(job.every_minutes))


def _check(words: list[str]) -> None:
    for word in words:
        found = next((char for char in word if char in _UNQUOTABLE), None)
        if found is not None:
            raise InvalidInputError(
                f"the sweep task cannot be written: {word[:80]!r} holds {found}, which Task Scheduler or "
                "cmd would read as their own; nothing was written"
            )


def _cmd_word(word: str) -> str:
    """A word double-quoted for cmd and the C runtime alike (backslashes before the closing quote doubled)."""
    return '"' + _TRAILING_BACKSLASHES.sub(r"\1\1", word) + '"'


def task_run(job: SweepJob) -> str:
    """The task's command line, quoted as Windows parses it; PYTHONPATH, where needed, set through cmd.
    InvalidInputError for a word that cannot be written into it."""
    _check([*job.argv, *(f"{name}={value}" for name, value in job.environment.items())])
    if not job.environment:
        return subprocess.list2cmdline(job.argv)
    # cmd's own `set "NAME=value"` takes what lies between the quotes as it is (no backslash rule there).
    sets = " && ".join(f'set "{name}={value}"' for name, value in job.environment.items())
    return f"cmd /c {sets} && {' '.join(map(_cmd_word, job.argv))}"


def create_command(job: SweepJob) -> tuple[str, ...]:
    return ("schtasks", "/Create", "/F", "/TN", TASK, *schedule_words(job), "/TR", task_run(job))


def install_plan(job: SweepJob) -> Plan:
    run = task_run(job)
    note = f'the sweep runs every {job.every_minutes} min (schtasks /Query /TN "{TASK}")'
    if len(run) > MAX_TASK_RUN:
        note += f"; warning: its command line is {len(run)} characters, schtasks takes {MAX_TASK_RUN}"
    return Plan(commands=(create_command(job),), tool="schtasks", note=note)


def removal_plan() -> Plan:
    return Plan(cleanup=(("schtasks", "/Delete", "/F", "/TN", TASK),), tool="schtasks")
