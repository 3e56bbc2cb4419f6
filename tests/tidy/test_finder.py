"""The tidy finder on memories given as a list: exact and close duplicates, contradictions, progress."""

from __future__ import annotations

import threading

import pytest

from app.tidy.finder import REPORT_EVERY, TidyCancelled, find_groups
from app.tidy.model import TidyItem
from app.tidy.words import content_words, head_words, joined, normal_chunks, normal_form


def items(*texts: str) -> list[TidyItem]:
    return [TidyItem(number, text, promoted_at=number) for number, text in enumerate(texts, start=1)]


def test_exact_duplicates_share_a_normal_form() -> None:
    assert normal_form("  Prefers\tPNPM over npm!! ") == normal_form("prefers pnpm over npm")
    assert normal_form("Ｐｒｅｆｅｒｓ pnpm") == normal_form("prefers pnpm")  # full-width: NFKC
    report = find_groups(items("Prefers pnpm over npm", "Works in UTC", "prefers  PNPM over npm."))
    assert [group.members for group in report.groups] == [(1, 3)]
    (edge,) = report.groups[0].edges
    assert edge.kind == "exact" and edge.score == 100
    assert report.groups[0].reasons(3) == ["with #1: the same text (case, spaces and punctuation aside)"]


def test_close_wording_groups_with_its_reason() -> None:
    report = find_groups(
        items(
            "Uses pnpm for package management",
            "Writes commit messages in the imperative mood",
            "Uses pnpm for package managment",  # a typo
            "Commit messages in imperative mood",  # words left out
        )
    )
    groups = {group.members: group for group in report.groups}
    assert set(groups) == {(1, 3), (2, 4)}
    (edge,) = groups[(1, 3)].edges
    assert edge.kind == "close" and 80 <= edge.score < 100
    assert "pnpm" in edge.shared
    assert edge.why().startswith("close wording (")


def test_a_planted_contradiction_is_listed_and_never_grouped() -> None:
    report = find_groups(
        items(
            "Uses Postgres", "Moved the project to MySQL", "Uses npm for everything", "Uses pnpm, never npm"
        )
    )
    assert report.groups == ()
    pairs = {(pair.a, pair.b): pair.reason for pair in report.contradictions}
    assert set(pairs) == {(1, 2), (3, 4)}
    assert pairs[(1, 2)] == "database: postgres in #1, mysql in #2"
    assert pairs[(3, 4)] == "npm: refused in #4, used in #3"


def test_one_word_apart_on_the_subject_is_no_duplicate() -> None:
    """The same sentence about another tool: close words, a different fact."""
    report = find_groups(
        items(
            "Prefers pnpm as the package manager in every project",
            "Prefers npm as the package manager in every project",
            "Prefers zsh as the shell in every project",
        )
    )
    assert report.groups == ()
    assert [(pair.a, pair.b) for pair in report.contradictions] == [(1, 2)]


def test_a_short_memory_joins_one_group_only() -> None:
    """ "Prefers pnpm" is said again inside two longer memories that are not alike: it joins the best
    match, and does not chain the two longer ones together."""
    report = find_groups(
        items(
            "Prefers pnpm",
            "Prefers pnpm over npm and yarn in CI scripts",
            "Keeps pnpm configuration in the repository root, not in dotfiles",
        )
    )
    assert [group.members for group in report.groups] == [(1, 2)]


def test_progress_reaches_the_total_and_members_come_oldest_first() -> None:
    texts = [f"Memory number {n} about topic{n % 97} and thing{n % 89}" for n in range(3 * REPORT_EVERY)]
    texts[5] = texts[4] = "Runs the test suite before every commit"
    calls: list[tuple[int, int]] = []
    report = find_groups(items(*texts), progress=lambda done, total: calls.append((done, total)))
    assert calls and calls[-1][0] == calls[-1][1] == 3 * len(texts)
    assert [done for done, _total in calls] == sorted(done for done, _total in calls)
    assert report.groups[0].members == (5, 6)
    assert report.memories == len(texts)


@pytest.mark.parametrize("as_event", [True, False])
def test_a_cancelled_run_stops(as_event: bool) -> None:
    texts = [f"Memory {n} on subject{n % 50}" for n in range(3 * REPORT_EVERY)]
    event = threading.Event()
    seen: list[int] = []

    def progress(done: int, _total: int) -> None:
        seen.append(done)
        event.set()  # the person pressed Cancel after the first report

    with pytest.raises(TidyCancelled):
        find_groups(items(*texts), progress=progress, cancel=event if as_event else event.is_set)
    assert seen == [REPORT_EVERY]


def test_block_words_read_off_the_chunks_are_the_texts_content_words() -> None:
    """Blocking reads a memory's words off the chunks its normal form was made of, joining multi-word
    names only when one may be there: the same words as reading the joined text."""
    texts = [
        "Uses Visual Studio Code, never vs code's web build",
        "Does not want the front-end built with Docker Compose",
        "Keeps   PNPM configuration\tin the repo root (not dotfiles)",
        "Ｐｒｅｆｅｒｓ full-width pnpm over npm",
    ]
    for text in texts:
        chunks = normal_chunks(text)
        assert joined(chunks) == normal_form(text)
        assert head_words(chunks) == content_words(normal_form(text)), text
        assert head_words(chunks[:3]) == content_words(" ".join(chunks[:3])), text
