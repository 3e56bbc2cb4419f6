"""The card's text: the meta line (`active · promoted 23d ago · updated 2h ago · from candidates: …`),
the candidate list summary, origin counts, the expiry badge and the absolute timestamps of the tooltip.

Pure functions of a `Memory` and `now` (epoch ms), shared by the CLI (`show --json` card_meta) and the
window's card delegate, so both say the same thing. What comes from the host's row as text it does not
write itself (a status of any length, an origin) is shown on one line with hidden characters visible.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from app.core.clock import format_instant
from app.core.models import Memory
from app.core.provenance import ORIGIN_MANUAL, ORIGIN_PROMOTION, ORIGIN_UPDATE
from app.core.screening import make_visible
from app.core.trust import MEMORY_SOURCE_UNKNOWN, SEMI, TRUSTED, UNTRUSTED
from app.present.timefmt import relative

FIRST_CANDIDATES = 8
FIRST_SOURCES = 4
UNKNOWN_SOURCE = "provenance unknown"  # how `unknown:` reads: a candidate whose session nobody recorded
WORD_CHARS = 40  # a status or an origin is a word; a host row's can be anything, of any length
MALFORMED = "malformed"  # the badge of a row with `oddities`
_LINE_BREAKS = str.maketrans({"\t": "\\t", "\n": "\\n", "\r": "\\r"})
# How a candidate joined its memory, said of candidates: "12 candidates from rewrites", not "12 rewritten"
# (which reads as if the memory had been rewritten twelve times).
_ORIGIN_WORDS = {
    ORIGIN_PROMOTION: "from promotion",
    ORIGIN_UPDATE: "from rewrites",
    ORIGIN_MANUAL: "added by hand",
}


def candidate_summary(ids: Sequence[int], first: int = FIRST_CANDIDATES) -> tuple[str, str]:
    """(`46, 47, 48 +2 more`, the full comma-separated list); both empty for no ids."""
    full = ", ".join(str(item) for item in ids)
    if len(ids) <= first:
        return full, full
    shown = ", ".join(str(item) for item in ids[:first])
    return f"{shown} +{len(ids) - first} more", full


def shown_word(text: str, limit: int = WORD_CHARS) -> str:
    """A status or an origin on one line: cut to `limit`, line breaks as `\\n`, hidden characters visible,
    quoted when empty or padded (a status "active " must not look like "active": only exactly "active"
    is injected)."""
    cut = text if len(text) <= limit else text[: limit - 1] + "…"
    shown = make_visible(cut.translate(_LINE_BREAKS))
    return shown if shown and shown == shown.strip() else f"'{shown}'"


def shown_source(source: str) -> str:
    """A memory's source as a person reads it: `session:ses_abc` and `user:dashboard` as they are (the names
    `trust` takes), `unknown:` as `provenance unknown`, a source with nothing after its scheme (an empty
    session id) as `session (no id)` rather than a dangling `session:`; on one line, hidden characters
    visible."""
    if source == MEMORY_SOURCE_UNKNOWN:
        return UNKNOWN_SOURCE
    scheme, colon, value = source.partition(":")
    if colon and not value.strip():
        return f"{shown_word(scheme or '?')} (no id)"
    return shown_word(source, 200)


def sources_line(sources: Sequence[str], first: int = FIRST_SOURCES) -> str:
    """`session:ses_a1, provenance unknown +2 more`: the first sources, or `none recorded`."""
    shown = ", ".join(shown_source(source) for source in sources[:first])
    more = f" +{len(sources) - first} more" if len(sources) > first else ""
    return f"{shown}{more}" if shown else "none recorded"


def malformed_badge(memory: Memory) -> str | None:
    """`malformed` when the host's row held values its schema does not mean (see `Memory.oddities`)."""
    return MALFORMED if memory.oddities else None


def oddities_tooltip(memory: Memory) -> str:
    """The oddities, one per line (raw values already escaped and cut by `app.store.read.rows`)."""
    return "\n".join(memory.oddities)


def origin_counts(memory: Memory, *, promoted: bool = False) -> str | None:
    """`12 candidates from rewrites · 4 added by hand` when provenance records an origin other than
    promotion, else None; `promoted` also counts those promoted with it, first (`1 candidate from
    promotion · 12 from rewrites`). The noun is said once, with the first count."""
    entries = memory.provenance or ()
    counts = Counter(entry.origin for entry in entries)
    if not entries or set(counts) <= {ORIGIN_PROMOTION}:
        return None
    ordered = [*_ORIGIN_WORDS, *sorted(set(counts) - set(_ORIGIN_WORDS))]
    shown = [o for o in ordered if counts[o] and (promoted or o != ORIGIN_PROMOTION)]

    def counted(origin: str, first: bool) -> str:
        noun = (" candidate" if counts[origin] == 1 else " candidates") if first else ""
        how = _ORIGIN_WORDS.get(origin) or f"of origin {shown_word(origin)}"
        return f"{counts[origin]}{noun} {how}"

    return " · ".join(counted(origin, index == 0) for index, origin in enumerate(shown))


def meta_parts(memory: Memory, now: int) -> list[str]:
    """The meta line without its leading status: promoted, updated (only when rewritten), candidates."""
    parts = [f"promoted {relative(memory.promoted_at, now)}"]
    if memory.rewritten:
        parts.append(f"updated {relative(updated_at(memory), now)}")
    if memory.source_candidate_ids:
        parts.append(f"from candidates: {candidate_summary(memory.source_candidate_ids)[0]}")
    return parts


def card_meta(memory: Memory, now: int) -> str:
    """`active · promoted 23d ago · updated 2h ago · from candidates: 46, 47, 48, … +1 more`, and
    `· malformed` last for a row with oddities."""
    badge = malformed_badge(memory)
    return " · ".join([shown_word(memory.status), *meta_parts(memory, now), *([badge] if badge else [])])


def updated_at(memory: Memory) -> int:
    """The time of the last content change (what `updated …` means on a card)."""
    return memory.content_changed_at if memory.content_changed_at is not None else memory.updated_at


def expiry_badge(memory: Memory, now: int) -> str | None:
    """`expires in 3d`, `expires in <1m`, `expired`, or None when the memory never expires."""
    if memory.expires_at is None:
        return None
    if now >= memory.expires_at:
        return "expired"
    when = relative(memory.expires_at, now)
    return "expires in <1m" if when == "just now" else f"expires {when}"


def timestamps_tooltip(memory: Memory) -> str:
    """Absolute timestamps, one per line, for the card's tooltip."""
    lines = [f"promoted {format_instant(memory.promoted_at)}"]
    if memory.rewritten:
        lines.append(f"updated {format_instant(updated_at(memory))}")
    if memory.updated_at != memory.promoted_at and updated_at(memory) != memory.updated_at:
        lines.append(f"row updated {format_instant(memory.updated_at)}")
    if memory.expires_at is not None:
        verb = "expired" if memory.expired else "expires"
        lines.append(f"{verb} {format_instant(memory.expires_at)}")
    return "\n".join(lines)


def expiry_line(memory: Memory, now: int) -> str | None:
    """The exact expiry for the panel's header: `expires 2026-10-28 03:13:32 UTC (in 7d)`, `expired …`."""
    if memory.expires_at is None:
        return None
    when = format_instant(memory.expires_at)
    if now >= memory.expires_at:
        return f"expired {when} ({relative(memory.expires_at, now)})"
    return f"expires {when} ({relative(memory.expires_at, now)})"


TRUST_WORDS = {TRUSTED: "trusted", SEMI: "semi-trusted", UNTRUSTED: "untrusted"}


def accessible_name(memory: Memory, text: str) -> str:
    """What a screen reader says first of a card: `Memory 5, active, expires in 3d: Prefers pnpm`
    (`text` is the card's shown start of the content)."""
    badges = [shown_word(memory.status)]
    expiry = expiry_badge(memory, memory.as_of)
    if expiry is not None:
        badges.append(expiry)
    if memory.oddities:
        badges.append(MALFORMED)
    return f"Memory {memory.id}, {', '.join(badges)}: {text}"


def accessible_description(memory: Memory) -> str:
    """The rest of what the card shows, as sentences a screen reader can say: times, candidates and
    their origins, provenance, trust and its sources (judged at the row's `as_of`)."""
    now = memory.as_of
    parts = [*meta_parts(memory, now)]
    counts = origin_counts(memory, promoted=True)
    if counts is not None:
        parts.append(counts)
    unknown = memory.unknown_provenance_ids
    if memory.source_candidate_ids:
        parts.append(
            f"provenance unknown for {len(unknown)} of {len(memory.source_candidate_ids)} candidates"
            if unknown
            else "provenance recorded for every candidate"
        )
    trust = TRUST_WORDS.get(memory.trust, shown_word(memory.trust))
    parts.append(f"{trust} (sources: {sources_line(memory.sources)})")
    if memory.expires_at is not None:
        parts.append(timestamps_tooltip(memory).split("\n")[-1])
    if memory.has_hidden_characters:
        parts.append("contains hidden characters")
    return "; ".join(parts)
