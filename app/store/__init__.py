"""The memory store: host-compatible reads and writers, the dashboard's own tables, expiry and recall.

`MemoryStore` and `KEEP` load on first use (`app.core.lazy`): importing a module of this package (a
model, a pure helper) does not import SQLAlchemy, so the window can paint its first cards before it does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

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
from app.core.lazy import lazy_names
from app.core.models import Candidate, Counts, Memory, Revision
from app.core.models.filters import MemoryFilter

if TYPE_CHECKING:
    from app.store.store import KEEP, MemoryStore

_LAZY = {"KEEP": "app.store.store", "MemoryStore": "app.store.store"}

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


__getattr__ = lazy_names(__name__, _LAZY)
