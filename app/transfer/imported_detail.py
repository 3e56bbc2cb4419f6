"""What an imported revision's `detail` keeps: what the history shows, never what the app acts on.

A revision's detail holds words the history shows (a dismissal's reason, the evidence an update named,
what an expiry revision changed) beside keys the app acts on: a delete's `row`, `expires_at` and
`first_seen_at` (what a trash restore writes back), `undo_of_run` (what a run's undo finds),
`previous_provenance` (what an undo puts back), `copied_from` (the hub's link), `imported_from` (the
revision an import adds). From a file these are another database's, or anyone's: each is kept under
`imported_<key>` (prefixed again where that name is taken), which nothing acts on; the shown ones stay as
they are. `restored_from` names a revision of the file: kept only when it is one of the same memory's
history (the import then points it at its copy here), else dropped.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from app.core.models import IMPORTED_SOURCE, RevisionKind

SHOWN_KEYS = frozenset({"reason", "evidence", "origin", "memory_source"})
EXPIRY_KEYS = frozenset({"expires_at", "previous_expires_at"})  # an expiry revision's: what it changed
RESTORED_FROM = "restored_from"
PREFIX = "imported_"
# The keys the import writes itself into each revision it copies.
IMPORTED_REVISION = "imported_revision_id"
IMPORTED_MEMORY = "imported_memory_id"
IMPORTED_RUN = "imported_run_id"
IMPORTED_DATABASE = "imported_database"
IMPORTED_CHANGED_AT = "imported_changed_at"  # a time past the import's own, which the copy does not keep
IMPORT_KEYS = frozenset(
    {
        IMPORTED_SOURCE,
        IMPORTED_REVISION,
        IMPORTED_MEMORY,
        IMPORTED_RUN,
        IMPORTED_DATABASE,
        IMPORTED_CHANGED_AT,
    }
)


def _shown(key: str, kind: str) -> bool:
    return key in SHOWN_KEYS or (kind == RevisionKind.EXPIRY and key in EXPIRY_KEYS)


def kept_detail(detail: Mapping[str, Any], kind: str, history: Collection[int]) -> dict[str, Any]:
    """`detail` of a revision of kind `kind` as an import keeps it (see the module docstring); `history`:
    the ids the file gives the same memory's revisions."""
    kept = {key: value for key, value in detail.items() if _shown(key, kind)}
    restored = detail.get(RESTORED_FROM)
    if type(restored) is int and restored in history:
        kept[RESTORED_FROM] = restored
    taken = set(kept) | IMPORT_KEYS
    for key, value in detail.items():
        if _shown(key, kind) or key == RESTORED_FROM:
            continue
        name = PREFIX + key
        while name in taken:
            name = PREFIX + name
        taken.add(name)
        kept[name] = value
    return kept
