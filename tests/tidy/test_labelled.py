"""The finder against the labelled pairs: precision and recall stay at what was measured, and
memories that share words without being duplicates are never grouped.

The figures measured (tests/bench/RESULTS.md, "Tidy"): duplicates precision 1.00, recall 0.89;
contradictions precision 0.90, recall 1.00. The floors below leave a margin of 0.05.
"""

from __future__ import annotations

from tests.tidy.labelled import CONTRADICTION, DUPLICATE, UNRELATED, labelled_pairs, run_on, scores

MARGIN = 0.05


def test_the_labelled_set_is_large_enough_and_mixed() -> None:
    pairs = labelled_pairs()
    assert len(pairs) >= 150
    counts = {
        label: sum(pair.label == label for pair in pairs) for label in (DUPLICATE, CONTRADICTION, UNRELATED)
    }
    assert min(counts.values()) >= 40, counts
    assert {pair.origin for pair in pairs} == {"demo", "real-world"}


def test_duplicates_keep_their_precision_and_recall() -> None:
    found = scores(labelled_pairs(), DUPLICATE)
    assert found.precision >= 1.00 - MARGIN, found.wrong
    assert found.recall >= 0.89 - MARGIN, found.missed


def test_contradictions_keep_their_precision_and_recall() -> None:
    found = scores(labelled_pairs(), CONTRADICTION)
    assert found.precision >= 0.90 - MARGIN, found.wrong
    assert found.recall >= 1.00 - MARGIN, found.missed


def test_memories_sharing_words_are_not_grouped() -> None:
    pairs = [pair for pair in labelled_pairs() if pair.label != DUPLICATE]
    ids, report = run_on(pairs)
    group_of = {member: number for number, group in enumerate(report.groups) for member in group.members}
    grouped = [
        (pair.a, pair.b)
        for pair in pairs
        if ids[pair.a] in group_of and group_of[ids[pair.a]] == group_of.get(ids[pair.b])
    ]
    assert grouped == []
    assert ("Prefers tabs in Go", "Prefers spaces in Python") in [(p.a, p.b) for p in pairs]
