"""The hub's password in the OS keyring (the optional `keyring` package), never in our settings.

libpq's own sources come first: a password in the URL, `PGPASSWORD`, `PGPASSFILE` or `~/.pgpass`, a
service file. Only when the server asks for a password and none of them gave one (libpq says "no password
supplied") is the keyring asked: service `memory-dashboard-hub`, user name `USER@HOST:PORT` of the URL
(libpq's defaults filled in), and the connection tried once more with what it holds. `hub configure
--store-password` and File → Hub… put it there. `keyring` is imported only when one of these runs; where
it is not installed, or the machine has no keyring (a headless server), a lookup finds nothing and a save
is a `KeyringUnavailableError` saying so.
"""

from __future__ import annotations

import getpass
from typing import Any

from sqlalchemy.engine import URL

from app.core.errors import StoreError

SERVICE = "memory-dashboard-hub"
DEFAULT_PORT = 5432
INSTALL_HINT = "pip install 'memory-dashboard[keyring]'"
# libpq's words when the server wants a password and none of its sources gave one.
NO_PASSWORD_SUPPLIED = "no password supplied"


class KeyringUnavailableError(StoreError):
    """No OS keyring can be used here: `keyring` is not installed, or the machine has no backend."""


def _query_value(url: URL, key: str) -> str | None:
    value = url.query.get(key)
    if isinstance(value, tuple):
        value = value[0] if value else None
    return value or None


def keyring_user(url: URL) -> str:
    """The keyring's user name for a hub: `USER@HOST:PORT`, with libpq's defaults (the login name,
    localhost, 5432) where the URL leaves one out; a Unix socket's folder (`?host=/run/postgresql`) is
    the host."""
    user = url.username or _query_value(url, "user") or getpass.getuser()
    host = url.host or _query_value(url, "host") or "localhost"
    port = url.port or _query_value(url, "port") or DEFAULT_PORT
    return f"{user}@{host}:{port}"


def _keyring() -> Any:
    """The `keyring` module, or `KeyringUnavailableError` when it is not installed."""
    try:
        import keyring
    except ImportError as exc:
        raise KeyringUnavailableError(
            "the keyring package is not installed, so no OS keyring can be used; keep the password in "
            f"~/.pgpass or PGPASSFILE instead ({INSTALL_HINT})"
        ) from exc
    return keyring


def _unavailable(exc: Exception) -> KeyringUnavailableError:
    return KeyringUnavailableError(
        "no OS keyring is available on this machine; keep the password in ~/.pgpass or PGPASSFILE "
        f"instead (keyring: {exc})"
    )


def stored_password(url: URL) -> str | None:
    """The hub's password from the OS keyring; None where none is stored. `KeyringUnavailableError`
    where no keyring can be asked."""
    keyring = _keyring()
    try:
        found = keyring.get_password(SERVICE, keyring_user(url))
    except keyring.errors.KeyringError as exc:
        raise _unavailable(exc) from exc
    return found if isinstance(found, str) and found else None


def store_password(url: URL, password: str) -> str:
    """Put the hub's password in the OS keyring; returns the keyring's name (shown to the person)."""
    keyring = _keyring()
    try:
        keyring.set_password(SERVICE, keyring_user(url), password)
    except keyring.errors.KeyringError as exc:
        raise _unavailable(exc) from exc
    return str(getattr(keyring.get_keyring(), "name", type(keyring.get_keyring()).__name__))


def keyring_state(url: URL) -> str:
    """One line for a person: whether the keyring holds this hub's password, or why none can."""
    try:
        found = stored_password(url) is not None
    except KeyringUnavailableError as exc:
        return exc.message
    where = f"the OS keyring ({SERVICE}, {keyring_user(url)})"
    return f"a password is kept in {where}" if found else f"no password is kept in {where}"


def wants_password(exc: BaseException) -> bool:
    """Whether a failed connection asked for a password that none of libpq's sources gave."""
    return NO_PASSWORD_SUPPLIED in str(exc)
