"""Verdict parsing and validation: every rejection rule and every leniency, each message naming its entry."""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.core.text_input import MAX_CONTENT_BYTES
from app.review.errors import VerdictError
from app.review.fit import fit_to_database
from app.review.verdict import (
    Dismissal,
    Promotion,
    Update,
    Verdict,
    parse_verdict,
)
from tests.review.review_helpers import seed_verdict, verdict

MEMORIES = {1, 3, 4, 5}
PENDING = {141, 143, 145, 146, 151, 152}


def problems_of(document: object, **kwargs: Any) -> tuple[str, ...]:
    with pytest.raises(VerdictError) as caught:
        parse_verdict(document, **kwargs)
    assert "nothing was changed" in caught.value.message
    return caught.value.problems


def fitted(document: dict[str, Any]) -> Verdict:
    return fit_to_database(parse_verdict(document), MEMORIES, PENDING)


def test_a_valid_verdict_parses_into_its_entries() -> None:
    document = verdict(
        promote=[{"content": "Runs pytest -q", "candidate_ids": [151]}],
        update_existing=[{"memory_id": 5, "content": "Prefers pnpm", "candidate_ids": [141, 143]}],
        dismiss_existing=[{"memory_id": 4, "reason": " moved away "}],
        consume=[151, 141, 143, 152],
    )
    parsed = parse_verdict(json.dumps(document))
    assert parsed == Verdict(
        promote=(Promotion("Runs pytest -q", (151,)),),
        update_existing=(Update(5, "Prefers pnpm", (141, 143)),),
        dismiss_existing=(Dismissal(4, "moved away"),),
        consume_candidate_ids=(151, 141, 143, 152),
    )
    assert fit_to_database(parsed, MEMORIES, PENDING) == parsed  # nothing to skip, nothing noted
    assert parsed.candidate_ids() == [151, 141, 143, 152]
    assert parse_verdict(parsed.to_json()) == parsed


def test_missing_lists_read_as_empty_and_an_update_may_name_no_candidates() -> None:
    parsed = parse_verdict({"update_existing": [{"memory_id": 5, "content": "x", "candidate_ids": []}]})
    assert parsed.update_existing == (Update(5, "x", ()),)
    assert parse_verdict({}) == Verdict()


@pytest.mark.parametrize("bad", [0, -3, 1.5, 5.0, "5", True, False, None, [5]])
def test_ids_must_be_positive_integers_and_never_booleans(bad: object) -> None:
    found = problems_of(verdict(update_existing=[{"memory_id": bad, "content": "x", "candidate_ids": []}]))
    assert any(p.startswith("update_existing[0].memory_id: ") and "not an id" in p for p in found)
    found = problems_of(verdict(consume=[141, bad]))  # type: ignore[list-item]
    assert any(p.startswith("consume_candidate_ids[1]: ") for p in found)


def test_duplicate_ids_in_one_list_are_rejected() -> None:
    found = problems_of(
        verdict(
            update_existing=[{"memory_id": 5, "content": "x", "candidate_ids": [141, 143, 141]}],
            consume=[141, 143, 143],
        )
    )
    assert "update_existing[0].candidate_ids[2]: #141 is listed twice" in found
    assert "consume_candidate_ids[2]: #143 is listed twice" in found


def test_a_candidate_used_by_two_actions_is_rejected() -> None:
    found = problems_of(
        verdict(
            promote=[{"content": "a", "candidate_ids": [141]}],
            update_existing=[
                {"memory_id": 5, "content": "b", "candidate_ids": [143, 141]},
                {"memory_id": 4, "content": "c", "candidate_ids": [143]},
            ],
            consume=[141, 143],
        )
    )
    assert "update_existing[0].candidate_ids[1]: candidate #141 is already used by promote[0]" in found
    assert (
        "update_existing[1].candidate_ids[0]: candidate #143 is already used by update_existing[0]" in found
    )


def test_an_action_candidate_missing_from_consume_is_consumed_anyway_and_noted() -> None:
    """Not a rejection, as the host's review has it: the host consumes a promoted candidate all the same."""
    document = seed_verdict()
    document["consume_candidate_ids"] = [141, 143, 146]
    parsed = parse_verdict(document)
    assert parsed.consume_candidate_ids == (141, 143, 146, 145)
    assert parsed.notes == (
        "update_existing[0].candidate_ids[2]: candidate #145 is missing from consume_candidate_ids;"
        " consumed anyway",
    )
    promoted = parse_verdict(verdict(promote=[{"content": "Runs pytest", "candidate_ids": [151, 152]}]))
    assert promoted.consume_candidate_ids == (151, 152) and len(promoted.notes) == 2


def test_unknown_keys_in_an_entry_are_ignored_and_noted() -> None:
    parsed = parse_verdict(
        verdict(
            update_existing=[{"memory_id": 5, "content": "x", "candidate_ids": [], "reason": "clearer"}],
            dismiss_existing=[{"memory_id": 4, "reason": "moved", "why": "."}],
        )
    )
    assert parsed.update_existing == (Update(5, "x", ()),)
    assert parsed.notes == (
        "update_existing[0].reason: is not a verdict field; ignored",
        "dismiss_existing[0].why: is not a verdict field; ignored",
    )


def test_an_update_without_candidate_ids_applies_with_no_new_evidence() -> None:
    parsed = parse_verdict({"update_existing": [{"memory_id": 5, "content": "x"}]})
    assert parsed.update_existing == (Update(5, "x", ()),)
    assert parsed.notes == ("update_existing[0]: names no candidate_ids; applied with no new evidence",)


def test_a_memory_both_updated_and_dismissed_or_twice_is_rejected() -> None:
    found = problems_of(
        verdict(
            update_existing=[
                {"memory_id": 5, "content": "a", "candidate_ids": []},
                {"memory_id": 5, "content": "b", "candidate_ids": []},
            ],
            dismiss_existing=[{"memory_id": 5, "reason": "old"}, {"memory_id": 4}, {"memory_id": 4}],
        )
    )
    assert "update_existing[1].memory_id: memory #5 is already updated by update_existing[0]" in found
    assert any(
        p.startswith("dismiss_existing[0].memory_id: memory #5 is both dismissed and updated") for p in found
    )
    assert "dismiss_existing[2].memory_id: memory #4 is dismissed twice" in found


@pytest.mark.parametrize("content", ["", "   \n\t", None, 42, ["text"]])
def test_content_must_be_a_non_empty_string(content: object) -> None:
    found = problems_of(verdict(promote=[{"content": content, "candidate_ids": [151]}], consume=[151]))
    assert len(found) == 1 and found[0].startswith("promote[0].content: ")


def test_content_is_limited_to_64_kib_of_utf8() -> None:
    at_limit = "é" * (MAX_CONTENT_BYTES // 2)
    parse_verdict(verdict(promote=[{"content": at_limit, "candidate_ids": [151]}], consume=[151]))
    found = problems_of(verdict(promote=[{"content": at_limit + "x", "candidate_ids": [151]}], consume=[151]))
    assert found == ("promote[0].content: is 65,537 bytes; the limit is 65,536 (64 KiB)",)


@pytest.mark.parametrize("hidden", ["\u200b", "\u202e", "\U000e0041", "\u2066", "\ufeff"])
def test_hidden_characters_are_rejected_unless_allowed(hidden: str) -> None:
    document = verdict(
        update_existing=[{"memory_id": 5, "content": f"Prefers pnpm{hidden}", "candidate_ids": []}]
    )
    found = problems_of(document)
    assert len(found) == 1 and found[0].startswith("update_existing[0].content: holds 1 hidden character")
    assert parse_verdict(document, allow_hidden=True).update_existing[0].content.endswith(hidden)


def test_unknown_memories_and_candidates_not_in_the_pool_are_skipped_and_noted() -> None:
    """Not a rejection, as the host's review has it: what cannot apply is skipped, each skip said."""
    fit = fitted(
        verdict(
            promote=[
                {"content": "p", "candidate_ids": [151, 998]},
                {"content": "q", "candidate_ids": [997]},
            ],
            update_existing=[
                {"memory_id": 5, "content": "x", "candidate_ids": [141, 999]},
                {"memory_id": 88, "content": "y", "candidate_ids": [143]},
            ],
            dismiss_existing=[{"memory_id": 77, "reason": "gone"}, {"memory_id": 4}],
            consume=[151, 998, 997, 141, 999, 143, 46, 152],
        )
    )
    assert fit.promote == (Promotion("p", (151,)),)
    assert fit.update_existing == (Update(5, "x", (141,)),)
    assert fit.dismiss_existing == (Dismissal(4, None),)
    assert fit.consume_candidate_ids == (151, 141, 152)  # #143 stays: its update was skipped
    pool = "is not in the pool (unknown, consumed or pruned); skipped"
    assert fit.notes == (
        f"promote[0].candidate_ids[1]: candidate #998 {pool}",
        f"promote[1].candidate_ids[0]: candidate #997 {pool}",
        "promote[1]: none of its candidates is in the pool; promotion skipped",
        f"update_existing[0].candidate_ids[1]: candidate #999 {pool}",
        "update_existing[1].memory_id: memory #88 does not exist; update skipped",
        "update_existing[1]: its candidates #143 stay in the pool",
        "dismiss_existing[0].memory_id: memory #77 does not exist; dismissal skipped",
        f"consume_candidate_ids[6]: candidate #46 {pool}",
    )


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        ([], "verdict: must be a JSON object"),
        ({"updates": []}, "updates: is not a verdict field"),
        ({"promote": {}}, "promote: must be a list"),
        ({"promote": ["x"]}, "promote[0]: must be an object"),
        ({"promote": [{"content": "x"}]}, "promote[0]: lacks 'candidate_ids'"),
        ({"promote": [{"content": "x", "candidate_ids": []}]}, "promote[0].candidate_ids: is empty"),
        ({"promote": [{"content": "x", "candidate_ids": 5}]}, "promote[0].candidate_ids: must be a list"),
        (
            {"dismiss_existing": [{"memory_id": 5, "reason": 3}]},
            "dismiss_existing[0].reason: must be a string",
        ),
        ({"consume_candidate_ids": "141"}, "consume_candidate_ids: must be a list of ids"),
    ],
)
def test_shapes_are_strict(document: object, expected: str) -> None:
    assert any(p.startswith(expected) for p in problems_of(document))


def test_invalid_json_names_line_and_column() -> None:
    assert problems_of('{"promote": [}')[0].startswith("not valid JSON: ")
    assert "line 1, column" in problems_of('{"promote": [}')[0]


def test_every_problem_is_reported_at_once() -> None:
    found = problems_of(
        {
            "promote": [{"content": "", "candidate_ids": [0]}],
            "consume_candidate_ids": [True],
            "extra": 1,
        }
    )
    assert len(found) == 4
