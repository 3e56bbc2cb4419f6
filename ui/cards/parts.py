"""What a card shows, as plain values: its badges and the pieces of its meta line (no painting here).

The words come from `app.present.card` (shared with the CLI); this module only decides tones and tooltips.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from app.core.models import Memory, MemoryStatus
from app.core.screening import hidden_characters
from app.core.trust import SEMI, TRUSTED, UNTRUSTED
from app.present.card import (
    candidate_summary,
    expiry_badge,
    malformed_badge,
    meta_parts,
    oddities_tooltip,
    origin_counts,
    shown_source,
    shown_word,
    timestamps_tooltip,
)
from ui.widgets.theme import Tone

HIDDEN_SCAN_CHARS = 4096  # hidden characters are listed from this much of the start of a memory
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
    target: int | None = None  # a link's: the memory a click selects


def status_badge(memory: Memory) -> Badge:
    tones: dict[str, Tone] = {MemoryStatus.ACTIVE: Tone.GREEN, MemoryStatus.DISMISSED: Tone.NEUTRAL}
    tips: dict[str, str] = {
        MemoryStatus.ACTIVE: "Active: injected into every session"
        if memory.injected
        else "Active, but expired",
        MemoryStatus.DISMISSED: "Dismissed: not injected",
    }
    tone = tones.get(memory.status, Tone.PURPLE)
    tooltip = tips.get(memory.status, f"Status {shown_word(memory.status, 200)}: the host does not inject it")
    return Badge(shown_word(memory.status), tone, tooltip)


def malformed(memory: Memory) -> Badge | None:
    """The red `malformed` badge of a row the store found odd, its oddities in the tooltip."""
    word = malformed_badge(memory)
    if word is None:
        return None
    tip = f"The host's row holds values its schema does not mean; shown as read:\n{oddities_tooltip(memory)}"
    return Badge(word, Tone.RED, tip)


def hidden_list(content: str) -> str:
    """The hidden characters at the start of `content`, one bullet each (a memory can be megabytes)."""
    found = hidden_characters(content[:HIDDEN_SCAN_CHARS])
    if not found:
        return "• further into the text"
    listed = "\n".join(f"• {char.label} ({char.kind})" for char in found[:8])
    return listed + (f"\n… and {len(found) - 8} more" if len(found) > 8 else "")


def panel_warnings(memory: Memory, scan_chars: int) -> list[str]:
    """The history panel's warnings: a malformed row, hidden characters (in the first `scan_chars`)."""
    lines = []
    if memory.oddities:
        more = [f"… and {len(memory.oddities) - 4} more"] if len(memory.oddities) > 4 else []
        lines.append("\n• ".join(["⚠ Malformed row, shown as read:", *memory.oddities[:4], *more]))
    if memory.has_hidden_characters:
        labels = ", ".join(sorted({char.label for char in hidden_characters(memory.content[:scan_chars])}))
        lines.append(f"⚠ Hidden characters (shown as ⟦U+…⟧): {labels or 'further into the text'}")
    return lines


def side_badges(memory: Memory, now: int, highlighted: bool = False) -> list[Badge]:
    """The badges at the right of the card's header, in reading order."""
    badges: list[Badge] = []
    if highlighted:
        badges.append(Badge("changed", Tone.BLUE, "Changed since you last looked (Ctrl+Shift+L lists what)"))
    odd = malformed(memory)
    if odd is not None:
        badges.append(odd)
    if memory.has_hidden_characters:
        tip = f"This memory contains hidden characters:\n{hidden_list(memory.content)}"
        badges.append(Badge("⚠ hidden characters", Tone.RED, tip))
    expiry = expiry_badge(memory, now)
    if expiry is not None:
        badges.append(
            Badge(
                expiry, Tone.RED if memory.expired else Tone.AMBER, timestamps_tooltip(memory).split("\n")[-1]
            )
        )
    word, tone = _TRUST.get(memory.trust, (memory.trust, Tone.PURPLE))
    sources = "\n".join(f"• {shown_source(source)}" for source in memory.sources) or "• none recorded"
    screened = any(reason.startswith("screened") for reason in memory.trust_reasons)
    why = "".join(f"\n• {reason}" for reason in memory.trust_reasons)
    tip = f"Trust: {word} (the weakest source counts){why}\nSources:\n{sources}"
    badges.append(Badge(f"{word} (screened)" if screened else word, tone, tip))
    return badges


CANDIDATES_TIP = "from candidates: "  # how the candidates' tooltip starts (`EvidenceTips` adds their words)


def meta_pieces(memory: Memory, now: int) -> list[MetaPiece]:
    """`promoted 23d ago`, `updated 2h ago` (emphasised), `from candidates: …` with their tooltips."""
    times = timestamps_tooltip(memory)
    pieces = []
    for part in meta_parts(memory, now):
        if part.startswith("from candidates:"):
            _, full = candidate_summary(memory.source_candidate_ids)
            unknown = memory.unknown_provenance_ids
            note = f"\nprovenance unknown: {', '.join(map(str, unknown))}" if unknown else ""
            pieces.append(MetaPiece(part, False, f"{CANDIDATES_TIP}{full}{note}"))
        else:
            pieces.append(MetaPiece(part, part.startswith("updated"), times))
    return pieces


def origin_piece(memory: Memory) -> MetaPiece | None:
    counts = origin_counts(memory)
    if counts is None:
        return None
    every = origin_counts(memory, promoted=True) or counts
    return MetaPiece(counts, False, f"Candidates by how they joined this memory:\n{every}")


_LINKED_ID = re.compile(r"#(\d+)")


def link_pieces(phrases: Sequence[str]) -> list[MetaPiece]:
    """A card's links ("merged from #7, #9", `grouped_phrases`), emphasised; a click selects the first
    memory named (the tooltip names every one)."""
    pieces = []
    for phrase in phrases:
        found = _LINKED_ID.search(phrase)
        target = int(found.group(1)) if found else None
        tip = f"{phrase[:1].upper()}{phrase[1:]}" + ("\nClick to select it" if target is not None else "")
        pieces.append(MetaPiece(phrase, True, tip, target))
    return pieces
