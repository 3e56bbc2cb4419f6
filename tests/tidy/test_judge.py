"""The judge on pairs whose stances differ: a duplicate needs the same stance, however close the words."""

from __future__ import annotations

import pytest

from app.tidy.finder import find_groups
from app.tidy.model import TidyItem
from tests.tidy.labelled import UNRELATED, labelled_pairs


def items(*texts: str) -> list[TidyItem]:
    return [TidyItem(number, text, promoted_at=number) for number, text in enumerate(texts, start=1)]


@pytest.mark.parametrize(
    ("refusal", "choice"),
    [
        ("Never uses npm", "Prefers pnpm over npm"),
        ("Never uses npm", "Uses pnpm, never npm"),
        ("Avoid Jest", "Uses Vitest instead of Jest"),
        ("Avoids ORMs", "Prefers SQLAlchemy Core over a full ORM"),
    ],
)
def test_a_refusal_is_no_duplicate_of_a_choice_rejecting_the_same_thing(refusal: str, choice: str) -> None:
    report = find_groups(items(refusal, choice))
    assert report.groups == ()
    assert report.contradictions == ()  # they agree: nothing to flag either


def test_a_refusal_of_a_choice_the_other_makes_is_no_contradiction() -> None:
    """Refusing npm says nothing against choosing pnpm, whatever their category."""
    report = find_groups(items("Never uses npm", "Switched to pnpm", "Moved the monorepo to pnpm workspaces"))
    assert report.contradictions == ()


def test_refusing_a_tool_clashes_with_using_a_tool_of_its_name() -> None:
    report = find_groups(items("Avoids Docker for local development", "Uses docker compose for local dev"))
    assert report.groups == ()
    (pair,) = report.contradictions
    assert pair.reason == "docker: refused in #1, used in #2"


def test_refusing_a_tool_of_a_name_says_nothing_of_the_name() -> None:
    report = find_groups(items("Avoids docker compose for local development", "Uses Docker for local dev"))
    assert report.contradictions == ()


def test_two_refusals_of_different_things_are_no_duplicates() -> None:
    report = find_groups(items("Avoid Jest", "Does not use the Jest watch mode"))
    assert report.groups == ()


def test_refusals_of_one_thing_stay_duplicates() -> None:
    report = find_groups(items("Never uses npm", "Never use npm."))
    assert [group.members for group in report.groups] == [(1, 2)]
    report = find_groups(items("Do not use tabs", "Never use tabs"))
    assert [group.members for group in report.groups] == [(1, 2)]


def test_the_labelled_set_holds_refusals_beside_choices() -> None:
    pairs = {(pair.a, pair.b): pair.label for pair in labelled_pairs()}
    assert pairs[("Never uses npm", "Prefers pnpm over npm")] == UNRELATED
    assert ("Do not use tabs", "Use tabs") in pairs
    assert ("Avoids Docker for local development", "Uses docker compose for local dev") in pairs
