"""A project revision's rows before and after, in words (`app.present.project_revision`): each tracked
field that moved said once, odd values shown as they are, nothing where a row is missing."""

from __future__ import annotations

from app.present.project_revision import row_changes

BEFORE = {
    "category": "CONFIG_VALUES",
    "importance": 50,
    "scope": "project",
    "shareable": False,
    "updated_at": 1,
    "expires_at": None,
    "verification_status": "unverified",
    "superseded_by": None,
    "merged_from": None,
    "metadata_json": None,
}


def test_each_moved_field_is_said_in_words() -> None:
    after = {**BEFORE, "category": "BUILD", "updated_at": 2, "superseded_by": 12, "merged_from": "[3, 4]"}
    assert row_changes(BEFORE, after) == [
        "category CONFIG_VALUES → BUILD",
        "superseded by #12",
        "merged from #3, #4",
    ]
    assert row_changes(after, {**after, "superseded_by": None}) == ["no longer superseded by #12"]
    assert row_changes(BEFORE, BEFORE) == []
    assert row_changes(None, BEFORE) == row_changes(BEFORE, None) == []


def test_odd_values_are_shown_as_they_are() -> None:
    odd = {**BEFORE, "category": "", "expires_at": "soon", "merged_from": "not json [", "superseded_by": "x"}
    assert row_changes(BEFORE, odd) == [
        "category CONFIG_VALUES → ''",
        "superseded by x",
        "merged from not json [",
        "expiry never → soon",
    ]
