"""Windows: a Task Scheduler task for the person, created and deleted with `schtasks`."""

from __future__ import annotations

import subprocess

from app.schedule.job import SweepJob
from app.schedule.plan import Plan

TASK = "Memory Dashboard sweep"
MAX_TASK_RUN = 261  # schtasks refuses a /TR command line longer than this


def schedule_words(job: SweepJob) -> tuple[str, ...]:
    """`/SC MINUTE /MO 15`, or a day's `/SC DAILY /MO 1` (MINUTE takes at most 1439)."""
    if job.every_minutes >= 1440:
        return ("/SC", "DAILY", "/MO", "1")
    return ("/SC", "MINUTE", "/MO", str(job.every_minutes))


def task_run(job: SweepJob) -> str:
    """The task's command line, quoted as Windows parses it; PYTHONPATH, where needed, set through cmd."""
    line = subprocess.list2cmdline(job.argv)
    if job.environment:
        sets = " && ".join(f'set "{name}={value}"' for name, value in job.environment.items())
        line = f"cmd /c {sets} && {line}"
    return line


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
