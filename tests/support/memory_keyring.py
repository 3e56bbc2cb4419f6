"""A keyring backend for the tests: passwords in a dict of this process (`keyring.set_keyring`), so the
code that asks the OS keyring runs for real without touching the person's own keyring."""

from __future__ import annotations

from collections.abc import Iterator

import keyring
import keyring.backend
import pytest
from keyring.errors import PasswordDeleteError


class MemoryKeyring(keyring.backend.KeyringBackend):
    """Passwords by (service, user name), kept while the test runs."""

    priority = 1

    def __init__(self) -> None:
        super().__init__()  # type: ignore[no-untyped-call]  # keyring's own __init__ has no annotations
        self.kept: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.kept.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.kept[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        if self.kept.pop((service, username), None) is None:
            raise PasswordDeleteError(f"no password for {username}")


@pytest.fixture
def memory_keyring() -> Iterator[MemoryKeyring]:
    """The OS keyring replaced by a `MemoryKeyring` for one test, the one before put back after."""
    before = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    yield backend
    keyring.set_keyring(before)
