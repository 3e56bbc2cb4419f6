"""The database's password kept out of the job's files: a libpq password file of mode 0600.

A unit file, a LaunchAgent's plist and a task's command line can be read by anyone on the machine, and
`--dry-run` prints them. So a PostgreSQL URL's password (in its user part, or as `?password=`) never goes
there: it goes into a password file of libpq's own format (`*:*:*:*:PASSWORD`, created with mode 0600,
which libpq requires of such a file), and the job's URL names that file instead (`?passfile=PATH`, a libpq
connection option that the driver passes through). A URL without a password is kept as it is: libpq reads
its own sources (PGPASSFILE, ~/.pgpass, a service file) when the job runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import make_url
from sqlalchemy.engine import URL
from sqlalchemy.exc import ArgumentError

from app.core.errors import InvalidInputError
from app.core.paths import is_url
from app.schedule.job import word_problem

PASSFILE_OPTION = "passfile"
PASSWORD_OPTION = "password"
LIBPQ_BACKEND = "postgresql"
# How a value is written into the URL's query: the characters its parser reads otherwise, escaped.
_QUERY_ESCAPES = {"%": "%25", "&": "%26", "+": "%2B", "#": "%23"}


@dataclass(frozen=True, slots=True)
class JobDatabase:
    """What the job's files name (`target`: never a password) and the password file's text, if any."""

    target: str
    passfile: Path
    passfile_text: str | None = None


def _password(url: URL) -> str | None:
    value = url.query.get(PASSWORD_OPTION)
    if isinstance(value, tuple):
        value = value[0] if value else None
    return url.password or value or None


def passfile_line(password: str) -> str:
    """A password file's one line: any host, port, database and user; `\\` and `:` escaped as libpq reads."""
    return "*:*:*:*:" + password.replace("\\", "\\\\").replace(":", "\\:") + "\n"


def _query_value(text: str) -> str:
    return "".join(_QUERY_ESCAPES.get(char, char) for char in text)


def job_database(target: str, passfile: Path) -> JobDatabase:
    """The database as the job names it: a URL's password moved to `passfile`; InvalidInputError for a
    password that cannot be moved (not a PostgreSQL URL, or text a password file cannot hold)."""
    if not is_url(target):
        return JobDatabase(target, passfile)
    try:
        url = make_url(target)
    except ArgumentError as exc:
        raise InvalidInputError(f"the database URL cannot be read: {exc}; nothing was written") from exc
    password = _password(url)
    if password is None:
        return JobDatabase(target, passfile)
    shown = url.render_as_string(hide_password=True)
    if url.get_backend_name() != LIBPQ_BACKEND:
        raise InvalidInputError(
            f"the sweep job would keep the password of {shown} in files others can read; give the URL "
            "without it (a PostgreSQL URL may, its password then kept in a file of mode 0600); "
            "nothing was written"
        )
    problem = word_problem(password)
    if problem is not None:
        raise InvalidInputError(
            f"the password of {shown} {problem}: a password file cannot hold it; nothing was written"
        )
    query = {key: value for key, value in url.query.items() if key not in (PASSWORD_OPTION, PASSFILE_OPTION)}
    # `set(password=None)` would keep the password (None there means "unchanged").
    kept = url._replace(password=None).set(query=query).render_as_string(hide_password=False)
    named = f"{kept}{'&' if query else '?'}{PASSFILE_OPTION}={_query_value(str(passfile))}"
    return JobDatabase(named, passfile, passfile_line(password))
