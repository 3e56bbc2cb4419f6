"""What a card shows, as plain values: its badges and the pieces of its meta line (no painting here).

The words come from `app.card` (shared with the CLI); this module only decides tones and tooltips.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.card import candidate_summary, expiry_badge, meta_parts, origin_counts, timestamps_tooltip
from app.screening import hidden_characters
from app.store.models import STATUS_ACTIVE, STATUS_DISMISSED, Memory
from app.trust import SEMI, TRUSTED, UNTRUSTED
from ui.theme import Tone

_TRUST = {
    TRUSTED: ("trusted", Tone.TEAL),
    SEMI: ("semi-trusted", Tone.NEUTRAL),
    UNTRUSTED: ("untrusted", Tone.RED),
}


@dataclass(frozen=True, slots=True)
class Badge:
    text: str
    tone: Tone
    tooltip: str


@dataclass(frozen=True, slots=True)
class MetaPiece:
    text: str
    emphasis: bool
    tooltip: str


def status_badge(memory: Memory) -> Badge:
    tone = {STATUS_ACTIVE: Tone.GREEN, STATUS_DISMISSED: Tone.NEUTRAL}.get(memory.status, Tone.PURPLE)
    tooltip = {
        STATUS_ACTIVE: "Active: injected into every session" if memory.injected else "Active, but expired",
        STATUS_DISMISSED: "Dismissed: not injected",
    }.get(memory.status, f"Status {memory.status!r}: the host does not inject it")
    return Badge(memory.status, tone, tooltip)


def side_badges(memory: Memory, now: int, highlighted: bool = False) -> list[Badge]:
    """The badges at the right of the card's header, in reading order."""
    badges: list[Badge] = []
    if highlighted:
        badges.append(Badge("changed", Tone.BLUE, "Changed by the last review run"))
    if memory.has_hidden_characters:
        found = hidden_characters(memory.content)
        listed = "\n".join(f"• {char.label} ({char.kind})" for char in found[:8])
        more = f"\n… and {len(found) - 8} more" if len(found) > 8 else ""
        badges.append(
            Badge("⚠ hidden characters", Tone.RED, f"This memory contains hidden characters:\n{listed}{more}")
        )
    expiry = expiry_badge(memory, now)
    if expiry is not None:
        badges.append(
            Badge(
                expiry, Tone.RED if memory.expired else Tone.AMBER, timestamps_tooltip(memory).split("\n")[-1]
            )
        )
    word, tone = _TRUST.get(memory.trust, (memory.trust, Tone.PURPLE))
    sources = "\n".join(f"• {source}" for source in memory.sources) or "• none recorded"
    badges.append(Badge(word, tone, f"Trust: {word} (the weakest source counts)\nSources:\n{sources}"))
    return badges


def meta_pieces(memory: Memory, now: int) -> list[MetaPiece]:
    """`promoted 23d ago`, `updated 2h ago` (emphasised), `from candidates: …` with their tooltips."""
    times = timestamps_tooltip(memory)
    pieces = []
    for part in meta_parts(memory, now):
        if part.startswith("from candidates:"):
            _, full = candidate_summary(memory.source_candidate_ids)
            unknown = memory.unknown_provenance_ids
            note = f"\nprovenance unknown: {', '.join(map(str, unknown))}" if unknown else ""
            pieces.append(MetaPiece(part, False, f"from candidates: {full}{note}"))
        else:
            pieces.append(MetaPiece(part, part.startswith("updated"), times))
    return pieces


def origin_piece(memory: Memory) -> MetaPiece | None:
    counts = origin_counts(memory)
    if counts is None:
        return None
    return MetaPiece(counts, False, "Candidates by how they joined: promotion, review rewrite, manual")
