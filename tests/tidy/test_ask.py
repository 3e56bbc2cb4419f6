"""Asking the reviewer about tidy's groups, on real host files with fake reviewer commands: the prompt,
the checks of its answer, the preview, the apply under the review lease, the run, its links and its undo."""

from __future__ import annotations

import sqlite3
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.core.errors import LeaseHeldError, StoreError
from app.core.models.links import Relation
from app.core.models.runs import ORIGIN_TIDY
from app.review.errors import ReviewerError, VerdictError
from app.store import MemoryStore
from app.store.links import links_of
from app.tidy.ask.prompt import INSTRUCTIONS, build_tidy_prompt
from app.tidy.ask.run import apply_proposal, ask
from app.tidy.finder import find_groups
from app.tidy.source import active_items
from tests.review.review_helpers import add_candidates, hold_lease, lease_rows
from tests.support.hostdb import host_dump
from tests.support.tidy_memories import tidy_db
from tests.tidy.ask_helpers import MERGED, answer, fake_reviewer, merge_and_settle, prompt_of, tidy_verdict


@pytest.fixture
def path(tmp_path: Path) -> Path:
    made = tidy_db(tmp_path / "context.db")
    add_candidates(made, [(1, "I always use pnpm, never npm", "ses_pn")])  # #1 rests on candidate 1
    return made


@pytest.fixture
def store(path: Path) -> Iterator[MemoryStore]:
    opened = MemoryStore.open(path)
    yield opened
    opened.close()


def test_the_prompt_sends_groups_with_evidence_and_labels_contradictions(store: MemoryStore) -> None:
    prompt, scope = prompt_of(store)
    assert [(g.members, g.contradiction) for g in scope.groups] == [
        ((1, 2), False),
        ((5, 6), False),
        ((3, 4), True),
    ]
    assert 'Group 1, likely duplicates (2 memories):\n  Memory #1: "Prefers pnpm over npm"' in prompt
    assert "why grouped: with #2: the same text" in prompt
    assert 'evidence: Candidate #1 [session ses_pn]: "I always use pnpm, never npm"' in prompt
    assert 'Group 3, MAY CONTRADICT: "database: postgres in #3, mysql in #4"' in prompt
    assert '"promote" and "consume_candidate_ids" stay empty' in prompt


def test_the_prompt_is_bounded_and_says_what_it_left_out(store: MemoryStore) -> None:
    items = active_items(store)
    report = find_groups(items)
    bound = len(INSTRUCTIONS) + 500  # room for the first group only
    prompt, scope = build_tidy_prompt(report, {i.id: i for i in items}, {}, max_chars=bound)
    assert [g.members for g in scope.groups] == [(1, 2)] and scope.left_out == 2
    assert "(2 more group(s) are left out of this prompt for room" in prompt
    assert len(prompt) < bound


def test_a_valid_answer_is_previewed_and_nothing_changes(
    store: MemoryStore, path: Path, tmp_path: Path
) -> None:
    prompt, scope = prompt_of(store)
    before = host_dump(path)
    command = fake_reviewer(tmp_path, answer(merge_and_settle()), expect="Memory #6")
    proposal = ask(store, prompt, scope, command, timeout_s=60)
    shown = [(c.memory_id, c.old, c.new, c.reason) for c in proposal.changes]
    assert shown == [
        (1, "Prefers pnpm over npm", MERGED, None),
        (2, "prefers  PNPM over npm.", None, "merged into #1"),
        (3, "Uses Postgres", None, "the project moved to MySQL"),
    ]
    assert [(k.from_id, k.to_id, k.relation) for k in proposal.links] == [
        (2, 1, Relation.MERGED_INTO),
        (4, 3, Relation.RESOLVED_CONTRADICTION),
    ]
    assert host_dump(path) == before


def test_apply_runs_under_the_lease_is_listed_and_undone_with_its_links(
    store: MemoryStore, path: Path, tmp_path: Path
) -> None:
    prompt, scope = prompt_of(store)
    proposal = ask(store, prompt, scope, fake_reviewer(tmp_path, answer(merge_and_settle())), timeout_s=60)
    result = apply_proposal(store, proposal, run_id="tidy-1")
    assert (result.updated, result.dismissed, result.consumed, result.origin) == (1, 2, 0, ORIGIN_TIDY)
    assert lease_rows(path) == {"generation": "1"}  # taken (generation 1), then released with the commit
    assert store.get(1).content == MERGED
    assert [store.get(i).status for i in (2, 3, 4)] == ["dismissed", "dismissed", "active"]
    (run,) = store.runs()
    assert (run.run_id, run.origin, run.label, run.rewrote, run.dismissed) == (
        "tidy-1",
        ORIGIN_TIDY,
        "tidy review",
        1,
        2,
    )
    assert {c.revision.memory_id for c in store.run("tidy-1").changes} == {1, 2, 3}
    with store.read_snapshot() as conn:
        made = links_of(conn, "user", [1, 2, 3, 4])
    assert sorted((k.from_id, k.to_id, k.relation, k.made_by) for k in made[1] + made[3]) == [
        (2, 1, "merged_into", "run:tidy-1"),
        (4, 3, "resolved_contradiction", "run:tidy-1"),
    ]

    undone = store.undo_run("tidy-1")
    assert sorted(mid for mid, _rev in undone.restored) == [1, 2, 3]
    assert store.get(1).content == "Prefers pnpm over npm"
    assert [store.get(i).status for i in (2, 3)] == ["active", "active"]
    with store.read_snapshot() as conn:
        assert links_of(conn, "user", [1, 2, 3, 4]) == {}
    assert store.runs()[0].undone_at is not None


def test_a_member_the_host_rewrote_after_the_preview_refuses_the_apply(
    store: MemoryStore, path: Path, tmp_path: Path
) -> None:
    # The person approved a diff from "Prefers pnpm over npm"; the host has since rewritten #1. Applying
    # would put a merge of the old text over the new one, a change nobody saw.
    prompt, scope = prompt_of(store)
    proposal = ask(store, prompt, scope, fake_reviewer(tmp_path, answer(merge_and_settle())), timeout_s=60)
    with sqlite3.connect(path) as conn:
        conn.execute(
            "UPDATE user_memories SET content = 'Prefers bun now', updated_at = ? WHERE id = 1",
            (store.now(),),
        )
    conn.close()
    before = host_dump(path)
    with pytest.raises(StoreError, match="#1 changed since the preview"):
        apply_proposal(store, proposal)
    assert host_dump(path) == before
    assert store.runs() == []


def test_a_held_lease_refuses_the_apply_and_changes_nothing(
    store: MemoryStore, path: Path, tmp_path: Path
) -> None:
    prompt, scope = prompt_of(store)
    proposal = ask(store, prompt, scope, fake_reviewer(tmp_path, answer(merge_and_settle())), timeout_s=60)
    hold_lease(path, "host-dreamer", expiry=store.now() + 120_000, generation=4)
    before = host_dump(path)
    with pytest.raises(LeaseHeldError):
        apply_proposal(store, proposal)
    assert host_dump(path) == before
    assert store.runs() == []


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        (
            tidy_verdict(dismiss=[{"memory_id": 7, "reason": "not a duplicate"}]),
            "dismiss_existing[0].memory_id: memory #7 is in none of the groups",
        ),
        (
            tidy_verdict(update=[{"memory_id": 99, "content": "x", "candidate_ids": []}]),
            "update_existing[0].memory_id: memory #99 is in none of the groups",
        ),
        (
            {**tidy_verdict(), "promote": [{"content": "New", "candidate_ids": [1]}]},
            "promote: must be empty; tidying creates no memory",
        ),
        (
            tidy_verdict(update=[{"memory_id": 1, "content": "x", "candidate_ids": [1]}]),
            "update_existing[0].candidate_ids: must be empty",
        ),
        (
            tidy_verdict(
                update=[
                    {"memory_id": 1, "content": "x", "candidate_ids": []},
                    {"memory_id": 2, "content": "y", "candidate_ids": []},
                ]
            ),
            "#1, #2 are of one group (group 1); update one of them",
        ),
        (
            tidy_verdict(update=[{"memory_id": 1, "content": "Prefers\u202e pnpm", "candidate_ids": []}]),
            "update_existing[0].content",
        ),
        (  # tidying keeps one of what repeats or contradicts: dismissing them all loses the fact
            tidy_verdict(dismiss=[{"memory_id": 1, "reason": "dup"}, {"memory_id": 2, "reason": "dup"}]),
            "dismiss_existing: #1, #2 are every member of group 1; keep one of them",
        ),
        (
            tidy_verdict(dismiss=[{"memory_id": 3, "reason": "old"}, {"memory_id": 4, "reason": "new"}]),
            "dismiss_existing: #3, #4 are every member of group 3; keep one of them",
        ),
    ],
)
def test_an_answer_that_does_not_fit_the_groups_is_refused(
    store: MemoryStore, path: Path, tmp_path: Path, document: dict[str, object], expected: str
) -> None:
    prompt, scope = prompt_of(store)
    before = host_dump(path)
    with pytest.raises(VerdictError, match="nothing was changed") as raised:
        ask(store, prompt, scope, fake_reviewer(tmp_path, answer(document)), timeout_s=60)
    assert any(expected in problem for problem in raised.value.problems), raised.value.problems
    assert host_dump(path) == before and store.runs() == []


@pytest.mark.parametrize(
    ("output", "expected"),
    [
        ("I think these are fine as they are.", "not verdict JSON"),
        ('```json\n{"update_existing": [\n```', "not verdict JSON"),
        ('{"merge": [1, 2]}', "merge: is not a verdict field"),
    ],
)
def test_a_garbage_answer_is_a_message(
    store: MemoryStore, path: Path, tmp_path: Path, output: str, expected: str
) -> None:
    prompt, scope = prompt_of(store)
    before = host_dump(path)
    with pytest.raises((ReviewerError, VerdictError), match=expected):
        ask(store, prompt, scope, fake_reviewer(tmp_path, output), timeout_s=60)
    assert host_dump(path) == before


def test_a_failing_reviewer_is_a_message(store: MemoryStore, tmp_path: Path) -> None:
    prompt, scope = prompt_of(store)
    failing = tmp_path / "failing.py"
    failing.write_text("import sys\nsys.stderr.write('model not found')\nsys.exit(2)\n", encoding="utf-8")
    with pytest.raises(ReviewerError, match="exited with status 2; its stderr ended with:\nmodel not found"):
        ask(store, prompt, scope, f"{sys.executable} {failing}", timeout_s=60)


def test_a_reviewer_that_does_not_answer_in_time_is_stopped(
    store: MemoryStore, path: Path, tmp_path: Path
) -> None:
    prompt, scope = prompt_of(store)
    slow = tmp_path / "slow.py"
    slow.write_text("import sys, time\nsys.stdin.read()\ntime.sleep(600)\n", encoding="utf-8")
    before = host_dump(path)
    with pytest.raises(ReviewerError, match=r"did not answer within 0\.5 s and was stopped"):
        ask(store, prompt, scope, f"{sys.executable} {slow}", timeout_s=0.5)
    assert host_dump(path) == before
