"""The memory store: host-compatible reads and writers, the dashboard's own tables, expiry and recall."""

from app.core.errors import (
    ConflictError,
    DatabaseLockedError,
    DatabaseOpenError,
    DatabaseReplacedError,
    ExpiryRequiredError,
    InvalidInputError,
    NotFoundError,
    ReadOnlyError,
    StoreError,
)
from app.core.models import Candidate, Counts, Memory, Revision
from app.store.read.query import MemoryFilter
from app.store.store import KEEP, MemoryStore

__all__ = [
    "KEEP",
    "Candidate",
    "ConflictError",
    "Counts",
    "DatabaseLockedError",
    "DatabaseOpenError",
    "DatabaseReplacedError",
    "ExpiryRequiredError",
    "InvalidInputError",
    "Memory",
    "MemoryFilter",
    "MemoryStore",
    "NotFoundError",
    "ReadOnlyError",
    "Revision",
    "StoreError",
]
