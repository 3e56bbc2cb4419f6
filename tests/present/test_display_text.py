"""What the window says, as people read it: a deadline rounded (`in 7d`), a compartment range with an
unknown end (`from 12`), candidates counted by how they joined, the exact expiry, a card's accessible
description; and the settings a person types into Preferences, checked once."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from app.core.models import Memory
from app.core.provenance import ProvenanceEntry, compartment_span
from app.core.settings import Settings, SettingsError, edited, load_settings, save_settings
from app.present.card import accessible_description, accessible_name, expiry_line, origin_counts
from app.present.timefmt import DAY_MS, HOUR_MS, MINUTE_MS, YEAR_MS, relative

NOW = 1_792_552_412_000


@pytest.mark.parametrize(
    ("ahead", "text"),
    [
        (7 * DAY_MS - MINUTE_MS, "in 7d"),  # set "in 7 days" a minute ago
        (7 * DAY_MS - 11 * HOUR_MS, "in 7d"),
        (7 * DAY_MS - 13 * HOUR_MS, "in 6d"),
        (59 * MINUTE_MS + 40_000, "in 1h"),  # rounding reaches the next unit
        (23 * HOUR_MS + 40 * MINUTE_MS, "in 1d"),
        (29 * MINUTE_MS + 31_000, "in 30m"),
        (YEAR_MS, "in 1y"),
        (30_000, "just now"),
    ],
)
def test_the_future_is_rounded_as_people_read_a_deadline(ahead: int, text: str) -> None:
    assert relative(NOW + ahead, NOW) == text


def test_the_past_stays_floored() -> None:
    assert relative(NOW - (7 * DAY_MS - MINUTE_MS), NOW) == "6d ago"
    assert relative(NOW - (23 * HOUR_MS + 59 * MINUTE_MS), NOW) == "23h ago"


def test_compartment_span_never_looks_clipped() -> None:
    assert compartment_span(12, None) == "from 12"
    assert compartment_span(None, 15) == "up to 15"
    assert compartment_span(12, 15) == "12–15"
    assert compartment_span(19, 19) == "19"
    assert compartment_span(None, None) == "—"


def memory(**changes: object) -> Memory:
    base = Memory(
        id=312,
        content="Prefers pnpm",
        status="active",
        promoted_at=NOW - 6 * DAY_MS,
        created_at=NOW - 6 * DAY_MS,
        updated_at=NOW - 3 * HOUR_MS,
        source_candidate_ids=(733, 1231, 1232),
        provenance=(
            ProvenanceEntry(733, "ses_a", 19, 19),
            ProvenanceEntry(1231, "ses_b", 30, None, "update"),
            ProvenanceEntry(1232, "ses_c", 25, 27, "update"),
        ),
        provenance_raw=None,
        expires_at=NOW + 7 * DAY_MS - MINUTE_MS,
        as_of=NOW,
        rewritten=True,
        content_changed_at=NOW - 3 * HOUR_MS,
        sources=("session:ses_a", "session:ses_b", "session:ses_c"),
        trust="semi",
        has_hidden_characters=False,
    )
    return replace(base, **changes)  # type: ignore[arg-type]


def test_origin_counts_say_candidates() -> None:
    assert origin_counts(memory()) == "2 candidates from rewrites"
    assert origin_counts(memory(), promoted=True) == "1 candidate from promotion · 2 from rewrites"
    manual = (ProvenanceEntry(1, "s", None, None, "manual"), ProvenanceEntry(2, "s", None, None, "update"))
    assert origin_counts(memory(provenance=manual)) == "1 candidate from rewrites · 1 added by hand"
    odd = (ProvenanceEntry(1, "s", None, None, "import"), ProvenanceEntry(2, "s", None, None, "import"))
    assert origin_counts(memory(provenance=odd)) == "2 candidates of origin import"


def test_expiry_line_has_the_exact_date() -> None:
    assert expiry_line(memory(), NOW) == "expires 2026-10-28 03:12:32 UTC (in 7d)"
    assert expiry_line(memory(expires_at=NOW - DAY_MS), NOW) == "expired 2026-10-20 03:13:32 UTC (1d ago)"
    assert expiry_line(memory(expires_at=None), NOW) is None


def test_accessible_name_and_description_carry_status_times_provenance_and_trust() -> None:
    shown = memory()
    assert accessible_name(shown, "Prefers pnpm") == "Memory 312, active, expires in 7d: Prefers pnpm"
    description = accessible_description(shown)
    for part in (
        "promoted 6d ago",
        "updated 3h ago",
        "from candidates: 733, 1231, 1232",
        "1 candidate from promotion · 2 from rewrites",
        "provenance recorded for every candidate",
        "semi-trusted (sources: session:ses_a, session:ses_b, session:ses_c)",
        "expires 2026-10-28",
    ):
        assert part in description
    unknown = accessible_description(memory(provenance=None, trust="untrusted"))
    assert "provenance unknown for 3 of 3 candidates" in unknown and "untrusted" in unknown


def test_preferences_edits_are_checked_and_keep_the_files_other_keys(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"theme": "dark", "reviewer_command": None}), encoding="utf-8")
    loaded = load_settings(path)
    save_settings(edited(loaded, "  claude -p  ", 90), path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data == {"theme": "dark", "reviewer_command": "claude -p", "reviewer_timeout_s": 90.0}
    assert edited(loaded, "   ", 600).reviewer_command is None  # blank: no reviewer
    with pytest.raises(SettingsError, match="reviewer command must be one line"):
        edited(Settings(), "a\nb", 600)
    with pytest.raises(SettingsError, match="NUL"):
        edited(Settings(), "a\0b", 600)
    with pytest.raises(SettingsError, match="reviewer timeout"):
        edited(Settings(), "claude", 0)
