"""`schedule-sweep`: the job's files and commands, and on Linux the installed service's own command run.

Linux is tested end to end under a temporary HOME and XDG_CONFIG_HOME: the unit files are read back and
the service's ExecStart runs against a real host file with an expired memory. `systemctl` is a stand-in
script on PATH that records what it was asked (never the machine's own user manager). The macOS plist and
the Windows command are tested as the text and argv they would be.
"""

from __future__ import annotations

import os
import plistlib
import subprocess
from pathlib import Path

import pytest

from app.core.clock import ManualClock
from app.schedule import launchd, systemd, windows
from app.schedule.job import sweep_job
from app.store import MemoryStore
from tests.support.hostdb import HOUR, query
from tests.support.schedule_helpers import fake_systemctl, run, service_command, unit_values

FIFTEEN_MIN = 15 * 60_000
Capture = pytest.CaptureFixture[str]


@pytest.fixture
def on_linux(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("app.cli.commands.schedule.this_platform", lambda: "linux")


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(folder))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(folder / ".config"))
    return folder


@pytest.mark.skipif(os.name != "posix", reason="a systemd user timer is a Linux job")
def test_linux_install_writes_units_whose_command_sweeps_and_off_removes_them(
    host_db: Path,
    home: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: Capture,
    on_linux: None,
) -> None:
    long_ago = 1_000_000_000_000  # 2001: any system clock the job runs with is later than its expiry
    store = MemoryStore.open(host_db, clock=ManualClock(long_ago))
    store.set_expiry(4, long_ago + HOUR)
    store.close()
    log = fake_systemctl(tmp_path, monkeypatch)
    code, out, _ = run(capsys, "--db", str(host_db), "schedule-sweep", "--every", "15m")
    assert code == 0
    units = home / ".config" / "systemd" / "user"
    service, timer = units / "memory-dashboard-sweep.service", units / "memory-dashboard-sweep.timer"
    assert f"wrote {service}" in out and "runs every 15 min" in out
    assert unit_values(timer, "OnUnitActiveSec") == ["900s"]
    assert unit_values(timer, "Unit") == ["memory-dashboard-sweep.service"]
    assert unit_values(service, "Type") == ["oneshot"]
    assert log.read_text(encoding="utf-8").splitlines() == [
        "--user show-environment",
        "--user daemon-reload",
        "--user enable --now memory-dashboard-sweep.timer",
    ]
    argv, environment = service_command(service)
    assert argv[-3:] == ["--db", str(host_db.resolve()), "sweep"]
    env = {**os.environ, **environment}
    env.pop("MEMORY_DASHBOARD_NOW", None)
    done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "dismissed 1 expired memory: #4" in done.stdout
    assert query(host_db, "SELECT status FROM user_memories WHERE id = 4") == [("dismissed",)]
    code, out, _ = run(capsys, "--db", str(host_db), "schedule-sweep", "--off")
    assert code == 0 and not service.exists() and not timer.exists()
    assert log.read_text(encoding="utf-8").splitlines()[-2:] == [
        "--user disable --now memory-dashboard-sweep.timer",
        "--user daemon-reload",
    ]


@pytest.mark.usefixtures("on_linux")
def test_linux_without_a_usable_systemctl_writes_the_files_and_says_how_to_enable(
    host_db: Path, home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Capture
) -> None:
    empty = tmp_path / "nothing"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    code, out, _ = run(capsys, "--db", str(host_db), "schedule-sweep", "--every", "2h")
    assert code == 0
    assert "systemctl cannot be used here; to finish, run:" in out
    assert "systemctl --user enable --now memory-dashboard-sweep.timer" in out
    timer = home / ".config" / "systemd" / "user" / "memory-dashboard-sweep.timer"
    assert unit_values(timer, "OnUnitActiveSec") == ["7200s"]


def test_a_dry_run_prints_and_writes_nothing(
    host_db: Path, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(
        capsys, "--db", str(host_db), "schedule-sweep", "--every", "15m", "--dry-run", "--platform", "linux"
    )
    assert code == 0 and "OnUnitActiveSec=900s" in out and "run: systemctl --user daemon-reload" in out
    assert not (home / ".config" / "systemd").exists()
    code, out, _ = run(
        capsys, "--db", str(host_db), "schedule-sweep", "--every", "15m", "--dry-run", "--platform", "macos"
    )
    assert code == 0 and "<integer>900</integer>" in out and "launchctl bootstrap" in out
    assert not (home / "Library").exists()


@pytest.mark.parametrize("every", ["90s", "0m", "2d", "soon"])
def test_an_interval_that_is_not_whole_minutes_up_to_a_day_is_refused(
    host_db: Path, home: Path, capsys: pytest.CaptureFixture[str], every: str
) -> None:
    code, _, err = run(capsys, "--db", str(host_db), "schedule-sweep", "--every", every, "--dry-run")
    assert code == 1 and "error:" in err


def test_another_platforms_job_is_only_shown(host_db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    other = "windows" if os.name != "nt" else "linux"
    code, _, err = run(capsys, "--db", str(host_db), "schedule-sweep", "--every", "15m", "--platform", other)
    assert code == 1 and "--dry-run" in err


def test_the_command_is_the_frozen_binary_or_this_python() -> None:
    frozen = sweep_job("/data/context.db", FIFTEEN_MIN, frozen=True, executable="/opt/md/memory-dashboard")
    assert frozen.argv == ("/opt/md/memory-dashboard", "--db", "/data/context.db", "sweep")
    assert frozen.environment == {}
    source = sweep_job("/data/context.db", FIFTEEN_MIN, frozen=False, executable="/usr/bin/python3")
    assert source.argv == ("/usr/bin/python3", "-m", "app", "--db", "/data/context.db", "sweep")


def test_systemd_quotes_what_it_would_expand() -> None:
    job = sweep_job('/data/100% $HOME "x".db', FIFTEEN_MIN, frozen=True, executable="/opt/md")
    line = unit_values_text(systemd.service_text(job), "ExecStart")
    assert line == '"/opt/md" "--db" "/data/100%% $$HOME \\"x\\".db" "sweep"'


def unit_values_text(text: str, key: str) -> str:
    return next(line.split("=", 1)[1] for line in text.splitlines() if line.startswith(key + "="))


def test_the_macos_launch_agent() -> None:
    job = sweep_job(
        "/Users/me/.local/share/cortexkit/magic-context/context.db",
        FIFTEEN_MIN,
        frozen=True,
        executable="/Applications/MemoryDashboard.app/Contents/MacOS/MemoryDashboard",
    )
    agent = plistlib.loads(launchd.plist_text(job).encode("utf-8"))
    assert agent["Label"] == "org.memory-dashboard.sweep"
    assert agent["ProgramArguments"] == list(job.argv)
    assert agent["StartInterval"] == 900 and agent["RunAtLoad"] is True
    plan = launchd.install_plan(job, {"HOME": "/Users/me"}, uid=501)
    assert list(plan.writes) == [Path("/Users/me/Library/LaunchAgents/org.memory-dashboard.sweep.plist")]
    assert plan.commands == (
        (
            "launchctl",
            "bootstrap",
            "gui/501",
            "/Users/me/Library/LaunchAgents/org.memory-dashboard.sweep.plist",
        ),
    )
    assert launchd.removal_plan({"HOME": "/Users/me"}, uid=501).removes == tuple(plan.writes)


def test_the_windows_scheduled_task() -> None:
    exe = r"C:\Users\Me\AppData\Local\Programs\Memory Dashboard\MemoryDashboard.exe"
    db = r"C:\Users\Me\.local\share\cortexkit\magic-context\context.db"
    job = sweep_job(db, FIFTEEN_MIN, frozen=True, executable=exe)
    assert windows.create_command(job) == (
        "schtasks",
        "/Create",
        "/F",
        "/TN",
        "Memory Dashboard sweep",
        "/SC",
        "MINUTE",
        "/MO",
        "15",
        "/TR",
        f'"{exe}" --db {db} sweep',
    )
    daily = sweep_job(db, 24 * 60 * 60_000, frozen=True, executable=exe)
    assert windows.schedule_words(daily) == ("/SC", "DAILY", "/MO", "1")
    assert windows.removal_plan().cleanup == (("schtasks", "/Delete", "/F", "/TN", "Memory Dashboard sweep"),)
