"""A throwaway PostgreSQL cluster for the tests: `initdb` in a temporary folder, a Unix socket there only.

    python tests/support/pg_cluster.py run -- make test   # start, export MEMORY_DASHBOARD_TEST_PG, run, stop
    python tests/support/pg_cluster.py start              # start; prints "FOLDER URL" (for a shell's trap)
    python tests/support/pg_cluster.py stop FOLDER        # stop it and remove the folder

The cluster belongs to an unprivileged user (PostgreSQL refuses to run as root: as root it is run as
the `postgres` account through `runuser`), listens on no TCP address (`listen_addresses = ''`), only on a
socket in its own folder, trusts that socket (only its owner and root can reach the folder), and is
stopped and removed at the end, whatever the command's outcome. Autovacuum is off: an automatic ANALYZE
is a transaction of the server's, which the store's change watch (`server_watch`) rightly counts as a
commit by someone else, and the tests that show a quiet server is seen as quiet need it quiet.
`tests/conftest.py` starts one the same way for a test run when MEMORY_DASHBOARD_TEST_PG is not set.
"""

from __future__ import annotations

import glob
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

URL_ENV = "MEMORY_DASHBOARD_TEST_PG"
OPT_OUT_ENV = "MEMORY_DASHBOARD_NO_POSTGRES"
SUPERUSER = "postgres"
HOW_TO = (
    "PostgreSQL's server programs (initdb, pg_ctl) were not found. Install them (Debian/Ubuntu: "
    "`apt-get install postgresql`; macOS: `brew install postgresql`), or point "
    f"{URL_ENV} at a server (postgresql+psycopg://USER@HOST/DB, a role that may CREATE DATABASE), "
    f"or run `make test-postgres` / `python tests/support/pg_cluster.py run -- <command>`. To run without "
    f"PostgreSQL on purpose, set {OPT_OUT_ENV}=1 (the summary then says the PostgreSQL cases did not run)."
)


def server_bindir() -> Path | None:
    """The folder of `initdb` and `pg_ctl`: on PATH, else Debian's /usr/lib/postgresql/<newest>/bin."""
    found = shutil.which("initdb")
    if found:
        return Path(found).parent
    candidates = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3].split(".")[0])
    )
    return Path(candidates[-1]).parent if candidates else None


def _as_owner(command: list[str]) -> list[str]:
    """PostgreSQL never runs as root: there it runs as the `postgres` account."""
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        return ["runuser", "-u", SUPERUSER, "--", *command]
    return command


def url_for(folder: Path, database: str = "postgres") -> str:
    return f"postgresql+psycopg://{SUPERUSER}@/{database}?host={folder}"


def start(folder: Path | None = None) -> tuple[Path, str]:
    """Create and start a cluster in a new temporary folder; returns the folder and the server's URL."""
    bindir = server_bindir()
    if bindir is None:
        raise RuntimeError(HOW_TO)
    folder = folder or Path(tempfile.mkdtemp(prefix="mdash-pg-"))
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        shutil.chown(folder, SUPERUSER)
    folder.chmod(0o700)
    data = folder / "data"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.PIPE, "text": True}
    steps = [
        [str(bindir / "initdb"), "-D", str(data), "-U", SUPERUSER, "--auth=trust", "-E", "UTF8",
         "--locale=C.UTF-8", "--no-sync"],
        [str(bindir / "pg_ctl"), "-D", str(data), "-l", str(folder / "server.log"), "-w", "-t", "60",
         "-o", f"-c listen_addresses='' -c unix_socket_directories='{folder}' -c fsync=off"
         " -c synchronous_commit=off -c full_page_writes=off -c max_connections=200 -c autovacuum=off",
         "start"],
    ]  # fmt: skip
    for step in steps:
        done = subprocess.run(_as_owner(step), check=False, **quiet)  # type: ignore[call-overload]
        if done.returncode != 0:
            log = folder / "server.log"
            detail = log.read_text(errors="replace") if log.exists() else ""
            shutil.rmtree(folder, ignore_errors=True)
            raise RuntimeError(f"{Path(step[0]).name} failed: {done.stderr}{detail}")
    return folder, url_for(folder)


def stop(folder: Path) -> None:
    """Stop the cluster (fast: connections are cut) and remove its folder."""
    bindir = server_bindir()
    if bindir is not None and (folder / "data" / "postmaster.pid").exists():
        subprocess.run(
            _as_owner([str(bindir / "pg_ctl"), "-D", str(folder / "data"), "-m", "fast", "-w", "stop"]),
            check=False,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    shutil.rmtree(folder, ignore_errors=True)


def _exit_on_signal(number: int, _frame: object) -> None:
    raise SystemExit(128 + number)


def run(command: list[str]) -> int:
    """Run `command` with MEMORY_DASHBOARD_TEST_PG set to a fresh cluster, stopped afterwards."""
    folder, url = start()
    signal.signal(signal.SIGTERM, _exit_on_signal)  # a CI job cancelled still stops the server
    signal.signal(signal.SIGHUP, _exit_on_signal)
    print(f"PostgreSQL test cluster in {folder}: {URL_ENV}={url}", flush=True)
    try:
        return subprocess.run(command, check=False, env={**os.environ, URL_ENV: url}).returncode
    finally:
        stop(folder)


USAGE = "usage: python tests/support/pg_cluster.py (run -- COMMAND [ARGS...] | start | stop FOLDER)"


def main(argv: list[str]) -> int:
    try:
        if len(argv) > 2 and argv[:2] == ["run", "--"]:
            return run(argv[2:])
        if argv == ["start"]:
            folder, url = start()
            print(folder, url)
            return 0
    except RuntimeError as exc:
        print(exc, file=sys.stderr)
        return 2
    if len(argv) == 2 and argv[0] == "stop":
        stop(Path(argv[1]))
        return 0
    print(USAGE, file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
