"""Sources and trust (seed 001): a memory's ordered sources, and trust graded by its weakest source.

Sources are `scheme:value` strings: `session:<id>` per candidate session, `user:dashboard` once a person
edited the memory, `unknown:` when any of its candidate ids has no provenance. Trust by scheme: `user:`
trusted; `session:` and `unknown:` semi; `tool:`, `web:`, `external:` (and any scheme we do not know)
untrusted. A memory takes the trust of its weakest source, so mixing one trusted input into a poisoned
item buys it nothing, and a memory of unknown provenance is never trusted.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from app.core.provenance import ProvenanceEntry

TRUSTED = "trusted"
SEMI = "semi"
UNTRUSTED = "untrusted"
_RANK = {UNTRUSTED: 0, SEMI: 1, TRUSTED: 2}
_SCHEME_TRUST = {
    "user": TRUSTED,
    "session": SEMI,
    "unknown": SEMI,
    "tool": UNTRUSTED,
    "web": UNTRUSTED,
    "external": UNTRUSTED,
}
# A memory's sources (what it came from), not a revision's source (`app.core.models.RevisionSource`).
MEMORY_SOURCE_UNKNOWN = "unknown:"  # a candidate id without provenance
MEMORY_SOURCE_USER_EDIT = "user:dashboard"  # a person edited it in the dashboard


def source_trust(source: str) -> str:
    scheme, _, _ = source.partition(":")
    return _SCHEME_TRUST.get(scheme.lower(), UNTRUSTED)


def memory_trust(sources: Iterable[str]) -> str:
    """The weakest source's trust; a memory with no sources at all counts as unknown (semi)."""
    levels = [source_trust(source) for source in sources] or [SEMI]
    return min(levels, key=_RANK.__getitem__)


def derive_sources(
    candidate_ids: Sequence[int],
    provenance: Sequence[ProvenanceEntry] | None,
    own_sources: Sequence[str] = (),
) -> tuple[str, ...]:
    """Provenance sessions in order, `unknown:` if any id lacks an entry, then the dashboard's own sources."""
    ordered: list[str] = []
    for entry in provenance or ():
        source = f"session:{entry.session_id}"
        if source not in ordered:
            ordered.append(source)
    known = {entry.candidate_id for entry in provenance or ()}
    if provenance is None or any(item not in known for item in candidate_ids) or not (ordered or own_sources):
        ordered.append(MEMORY_SOURCE_UNKNOWN)
    for source in own_sources:
        if source not in ordered:
            ordered.append(source)
    return tuple(ordered)
