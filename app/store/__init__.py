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
    from app.store.connect.file_access import remove_snapshots_of
    from app.store.kinds import PROJECT_MEMORIES
    from app.store.past.project_past import ProjectMemoryAsOf
    from app.store.project.model import ACTIVE, ARCHIVED, ProjectMemory
    from app.store.project.projects import Project
    from app.store.project.reads import ProjectKey
    from app.store.project.service import ProjectFilter, ProjectMemoryLinks
    from app.store.store import KEEP, MemoryStore

# The project memories' read models load with their first use too (the window's project page).
_LAZY = {
    "KEEP": "app.store.store",
    "MemoryStore": "app.store.store",
    "PROJECT_MEMORIES": "app.store.kinds",
    "ACTIVE": "app.store.project.model",
    "ARCHIVED": "app.store.project.model",
    "ProjectMemory": "app.store.project.model",
    "Project": "app.store.project.projects",
    "ProjectKey": "app.store.project.reads",
    "ProjectFilter": "app.store.project.service",
    "ProjectMemoryLinks": "app.store.project.service",
    "ProjectMemoryAsOf": "app.store.past.project_past",
    "remove_snapshots_of": "app.store.connect.file_access",
}

__all__ = [
    "ACTIVE",
    "ARCHIVED",
    "KEEP",
    "PROJECT_MEMORIES",
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
    "Project",
    "ProjectFilter",
    "ProjectKey",
    "ProjectMemory",
    "ProjectMemoryAsOf",
    "ProjectMemoryLinks",
    "ReadOnlyError",
    "Revision",
    "StoreError",
    "remove_snapshots_of",
]


__getattr__ = lazy_names(__name__, _LAZY)
