"""Resolve a pair that may contradict: keep one memory over the other, one command of the command layer
(`app.commands.resolving`), for user memories and for the memories of one project. The window's Tidy
dialog ("Keep this one") and the CLI's `resolve` both come here; the finder never does."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from app.commands.resolving import ResolveContradiction, ResolveProjectContradiction
from app.commands.runner import execute

if TYPE_CHECKING:
    from app.store import MemoryStore

Kind = Literal["user", "project"]


def keep_over(store: MemoryStore, kept: int, other: int, origin: str, *, kind: Kind = "user") -> None:
    """Keep `kept`, set `other` aside (dismissed, or archived with a reason), link them; undoable."""
    if kind == "project":
        execute(store, ResolveProjectContradiction(kept, other), origin)
    else:
        execute(store, ResolveContradiction(kept, other), origin)
