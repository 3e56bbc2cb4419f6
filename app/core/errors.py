"""Errors a user can cause: each carries a message fit to show as it is, and a CLI exit code."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.core.models import Memory

EXIT_ERROR = 1
EXIT_UNUSABLE_DATABASE = 3
EXIT_READ_ONLY = 4
EXIT_LEASE_HELD = 6


class StoreError(Exception):
    """A failure with a message for the person, not a traceback."""

    exit_code = EXIT_ERROR

    @property
    def message(self) -> str:
        return str(self)


class DatabaseOpenError(StoreError):
    """The database cannot be used: missing, not SQLite, without the host's tables, or locked."""

    exit_code = EXIT_UNUSABLE_DATABASE


class DatabaseLockedError(DatabaseOpenError):
    """Another process held the database past the busy timeout."""


class ReadOnlyError(StoreError):
    exit_code = EXIT_READ_ONLY


class NotFoundError(StoreError):
    pass


class InvalidInputError(StoreError):
    pass


class ConflictError(StoreError):
    """The memory changed since the caller read it (e.g. the host rewrote it during an edit)."""

    def __init__(self, message: str, current: Memory) -> None:
        super().__init__(message)
        self.current = current


class ExpiryRequiredError(StoreError):
    """Reactivating an expired memory needs a new expiry, or an explicit `never`."""


class LeaseHeldError(StoreError):
    """Another process holds the `user-memories` lease (the automated review is running), or took it from
    us before we committed."""

    exit_code = EXIT_LEASE_HELD


class DatabaseReplacedError(DatabaseOpenError):
    """The database file was deleted or replaced since the store opened it (see `file_identity`):
    a write would land in a file nobody can open again."""


def is_sqlalchemy_error(exc: BaseException, kind: str = "SQLAlchemyError") -> bool:
    """Whether `exc` is one of SQLAlchemy's `kind` errors, without importing SQLAlchemy: none can have
    been raised before it was imported (a window paints its first cards without it)."""
    errors = sys.modules.get("sqlalchemy.exc")
    return errors is not None and isinstance(exc, getattr(errors, kind))


def refusal_of(exc: BaseException) -> StoreError | None:
    """`exc` as the store's refusal a person is told of: a `StoreError` as it is, a database error
    (SQLAlchemy's `DatabaseError`) as "the database failed: …" with its exit code; None for any other
    error (a bug, which is raised)."""
    if isinstance(exc, StoreError):
        return exc
    if is_sqlalchemy_error(exc, "DatabaseError"):
        failed = DatabaseOpenError(f"the database failed: {getattr(exc, 'orig', exc)}")
        failed.__cause__ = exc
        return failed
    return None
