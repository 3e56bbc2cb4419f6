"""`schedule-sweep --every 15m` installs, `--off` removes, the per-user job that runs `sweep` on its own.

A database URL's password never goes into the job's files (nor `--dry-run`'s output): it goes into the
sweep's password file (`app.schedule.password_file`), which `--off`, or an install without a password,
removes.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from app.cli.opener import database_choice
from app.cli.registry import Opener, command_adder
from app.core.errors import InvalidInputError
from app.core.paths import is_url, sweep_passfile_path
from app.schedule import launchd, systemd, windows
from app.schedule.job import parse_every, sweep_job
from app.schedule.password_file import job_database
from app.schedule.plan import Plan, apply

PLATFORMS = ("linux", "macos", "windows")


def this_platform() -> str | None:
    if sys.platform.startswith("linux"):
        return "linux"
    if sys.platform == "darwin":
        return "macos"
    if sys.platform == "win32":
        return "windows"
    return None


def job_plan(platform: str, database: str | None, every: int | None, passfile: Path) -> Plan:
    """What installing (a database and an interval) or removing (None) means on `platform`; a password
    goes to `passfile`, which is otherwise removed."""
    if database is None or every is None:
        plan = {
            "linux": systemd.removal_plan,
            "macos": launchd.removal_plan,
            "windows": windows.removal_plan,
        }[platform]()
        return replace(plan, removes=(*plan.removes, passfile))
    kept = job_database(database, passfile)
    job = sweep_job(kept.target, every)
    plan = {"linux": systemd.install_plan, "macos": launchd.install_plan, "windows": windows.install_plan}[
        platform
    ](job)
    if kept.passfile_text is None:
        return replace(plan, removes=(*plan.removes, passfile))  # a password file of an earlier job
    return replace(plan, secrets={passfile: kept.passfile_text})


def cmd_schedule(args: argparse.Namespace, _opener: Opener) -> int:
    platform = args.platform or this_platform()
    if platform is None:
        raise InvalidInputError(
            f"no scheduler known for {sys.platform}; run `memory-dashboard sweep` from cron"
        )
    if platform != this_platform() and not args.dry_run:
        raise InvalidInputError(f"a {platform} job can only be shown here (--dry-run); nothing was changed")
    every = database = None
    if not args.off:
        try:
            every = parse_every(args.every)
        except ValueError as exc:
            raise InvalidInputError(str(exc)) from exc
        target = database_choice(args).target
        database = target if is_url(target) else str(Path(target).expanduser().resolve())
    plan = job_plan(platform, database, every, sweep_passfile_path())
    print("\n".join(plan.describe() if args.dry_run else apply(plan)))
    return 0


def register(subparsers: Any, parents: list[argparse.ArgumentParser]) -> None:
    add = command_adder(subparsers, parents)
    parser = add(
        "schedule-sweep",
        cmd_schedule,
        "run `sweep` on this database on its own (systemd user timer, LaunchAgent, scheduled task)",
    )
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--every", metavar="DURATION", help="how often: whole minutes from 1m to 1d (15m, 2h)")
    what.add_argument("--off", action="store_true", help="remove the job")
    parser.add_argument("--dry-run", action="store_true", help="print what would be written and run")
    parser.add_argument("--platform", choices=PLATFORMS, help="show another platform's job (with --dry-run)")
