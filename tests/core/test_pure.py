"""The small pure modules: relative times, instants, provenance JSON, trust, hidden characters, paths."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.core.clock import parse_instant
from app.core.provenance import (
    ProvenanceEntry,
    host_can_read,
    merged_provenance_json,
    parse_provenance,
    union_ids,
)
from app.core.screening import has_hidden_characters, hidden_characters, make_visible
from app.core.trust import derive_sources, memory_trust
from app.present.timefmt import DAY_MS, HOUR_MS, MINUTE_MS, parse_duration, relative

NOW = 1_800_000_000_000


@pytest.mark.parametrize(
    ("delta", "text"),
    [
        (0, "just now"),
        (59_999, "just now"),
        (MINUTE_MS, "1m ago"),
        (2 * HOUR_MS, "2h ago"),
        (int(23.6 * DAY_MS), "23d ago"),
        (59 * DAY_MS, "59d ago"),
        (60 * DAY_MS, "2mo ago"),
        (364 * DAY_MS, "12mo ago"),
        (365 * DAY_MS, "1y ago"),
        (-3 * DAY_MS, "in 3d"),
    ],
)
def test_relative_is_floored(delta: int, text: str) -> None:
    assert relative(NOW - delta, NOW) == text


def test_parse_instant_and_duration() -> None:
    assert parse_instant("1700000000000") == 1_700_000_000_000
    assert parse_instant("2026-10-21T03:13:32Z") == 1_792_552_412_000
    assert parse_instant("2026-10-21T03:13:32") == 1_792_552_412_000
    assert parse_duration("7d") == 7 * DAY_MS and parse_duration("3mo") == 90 * DAY_MS
    with pytest.raises(ValueError):
        parse_duration("soon")
    with pytest.raises(ValueError):
        parse_instant("tomorrow")


@given(st.lists(st.integers(1, 50)), st.lists(st.integers(1, 50)))
def test_union_is_order_preserving_and_duplicate_free(existing: list[int], appended: list[int]) -> None:
    merged, added = union_ids(existing, appended)
    assert len(merged) == len(set(merged))
    assert set(merged) == set(existing) | set(appended)
    assert list(merged[: len(dict.fromkeys(existing))]) == list(dict.fromkeys(existing))
    assert set(added) == set(appended) - set(existing)
    assert union_ids(merged, appended)[1] == ()


entries = st.builds(
    ProvenanceEntry,
    candidate_id=st.integers(1, 10_000),
    session_id=st.text(min_size=1, max_size=12),
    compartment_start=st.none() | st.integers(0, 99),
    compartment_end=st.none() | st.integers(0, 99),
    origin=st.sampled_from(["promotion", "update", "manual"]),
    added_at=st.none() | st.integers(0, NOW),
)


@given(
    st.none() | st.lists(entries, max_size=5).map(lambda e: json.dumps([x.to_json() for x in e])),
    st.lists(entries, max_size=5),
)
def test_merged_provenance_is_never_null_when_something_was_found(
    previous: str | None, found: list[ProvenanceEntry]
) -> None:
    merged = merged_provenance_json(previous, found)
    if not found:
        assert merged == previous
    else:
        assert merged is not None and host_can_read(merged)
        ids = [e.candidate_id for e in parse_provenance(merged) or ()]
        for entry in found:
            assert entry.candidate_id in ids


def test_host_reader_rules() -> None:
    good = {
        "candidate_id": 1,
        "session_id": "s",
        "source_compartment_start": None,
        "source_compartment_end": 2,
    }
    assert host_can_read(json.dumps([good]))
    assert host_can_read(None)
    for broken in (
        {k: v for k, v in good.items() if k != "source_compartment_end"},
        {**good, "candidate_id": "1"},
        {**good, "candidate_id": True},
        {**good, "session_id": 5},
    ):
        assert not host_can_read(json.dumps([good, broken]))
        assert parse_provenance(json.dumps([good, broken])) is None
    assert not host_can_read("not json")
    assert parse_provenance(json.dumps([good]))[0].origin == "promotion"  # type: ignore[index]


def test_trust_by_weakest_source() -> None:
    assert memory_trust(["user:dashboard"]) == "trusted"
    assert memory_trust(["user:dashboard", "session:x"]) == "semi"
    assert memory_trust(["user:me", "web:example"]) == "untrusted"
    assert memory_trust(["madeup:thing"]) == "untrusted"
    entry = ProvenanceEntry(1, "s1", None, None)
    assert derive_sources([1, 2], [entry]) == ("session:s1", "unknown:")
    assert derive_sources([1], None) == ("unknown:",)
    assert derive_sources([], [], ["user:dashboard"]) == ("user:dashboard",)
    assert memory_trust(derive_sources([7], None, ["user:dashboard"])) == "semi"


def test_hidden_characters_are_found_and_shown() -> None:
    text = "run\u200b this \u202eevil\u202c and \U000e0041tag"
    kinds = [h.kind for h in hidden_characters(text)]
    assert kinds == ["invisible", "bidi", "bidi", "tag"]
    assert has_hidden_characters(text) and not has_hidden_characters("plain ascii, café ünïcode")
    assert make_visible("a\u200bb") == "a⟦U+200B⟧b"


def test_portable_marker(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from app.core import paths

    monkeypatch.delenv("MEMORY_DASHBOARD_DATA_DIR")
    monkeypatch.setattr(paths, "executable_dir", lambda: tmp_path)
    assert paths.portable_dir() is None
    (tmp_path / "portable.txt").write_text("")
    assert paths.data_dir() == tmp_path / "data"
    assert paths.config_dir() == tmp_path / "settings"


def test_control_characters_are_hidden_characters() -> None:
    assert [h.kind for h in hidden_characters("a\x1b[2Jb\x07")] == ["control", "control"]
    assert has_hidden_characters("lone\rcarriage") is False  # line breaks and tabs are ordinary
    assert has_hidden_characters("tab\there\nnewline") is False
    assert make_visible("x\x1by") == "x⟦U+001B⟧y"
