"""Connecting to a hub: a `postgresql[+psycopg]://` URL into a psycopg connection, errors into messages.

The URL may omit the password: libpq then reads its own sources (`PGPASSFILE`, `~/.pgpass`, a service
file named by `service=`), and where none gives one the OS keyring is asked (`app.hub.password`);
`sslmode` and the other libpq options pass through the URL's query. A hub that is down or refuses the
login is a `DatabaseOpenError` (exit 3) naming the hub without its password. Every connection's
`search_path` is pinned to `pg_catalog` at once (`app.core.hub_layout`): the hub's statements name
their schema, and no name may resolve into a schema another role made.
"""

from __future__ import annotations

from typing import Any

import psycopg
from sqlalchemy import make_url
from sqlalchemy.engine import URL
from sqlalchemy.exc import ArgumentError

from app.core.errors import DatabaseOpenError
from app.core.hub_layout import PIN_SEARCH_PATH
from app.hub.password import KeyringUnavailableError, keyring_user, stored_password, wants_password
from app.store.connect.server import CONNECT_TIMEOUT_S, location_of, unreachable_message

SCHEMES = ("postgresql", "postgres")
NO_PASSWORD_HINT = (
    "Give the password in PGPASSFILE, ~/.pgpass or a service file, or keep it in the OS keyring "
    "(`hub configure --store-password`, or File → Hub…)"
)


class HubError(DatabaseOpenError):
    """The hub cannot be used (down, login refused, not a hub URL): a message and exit 3."""


def hub_url(text: str) -> URL:
    """The parsed URL of a hub; `HubError` for anything but a PostgreSQL URL."""
    try:
        url = make_url(text)
    except ArgumentError as exc:
        raise HubError(f"the hub URL is not a database URL: {exc}") from exc
    if url.get_backend_name() not in SCHEMES:
        raise HubError(f"the hub must be a PostgreSQL URL (postgresql://...), not {location_of(url)}")
    return url


def hub_location(text: str) -> str:
    """The hub as shown in messages: the password hidden."""
    return location_of(hub_url(text))


def conninfo(url: URL) -> str:
    """libpq's form of the URL (psycopg takes no `+driver` suffix); the query passes through."""
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


def connect_hub(text: str, **options: Any) -> psycopg.Connection[Any]:
    """An open connection to the hub, its `search_path` pinned; `HubError` with the server's words
    when it cannot be had."""
    url = hub_url(text)
    if "connect_timeout" not in url.query:
        options.setdefault("connect_timeout", CONNECT_TIMEOUT_S)
    try:
        conn = psycopg.connect(conninfo(url), **options)
    except psycopg.Error as exc:
        if url.password is None and wants_password(exc):
            return _pinned(_connect_with_keyring(url, exc, options), url)
        raise HubError(unreachable_message(location_of(url), exc)) from exc
    return _pinned(conn, url)


def _pinned(conn: psycopg.Connection[Any], url: URL) -> psycopg.Connection[Any]:
    """`conn` with `search_path` set to `pg_catalog` for the session (committed, so no rollback undoes
    it): an unqualified name can then only be PostgreSQL's own."""
    try:
        conn.execute(PIN_SEARCH_PATH)
        conn.commit()
    except psycopg.Error as exc:
        conn.close()
        raise HubError(unreachable_message(location_of(url), exc)) from exc
    return conn


def _connect_with_keyring(
    url: URL, refused: psycopg.Error, options: dict[str, Any]
) -> psycopg.Connection[Any]:
    """The server wants a password libpq's sources did not give: the OS keyring's, if it keeps one."""
    location = location_of(url)
    try:
        password = stored_password(url)
    except KeyringUnavailableError as exc:
        raise HubError(
            f"{unreachable_message(location, refused)} {NO_PASSWORD_HINT} ({exc.message})"
        ) from exc
    if password is None:
        raise HubError(
            f"{unreachable_message(location, refused)} {NO_PASSWORD_HINT}: none is kept for "
            f"{keyring_user(url)}"
        ) from refused
    try:
        return psycopg.connect(conninfo(url), password=password, **options)
    except psycopg.Error as exc:
        raise HubError(
            f"{unreachable_message(location, exc)} (the password came from the OS keyring)"
        ) from exc
