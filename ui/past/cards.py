"""What a card of the past shows: one memory's state at an instant as card parts (status badge, the
badges of its facts then, its text then, a meta line) and as words for a screen reader. Plain values:
`ui.cards.layout.layout_parts` places them, as it places a card of now."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.core.clock import format_instant
from app.core.models import MemoryStatus
from app.present.card import shown_word
from app.present.timefmt import relative
from ui.cards.layout import CardParts, card_text
from ui.cards.parts import Badge, MetaPiece
from ui.widgets.theme import Tone

if TYPE_CHECKING:
    from app.core.models.as_of import MemoryAsOf

UNKNOWN = "unknown"
_TONES: dict[str, Tone] = {MemoryStatus.ACTIVE: Tone.GREEN, MemoryStatus.DISMISSED: Tone.NEUTRAL}


def status_badge(state: MemoryAsOf) -> Badge:
    if not state.known:
        tip = f"{state.unknown_note}: the dashboard has no record of this memory at this instant"
        return Badge(UNKNOWN, Tone.AMBER, tip)
    status = state.status or ""
    if status == MemoryStatus.ACTIVE:
        tip = (
            "Active then, but expired" if state.expired else "Active then: in the profile the agent was shown"
        )
    elif status == MemoryStatus.DISMISSED:
        tip = "Dismissed then: not shown to the agent"
    else:
        tip = f"Status {shown_word(status, 200)} then: the host does not inject it"
    return Badge(shown_word(status), _TONES.get(status, Tone.PURPLE), tip)


def expiry_words(state: MemoryAsOf) -> str | None:
    """`expired`, `expires in 3d` (from the instant shown), or None."""
    if state.expires_at is None:
        return None
    if state.expired:
        return "expired"
    return f"expires {relative(state.expires_at, state.at)}"


def side_badges(state: MemoryAsOf) -> list[Badge]:
    """Deleted since, the expiry then. Whether the agent was shown it is the card's look (dimmed when
    not, as a card of now), said in words by the panel and to a screen reader."""
    badges: list[Badge] = []
    if not state.exists_now:
        badges.append(
            Badge("deleted since", Tone.RED, "Deleted after this instant (the Deleted filter lists it now)")
        )
    expiry = expiry_words(state)
    if expiry is not None and state.expires_at is not None:
        verb = "expired" if state.expired else "expires"
        badges.append(
            Badge(
                expiry,
                Tone.RED if state.expired else Tone.AMBER,
                f"{verb} {format_instant(state.expires_at)}",
            )
        )
    return badges


def meta_pieces(state: MemoryAsOf) -> list[MetaPiece]:
    pieces: list[MetaPiece] = []
    if state.promoted_at is not None:
        when = relative(state.promoted_at, state.at)
        pieces.append(
            MetaPiece(
                f"promoted {format_instant(state.promoted_at)}", False, f"{when} from the instant shown"
            )
        )
    if state.changed_at is not None and state.changed_at != state.promoted_at:
        when = relative(state.changed_at, state.at)
        tip = f"Its last recorded change at or before the instant shown ({when})"
        pieces.append(MetaPiece(f"last change {format_instant(state.changed_at)}", True, tip))
    if not state.known and state.unknown_before is not None:
        tip = "When the dashboard first recorded this memory: nothing is known of it before"
        pieces.append(MetaPiece(f"first seen {format_instant(state.unknown_before)}", True, tip))
    return pieces


def card_parts(state: MemoryAsOf) -> CardParts:
    text = card_text(state.content or "") if state.known else state.unknown_note
    return CardParts(
        status_badge(state), side_badges(state), text, meta_pieces(state), dim=not state.injected
    )


def accessible_name(state: MemoryAsOf) -> str:
    """`Memory 5 as of 2026-10-21 05:13:31 UTC, active, shown to the agent: Prefers pnpm`."""
    shown = "shown to the agent" if state.injected else "not shown to the agent"
    words = [status_badge(state).text, *(badge.text for badge in side_badges(state)), shown]
    text = card_text(state.content or "") if state.known else state.unknown_note
    return f"Memory {state.memory_id} as of {format_instant(state.at)}, {', '.join(words)}: {text}"


def accessible_description(state: MemoryAsOf) -> str:
    return "; ".join(piece.text for piece in meta_pieces(state)) or "no dates recorded"
