"""Deterministic synthetic text for the benchmarks: prose-like memory contents and edits of them.

`realistic_memory` and `change_words` make the 64 KiB revisions of the diff measurement (and the worst
cases of `bench_diff.py`); `Corpus` hands out many short contents quickly, as slices of one long text.
"""

from __future__ import annotations

import bisect
import itertools
import random
import re

SIZE = 64 * 1024
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


def words(rng: random.Random, vocab: list[str], count: int) -> str:
    """Zipf-like: a few words are very common, as in prose."""
    last = len(vocab) - 1
    return " ".join(vocab[min(int(rng.paretovariate(1.1)) - 1, last)] for _ in range(count))


def realistic_memory(rng: random.Random, size: int = SIZE) -> str:
    """Markdown-ish notes: headings, bullets, unwrapped paragraphs, blank lines, some punctuation."""
    vocab = vocabulary(rng)
    lines: list[str] = []
    total = 0
    while total < size:
        shape = rng.random()
        if shape < 0.08:
            line = "## " + words(rng, vocab, 4).title()
        elif shape < 0.2:
            line = ""
        elif shape < 0.7:
            line = "- " + words(rng, vocab, rng.randint(6, 25)) + rng.choice([".", "", ";", ", `x`."])
        else:
            sentences = [words(rng, vocab, rng.randint(8, 20)) for _ in range(rng.randint(3, 7))]
            line = ". ".join(sentence.capitalize() for sentence in sentences) + "."
        lines.append(line)
        total += len(line) + 1
    return "\n".join(lines)[:size]


def change_words(rng: random.Random, text: str, share: float, clustered: bool) -> str:
    """`text` with `share` of its words replaced, spread uniformly or in a few rewritten passages."""
    tokens = re.split(r"(\W+)", text)
    word_positions = [index for index, token in enumerate(tokens) if token[:1].isalnum()]
    targets = max(1, int(len(word_positions) * share))
    if clustered:
        chosen: set[int] = set()
        while len(chosen) < targets:
            start = rng.randrange(len(word_positions))
            chosen.update(word_positions[start : start + rng.randint(10, 60)])
    else:
        chosen = set(rng.sample(word_positions, targets))
    for index in chosen:
        tokens[index] = "zz" + str(rng.randrange(10_000))
    return "".join(tokens)


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
