"""The memory store: host-compatible reads and writers, the dashboard's own tables, expiry and recall.

The names below load on first use (`__getattr__`): importing a module of this package (a model, a
pure helper) does not import SQLAlchemy, so the window can paint its first cards before it loads.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

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
from app.store.read.filters import MemoryFilter

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


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
