"""Where things live: the database to open, the app's data and settings folders.

One module over platformdirs so every path can be overridden: `MEMORY_DASHBOARD_DB` (a file or a
SQLAlchemy URL), `MEMORY_DASHBOARD_DATA_DIR` (the embedded store's folder), and portable mode (a file
named `portable.txt` beside the executable keeps settings and the store beside it). `choice_problem` says,
before anything is opened or created, why a chosen file cannot be: a link to nothing, a loop, a folder
that cannot be written.
"""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import platformdirs

APP_NAME = "memory-dashboard"
DB_ENV = "MEMORY_DASHBOARD_DB"
DATA_DIR_ENV = "MEMORY_DASHBOARD_DATA_DIR"
PORTABLE_MARKER = "portable.txt"
EMBEDDED_FILENAME = "memories.db"
HOST_RELATIVE = Path("cortexkit") / "magic-context" / "context.db"
SWEEP_PASSFILE = "sweep.pgpass"


@dataclass(frozen=True, slots=True)
class DatabaseChoice:
    """The database to open and why it was chosen (shown in the status bar and `--help`)."""

    target: str  # a filesystem path or a SQLAlchemy URL
    origin: str  # "--db" | "MEMORY_DASHBOARD_DB" | "host" | "embedded" | "demo"

    @property
    def is_url(self) -> bool:
        return is_url(self.target)

    @property
    def is_embedded(self) -> bool:
        return self.origin == "embedded"


def is_url(target: str) -> bool:
    return "://" in target


def executable_dir() -> Path:
    """The folder of the running executable (the frozen binary, or the interpreter's script)."""
    if getattr(sys, "frozen", False):
        return Path(sys.executable).resolve().parent
    return Path(sys.argv[0]).resolve().parent if sys.argv and sys.argv[0] else Path.cwd()


def portable_dir() -> Path | None:
    """The folder beside the executable when the portable marker file sits there."""
    folder = executable_dir()
    return folder if (folder / PORTABLE_MARKER).is_file() else None


def _app_dir(environ: Mapping[str, str] | None, portable_sub: str, platform_dir: str) -> Path:
    """MEMORY_DASHBOARD_DATA_DIR, else the portable folder beside the executable, else the platform's."""
    env = os.environ if environ is None else environ
    override = env.get(DATA_DIR_ENV)
    if override:
        return Path(override).expanduser()
    portable = portable_dir()
    return portable / portable_sub if portable is not None else Path(platform_dir)


def data_dir(environ: Mapping[str, str] | None = None) -> Path:
    return _app_dir(environ, "data", platformdirs.user_data_dir(APP_NAME, appauthor=False))


def config_dir(environ: Mapping[str, str] | None = None) -> Path:
    return _app_dir(environ, "settings", platformdirs.user_config_dir(APP_NAME, appauthor=False))


def sweep_passfile_path(environ: Mapping[str, str] | None = None) -> Path:
    """The scheduled sweep's password file (mode 0600, `app.schedule.password_file`), with the settings."""
    return config_dir(environ) / SWEEP_PASSFILE


def host_database_path(environ: Mapping[str, str] | None = None) -> Path:
    """The host's `context.db`: under $XDG_DATA_HOME, else ~/.local/share, on every OS."""
    env = os.environ if environ is None else environ
    base = env.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base).expanduser() / HOST_RELATIVE


def embedded_database_path(environ: Mapping[str, str] | None = None) -> Path:
    return data_dir(environ) / EMBEDDED_FILENAME


def choose_database(explicit: str | None, environ: Mapping[str, str] | None = None) -> DatabaseChoice:
    """`--db`, else MEMORY_DASHBOARD_DB, else the host's context.db if it exists, else the embedded store."""
    env = os.environ if environ is None else environ
    if explicit:
        return DatabaseChoice(_expand(explicit), "--db")
    from_env = env.get(DB_ENV)
    if from_env:
        return DatabaseChoice(_expand(from_env), DB_ENV)
    host = host_database_path(env)
    if host.is_file():
        return DatabaseChoice(str(host), "host")
    return DatabaseChoice(str(embedded_database_path(env)), "embedded")


def _expand(target: str) -> str:
    return target if is_url(target) else str(Path(target).expanduser())


def link_problem(path: Path) -> str | None:
    """Why a database path leads nowhere: a symbolic link to nothing, a loop, a path through a file. A
    path that simply does not exist is no problem here (it may be created, or its opener says so)."""
    try:
        path.stat()
    except FileNotFoundError:
        return (
            f"{path} is a symbolic link to {os.readlink(path)}, which does not exist"
            if path.is_symlink()
            else None
        )
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return f"{path} is a symbolic link in a loop (it leads back to itself)"
        return f"{path} cannot be used: {exc.strerror}"
    return None


def creatable_problem(path: Path) -> str | None:
    """Why a database file cannot be created at `path` (the embedded store on first use, `init`): its
    folder, or the nearest folder above it that exists, is a file or cannot be written."""
    problem = link_problem(path)
    if problem is not None or path.exists():
        return problem
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        if folder.is_symlink():  # a folder on the way that is a link to nothing, or a loop
            return link_problem(folder)
        folder = folder.parent
    if not folder.is_dir():
        return f"cannot create {path}: {folder} is a file, not a folder"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"cannot create {path}: the folder {folder} cannot be written"
    return None


def make_folder(folder: Path) -> str | None:
    """Make `folder` (and the folders above it); why it cannot be, or None. `creatable_problem` cannot
    foresee every refusal: a folder under `/proc` passes the permission check and still cannot be made."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return f"the folder {folder} cannot be made ({exc.strerror or exc})"
    return None


def choice_problem(choice: DatabaseChoice) -> str | None:
    """Why the chosen database file cannot be opened, before anything follows a bad link or creates a
    file: checked where a store is opened, so the message names the path (and how it was chosen)."""
    if choice.is_url:
        return None
    path = Path(choice.target)
    created_here = choice.origin in ("embedded", "demo")  # our own stores, created on first use
    problem = creatable_problem(path) if created_here else link_problem(path)
    if problem is not None and created_here:
        return f"{problem}; it is the {choice.origin} store: set {DATA_DIR_ENV} to use another folder"
    return problem
