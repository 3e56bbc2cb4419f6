"""Deterministic synthetic text for the benchmarks: many short memory contents, quickly.

`Corpus` hands out contents as slices of one long Zipf-distributed text. The 64 KiB revisions of the diff
measurement come from `bench_diff.realistic_memory` and `bench_diff.change_words` (one generator of
prose-like notes and their edits for both benchmarks).
"""

from __future__ import annotations

import bisect
import itertools
import random
import re

SYLLABLES = [
    "pre",
    "fer",
    "pn",
    "pm",
    "co",
    "de",
    "ex",
    "plan",
    "tion",
    "ses",
    "sion",
    "re",
    "view",
    "mem",
    "o",
    "ry",
    "tru",
    "st",
    "ho",
    "da",
    "ta",
    "ba",
    "se",
    "in",
    "ject",
    "ed",
    "ka",
    "lo",
    "mi",
    "nu",
]


def vocabulary(rng: random.Random, count: int = 3000) -> list[str]:
    return ["".join(rng.choice(SYLLABLES) for _ in range(rng.randint(1, 4))) for _ in range(count)]


class Corpus:
    """One long prose text; contents are slices of it that start at a word and end before a space."""

    def __init__(self, rng: random.Random, total_words: int = 2_000_000) -> None:
        vocab = list(dict.fromkeys(vocabulary(rng, 6000)))
        cumulative = list(itertools.accumulate(1 / (rank + 1) ** 1.05 for rank in range(len(vocab))))
        picked = rng.choices(vocab, cum_weights=cumulative, k=total_words)
        for start in range(0, total_words, 14):  # sentences of about 14 words
            picked[start] = picked[start].capitalize()
            end = min(start + 13, total_words - 1)
            picked[end] += "."
        self.text = " ".join(picked)
        self._starts = [match.start() for match in re.finditer(r"(?<= )\S", self.text)]
        self._rng = rng

    def slice(self, length: int) -> str:
        """About `length` characters (never more), cut at word boundaries."""
        limit = len(self.text) - length - 1
        start = self._starts[bisect.bisect_left(self._starts, self._rng.randrange(limit))]
        piece = self.text[start : start + length]
        cut = piece.rfind(" ")
        return piece[:cut] if cut >= max(50, length // 2) else piece
