"""`schedule-sweep` writes no secret where others can read it, and no value a scheduler would misread.

A URL's password goes into a libpq password file of mode 0600 that the job's URL names (`passfile=`),
never into the unit, the plist, the task's command line or `--dry-run`'s output; the installed service
still reaches a server whose role logs in with a password only. A value no quoting carries (a line break,
another control character) is refused, exit 1, nothing written; what can be quoted reads back as written
(`systemd-analyze verify`, where it is installed).
"""

from __future__ import annotations

import os
import plistlib
import shutil
import stat
import subprocess
from pathlib import Path

import psycopg
import pytest
from sqlalchemy import make_url

from app.core.errors import InvalidInputError
from app.schedule import launchd, systemd, windows
from app.schedule.job import sweep_job
from app.schedule.password_file import job_database, passfile_line
from tests.support import hub_host
from tests.support.hub_host import SECRET
from tests.support.pg_cluster import SUPERUSER
from tests.support.pg_host import libpq_conninfo
from tests.support.schedule_helpers import fake_systemctl, run, service_command

password_server = hub_host.password_server  # a cluster whose role logs in with a password only
FIFTEEN_MIN = 15 * 60_000
Capture = pytest.CaptureFixture[str]
PASSWORD = "s3cr:t\\pw"  # a colon and a backslash: escaped in the password file
URL = "postgresql+psycopg://carol:s3cr%3At%5Cpw@db.example:5432/memories?sslmode=require"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(folder))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(folder / ".config"))
    monkeypatch.setattr("app.cli.commands.schedule.this_platform", lambda: "linux")
    return folder


def store_database(server_url: str) -> str:
    """A database of its own on that server (its `hub` database holds a hub, which no store opens), owned by
    the role that logs in with a password only; its URL, without the password."""
    url = make_url(server_url)
    superuser = url.set(username=SUPERUSER, database="postgres").render_as_string(hide_password=False)
    with psycopg.connect(libpq_conninfo(superuser), autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE sweep_store OWNER {url.username}")
    return url.set(database="sweep_store").render_as_string(hide_password=False)


def mode_of(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def passfile(tmp_path: Path) -> Path:
    return tmp_path / "appdata" / "sweep.pgpass"  # the settings' folder (MEMORY_DASHBOARD_DATA_DIR)


@pytest.mark.skipif(os.name != "posix", reason="a systemd user timer is a Linux job")
def test_the_password_is_kept_in_a_0600_file_and_the_installed_service_still_logs_in(
    password_server: str, home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Capture
) -> None:
    fake_systemctl(tmp_path, monkeypatch)
    for name in ("PGPASSFILE", "PGPASSWORD", "PGSERVICE"):
        monkeypatch.delenv(name, raising=False)
    store_url = store_database(password_server)
    with_password = make_url(store_url).set(password=SECRET).render_as_string(hide_password=False)
    code, out, err = run(capsys, "--db", with_password, "schedule-sweep", "--every", "15m")
    assert code == 0, err
    units = home / ".config" / "systemd" / "user"
    service, timer = units / "memory-dashboard-sweep.service", units / "memory-dashboard-sweep.timer"
    for written in (service, timer):
        assert SECRET not in written.read_text(encoding="utf-8") and mode_of(written) == 0o600
    assert SECRET not in out
    secret_file = passfile(tmp_path)
    assert mode_of(secret_file) == 0o600 and secret_file.read_text(encoding="utf-8") == f"*:*:*:*:{SECRET}\n"
    argv, environment = service_command(service)
    assert make_url(argv[-2]).query["passfile"] == str(secret_file)
    env = {**os.environ, **environment}
    env.pop("MEMORY_DASHBOARD_NOW", None)
    done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "dismissed 0 expired memories" in done.stdout
    code, out, _ = run(capsys, "--db", with_password, "schedule-sweep", "--off")
    assert code == 0 and not secret_file.exists() and f"removed {secret_file}" in out


@pytest.mark.parametrize("platform", ["linux", "macos", "windows"])
def test_a_dry_run_shows_no_password_and_writes_nothing(
    home: Path, tmp_path: Path, capsys: Capture, platform: str
) -> None:
    code, out, err = run(
        capsys, "--db", URL, "schedule-sweep", "--every", "15m", "--dry-run", "--platform", platform
    )
    assert code == 0, err
    assert "s3cr" not in out and "s3cr" not in err
    assert f"write {passfile(tmp_path)} (mode 0600): the database's password, not shown" in out
    assert f"passfile={passfile(tmp_path)}" in out
    assert not passfile(tmp_path).exists() and not (home / ".config" / "systemd").exists()


def test_the_password_file_holds_the_password_as_libpq_reads_it(tmp_path: Path) -> None:
    kept = job_database(URL.replace("?", "?password=other&"), tmp_path / "pw")
    assert kept.passfile_text == passfile_line(PASSWORD) == "*:*:*:*:s3cr\\:t\\\\pw\n"
    url = make_url(kept.target)
    assert url.password is None and dict(url.query) == {
        "sslmode": "require",
        "passfile": str(tmp_path / "pw"),
    }
    from_query = job_database("postgresql://carol@db/memories?password=p%40ss", tmp_path / "pw")
    assert from_query.passfile_text == "*:*:*:*:p@ss\n" and "p%40ss" not in from_query.target
    assert job_database("postgresql://carol@db/memories", tmp_path / "pw").passfile_text is None


@pytest.mark.skipif(os.name != "posix", reason="a systemd user timer is a Linux job")
def test_an_install_without_a_password_removes_an_earlier_password_file(
    host_db: Path, home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Capture
) -> None:
    fake_systemctl(tmp_path, monkeypatch)
    secret_file = passfile(tmp_path)
    secret_file.parent.mkdir(parents=True, exist_ok=True)
    secret_file.write_text("*:*:*:*:old\n", encoding="utf-8")
    code, _, err = run(capsys, "--db", str(host_db), "schedule-sweep", "--every", "15m")
    assert code == 0, err
    assert not secret_file.exists()


def test_a_password_of_another_database_than_postgresql_is_refused(home: Path, capsys: Capture) -> None:
    code, out, err = run(
        capsys, "--db", "mysql://carol:hunter2@db/memories", "schedule-sweep", "--every", "15m", "--dry-run"
    )
    assert code == 1 and "hunter2" not in out + err and "without it" in err


@pytest.mark.parametrize("character", ["\n", "\r", "\t", "\x1b", "\x7f", "\x85"])
def test_a_control_character_in_the_database_is_refused_and_nothing_is_written(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Capture, character: str
) -> None:
    log = fake_systemctl(tmp_path, monkeypatch)
    database = tmp_path / f"odd{character}name.db"
    for dry_run in ((), ("--dry-run",)):
        code, out, err = run(capsys, "--db", str(database), "schedule-sweep", "--every", "15m", *dry_run)
        assert code == 1 and out == ""
        assert f"control character (U+{ord(character):04X})" in err and "nothing was written" in err
    assert not (home / ".config" / "systemd").exists() and not log.exists()


def test_a_control_character_in_the_password_is_refused_without_showing_it(
    home: Path, tmp_path: Path, capsys: Capture
) -> None:
    code, out, err = run(
        capsys, "--db", "postgresql://carol:top%0Asecret@db/m", "schedule-sweep", "--every", "15m"
    )
    assert code == 1 and "control character (U+000A)" in err and "secret" not in out + err
    assert not passfile(tmp_path).exists() and not (home / ".config" / "systemd").exists()


ODD = '/data/100% $HOME "x" back\\slash'


def test_systemd_quotes_specifiers_variables_and_escapes_but_not_variables_in_the_environment() -> None:
    job = sweep_job(ODD, FIFTEEN_MIN, frozen=False, executable="/usr/bin/python3")
    job = type(job)(job.database, job.every_ms, job.argv, {"PYTHONPATH": "/src/$HOME 50%"})
    text = systemd.service_text(job)
    assert 'Environment="PYTHONPATH=/src/$HOME 50%%"' in text.splitlines()
    assert '"--db" "/data/100%% $$HOME \\"x\\" back\\\\slash" "sweep"' in text
    assert "Description=Memory Dashboard: dismiss expired memories (/data/100%% $HOME" in text


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_systemd_reads_the_units_written_for_an_awkward_path_without_complaint(tmp_path: Path) -> None:
    program = shutil.which("true") or "/bin/true"
    for database in (ODD + "\\", '/data/ends with a quote"', "/data/a;b & c 'd'.db"):
        job = sweep_job(database, FIFTEEN_MIN, frozen=True, executable=program)
        folder = tmp_path / "units"
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()
        (folder / systemd.SERVICE).write_text(systemd.service_text(job), encoding="utf-8")
        (folder / systemd.TIMER).write_text(systemd.timer_text(job), encoding="utf-8")
        runtime = tmp_path / "runtime"
        runtime.mkdir(mode=0o700, exist_ok=True)
        done = subprocess.run(
            [
                "systemd-analyze",
                "verify",
                "--user",
                str(folder / systemd.SERVICE),
                str(folder / systemd.TIMER),
            ],
            env={**os.environ, "XDG_RUNTIME_DIR": str(runtime)},
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0 and systemd.SERVICE not in done.stderr, (database, done.stderr)


def test_the_launch_agent_escapes_xml_and_refuses_control_characters() -> None:
    database = "/Users/me/a <b> & c.db"
    job = sweep_job(database, FIFTEEN_MIN, frozen=True, executable="/Applications/MD.app/Contents/MacOS/MD")
    text = launchd.plist_text(job)
    assert "&lt;b&gt; &amp; c.db" in text
    assert plistlib.loads(text.encode("utf-8"))["ProgramArguments"][2] == database
    with pytest.raises(InvalidInputError, match="control character"):
        sweep_job("/Users/me/a\x0bb.db", FIFTEEN_MIN, frozen=True, executable="/Applications/MD")


def test_the_windows_task_refuses_what_it_would_expand_and_quotes_every_word_under_cmd() -> None:
    exe = r"C:\Program Files\Python\python.exe"
    for database in (r"C:\data\100%USERNAME%.db", r"C:\data\a\"b.db"):
        with pytest.raises(InvalidInputError, match="Task Scheduler or cmd"):
            windows.task_run(sweep_job(database, FIFTEEN_MIN, frozen=True, executable=exe))
    job = sweep_job(r"C:\data\a&b.db", FIFTEEN_MIN, frozen=False, executable=exe)
    job = type(job)(job.database, job.every_ms, job.argv, {"PYTHONPATH": r"C:\src\memory dashboard"})
    assert windows.task_run(job) == (
        r'cmd /c set "PYTHONPATH=C:\src\memory dashboard" && "C:\Program Files\Python\python.exe" "-m" "app"'
        r' "--db" "C:\data\a&b.db" "sweep"'
    )
    ends = sweep_job("C:\\data\\folder\\", FIFTEEN_MIN, frozen=False, executable=exe)
    assert windows.task_run(type(ends)(ends.database, 1, ends.argv, {"X": "1"})).endswith(
        '"--db" "C:\\data\\folder\\\\" "sweep"'
    )
