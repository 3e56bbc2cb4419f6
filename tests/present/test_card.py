"""The card's meta line, candidate summary, origin counts and expiry badge (pure, no Qt)."""

from __future__ import annotations

from dataclasses import replace

from app.core.models import Memory
from app.core.provenance import ProvenanceEntry
from app.present.card import (
    accessible_description,
    candidate_summary,
    card_meta,
    expiry_badge,
    origin_counts,
    shown_source,
    sources_line,
    timestamps_tooltip,
)

DAY = 86_400_000
HOUR = 3_600_000
NOW = 1_792_552_412_000


def memory(**changes: object) -> Memory:
    base = Memory(
        id=5,
        content="Prefers pnpm",
        status="active",
        promoted_at=NOW - 23 * DAY - 5 * HOUR,
        created_at=NOW - 23 * DAY,
        updated_at=NOW - 2 * HOUR,
        source_candidate_ids=(46, 47, 48, 141, 143, 145, 146, 151, 152),
        provenance=None,
        provenance_raw=None,
        expires_at=None,
        as_of=NOW,
        rewritten=True,
        content_changed_at=NOW - 2 * HOUR,
        sources=("unknown:",),
        trust="semi",
        has_hidden_characters=False,
    )
    return replace(base, **changes)  # type: ignore[arg-type]


def test_card_meta_of_a_rewritten_memory_matches_the_seed() -> None:
    assert card_meta(memory(), NOW) == (
        "active · promoted 23d ago · updated 2h ago · "
        "from candidates: 46, 47, 48, 141, 143, 145, 146, 151 +1 more"
    )


def test_untouched_memory_has_no_updated_marker() -> None:
    text = card_meta(memory(rewritten=False, content_changed_at=None, source_candidate_ids=(46,)), NOW)
    assert text == "active · promoted 23d ago · from candidates: 46"


def test_candidate_summary_keeps_eight_and_the_full_list() -> None:
    assert candidate_summary(list(range(1, 9))) == ("1, 2, 3, 4, 5, 6, 7, 8", "1, 2, 3, 4, 5, 6, 7, 8")
    short, full = candidate_summary(list(range(1, 12)))
    assert short == "1, 2, 3, 4, 5, 6, 7, 8 +3 more"
    assert full.endswith("9, 10, 11")
    assert candidate_summary([]) == ("", "")


def test_origin_counts_only_when_provenance_has_other_origins() -> None:
    def entry(cid: int, origin: str) -> ProvenanceEntry:
        return ProvenanceEntry(cid, "ses", None, None, origin)

    promoted = tuple(entry(i, "promotion") for i in (46, 47, 48))
    assert origin_counts(memory(provenance=promoted)) is None
    mixed = (*promoted, entry(141, "update"), entry(143, "update"))
    assert origin_counts(memory(provenance=mixed)) == "2 candidates from rewrites"
    assert (
        origin_counts(memory(provenance=mixed), promoted=True)
        == "3 candidates from promotion · 2 from rewrites"
    )
    assert origin_counts(memory(provenance=None)) is None


def test_expiry_badge() -> None:
    assert expiry_badge(memory(), NOW) is None
    assert expiry_badge(memory(expires_at=NOW + 3 * DAY + HOUR), NOW) == "expires in 3d"
    assert expiry_badge(memory(expires_at=NOW + 10), NOW) == "expires in <1m"
    assert expiry_badge(memory(expires_at=NOW), NOW) == "expired"


def test_tooltip_has_absolute_times() -> None:
    text = timestamps_tooltip(memory(expires_at=NOW + DAY))
    assert "promoted 2026-" in text and "updated 2026-10-21" in text and "expires 2026-10-22" in text


def test_a_source_never_shows_as_a_dangling_label() -> None:
    assert shown_source("unknown:") == "provenance unknown"
    assert shown_source("session:") == "session (no id)"  # a provenance entry with an empty session id
    assert shown_source("session: \t") == "session (no id)"
    assert (
        shown_source("session:ses_a1") == "session:ses_a1"
        and shown_source("user:dashboard") == "user:dashboard"
    )
    assert shown_source("session:ses\u202eevil") == "session:ses⟦U+202E⟧evil"
    assert sources_line(("session:ses_a1", "unknown:")) == "session:ses_a1, provenance unknown"
    assert (
        sources_line(tuple(f"session:s{i}" for i in range(6)))
        == "session:s0, session:s1, session:s2, session:s3 +2 more"
    )
    assert sources_line(()) == "none recorded"
    description = accessible_description(memory(sources=("unknown:",)))
    assert "(sources: provenance unknown)" in description and "unknown:" not in description
