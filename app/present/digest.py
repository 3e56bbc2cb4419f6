"""The digest in words: its headline and counts, the same in the window and the CLI."""

from __future__ import annotations

from app.core.clock import format_instant
from app.core.models.digest import Digest
from app.core.models.memory import ChangeKind
from app.present.timefmt import relative


def count_label(kind: str, count: int) -> str:
    """`3 rewritten`, `2 new candidates`."""
    if kind == ChangeKind.CANDIDATE:
        return f"{count} new candidate{'' if count == 1 else 's'}"
    return f"{count} {kind}"


def headline(digest: Digest, now: int) -> str:
    """`Since you last looked (2026-10-21 03:13:32 UTC, 2h ago): 3 rewritten · 1 new`."""
    when = "you never looked" if digest.since is None else f"{format_instant(digest.since)}, "
    if digest.since is not None:
        when += relative(digest.since, now)
    counts = " · ".join(count_label(kind, n) for kind, n in digest.counts().items())
    return f"Since you last looked ({when}): {counts or 'nothing changed.'}"
