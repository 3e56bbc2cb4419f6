"""Linux: a systemd user service and timer in `$XDG_CONFIG_HOME/systemd/user` (default `~/.config`).

Values are written as systemd reads them (systemd.syntax(5), systemd.service(5), systemd.exec(5)): each
word of ExecStart= and each Environment= assignment double-quoted, with `\\` and `"` escaped (C escapes
are read inside quotes) and `%` doubled (a specifier otherwise); `$` is doubled in ExecStart= only, where
it would start a variable (Environment= takes it as it is). Control characters, which no quoting
carries, never get here (`app.schedule.job.word_problem`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from app.schedule.job import JOB_NAME, SweepJob
from app.schedule.plan import Plan

SERVICE = f"{JOB_NAME}.service"
TIMER = f"{JOB_NAME}.timer"
SYSTEMCTL = ("systemctl", "--user")


def unit_dir(environ: Mapping[str, str] | None = None) -> Path:
    env = os.environ if environ is None else environ
    base = env.get("XDG_CONFIG_HOME") or str(Path(env.get("HOME") or Path.home()) / ".config")
    return Path(base) / "systemd" / "user"


def quote(word: str, *, variables: bool = True) -> str:
    """One double-quoted value: `\\` and `"` escaped, `%` doubled, and `$` doubled where systemd would read
    a variable (`variables`: ExecStart=, not Environment=)."""
    escaped = word.replace("\\", "\\\\").replace('"', '\\"').replace("%", "%%")
    return f'"{escaped.replace("$", "$$") if variables else escaped}"'


def service_text(job: SweepJob) -> str:
    lines = [
        "[Unit]",
        # Not quoted (a description is taken as written), so closed with ")": a value ending in `\\`
        # would otherwise continue onto the next line.
        f"Description=Memory Dashboard: dismiss expired memories ({job.database.replace('%', '%%')})",
        "",
        "[Service]",
        "Type=oneshot",
        "ExecStart=" + " ".join(quote(word) for word in job.argv),
    ]
    lines += [
        f"Environment={quote(f'{name}={value}', variables=False)}" for name, value in job.environment.items()
    ]
    return "\n".join(lines) + "\n"


def timer_text(job: SweepJob) -> str:
    return (
        "[Unit]\n"
        f"Description=Memory Dashboard: sweep expired memories every {job.every_minutes} min\n"
        "\n"
        "[Timer]\n"
        "OnBootSec=2min\n"
        f"OnUnitActiveSec={job.every_seconds}s\n"
        "AccuracySec=30s\n"
        f"Unit={SERVICE}\n"
        "\n"
        "[Install]\n"
        "WantedBy=timers.target\n"
    )


def install_plan(job: SweepJob, environ: Mapping[str, str] | None = None) -> Plan:
    folder = unit_dir(environ)
    return Plan(
        writes={folder / SERVICE: service_text(job), folder / TIMER: timer_text(job)},
        commands=((*SYSTEMCTL, "daemon-reload"), (*SYSTEMCTL, "enable", "--now", TIMER)),
        tool="systemctl",
        probe=(*SYSTEMCTL, "show-environment"),
        note=f"the sweep runs every {job.every_minutes} min (systemctl --user list-timers {TIMER})",
    )


def removal_plan(environ: Mapping[str, str] | None = None) -> Plan:
    folder = unit_dir(environ)
    return Plan(
        removes=(folder / TIMER, folder / SERVICE),
        cleanup=((*SYSTEMCTL, "disable", "--now", TIMER),),
        commands=((*SYSTEMCTL, "daemon-reload"),),
        tool="systemctl",
        probe=(*SYSTEMCTL, "show-environment"),
    )
