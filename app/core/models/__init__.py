"""The read models the store hands out: frozen rows, safe to pass between threads and cache in a view.

One module per family: `memory` (memories, candidates, revisions, counts; re-exported here, so
`from app.core.models import Memory` reads as it always did), `filters` (a listing's filter, without
SQLAlchemy), `evidence` (the candidates' archived words), `as_of` (a memory at an instant), `blame`,
`digest` (what changed since the last look), `runs` (review runs and their undo) and `imports` (what an
import did). None imports SQLAlchemy: the window paints its first cards before it is loaded.
"""

from __future__ import annotations

from app.core.models.memory import (
    EMPTY_DETAIL,
    IMPORTED_FROM,
    IMPORTED_SOURCE,
    KEEP,
    REWRITE_THRESHOLD_MS,
    UNDO_KEY,
    Candidate,
    ChangeKind,
    Counts,
    Keep,
    Memory,
    MemoryStatus,
    Revision,
    RevisionKind,
    RevisionSource,
)

__all__ = [
    "EMPTY_DETAIL",
    "IMPORTED_FROM",
    "IMPORTED_SOURCE",
    "KEEP",
    "REWRITE_THRESHOLD_MS",
    "UNDO_KEY",
    "Candidate",
    "ChangeKind",
    "Counts",
    "Keep",
    "Memory",
    "MemoryStatus",
    "Revision",
    "RevisionKind",
    "RevisionSource",
]
