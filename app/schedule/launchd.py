"""macOS: a LaunchAgent in `~/Library/LaunchAgents`, loaded into the person's GUI session with `launchctl`."""

from __future__ import annotations

import os
import plistlib
from collections.abc import Mapping
from pathlib import Path

from app.schedule.job import SweepJob
from app.schedule.plan import Plan

LABEL = "org.memory-dashboard.sweep"


def agent_path(environ: Mapping[str, str] | None = None) -> Path:
    env = os.environ if environ is None else environ
    return Path(env.get("HOME") or Path.home()) / "Library" / "LaunchAgents" / f"{LABEL}.plist"


def plist_text(job: SweepJob) -> str:
    agent: dict[str, object] = {
        "Label": LABEL,
        "ProgramArguments": list(job.argv),
        "StartInterval": job.every_seconds,
        "RunAtLoad": True,
        "ProcessType": "Background",
    }
    if job.environment:
        agent["EnvironmentVariables"] = dict(job.environment)
    return plistlib.dumps(agent, sort_keys=True).decode("utf-8")


def _domain(uid: int | None) -> str:
    """The person's GUI session, where a LaunchAgent runs."""
    if uid is None:
        uid = os.getuid() if hasattr(os, "getuid") else 0
    return f"gui/{uid}"


def install_plan(job: SweepJob, environ: Mapping[str, str] | None = None, uid: int | None = None) -> Plan:
    path = agent_path(environ)
    return Plan(
        writes={path: plist_text(job)},
        # out first, so a second install replaces the loaded agent (failing when none was loaded is fine)
        cleanup=(("launchctl", "bootout", _domain(uid), str(path)),),
        commands=(("launchctl", "bootstrap", _domain(uid), str(path)),),
        tool="launchctl",
        note=f"the sweep runs every {job.every_minutes} min (launchctl print {_domain(uid)}/{LABEL})",
    )


def removal_plan(environ: Mapping[str, str] | None = None, uid: int | None = None) -> Plan:
    path = agent_path(environ)
    return Plan(
        removes=(path,), cleanup=(("launchctl", "bootout", _domain(uid), str(path)),), tool="launchctl"
    )
