"""The scheduled job itself: which command runs `sweep` on which database, and how often.

The command is the installed app: the frozen executable, or this Python running `-m app` (with the folder
holding the `app` package on PYTHONPATH when it is not installed into that Python, as in a source tree).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from app.present.timefmt import DAY_MS, MINUTE_MS, parse_duration

JOB_NAME = "memory-dashboard-sweep"
MAX_EVERY_MS = DAY_MS


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


def sweep_job(
    database: str, every_ms: int, *, frozen: bool | None = None, executable: str | None = None
) -> SweepJob:
    base, environment = app_command(frozen, executable)
    return SweepJob(database, every_ms, (*base, "--db", database, "sweep"), environment)
